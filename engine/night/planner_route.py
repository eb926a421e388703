"""The night planner's dark way: a unit's route through hexes no Good Order enemy sees (RULES.md 10).

A unit moving into a hex is seen there by an enemy that would see a unit of its side standing
in it (``planner_threat``): within NVR or lit (E1.1, E1.101), through a Gunflash there (E1.81:
LOS, though treated as beyond NVR), and for a vehicle, which enters a new hex at every step,
out to 1.5 x NVR, 2 x if tracked (E1.14).

The way is the cheapest in, lexicographically: the sightings (each hex entered adds the number
of enemies seeing it; the sum, since "the fewest distinct enemies" would not split into steps),
then the hexes entered seen, then the movement points (a user's table ``{terrain: cost}``,
terrain not in it costing 1, ``null`` for impassable; without a table every hex costs 1), then
the hexes.  Where a dark way exists it is thus the shortest dark way.  The unit's own hex is
its start: it is not entered.  Each seen step names who sees it and why.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

from ..errors import ScenarioError, shown
from .planner_threat import Threat, threat
from .scenario import Scenario
from .verdicts import NVR

WHY_NVR = "within NVR (E1.1)"
WHY_LIGHT = "illuminated (E1.101)"
WHY_GUNFLASH = "marked by a Gunflash: LOS, treated as beyond NVR (E1.81)"
WHY_MOVING = "a moving vehicle, within 1.5 x NVR, 2 x if tracked (E1.14)"


@dataclass(frozen=True)
class Route:
    unit: str
    path: tuple[str, ...]                       # the unit's hex first, the goal last; () if none
    seen: dict = field(default_factory=dict)    # hex -> {enemy id: why}
    cost: float = 0                             # movement points (hexes without a table)
    reasons: tuple[str, ...] = ()

    @property
    def hexes(self) -> int:
        """Hexes entered (the start is not entered)."""
        return max(len(self.path) - 1, 0)

    @property
    def dark(self) -> bool:
        return bool(self.path) and not self.seen

    @property
    def sightings(self) -> int:
        return sum(len(v) for v in self.seen.values())

    def as_json(self) -> dict:
        return {"unit": self.unit, "path": list(self.path),
                "seen": {h: sorted(v) for h, v in self.seen.items()},
                "seen_how": {h: dict(sorted(v.items())) for h, v in self.seen.items()},
                "hexes": self.hexes, "cost": self.cost, "dark": self.dark,
                "sightings": self.sightings, "reasons": list(self.reasons)}


# a hex's movement points, bounded: every sum along a route is then exact enough to rank and
# finite (values near 1e308 summed to infinity and tied routes by their hex count)
MIN_STEP_COST, MAX_STEP_COST = 0.001, 1000


def step_costs(scenario: Scenario, costs: dict | None) -> np.ndarray:
    """Movement points to enter each hex (NaN: impassable), from ``{terrain: cost}``: each a
    number from ``MIN_STEP_COST`` to ``MAX_STEP_COST``."""
    m = scenario.map
    out = np.ones(m.size, dtype=float)
    if costs is None:
        return out
    names = np.array([m.terrain_name(i) for i in range(m.size)])
    for terrain, cost in costs.items():
        if cost is None:
            out[names == terrain] = np.nan
        elif isinstance(cost, bool) or not isinstance(cost, Real) \
                or not MIN_STEP_COST <= cost <= MAX_STEP_COST:
            raise ScenarioError(f"the cost of {terrain!r} must be a number from "
                                f"{MIN_STEP_COST:g} to {MAX_STEP_COST:g} or null (impassable), "
                                f"not {shown(cost)}", place=f"costs.{terrain}")
        else:
            out[names == terrain] = float(cost)
    return out


def route(scenario: Scenario, unit_id: str, to_hex: str, costs: dict | None = None,
          seen_by: Threat | None = None) -> Route:
    """The way of ``unit_id`` to ``to_hex`` seen by the fewest enemies, for the fewest hexes,
    then the shortest (module docstring).  ``seen_by``: the side's threat, if known."""
    unit = scenario.unit(unit_id)
    m = scenario.map
    start, goal = m.index(unit.hex), m.index(to_hex)
    th = seen_by if seen_by is not None else threat(scenario, unit.side)
    sees = th.seen(vehicle=unit.is_vehicle, tracked=unit.tracked)
    count = sees.sum(axis=0)
    mp = step_costs(scenario, costs)
    prev = _search(m.neighbours, count, mp, start, goal)
    if prev is None:
        return Route(unit.id, (), {}, 0, (f"no way from {m.names[start]} to {m.names[goal]}: "
                                           "every way crosses impassable terrain",))
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path.reverse()
    seen = {m.names[i]: _who(th, sees, i, unit.is_vehicle, unit.tracked) for i in path[1:] if count[i]}
    total = float(sum(mp[i] for i in path[1:]))
    reasons = [_summary(unit.id, seen, len(path) - 1)]
    return Route(unit.id, tuple(m.names[i] for i in path), seen, total, tuple(reasons))


def _search(neighbours: np.ndarray, count: np.ndarray, mp: np.ndarray, start: int,
            goal: int) -> dict | None:
    """Dijkstra over (sightings, seen hexes, movement points, hexes); the predecessors, or
    None when the goal cannot be reached."""
    nb = neighbours.tolist()
    cnt = count.tolist()
    cost = mp.tolist()
    best = {start: (0, 0, 0.0, 0)}
    prev: dict[int, int] = {}
    heap = [((0, 0, 0.0, 0), start)]
    while heap:
        key, i = heapq.heappop(heap)
        if i == goal:
            return prev
        if key > best[i]:
            continue
        s, h, c, n = key
        for j in nb[i]:
            if j < 0 or cost[j] != cost[j]:          # off the map, or impassable (NaN)
                continue
            k = (s + cnt[j], h + (cnt[j] > 0), c + cost[j], n + 1)
            if j not in best or k < best[j]:
                best[j] = k
                prev[j] = i
                heapq.heappush(heap, (k, j))
    return None


def _who(th: Threat, sees: np.ndarray, i: int, vehicle: bool, tracked: bool) -> dict[str, str]:
    out = {}
    moving = th.moving_tracked if tracked else th.moving
    for k in np.flatnonzero(sees[:, i]).tolist():
        code = int(th.codes[k, i])
        if code == NVR:
            out[th.viewers[k]] = WHY_LIGHT if th.lit[i] else WHY_NVR
        elif vehicle and moving[k, i]:
            out[th.viewers[k]] = WHY_MOVING
        else:
            out[th.viewers[k]] = WHY_GUNFLASH
    return out


def _summary(unit_id: str, seen: dict, hexes: int) -> str:
    if not seen:
        return f"{unit_id} goes {hexes} hex(es) unseen: no Good Order enemy sees any hex of it"
    return (f"no way is dark: {unit_id}'s way of {hexes} hex(es) is seen in {len(seen)} of them, "
            f"{sum(len(v) for v in seen.values())} sighting(s) in all, the fewest possible")


__all__ = ["Route", "route", "step_costs"]
