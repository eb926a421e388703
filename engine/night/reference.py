"""The straightforward implementation: one line of sight at a time, in plain Python.

Slow on purpose and kept short: the benchmark (bench/visibility.py) measures the real engine's
speed-up over it, and tests/test_reference.py proves both give the same verdicts on random boards.
It follows the same rules as ``los`` (A6.1, A6.2, A6.4, and rules.md 7's hexside terrain and half
levels) written out hex by hex and hexside by hexside, and the night rules of ``night`` (E1.1,
E1.101, E1.14, E1.81, G2.3) for one viewer at a time.
"""
from __future__ import annotations

import math

from ..hex_lines import line_crossing
from ..hexes import DIRECTIONS, from_axial, hex_range, neighbours, to_axial
from ..maps import Map
from ..terrain import BY_CODE, HEXSIDE_BY_CODE
from .counter_terrain import entrenchment_words, los_map
from .counters import line_counters, los_counters
from .scenario import DERIVED_REFERENCE_LIGHTS, Scenario


def _top(m: Map, i: int, hi: int, lo: int) -> tuple[int, bool]:
    """(obstacle top, is a hindrance here) of hex i for ends at elevations hi/lo."""
    t = BY_CODE[int(m.terrain[i])]
    g = int(m.level[i])
    h = int(m.obstacle_height[i])
    if t.name == "orchard" and hi == g and lo == g:
        h = 0
    return g + h, t.hindrance and h == 0 and hi <= g + 1


def _crossed(a: tuple[int, int], b: tuple[int, int]):
    """The exact crossing of one line, computed afresh (no cache: one line at a time)."""
    qa, ra = to_axial(*a)
    qb, rb = to_axial(*b)
    cr = line_crossing.__wrapped__(qb - qa, rb - ra)
    inter = [from_axial(int(qa + o[0]), int(ra + o[1])) for o in cr.interior]
    sides = [tuple(from_axial(int(qa + o[0]), int(ra + o[1])) for o in pair) for pair in cr.sides]
    return inter, sides


def _dist(m: Map, a: int, b: int) -> int:
    return int(m.distance(a, b))


