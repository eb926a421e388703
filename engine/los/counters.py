"""Counters in LOS (rules.md 11.4): smoke, vehicles and wrecks, fire for effect, as VASL's
``Map.checkHexSmokeRule``, ``checkVehicleHindranceRule`` and ``checkOBAHindranceRule`` count them.

Counters never block by themselves: they add hindrances to a line, and six hindrances in all
block it (A6.1).  They are judged on top of a table's daytime answer (``DayLines`` or a ground
row), per line, by which counter hexes the line meets (its end hexes, or a hex whose interior
or hexside it runs through: ``Meets``):

- Smoke (A24; rules.md 11.4) in the source's hex: its hindrance + 1 when the source is in it
  (base <= level < base + height), its hindrance when the source shoots down from exactly its
  top; in the target's hex: its hindrance when the source is in that smoke (VASL compares the
  source's level in its own hex with the smoke's), or the target shoots down from its top; in a
  hex between: its hindrance when both ends are within its height band, or when the smoke,
  taken as an obstacle of its height, makes the lower end blind (A6.4).  A hex gives at most 3,
  4 when the source is in its smoke; a counter named exactly "Blaze" in a hex with a vehicle or
  wreck makes that hex's smoke 2.  Per range from the source the largest hex counts.
- Vehicles and wrecks: +1 each in a hex that is neither end's, when both ends and the vehicle
  are at one absolute level, each end has LOS to the vehicle, and no "Blaze" is in the hex; a
  vehicle in bypass only when the line passes the part of the hex nearest its bypassed hexside.
  Per range the largest hex counts.
- Fire for effect: +1 a counter when the line meets a hex of its blast area (radius 1) and an
  end is in it (within the blast area, level below 2), or both ends are within its height band
  (the FFE hex's ground to 2 above), or it makes a blind hex (A6.4, height 2).
  Never up a slope nor hillock to hillock (``vehicle_rules``: VASL's exceptions).
Not followed: the lines "each end to the vehicle" are the daytime ones, from the vehicle's hex
to each end.

Each rule is a function of lines (``Ends``) asked either for one viewer's lines (``counter_lines``:
the viewer's fields ints) or for every viewer's lines meeting one counter hex at once
(``engine.los.counter_table``: the viewer's fields arrays, one a line).  So a rule reads a line's
values elementwise (``np.where``, ``&``, ``_within``), never with ``if`` on them, and takes a
subset of lines with ``lines_of``; the two callers then give the same answers (the tests compare).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..hexes import SQRT3
from ..maps import Map
from .counter_lines import hits
from .day_lines import MAX_HINDRANCES
from .vehicle_rules import no_vehicle_hindrance

HEX_CAP, SOURCE_CAP = 3, 4          # rules.md 11.4: smoke a hex at most 3, 4 with the source in it
BLAZE_WITH_VEHICLE = 2              # rules.md 11.4: "Blaze" over a vehicle or wreck
FFE_RADIUS, FFE_HEIGHT = 1, 2       # rules.md 11.4: VASL's OBA blast area and height
MAX_PER_RANGE = 2                   # terrain hindrances at one range (VASL: light woods count 2)
_EPS = 1e-9


class Smoke(NamedTuple):
    """A smoke counter (or a Blaze's smoke) standing in map hex ``hex``: its base (absolute
    level), height and hindrance in levels (rules.md 11.4), its name in VASL's words."""
    hex: int
    base: int
    height: int
    hindrance: int
    name: str


class Vehicle(NamedTuple):
    """A vehicle or wreck hindrance in ``hex`` at absolute level ``elev``; ``bypass_side``: the
    hexside (0 top, clockwise) it bypasses along, None at the hex centre."""
    hex: int
    elev: int
    name: str
    bypass_side: int | None = None


class Ffe(NamedTuple):
    """A fire-for-effect counter in ``hex`` (rules.md 11.4)."""
    hex: int
    name: str


class Part(NamedTuple):
    """One counter hex's hindrance to one line: what (``smoke``, ``vehicle``, ``ffe``), the
    hex, the amount, the counters' names."""
    what: str
    hex: int
    amount: int
    names: tuple[str, ...]


class LosCounters(NamedTuple):
    """Every counter of a position that matters to LOS (built by a room from its markers)."""
    smoke: tuple[Smoke, ...] = ()
    vehicles: tuple[Vehicle, ...] = ()
    ffe: tuple[Ffe, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.smoke or self.vehicles or self.ffe)


