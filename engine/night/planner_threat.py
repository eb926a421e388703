"""The night planner's threat map: what the enemy sees of a unit standing in each hex (rules.md 10).

For a side S and every hex: how many Good Order units of the other side would see a unit of S
standing there (its ground location, not bypassing), by the night verdict of section 3 read
from ``verdicts.all_fields`` (one row per enemy viewer, every hex at once):
- ``nvr``: LOS treated as within NVR: within the viewer's NVR (E1.1; a BU AFV's is halved,
  E1.14), or the hex Illuminated (E1.101), the viewer's own hex included;
- ``gunflash``: LOS only through a Gunflash or fire marker there, treated as beyond NVR (E1.81);
- ``moving_vehicle`` / ``moving_tracked``: a vehicle there that entered the hex or changed its
  covered arc is within NVR out to 1.5 x the viewer's NVR, fractions up, or 2 x if tracked
  (E1.14).

Only a hypothetical unit stands in the hex: the vehicles on the map are read as not moving
(their own E1.14 range belongs to their hexes, not to a unit of S standing there).  The moving
vehicle's counts use the same verdict with the viewer's NVR replaced by its E1.14 range: with
day LOS, a dark viewer and no G2.3 jungle pair, within that range is exactly where a moving
vehicle is seen (lit hexes and Gunflashes within it too); a BU viewer's halved NVR (E1.14) is
kept by giving the scenario twice the range of the halved NVR.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ScenarioError
from .counters import with_counters_of
from .light import illumination
from .planner_steps import batches, drive, step_units
from .scenario import Scenario
from .verdicts import GUNFLASH, NVR, all_fields, moving_vehicle_range, nvr_of


@dataclass(frozen=True)
class Threat:
    """Per hex of the map (map order), the count of Good Order enemy units that would see a unit
    of ``side`` standing there; per viewer the verdict rows behind the counts."""
    side: str
    names: list
    viewers: tuple[str, ...]
    codes: np.ndarray              # (viewers, hexes): 0 none, 1 nvr, 2 gunflash (E1.1, E1.81)
    moving: np.ndarray             # (viewers, hexes): sees a moving vehicle there, 1.5 x (E1.14)
    moving_tracked: np.ndarray     # (viewers, hexes): ... a tracked one, 2 x (E1.14)
    lit: np.ndarray                # hexes Illuminated (E1.101)

    @property
    def nvr(self) -> np.ndarray:
        return (self.codes == NVR).sum(axis=0)

    @property
    def gunflash(self) -> np.ndarray:
        return (self.codes == GUNFLASH).sum(axis=0)

    @property
    def moving_vehicle(self) -> np.ndarray:
        return self.moving.sum(axis=0)

    @property
    def moving_tracked_vehicle(self) -> np.ndarray:
        return self.moving_tracked.sum(axis=0)

    def seen(self, vehicle: bool = False, tracked: bool = False) -> np.ndarray:
        """(viewers, hexes): which enemy has LOS to a unit of ``side`` entering each hex: within
        NVR or lit, a moving vehicle's E1.14 range for a vehicle, or through a Gunflash."""
        near = self.codes == NVR
        if vehicle:
            near = self.moving_tracked if tracked else self.moving
        return near | (self.codes == GUNFLASH)

    def at(self, index: int) -> dict:
        """The counts of hex ``index`` (map order), as ``as_json`` gives them."""
        return {"nvr": int(self.nvr[index]), "gunflash": int(self.gunflash[index]),
                "moving_vehicle": int(self.moving_vehicle[index]),
                "moving_tracked": int(self.moving_tracked_vehicle[index])}

    def as_json(self) -> dict:
        nvr, gf = self.nvr.tolist(), self.gunflash.tolist()
        mv, mt = self.moving_vehicle.tolist(), self.moving_tracked_vehicle.tolist()
        return {"side": self.side, "viewers": list(self.viewers),
                "hexes": {name: {"nvr": a, "gunflash": b, "moving_vehicle": c,
                                 "moving_tracked": d}
                          for name, a, b, c, d in zip(self.names, nvr, gf, mv, mt)}}


def check_side(scenario: Scenario, side: str) -> None:
    if side not in scenario.sides:
        raise ScenarioError(f"no side {side!r} in this scenario (sides: "
                            f"{', '.join(scenario.sides) or 'none'})")


def still(scenario: Scenario) -> Scenario:
    """The position with no vehicle moving (E1.14 then belongs to the unit we stand in a hex)."""
    if not any(u.moving for u in scenario.units):
        return scenario
    # the counters in LOS stay the position's: its moving vehicles hinder nothing (rules.md 11.4)
    return with_counters_of(scenario, scenario.replace(
        units=tuple(u.replace(moving=None) if u.moving else u for u in scenario.units)))


def threat(scenario: Scenario, side: str) -> Threat:
    """What the Good Order units of the other side would see of a unit of ``side`` standing in
    each hex (E1.1, E1.101, E1.81, E1.14).  ``threat_steps`` is the same, a step at a time."""
    return drive(threat_steps(scenario, side))


def threat_steps(scenario: Scenario, side: str):
    """``threat`` as a generator: it yields ``(text, share done)`` after each batch of viewers
    (``planner_steps``) and returns the Threat."""
    check_side(scenario, side)
    m = scenario.map
    viewers = [u for u in scenario.units if u.side != side and u.good_order]
    ids = [u.id for u in viewers]
    base = still(scenario)
    codes = np.zeros((len(ids), m.size), dtype=np.int8)
    moving = np.zeros((len(ids), m.size), dtype=bool)
    tracked = np.zeros((len(ids), m.size), dtype=bool)
    done = 0
    yield (f"what {len(ids)} enemy units see", 0.0)
    for batch in batches(list(range(len(ids))), step_units(m.size)):
        group = [viewers[k] for k in batch]
        codes[batch] = all_fields(base, [u.id for u in group])
        moving[batch] = _moving_rows(base, group, tracked=False)
        tracked[batch] = _moving_rows(base, group, tracked=True)
        done += len(batch)
        yield (f"what {done} of {len(ids)} enemy units see", done / max(len(ids), 1))
    return Threat(side, m.names, tuple(ids), codes, moving, tracked, illumination(scenario).lit)


def _moving_rows(base: Scenario, viewers: list, tracked: bool) -> np.ndarray:
    """(viewers, hexes): sees a moving vehicle (E1.14) standing in each hex: the verdict
    within NVR with each viewer's NVR widened to its E1.14 range."""
    out = np.zeros((len(viewers), base.map.size), dtype=bool)
    halved = [nvr_of(base, u).halved for u in viewers]
    for group in (False, True):
        rows = [k for k, h in enumerate(halved) if h == group]
        if not rows:
            continue
        if group:      # a BU viewer: the range of its halved NVR (E1.14), kept by halving
            wide = 2 * moving_vehicle_range(base.nvr // 2, tracked)
        else:
            wide = moving_vehicle_range(base.nvr, tracked)
        out[rows] = all_fields(base.replace(nvr=wide), [viewers[k].id for k in rows]) == NVR
    return out


__all__ = ["Threat", "threat", "threat_steps", "check_side", "still"]
