"""The map a position's LOS is judged on: its boards with the counters that change terrain
laid on them (rules.md 11.4, B24: rubble), ``los_map``; the location an entrenchment adds
(B27: ``entrenched``, B27.2 on the lines from or to a unit in it).

The position's own ``map`` stays the boards' (what is drawn, edited and saved); every daytime
line the night rules read (fields, one unit's verdict, the LOS thread, the lights' shadows, the
threat map, the planner, the ground table the app prepares) is asked of ``los_map``: the same
hexes, names and levels, the rubble hexes rubble.  Computed once per position and kept while
only its units change (the markers decide it).
"""
from __future__ import annotations

import numpy as np

from ..counter_terrain import map_with_rubble, vasl_rubble_terrain
from ..los.entrenchments import entrenchment_blocks
from ..maps import Map
from .scenario import DERIVED_LOS_MAP, Scenario


def rubble_hexes(scenario: Scenario) -> dict[int, tuple[str, int]]:
    """Map index -> (material, level) of each rubble counter (rules.md 11.4: VASL keeps one
    terrain counter a hex, the last one read)."""
    m = scenario.map
    out: dict[int, tuple[str, int]] = {}
    for mk in scenario.markers:
        if mk.type == "rubble":
            out[m.index(mk.hex)] = (str(mk.extra.get("material", "stone")),
                                    int(mk.extra.get("level", 0)))
    return out


def los_map(scenario: Scenario) -> Map:
    """The position's map with its rubble laid (B24; rules.md 11.4): ``scenario.map`` itself
    when it has none."""
    return scenario.derived(DERIVED_LOS_MAP,
                            lambda: map_with_rubble(scenario.map, rubble_hexes(scenario)))


def rubble_words(scenario: Scenario, block_hexes) -> list[str]:
    """Which of the hexes that block a line (map indices, -1: none) are rubble by a counter:
    "t1Q7 is rubble: a Stone Rubble counter (B24, rules.md 11.4)"."""
    rubble = rubble_hexes(scenario) if any(mk.type == "rubble" for mk in scenario.markers) else {}
    out = []
    for h in dict.fromkeys(int(b) for b in block_hexes):
        if h in rubble:
            material, level = rubble[h]
            name = vasl_rubble_terrain(material, level).replace("Wooden", "Wood")
            out.append(f"{scenario.map.names[h]} is rubble: a {name} counter (B24, rules.md 11.4)")
    return out


# ---------------------------------------------------------------------------- entrenchments
ENTRENCHMENT_MARKERS = ("foxhole", "trench", "ad_ditch")
ENTRENCHED_KEY = "entrenched"       # SPEC.md: a unit in (true) or out of (false) its hex's one


def entrenchment_at(scenario: Scenario, hex_id: str):
    """The entrenchment marker in ``hex_id`` (B27), or None."""
    i = scenario.map.index(hex_id)
    return next((mk for mk in scenario.markers if mk.type in ENTRENCHMENT_MARKERS
                 and scenario.map.index(mk.hex) == i), None)


def entrenched(scenario: Scenario, unit) -> bool:
    """Whether ``unit`` is in its hex's entrenchment (B27; rules.md 11.4: the location an
    entrenchment adds): a unit that is no vehicle, at its hex's ground level, in a hex with a
    foxhole, trench or antitank ditch, unless its ``entrenched`` key says false (a VASL save
    says which units are under the counter)."""
    if unit.is_vehicle or unit.level != 0 or unit.extra.get(ENTRENCHED_KEY) is False:
        return False
    return entrenchment_at(scenario, unit.hex) is not None


def entrenched_clear(scenario: Scenario, viewer, clear: np.ndarray) -> np.ndarray:
    """A field's ``clear`` (the viewer's lines to every hex's ground) with B27.2 applied when
    the viewer is in an entrenchment (rules.md 11.4)."""
    if not entrenched(scenario, viewer) or not clear.any():
        return clear
    m = los_map(scenario)
    vi = m.index(viewer.hex)
    ask = np.flatnonzero(clear)
    blocked = entrenchment_blocks(m, vi, int(m.level[vi]), True, ask, m.level[ask], False)
    if not blocked.any():
        return clear
    out = clear.copy()
    out[ask[blocked]] = False
    return out


def entrenchment_words(scenario: Scenario, viewer, target: int, target_elev: int,
                       target_unit=None) -> list[str]:
    """Why B27.2 blocks the line from ``viewer`` to hex ``target`` (at absolute level
    ``target_elev``; ``target_unit``: the unit seen there, if any), or [] when it does not."""
    m = los_map(scenario)
    vi = m.index(viewer.hex)
    v_in = entrenched(scenario, viewer)
    t_in = target_unit is not None and entrenched(scenario, target_unit)
    if not (v_in or t_in) or not entrenchment_blocks(
            m, vi, int(m.level[vi]) + viewer.level, v_in, [target], [target_elev], t_in)[0]:
        return []
    if v_in:
        what = entrenchment_at(scenario, viewer.hex)
        return [f"{viewer.id} is in the {_words(what)} of {viewer.hex}: it cannot see over hexside "
                f"terrain (a wall, hedge or bocage on the line) to a non-adjacent location at its "
                "level or lower (B27.2, rules.md 11.4)"]
    what = entrenchment_at(scenario, target_unit.hex)
    return [f"{target_unit.id} is in the {_words(what)} of {target_unit.hex}: it cannot be seen "
            f"over hexside terrain (a wall, hedge or bocage on the line) from a non-adjacent "
            "location at its level or lower (B27.2, rules.md 11.4)"]


def _words(marker) -> str:
    return {"foxhole": "foxhole", "trench": "trench", "ad_ditch": "antitank ditch"}[marker.type]
