"""The night planner's dark way: a unit's route through hexes no Good Order enemy sees (rules.md 10).

A unit moving into a hex is seen there by an enemy that would see a unit of its side standing
in it (``planner_threat``): within NVR or lit (E1.1, E1.101), through a Gunflash there (E1.81:
LOS, though treated as beyond NVR), and for a vehicle, which enters a new hex at every step,
out to 1.5 x NVR, 2 x if tracked (E1.14).

The way is the cheapest in, lexicographically: the sightings (each hex entered adds the number
of enemies seeing it; the sum, since "the fewest distinct enemies" would not split into steps),
then the hexes entered seen, then the movement points (ASL's Infantry costs built in,
``planner_costs``: terrain, roads, hillsides and hexsides, in MF; or a user's table
``{terrain: cost}``, terrain not in it costing 1, ``null`` for impassable), then the hexes.
Where a dark way exists it is thus the cheapest dark way.  The unit's own hex is its start: it
is not entered.  Each seen step names who sees it and why.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import numpy as np

from .planner_costs import step_costs
from .planner_steps import drive
from .planner_threat import Threat, threat_steps
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
    cost: float = 0                             # movement points: MF (planner_costs)
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


def route(scenario: Scenario, unit_id: str, to_hex: str, costs: dict | str | None = None,
          seen_by: Threat | None = None) -> Route:
    """The way of ``unit_id`` to ``to_hex`` seen by the fewest enemies, for the fewest hexes,
    then the shortest (module docstring).  ``seen_by``: the side's threat, if known.
    ``route_steps`` is the same, a step at a time."""
    return drive(route_steps(scenario, unit_id, to_hex, costs, seen_by))


def route_steps(scenario: Scenario, unit_id: str, to_hex: str, costs: dict | str | None = None,
                seen_by: Threat | None = None):
    """``route`` as a generator: the side's threat a step at a time (``threat_steps``), then
    the search; it returns the Route."""
    unit = scenario.unit(unit_id)
    m = scenario.map
    start, goal = m.index(unit.hex), m.index(to_hex)
    mp = step_costs(m, costs)                 # a bad table refused before the long part
    th = seen_by
    if th is None:
        th = yield from threat_steps(scenario, unit.side)
    sees = th.seen(vehicle=unit.is_vehicle, tracked=unit.tracked)
    count = sees.sum(axis=0)
    yield ("the dark way", 1.0)
    prev = _search(m.neighbours, count, mp, start, goal)
    if prev is None:
        return Route(unit.id, (), {}, 0, (f"no way from {m.names[start]} to {m.names[goal]}: "
                                           "every way crosses impassable terrain",))
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path.reverse()
    seen = {m.names[i]: _who(th, sees, i, unit.is_vehicle, unit.tracked) for i in path[1:] if count[i]}
    side = {(int(a), int(b)): k for a in path for k, b in enumerate(m.neighbours[a]) if b >= 0}
    total = float(sum(mp[a, side[a, b]] for a, b in zip(path, path[1:])))
    reasons = [_summary(unit.id, seen, len(path) - 1, total)]
    return Route(unit.id, tuple(m.names[i] for i in path), seen, total, tuple(reasons))


def _search(neighbours: np.ndarray, count: np.ndarray, mp: np.ndarray, start: int,
            goal: int) -> dict | None:
    """Dijkstra over (sightings, seen hexes, movement points, hexes); the predecessors, or
    None when the goal cannot be reached.  When every step costs whole or half MF (ASL's
    chart always does) the four are packed into one integer, digit by digit in bases no path
    can overflow, so the heap compares numbers, not tuples."""
    finite = np.isfinite(mp)
    half = np.rint(np.where(finite, mp, 0) * 2)
    if not np.array_equal(half / 2, np.where(finite, mp, 0)):
        return _search_tuples(neighbours, count, mp, start, goal)
    n = len(count)
    b3 = n + 1                                       # hexes entered
    b2 = int(half.max(initial=0)) * n + 1            # half MF
    b1 = n + 1                                       # seen hexes
    j = np.where(neighbours >= 0, neighbours, 0)
    c = count[j].astype(object)
    weight = (((c * b1 + (c > 0)) * b2 + half.astype(np.int64).astype(object)) * b3 + 1)
    weight = np.where((neighbours >= 0) & finite, weight, None).tolist()
    nb = neighbours.tolist()
    best = {start: 0}
    prev: dict[int, int] = {}
    heap = [(0, start)]
    while heap:
        key, i = heapq.heappop(heap)
        if i == goal:
            return prev
        if key > best[i]:
            continue
        for j, w in zip(nb[i], weight[i]):
            if w is None:                            # off the map, or impassable
                continue
            k = key + w
            if k < best.get(j, k + 1):
                best[j] = k
                prev[j] = i
                heapq.heappush(heap, (k, j))
    return None


def _search_tuples(neighbours: np.ndarray, count: np.ndarray, mp: np.ndarray, start: int,
                   goal: int) -> dict | None:
    """``_search`` with the four as a tuple (a user's table with other fractions of MF)."""
    nb = neighbours.tolist()
    cnt = count.tolist()
    cost = mp.tolist()                               # (hexes, 6): the MF of each step
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
        for j, mf in zip(nb[i], cost[i]):
            if j < 0 or mf != mf:                    # off the map, or impassable (NaN)
                continue
            k = (s + cnt[j], h + (cnt[j] > 0), c + mf, n + 1)
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


def _summary(unit_id: str, seen: dict, hexes: int, mf: float) -> str:
    way = f"{hexes} hex(es), {mf:g} MF"
    if not seen:
        return f"{unit_id} goes {way} unseen: no Good Order enemy sees any hex of it"
    return (f"no way is dark: {unit_id}'s way of {way} is seen in {len(seen)} of its hexes, "
            f"{sum(len(v) for v in seen.values())} sighting(s) in all, the fewest possible")


__all__ = ["Route", "route", "route_steps", "step_costs"]