def _judge(m: Map, i: int, a: int, ea: int, b: int, eb: int) -> tuple[bool, bool]:
    """(blocks, hinders) for hex i on the line a (elevation ea) -> b (eb)."""
    if i < 0:
        return False, False
    hi, lo = max(ea, eb), min(ea, eb)
    top, hinders = _top(m, i, hi, lo)
    if top > hi or (top == hi and top > lo):                       # A6.2
        return True, False
    g = int(m.level[i])
    if m.half_level[i] and hi == g and lo == g:                    # rules.md 7 half level
        return True, False
    if lo < top < hi:                                              # A6.4
        high, low = (a, b) if ea > eb else (b, a)
        R, D = _dist(m, high, i), _dist(m, i, low)
        g = int(m.level[i])
        if top > g:
            limit = max(2 * top + R // 5 - hi - lo + 1, 1)
        else:
            limit = max(2 * g + R // 5 - hi - lo, 0)
        if D <= limit:
            return True, False
    return False, hinders


def daytime_clear(game_map: Map, start: int, start_level: int, end: int, end_level: int) -> bool:
    """Is the daytime LOS from location ``start`` to location ``end`` clear?"""
    return daytime_line(game_map, start, start_level, end, end_level)[0]


def daytime_line(game_map: Map, start: int, start_level: int, end: int,
                 end_level: int) -> tuple[bool, int]:
    """(clear, the terrain's hindrances) of the daytime LOS from ``start`` to ``end``."""
    if start == end:
        return True, 0
    ea, eb = int(game_map.level[start]) + start_level, int(game_map.level[end]) + end_level
    inter, sides = _crossed(game_map.pos(start), game_map.pos(end))
    hindrances = 0
    for pos in inter:
        i = game_map.index_of_pos.get(pos, -1)
        blocks, hinders = _judge(game_map, i, start, ea, end, eb)
        if blocks:
            return False, hindrances
        hindrances += hinders
    for p1, p2 in sides:                                           # A6.1 hexsides
        j1 = _judge(game_map, game_map.index_of_pos.get(p1, -1), start, ea, end, eb)
        j2 = _judge(game_map, game_map.index_of_pos.get(p2, -1), start, ea, end, eb)
        if j1[0] and j2[0]:
            return False, hindrances
        if (j1[0] or j1[1]) and (j2[0] or j2[1]):
            hindrances += 1
    for p1, p2 in _hexsides_crossed(game_map.pos(start), game_map.pos(end)):           # rules.md 7
        if _side_blocks(game_map, p1, p2, game_map.pos(start), ea, game_map.pos(end), eb):
            return False, hindrances
    return hindrances < 6, hindrances


def _hexsides_crossed(a: tuple[int, int], b: tuple[int, int]) -> list:
    """The hexsides the line a -> b crosses, walking it element by element: from a hex into the
    next, the hexside between; a run along a hexside, that hexside, and at its two ends the
    hexsides of the hexes before and after it that meet there."""
    qa, ra = to_axial(*a)
    qb, rb = to_axial(*b)
    if (qa, ra) == (qb, rb):
        return []
    cr = line_crossing.__wrapped__(qb - qa, rb - ra)
    items = [(int(t), "hex", [from_axial(int(qa + o[0]), int(ra + o[1]))])
             for o, t in zip(cr.interior, cr.interior_t)]
    items += [(int(t), "run", [from_axial(int(qa + o[0]), int(ra + o[1])) for o in pair])
              for pair, t in zip(cr.sides, cr.sides_t)]
    items.sort()
    walk = [("hex", [a])] + [(k, e) for _, k, e in items] + [("hex", [b])]
    out = []
    for (k1, e1), (k2, e2) in zip(walk, walk[1:]):
        if k1 == "run":
            out.append((e1[0], e1[1]))
        for p in e1:
            for q in e2:
                out.append((p, q))
    return out


def _side_blocks(m: Map, p1, p2, a, ea: int, b, eb: int) -> bool:
    """Does the hexside terrain between global hexes p1 and p2 block the line a -> b?"""
    i, j = m.index_of_pos.get(p1, -1), m.index_of_pos.get(p2, -1)
    k = next(d - 1 for d in DIRECTIONS if _step(p1, d) == p2)
    code = max(int(m.hexside[i, k]) if i >= 0 else 0, int(m.hexside[j, (k + 3) % 6]) if j >= 0 else 0)
    if not code:
        return False
    side = HEXSIDE_BY_CODE[code]
    for end in (a, b):
        own = end in (p1, p2)
        spine = hex_range(end, p1) == 1 and hex_range(end, p2) == 1
        if (own and side.ignorable) or (spine and side.spine_ignorable):   # B9.2 / B9.52
            return False
    grounds = [int(m.level[x]) for x in (i, j) if x >= 0]
    g = max(grounds)
    hi, lo = max(ea, eb), min(ea, eb)
    high, low = (a, b) if ea > eb else (b, a)
    if side.kind == "wall":                                        # B9.2
        return g == hi == lo
    if side.kind == "obstacle":                                    # B9.52, B23.71
        top = g + side.height
        if side.name == "rowhouse_wall":
            top = max([top] + [int(m.level[x] + m.obstacle_height[x]) for x in (i, j) if x >= 0])
        if top > hi or (top == hi and top > lo):
            return True
        if not lo < top < hi:
            return False
        D, R = _nearest(m, [(p1, i), (p2, j)], high, low)
        return D <= max(2 * top + R // 5 - hi - lo + 1, 1)
    if not lo < g < hi:                                            # a cliff: A6.4 crest count
        return False
    tops = [(p, x) for p, x in ((p1, i), (p2, j)) if x >= 0 and int(m.level[x]) == g]
    D, R = _nearest(m, tops, high, low)
    return D <= max(2 * g + R // 5 - hi - lo + 1, 1)


def _nearest(m: Map, hexes, high, low) -> tuple[int, int]:
    """(D, R) of the hexside's hex nearest the lower end (then farthest from the higher): its
    range to the lower end and from the higher end."""
    pairs = [(hex_range(p, low), hex_range(high, p)) for p, x in hexes if x >= 0]
    return min(pairs, key=lambda dr: (dr[0], -dr[1]))


def _step(p, d):
    q, r = to_axial(*p)
    dq, dr = DIRECTIONS[d]
    return from_axial(q + dq, r + dr)


def _interior(m: Map, i: int) -> bool:
    """A hex of a multi-hex building with no hexside outside it (rules.md 4)."""
    b = m.building[i]
    if b is None:
        return False
    for pos in neighbours(m.pos(i)):
        j = m.index_of_pos.get(pos)
        if j is None or m.building[j] != b:
            return False
    return True


def lights(scenario: Scenario) -> tuple[set, set, set]:
    """(lit ground locations, lit for a unit bypassing light jungle, reached by a fire), hex by
    hex (E1.923, E1.933, E1.9)."""
    m = scenario.map
    lit, bypass, fire = set(), set(), set()
    for mk in scenario.markers:
        if mk.type not in ("starshell", "ir", "blaze", "flame", "trip_flare"):
            continue
        c = m.index(mk.hex)
        radius = mk.light_radius             # E1.923, E1.933, rules.md 4
        for i in range(m.size):
            if _dist(m, c, i) > radius:
                continue
            t = BY_CODE[int(m.terrain[i])]
            if mk.type in ("starshell", "ir"):
                if t.bypassable:
                    bypass.add(i)
                if t.starlit and not _interior(m, i):
                    lit.add(i)
            elif daytime_clear(los_map(scenario), c, 0, i, 0):     # rubble laid (B24)
                lit.add(i)
                fire.add(i)
    return lit, bypass | lit, fire


def _unit_lit(scenario: Scenario, unit, light) -> bool:
    lit, bypass, fire = light
    i = scenario.map.index(unit.hex)
    if unit.level < 0:
        return i in fire
    return i in lit or (unit.bypass and i in bypass)


def sight(scenario: Scenario, viewer_id: str, hex_id: str) -> str:
    """The night verdict of a unit on one hex's ground location, one line at a time."""
    m = scenario.map
    v = scenario.unit(viewer_id)
    vi, ti = m.index(v.hex), m.index(hex_id)
    if vi == ti:
        return "nvr"
    clear, hindrances = daytime_line(los_map(scenario), vi, v.level, ti, 0)  # rubble laid
    if clear and los_counters(scenario):     # rules.md 11.4: the counters' hindrances, A6.1
        extra = int(line_counters(scenario, vi, v.level, ti, 0).extra[0])
        clear = hindrances + extra < 6
    if clear and entrenchment_words(scenario, v, ti, int(m.level[ti]), None):
        clear = False               # B27.2: the viewer in an entrenchment, walls between
    if not clear:
        return "none"
    if not scenario.night:          # rules.md 11.5: a day position, daytime LOS alone (A6)
        return "nvr"
    light = scenario.derived(DERIVED_REFERENCE_LIGHTS, lambda: lights(scenario))
    nvr = scenario.nvr // 2 if (v.bu and v.type in ("afv", "armor_leader")) else scenario.nvr
    gun = any(mk.is_gunflash and m.index(mk.hex) == ti for mk in scenario.markers)
    lit = ti in light[0]
    if _unit_lit(scenario, v, light):                                     # E1.101 lit observer
        return "nvr" if lit else ("gunflash" if gun else "none")
    dense = BY_CODE[int(m.terrain[vi])].dense and BY_CODE[int(m.terrain[ti])].dense
    if dense and _dist(m, vi, ti) == 1:                            # G2.3
        return "nvr" if lit else ("gunflash" if gun else "none")
    if lit or _dist(m, vi, ti) <= nvr:                             # E1.101, E1.1
        return "nvr"
    for u in scenario.units:                                              # E1.14 moving vehicles
        if m.index(u.hex) != ti:
            continue
        carrier = u
        if u.type not in ("afv", "vehicle"):
            carrier = next((c for c in scenario.units if c.id == u.extra.get("aboard")), None)
        if (carrier is not None and carrier.type in ("afv", "vehicle")
                and carrier.moving in ("entered", "changed_ca")
                and _dist(m, vi, ti) <= moving_range(nvr, carrier.tracked)):
            return "nvr"
    return "gunflash" if gun else "none"                           # E1.81


def moving_range(nvr: int, tracked: bool) -> int:
    return 2 * nvr if tracked else math.ceil(1.5 * nvr)            # E1.14