class Ends(NamedTuple):
    """Lines: the viewer's hex and absolute level, its level in its hex (one viewer: ints;
    many, as a counter table asks: an array each, one a line), the targets' hexes and
    absolute levels."""
    viewer: int | np.ndarray
    viewer_elev: int | np.ndarray
    viewer_rel: int | np.ndarray
    targets: np.ndarray
    target_elev: np.ndarray


# ------------------------------------------------------------------------------- geometry
# flat-topped hexes of circumradius 1 (engine.hexes): the three edge normals, the inradius
_NORMALS = np.array([(0.0, 1.0), (SQRT3 / 2, 0.5), (SQRT3 / 2, -0.5)])
_INRADIUS = SQRT3 / 2
# the midpoints of the hexsides from the centre, 0 the top side, then clockwise (y grows south)
_MIDPOINTS = np.array([(0.0, -1.0), (SQRT3 / 2, -0.5), (SQRT3 / 2, 0.5), (0.0, 1.0),
                       (-SQRT3 / 2, 0.5), (-SQRT3 / 2, -0.5)]) * _INRADIUS


def centres(game_map: Map, index) -> np.ndarray:
    """The centre of each hex (map coordinates of ``engine.hexes``), (n, 2)."""
    q = np.asarray(game_map.q[index], dtype=float)
    r = np.asarray(game_map.r[index], dtype=float)
    return np.stack([1.5 * q, SQRT3 * (r + q / 2)], axis=-1)


