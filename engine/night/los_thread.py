"""Questions the app asks about a stretch of string or a whole side (no Qt, no drawing).

- ``los_thread``: a player's string from one hex to another: the hexes it crosses, the daytime
  verdict (A6.1, A6.2, A6.4: blocking hex, hindrances, blind hex, range, levels) and the night
  verdict (E1) for a unit standing at the start.
- ``seen_by_side``: what one side sees of the other's units at night ("view as side").
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..hex_lines import crossed_hexes
from ..los import BLIND, explain_block, hexside_words, hexsides_crossed, los_table
from .counter_terrain import entrenchment_words, los_map, rubble_words
from .counters import counter_words, line_counters
from .light import illumination
from .scenario import Scenario, Unit
from .unit_verdicts import unit_verdict
from .verdicts import SIGHT_NAMES, all_fields, moving_carrier, visibility_from

PROBE = "__thread__"


@dataclass
class LosThread:
    start: str
    end: str
    range: int
    start_elevation: int
    end_elevation: int
    crossed: list = field(default_factory=list)       # hexes whose interior the string enters
    hexsides: list = field(default_factory=list)      # pairs of hexes it runs between
    # hexside terrain it crosses (rules.md 7): {"hexes", "name", "terrain", "ignored"}
    hexside_terrain: list = field(default_factory=list)
    day_clear: bool = True
    blocking: list = field(default_factory=list)      # the first blocking hex (two: a hexside)
    blind: bool = False                               # blocked by A6.4 blind hexes
    hindrances: int = 0
    day_reason: str = ""
    # rules.md 11.4: smoke, vehicles, wrecks and FFE on the line: their hindrances, in words
    counter_hindrances: int = 0
    counter_reasons: list = field(default_factory=list)
    night_sight: str = "none"
    night_reasons: list = field(default_factory=list)
    viewer: str | None = None                         # the unit whose night verdict this is


def los_thread(scenario: Scenario, start: str, end: str, start_level: int = 0, end_level: int = 0,
               viewer_id: str | None = None) -> LosThread:
    """The string from ``start`` to ``end``.  The night verdict is that of ``viewer_id`` (when it
    stands in ``start``), else of a Good Order squad placed there for the question."""
    m = los_map(scenario)           # rules.md 11.4: the map with its rubble laid
    a, b = m.index(start), m.index(end)
    table = los_table(m)
    day = table.line(a, start_level, b, end_level)
    inter, sides = crossed_hexes(m.pos(a), m.pos(b))
    name = lambda p: m.names[m.index_of_pos[p]] if p in m.index_of_pos else None  # noqa: E731
    t = LosThread(m.names[a], m.names[b], int(m.distance(a, b)), day.viewer_elev,
               int(day.target_elev[0]))
    t.crossed = [n for n in (name(p) for p in inter) if n]
    t.hexsides = [(name(p), name(q)) for p, q in sides]
    t.hexside_terrain = [{"hexes": tuple(m.names[x] for x in (i, j) if x >= 0),
                          "name": hexside_words(m, i, j), "terrain": terrain, "ignored": ignored}
                         for i, j, terrain, ignored in hexsides_crossed(m, a, b)]
    t.day_clear = bool(day.clear[0])
    t.hindrances = int(day.hindrances[0])
    t.day_reason = explain_block(m, day, 0)
    t.counter_hindrances = int(line_counters(scenario, a, start_level, b, end_level).extra[0])
    t.counter_reasons = counter_words(scenario, a, start_level, b, end_level, t.day_clear,
                                      t.hindrances)
    if t.day_clear and t.hindrances + t.counter_hindrances >= 6:
        # A24, A6.1: smoke, vehicles and wrecks hinder by day too: six in all block the line
        t.day_clear = False
        t.day_reason = t.counter_reasons[0]
    if not t.day_clear:
        blockers = {int(day.block_h1[0]), int(day.block_h2[0])}
        t.counter_reasons = t.counter_reasons + rubble_words(scenario, blockers)  # B24
        t.blocking = sorted(m.names[i] for i in blockers if i >= 0)
        t.blind = int(day.kind[0]) == BLIND
    viewer = scenario.unit(viewer_id) if viewer_id else None
    if viewer is None or m.index(viewer.hex) != a:
        side = viewer.side if viewer is not None else (scenario.sides[0] if scenario.sides else "allied")
        viewer = Unit(PROBE, side, "squad", m.names[a], level=start_level)
        probe = scenario.with_unit(viewer)
    else:
        probe = scenario
        if viewer.level != start_level:
            viewer = viewer.replace(level=start_level)
            probe = scenario.with_unit(viewer)
    if t.day_clear:                 # B27.2: from a unit in an entrenchment over hexside terrain
        trench = entrenchment_words(probe, viewer, b, int(day.target_elev[0]))
        if trench:
            t.day_clear, t.day_reason = False, trench[0]
    f = visibility_from(probe, viewer.id)
    t.viewer = None if viewer.id == PROBE else viewer.id
    if end_level == 0:
        t.night_sight = f.sight_at(b)
        t.night_reasons = f.reasons_at(b)
    else:
        target = Unit(PROBE + "target", "__other__", "squad", m.names[b], level=end_level)
        v = unit_verdict(probe.with_unit(target), viewer.id, target.id)
        t.night_sight, t.night_reasons = v.sight, v.reasons
    # the probe units stand in for "a squad there": their ids are never shown
    t.night_reasons = [r.replace(PROBE + "target", f"a unit in {t.end}").replace(PROBE, "the squad")
                       for r in t.night_reasons]
    return t


def seen_by_side(scenario: Scenario, side: str) -> dict[str, str]:
    """For every unit of the other side: the best sight any unit of ``side`` has of it at night
    ("nvr" beats "gunflash" beats "none")."""
    light = illumination(scenario)
    rank = {"none": 0, "gunflash": 1, "nvr": 2}
    m = scenario.map
    out: dict[str, str] = {}
    friends = [u for u in scenario.units if u.side == side]
    enemies = [u for u in scenario.units if u.side != side]
    # a ground-level unit not bypassing, not riding a moving vehicle, is seen as its hex is
    # (the field applies the same rules): the best sight of every friend's field at every hex,
    # one array operation over the fields' codes; the others are asked one by one
    plain = {e.id for e in enemies
             if e.level == 0 and not e.bypass and moving_carrier(scenario, e) is None}
    best_code = None
    if plain and friends:
        ranked = np.array([0, 2, 1], dtype=np.int8)         # codes none, nvr, gunflash -> rank
        best_rank = ranked[all_fields(scenario, [f.id for f in friends])].max(axis=0)
        best_code = np.array([0, 2, 1], dtype=np.int8)[best_rank]
    for enemy in enemies:
        if enemy.id in plain:
            out[enemy.id] = "none" if best_code is None else \
                SIGHT_NAMES[int(best_code[m.index(enemy.hex)])]
            continue
        best = "none"
        for f in friends:
            sight = unit_verdict(scenario, f.id, enemy.id, light).sight
            if rank[sight] > rank[best]:
                best = sight
                if best == "nvr":
                    break
        out[enemy.id] = best
    return out


__all__ = ["LosThread", "los_thread", "seen_by_side"]
