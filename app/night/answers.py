"""What the app asks the engine about one position, in one go (no Qt: runs on a worker thread).

``Answers`` is everything the overlays and panels draw: the lights, the selected unit's night
field and its rings, Gunflash locations, and the unit's verdict on every enemy unit.  It carries
the scenario it was computed for, so a drawing never mixes two positions.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from engine import api


@dataclass(frozen=True)
class Answers:
    scenario: api.night.Scenario
    light: object                         # engine.night.light.Illumination
    gunflash: np.ndarray                  # bool per hex: a Gunflash or fire marker (E1.8)
    viewer: str | None = None
    field: object | None = None           # engine.night.verdicts.NightField of the viewer
    nvr: int | None = None                # the viewer's own NVR (E1.14: BU AFV halved)
    nvr_halved: bool = False              # ... and whether it is halved
    moving_ranges: tuple[int, int] | None = None   # 1.5 x and 2 x NVR (E1.14)
    enemies: dict = dataclasses.field(default_factory=dict)    # enemy unit id -> engine UnitVerdict
    error: str | None = None
    starshell: api.night.StarshellOptions | None = None   # where the viewer may place a flare
    side: str | None = None               # "view as side"
    side_sight: dict = dataclasses.field(default_factory=dict)  # enemy id -> nvr/gunflash/none


def ask_engine(scenario: api.night.Scenario, viewer: str | None, side: str | None = None,
               starshells: bool = False, enemies: bool = True) -> Answers:
    """The engine's answers for ``scenario`` seen by unit ``viewer`` (or by nobody), and by the
    whole of ``side`` when the map is viewed as that side; where the viewer may place a starshell
    when ``starshells`` (asked only while the player is placing one: it costs a few ms).  Without
    ``enemies`` (during a drag: a frame is short) the verdicts on enemy units are left out.
    (The map's LOS table is built by the window's Document, in the background: the job runner
    runs it between these questions.)"""
    light = api.night.illumination(scenario)
    gunflash = api.night.gunflash_mask(scenario)
    seen = api.night.seen_by_side(scenario, side) if side is not None else {}
    if viewer is None:
        return Answers(scenario, light, gunflash, side=side, side_sight=seen)
    try:
        unit = scenario.unit(viewer)
        night = api.night.visibility_from(scenario, viewer)
        verdicts = {e.id: api.night.unit_verdict(scenario, viewer, e.id, light)
                    for e in scenario.enemies_of(unit.side)} if enemies else {}
        options = api.night.starshell_options(scenario, viewer) if starshells else None
    except (api.ScenarioError, api.HexIdError) as e:
        return Answers(scenario, light, gunflash, viewer, error=str(e), side=side,
                       side_sight=seen)
    nvr = api.night.nvr_of(scenario, unit)
    rings = tuple(api.night.moving_vehicle_range(nvr.value, tracked) for tracked in (False, True))
    return Answers(scenario, light, gunflash, viewer, night, nvr.value, nvr.halved, rings,
                   verdicts, starshell=options, side=side, side_sight=seen)