def _clip(a: np.ndarray, b: np.ndarray, normals: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Whether each segment a->b (n, 2) runs a positive length inside {p: normals . p <=
    limits} (a convex region, ``limits`` (n, planes); boundary included, a vertex touched
    only does not count)."""
    lo = np.zeros(len(a))
    hi = np.ones(len(a))
    d = b - a
    for k, n in enumerate(normals):
        num = limits[:, k] + _EPS - a @ n
        den = d @ n
        with np.errstate(divide="ignore", invalid="ignore"):
            t = num / den
        lo = np.where(den < 0, np.maximum(lo, t), lo)
        hi = np.where(den > 0, np.minimum(hi, t), hi)
        lo = np.where((den == 0) & (num < 0), 2.0, lo)
    return (hi - lo) * np.hypot(d[:, 0], d[:, 1])


def _hex_region(centre: np.ndarray, side: int | None = None):
    """The half-planes (normals, limits) of a hex (its interior with its hexsides), or of the
    part of it nearest the midpoint of hexside ``side`` (VASL's ``getNearestLocation``)."""
    normals = list(np.concatenate([_NORMALS, -_NORMALS]))
    limits = [n @ centre + _INRADIUS for n in normals]
    if side is not None:
        mid = _MIDPOINTS[side]
        others = [np.zeros(2)] + [m for k, m in enumerate(_MIDPOINTS) if k != side]
        for other in others:        # nearer the side's midpoint than the centre, the others
            n = other - mid
            normals.append(n)
            limits.append(n @ (centre + (mid + other) / 2))
    return np.array(normals), np.array(limits)


class Meets:
    """Which lines of a viewer meet each counter hex (its interior or one of its hexsides):
    the hexes given are judged at once, others when first asked; a whole hex read from the
    map's lines by hex offset (``counter_lines``: near a corner, the pixels of a drawn map),
    the part nearest a bypassed hexside clipped exactly (``part_hits``)."""

    def __init__(self, game_map: Map, ends: Ends, hexes=(), frame=None):
        self.map = game_map
        self.ends = ends
        self.frame = frame          # a drawn map's pixels: lines near a hex's corner walked
        self._hit: dict = {}
        if len(hexes):
            self._judge(np.array(sorted(set(hexes)), dtype=np.int64))

    def _judge(self, hexes: np.ndarray) -> None:
        # the lines by hex offset, kept per map (counter_lines)
        rows = hits(self.map, self.ends.viewer, hexes, self.frame)[:, self.ends.targets]
        for h, row in zip(hexes.tolist(), rows):
            self._hit[(h, None)] = row

    def __call__(self, hex_index: int, side: int | None = None) -> np.ndarray:
        if (hex_index, side) not in self._hit:
            if side is None:
                self._judge(np.array([hex_index], dtype=np.int64))
            else:
                self._hit[(hex_index, side)] = part_hits(self.map, self.ends, hex_index, side)
        return self._hit[(hex_index, side)]


def part_hits(game_map: Map, ends: Ends, hex_index: int, side: int) -> np.ndarray:
    """Whether each line runs a positive length in the part of ``hex_index`` nearest the
    midpoint of hexside ``side`` (a vehicle in bypass, rules.md 11.4), clipped exactly: only
    the lines passing within a hex's circumradius of its centre can meet it."""
    n = len(ends.targets)
    a = np.broadcast_to(centres(game_map, ends.viewer), (n, 2))
    b = centres(game_map, ends.targets)
    c = centres(game_map, np.array([hex_index]))                # (1, 2)
    dx, dy = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    px, py = c[:, :1] - a[:, 0], c[:, 1:] - a[:, 1]             # (1, n)
    t = px * (dx / np.maximum(dx * dx + dy * dy, _EPS)) + py * (
        dy / np.maximum(dx * dx + dy * dy, _EPS))
    np.clip(t, 0.0, 1.0, out=t)
    gx, gy = t * dx - px, t * dy - py
    hk, lk = np.nonzero(gx * gx + gy * gy <= (1 + 1e-6) ** 2)
    hit = np.zeros(n, dtype=bool)
    if len(hk):
        normals, offsets = _hex_region(np.zeros(2), side)
        limits = c[hk] @ normals.T + offsets                    # (lines, planes)
        hit[lk] = _clip(a[lk], b[lk], normals, limits) > 1e-6
    return hit


def blind(game_map: Map, ends: Ends, hex_index: int, height: int) -> np.ndarray:
    """A6.4 as VASL's ``isBlindHex`` asks it of a counter: an obstacle of ``height`` on the
    hex's ground leaves the lower end blind (never between ends at one level)."""
    hi = np.maximum(ends.viewer_elev, ends.target_elev)
    lo = np.minimum(ends.viewer_elev, ends.target_elev)
    to_viewer = game_map.distance(ends.viewer, hex_index)
    to_target = game_map.distance(hex_index, ends.targets)
    viewer_high = ends.viewer_elev >= ends.target_elev
    from_high = np.where(viewer_high, to_viewer, to_target)
    to_low = np.where(viewer_high, to_target, to_viewer)
    top = int(game_map.level[hex_index]) + height
    limit = np.maximum(2 * top + from_high // 5 - hi - lo + 1, 1)
    return (hi != lo) & (to_low <= limit)


def lines_of(ends: Ends, ask: np.ndarray) -> Ends:
    """The lines ``ask`` of ``ends`` (the viewer's fields too when they are given per line)."""
    return Ends(*(f[ask] if np.ndim(f) else f for f in ends))


def _within(level, base, height):
    """base <= level < base + height, elementwise."""
    return (base <= level) & (level < base + height)


# ------------------------------------------------------------------------------ the rules
def smoke_in_hex(game_map: Map, ends: Ends, smokes: list[Smoke], meets,
                 vehicle_here: bool) -> np.ndarray:
    """The smoke hindrance of one hex's counters to each line (rules.md 11.4)."""
    hex_index = smokes[0].hex
    out = np.zeros(len(ends.targets), dtype=np.int64)
    ask = np.flatnonzero((ends.viewer == hex_index) | (ends.targets == hex_index)
                         | meets(hex_index))
    if len(ask):
        out[ask] = _smoke_lines(game_map, lines_of(ends, ask), smokes, vehicle_here)
    return out


def _smoke_lines(game_map: Map, ends: Ends, smokes: list[Smoke], vehicle_here: bool):
    """``smoke_in_hex`` for lines that all meet the smoke's hex (or start there)."""
    hex_index = smokes[0].hex
    total = np.zeros(len(ends.targets), dtype=np.int64)
    source_in = np.zeros(len(ends.targets), dtype=bool)
    ve, te = ends.viewer_elev, ends.target_elev
    at_source = ends.viewer == hex_index
    in_target = ends.targets == hex_index
    for s in smokes:
        top = s.base + s.height
        rel_base = s.base - int(game_map.level[hex_index])
        # the source's hex: +1 in the smoke, its hindrance shooting down from its top
        viewer_in = _within(ve, s.base, s.height)
        source = np.where(viewer_in, s.hindrance + 1,
                          np.where((ve == top) & (te < ve), s.hindrance, 0))
        source_in |= at_source & viewer_in
        # the target's hex: VASL asks whether the *source's* level in its hex is in the smoke
        source_rel_in = _within(ends.viewer_rel, rel_base, s.height)
        target = np.where(source_rel_in | ((te == top) & (ve < te)), s.hindrance, 0)
        # a hex between: both ends within its height band, or the smoke makes a blind hex
        band = viewer_in & _within(te, s.base, s.height)
        between = np.where(band | blind(game_map, ends, hex_index, s.height), s.hindrance, 0)
        total += np.where(at_source, source, np.where(in_target, target, between))
    if vehicle_here and any(s.name == "Blaze" for s in smokes):
        total[:] = BLAZE_WITH_VEHICLE
    return np.minimum(total, np.where(source_in, SOURCE_CAP, HEX_CAP))


def vehicles_in_hex(table, ends: Ends, vehicles: list[Vehicle], meets,
                    blaze_here: bool) -> np.ndarray:
    """The vehicle hindrance of one hex's vehicles and wrecks to each line (rules.md 11.4)."""
    total = np.zeros(len(ends.targets), dtype=np.int64)
    hex_index = vehicles[0].hex
    if blaze_here:
        return total
    # not in an end's hex, both ends and the vehicle at one level
    level = ((ends.target_elev == ends.viewer_elev) & (ends.viewer != hex_index)
             & (ends.targets != hex_index))
    if level.any():     # rules.md 11.4: never up a slope, nor hillock to hillock (vehicle_rules)
        level &= ~no_vehicle_hindrance(table, ends.viewer, ends.targets, hex_index)
    for v in vehicles:
        ask = np.flatnonzero(level & (ends.viewer_elev == v.elev) & meets(hex_index, v.bypass_side))
        if not len(ask):
            continue
        # each end has LOS to the vehicle (the daytime lines from its hex)
        if np.ndim(ends.viewer):
            ask = ask[_sees(table, v, ends.viewer[ask], ends.viewer_elev[ask])]
        elif not _sees(table, v, np.array([ends.viewer]), np.array([ends.viewer_elev]))[0]:
            continue
        total[ask[_sees(table, v, ends.targets[ask], ends.target_elev[ask])]] += 1
    return total


def _sees(table, vehicle: Vehicle, targets: np.ndarray, elev: np.ndarray) -> np.ndarray:
    """The daytime LOS from the vehicle to each target: its row to every hex's ground when
    they all stand there (the table keeps rows), else those lines."""
    ground = table.ground[targets]
    if np.all(elev == ground):
        row = table.from_location(vehicle.hex, vehicle.elev - int(table.ground[vehicle.hex]))
        return row.clear[targets]
    return table.lines(vehicle.hex, vehicle.elev, targets, elev).clear


def blast_area(game_map: Map, ffe: Ffe) -> list[int]:
    """The hexes of a fire for effect's blast area (radius 1, rules.md 11.4)."""
    near = game_map.neighbours[ffe.hex]
    return [ffe.hex] + [int(h) for h in near if h >= 0]


def ffe_hindrance(game_map: Map, ends: Ends, ffe: Ffe, meets) -> np.ndarray:
    """+1 to each line this fire for effect hinders (rules.md 11.4), 0 to the others."""
    ground = int(game_map.level[ffe.hex])
    area = blast_area(game_map, ffe)
    out = np.zeros(len(ends.targets), dtype=bool)
    # an end within the blast area, below its height
    viewer_in = ((game_map.distance(ffe.hex, ends.viewer) <= FFE_RADIUS)
                 & _within(ends.viewer_rel, 0, FFE_HEIGHT))
    target_rel = ends.target_elev - game_map.level[ends.targets]
    target_in = ((game_map.distance(ffe.hex, ends.targets) <= FFE_RADIUS)
                 & _within(target_rel, 0, FFE_HEIGHT))
    band = _within(ends.viewer_elev, ground, FFE_HEIGHT) & _within(ends.target_elev, ground,
                                                                   FFE_HEIGHT)
    judged = viewer_in | target_in | band
    for h in area:
        met = meets(h) | (ends.targets == h) | (ends.viewer == h)
        ask = np.flatnonzero(met & ~out)
        if not len(ask):
            continue
        # a hex of the blast area on the line: an end in it, the band, or a blind hex (A6.4)
        out[ask] = (np.broadcast_to(judged, out.shape)[ask]
                    | blind(game_map, lines_of(ends, ask), h, FFE_HEIGHT))
    return out.astype(np.int64)


# ---------------------------------------------------------------------------- a viewer's lines
class CounterLines(NamedTuple):
    """What the counters add to a viewer's lines: ``extra`` hindrances per line, and per
    counter hex its part (``what``, hex, names, the amount per line: 0 where it does not
    count, as VASL keeps only the largest smoke and vehicle hindrance at each range)."""
    extra: np.ndarray
    parts: tuple

    def of_line(self, line: int) -> list[Part]:
        """The parts line ``line`` meets, nearest the viewer first."""
        return [Part(what, h, int(a[line]), names) for what, h, names, a in self.parts if a[line]]


def counter_lines(table, counters: LosCounters, ends: Ends) -> CounterLines:
    """The counters' hindrances to each of a viewer's lines (rules.md 11.4)."""
    m = table.map
    hexes = [c.hex for c in counters.smoke + counters.vehicles]
    for f in counters.ffe:
        hexes += blast_area(m, f)
    meets = Meets(m, ends, hexes, getattr(table, "frame", None))
    n = len(ends.targets)
    smoke_at: dict[int, list[Smoke]] = {}
    for s in counters.smoke:
        smoke_at.setdefault(s.hex, []).append(s)
    vehicles_at: dict[int, list[Vehicle]] = {}
    for v in counters.vehicles:
        vehicles_at.setdefault(v.hex, []).append(v)
    blaze = {h for h, ss in smoke_at.items() if any(s.name == "Blaze" for s in ss)}
    parts = []
    for what, at in (("smoke", smoke_at), ("vehicle", vehicles_at)):
        by_range: dict[int, list] = {}
        for h, here in at.items():
            if what == "smoke":
                amount = smoke_in_hex(m, ends, here, meets, h in vehicles_at)
            else:
                amount = vehicles_in_hex(table, ends, here, meets, h in blaze)
            if amount.any():
                rng = int(m.distance(ends.viewer, h))
                by_range.setdefault(rng, []).append((what, h, tuple(c.name for c in here), amount))
        for rng in sorted(by_range):
            group = by_range[rng]
            if len(group) > 1:      # rules.md 11.4: the largest at each range counts
                stack = np.stack([g[3] for g in group])
                best = np.argmax(stack, axis=0)
                group = [(w, h, names, np.where(best == j, a, 0))
                         for j, (w, h, names, a) in enumerate(group)]
            parts.extend(group)
    for f in counters.ffe:
        amount = ffe_hindrance(m, ends, f, meets)
        if amount.any():
            parts.append(("ffe", f.hex, (f.name,), amount))
    extra = np.zeros(n, dtype=np.int64)
    for p in parts:
        extra += p[3]
    return CounterLines(extra, tuple(parts))


def with_counters(table, counters: LosCounters, ends: Ends, clear: np.ndarray,
                  hindrances: np.ndarray | None = None):
    """The lines' ``clear`` once the counters' hindrances are added (A6.1: six block), the
    counters' lines, and the daytime hindrances of the lines they touch (-1 elsewhere)."""
    lines = counter_lines(table, counters, ends)
    hit = np.flatnonzero(lines.extra > 0)
    clear, day_hind = with_extra(table, ends, hit, lines.extra[hit], clear, hindrances)
    return clear, lines, day_hind


def with_extra(table, ends: Ends | None, hit: np.ndarray, extra: np.ndarray, clear: np.ndarray,
               hindrances: np.ndarray | None = None, day_hindrances: bool = True):
    """The lines' ``clear`` once lines ``hit`` get ``extra`` (> 0) hindrances each (A6.1: six
    in all block; the daytime ``hindrances`` of each clear line, or None: counted here, lines
    ``ends``, when they could matter), and (``day_hindrances``, else None) the daytime
    hindrances of the clear lines they touch (-1 elsewhere: a line not counted, the counters
    alone too few or six)."""
    day_hind = np.full(len(clear), -1, dtype=np.int64) if day_hindrances else None
    open_ = clear[hit]
    hit, extra = hit[open_], extra[open_]       # the clear lines the counters hinder
    if not len(hit):
        return clear, day_hind
    if hindrances is not None:
        day = hindrances[hit]
        if day_hind is not None:
            day_hind[hit] = day
    else:
        # A6.1 as VASL counts: at most two terrain hindrances a range between the ends (light
        # woods), so a line whose counters and that bound stay below six needs no count; six
        # counters' hindrances block alone
        between = np.maximum(table.map.distance(ends.viewer, ends.targets[hit]) - 1, 0)
        ask = np.flatnonzero((extra < MAX_HINDRANCES)
                             & (extra + MAX_PER_RANGE * between >= MAX_HINDRANCES))
        day = np.zeros(len(hit), dtype=np.int64)
        if len(ask):
            day[ask] = table.lines(ends.viewer, ends.viewer_elev, ends.targets[hit[ask]],
                                   ends.target_elev[hit[ask]]).hindrances
        if day_hind is not None:
            day_hind[hit[ask]] = day[ask]
            day_hind[hit[extra >= MAX_HINDRANCES]] = 0
    blocked = hit[day + extra >= MAX_HINDRANCES]
    if len(blocked):
        clear = clear.copy()
        clear[blocked] = False
    return clear, day_hind
