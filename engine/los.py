"""Daytime line of sight (A6), the base that night rules restrict.

Per map, a ``LosTable`` answers "what does the line from hex A (at elevation Ea) to every hex B
(at elevation Eb) meet" with numpy arrays.  The geometry of a line depends only on the axial
difference B - A (``hexes.line_crossing``), and the twelve symmetries of the hex grid map lines
onto lines, so the exact crossing is computed once per difference up to symmetry and kept in flat
arrays (CSR) shared by every map: a viewer's lines to all hexes are then one gather and a few
vector operations (for speed).

A line meets *entries*, nearest first: hexes whose interior it enters, and hexsides it runs along
(a pair of hexes; the pair blocks only when both would block, A6.1).

Rules (RULES.md 2):
- A6.2: an intervening hex blocks when its ground level is higher than both ends; or its
  obstacle top (ground + height) is higher than both ends; or that top equals the higher end and
  is above the lower one (no height advantage).
- A6.4: blind hexes behind an obstacle top or a bare crest strictly between the two elevations:
  with S, T the higher and lower end, G + h the top, R the range from the higher end to it and D
  from it to the lower end, the lower end is blind when D <= max(2(G+h) + R//5 - S - T + 1, 1)
  for an obstacle, D <= max(2G + R//5 - S - T, 0) for a bare crest.
- A6.1: hindrances add +1 each; six or more block.  Our reading for heights: a hindrance hex
  counts when neither end is more than one level above its ground.  Orchards: a hindrance
  between two ends at its own ground level, an obstacle of height 1 otherwise (VASL).

Hexside terrain and half levels (RULES.md 7, VASL's ``Map.java``):
- A line also crosses *hexsides* (``hexes.line_transits``), kept in the same CSR way with the
  side of the first hex each one is; per map, an array of hexside terrain codes (hex x side)
  makes "what lies on every hexside of every line of a viewer" one gather.
- Walls, hedges, cactus hedges (B9.2): block when the hexside's ground level (the higher of its
  two hexes') equals both ends' elevations.  Bocage (B9.52) and rowhouse walls (B23.71): an
  obstacle on the hexside, top = its ground + 1 (a rowhouse wall: its building's top), judged by
  A6.2 and A6.4 like a hex, with ranges counted from the hex of the side nearer the lower end.
- Walls, hedges and bocage are ignored on the viewer's or target's own hexsides; walls and
  hedges also on the hexsides radiating from their vertices (hexspines; VASL's
  ``isIgnorableHexsideTerrain``).  VASL's extra case for a line running along a hexspine
  (``LOSHexspine``) is not followed.
- A line running exactly along a hexside with terrain on it crosses that terrain, as in VASL
  (the terrain lies on the hexside; RULES.md 7, B9.2 / B9.52): the hexspine runs below.
- Cliffs: a crest whose hexside towards the lower end is a cliff makes blind hexes by the
  obstacle formula (VASL's ``nearestHexsideIsCliff``: +1, at least 1), counted from the cliff's
  top hex.
- Half-level obstacles (rubble): height 0 for A6.2 / A6.4, but they block a line whose two ends
  are both at their ground level (VASL's ``checkHalfLevelTerrainRule``).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .cache import per_map
from .hexes import DIRECTIONS, line_crossing, line_crossings, line_transits
from .maps import Map
from .terrain import BY_CODE, HEXSIDE_BY_CODE, HEXSIDES, ORCHARD

# why a line is blocked (codes kept in arrays; sentences built only when asked for)
CLEAR, HILL, HIGHER, EQUAL, BLIND, HINDRANCES, HALF, WALL = 0, 1, 2, 3, 4, 5, 6, 7
DEPRESSION = 8      # A6.3, judged on drawn terrain (engine.raster_los)
# hexside terrain kinds (terrain.Hexside.kind) as small integers
_SIDE_KINDS = {"wall": 1, "obstacle": 2, "cliff": 3}
_SK_WALL, _SK_OBSTACLE, _SK_CLIFF = 1, 2, 3
_SIDE_KIND = np.array([0] + [_SIDE_KINDS[h.kind] for h in HEXSIDE_BY_CODE[1:]], np.int8)
_SIDE_HEIGHT = np.array([0] + [h.height for h in HEXSIDE_BY_CODE[1:]], np.int64)
_SIDE_IGNORABLE = np.array([False] + [h.ignorable for h in HEXSIDE_BY_CODE[1:]])
_SIDE_SPINE = np.array([False] + [h.spine_ignorable for h in HEXSIDE_BY_CODE[1:]])
_ROWHOUSE = HEXSIDES["rowhouse_wall"].code
# transit flags: a hexside of an end hex (OWN), or radiating from an end hex's vertex (SPINE)
_OWN, _SPINE = 2, 1
# hexside terrain that is not a wall or hedge (those block only same-level lines, B9.2)
_NOT_WALL = _SIDE_KIND != _SK_WALL
_NONWALL, _NOSIDE = -(2 ** 40), -(2 ** 41)
_FIVE = np.arange(5)      # LosTable.side_value: no level is either
MAX_HINDRANCES = 6          # A6.1: six hindrances block
OFF_MAP_LEVEL = -10**6      # what lies off the map: below anything, so never in the way
_FAR = np.iinfo(np.int64).max


@dataclass
class DayLines:
    """Daytime LOS from one location to many targets (arrays aligned with ``targets``)."""
    viewer: int
    viewer_elev: int
    targets: np.ndarray
    target_elev: np.ndarray
    clear: np.ndarray           # bool
    kind: np.ndarray            # why the first blocking entry blocks (CLEAR when clear)
    block_h1: np.ndarray        # that entry's hexes (map indices; equal for a hex), -1 when clear
    block_h2: np.ndarray
    hindrances: np.ndarray      # hindrances met before the block (all of them when clear)
    block_side: np.ndarray | None = None   # hexside terrain code of the block (0: a hex)


# --------------------------------------------------------------------- geometry, shared


def _canonical(dx: int, dy: int, dz: int):
    """A symmetry g of the hex grid (a permutation of cube axes and a sign) with g(d) canonical.

    Returns (canonical cube tuple, inverse permutation, sign) so that
    ``d = sign * canonical[inverse]``, and the same holds for every offset of the line."""
    d = (dx, dy, dz)
    order = sorted(range(3), key=lambda k: -d[k])
    c1 = tuple(d[k] for k in order)
    rev = order[::-1]
    c2 = tuple(-d[k] for k in rev)
    if c1 >= c2:
        perm, canon, sign = order, c1, 1
    else:
        perm, canon, sign = rev, c2, -1
    inverse = [0, 0, 0]
    for k, p in enumerate(perm):
        inverse[p] = k
    return canon, inverse, sign


def _canonical_many(dq: np.ndarray, dr: np.ndarray):
    """``_canonical`` of many axial differences: (canonical cubes K x 3, inverse permutations
    K x 3, signs K)."""
    d = np.stack([dq, -dq - dr, dr], axis=1)
    order = np.argsort(-d, axis=1, kind="stable")
    c1 = np.take_along_axis(d, order, axis=1)
    rev = order[:, ::-1]
    c2 = -np.take_along_axis(d, rev, axis=1)
    first = (c1[:, 0] > c2[:, 0]) | ((c1[:, 0] == c2[:, 0])
                                     & ((c1[:, 1] > c2[:, 1])
                                        | ((c1[:, 1] == c2[:, 1]) & (c1[:, 2] >= c2[:, 2]))))
    perm = np.where(first[:, None], order, rev)
    canon = np.where(first[:, None], c1, c2)
    return canon, np.argsort(perm, axis=1), np.where(first, 1, -1)


class _Crossings:
    """Flat arrays of line crossings for every axial difference met so far (all maps share it).

    Interior hexes: ``iq, ir, it`` (offset and order along the line) in ``istart/icount``
    segments; hexside pairs: ``sq1, sr1, sq2, sr2, st`` in ``sstart/scount`` segments.
    Differences are looked up through a grid indexed by (dq, dr)."""

    def __init__(self):
        self.span = 0
        self.grid = np.full((1, 1), -1, dtype=np.int64)
        self.n = 0
        self.istart = np.zeros(0, np.int64)
        self.icount = np.zeros(0, np.int64)
        self.sstart = np.zeros(0, np.int64)
        self.scount = np.zeros(0, np.int64)
        self.iq = self.ir = self.it = np.zeros(0, np.int64)
        self.sq1 = self.sr1 = self.sq2 = self.sr2 = self.st = np.zeros(0, np.int64)
        # hexsides crossed (RULES.md 7).  Entering an interior hex from the one before crosses
        # their common side: ``idir`` (per interior entry) is that side of the entered hex (6:
        # none, the line came along a hexside), ``iflag`` says whether an end's own side or
        # hexspine; ``tdir`` (per line) is the side the line enters its target by.  Lines along
        # hexspines keep their hexsides in the ``x*`` CSR arrays (hexes, order, side, flags).
        self.idir = np.zeros(0, np.int64)
        self.iflag = np.zeros(0, np.int8)
        self.tdir = np.zeros(0, np.int64)
        self.xstart = np.zeros(0, np.int64)
        self.xcount = np.zeros(0, np.int64)
        self.xq1 = self.xr1 = self.xq2 = self.xr2 = self.xt = np.zeros(0, np.int64)
        self.xdir = np.zeros(0, np.int64)
        self.xflag = np.zeros(0, np.int8)
        self._canon: dict = {}

    def _grow(self, span: int) -> None:
        if span <= self.span:
            return
        new = np.full((2 * span + 1, 2 * span + 1), -1, dtype=np.int64)
        o = span - self.span
        new[o:o + 2 * self.span + 1, o:o + 2 * self.span + 1] = self.grid
        self.grid, self.span = new, span

    def ids(self, dq: np.ndarray, dr: np.ndarray) -> np.ndarray:
        with _LOCK:
            return self._ids(dq, dr)

    def _ids(self, dq: np.ndarray, dr: np.ndarray) -> np.ndarray:
        span = int(max(np.abs(dq).max(initial=0), np.abs(dr).max(initial=0)))
        self._grow(span)
        ids = self.grid[dq + self.span, dr + self.span]
        missing = ids < 0
        if missing.any():
            keys = np.unique(np.stack([dq[missing], dr[missing]], axis=1), axis=0)
            self._add(keys)
            ids = self.grid[dq + self.span, dr + self.span]
        return ids

    def _canonical_crossing(self, canon):
        hit = self._canon.get(canon)
        if hit is None:
            x, _, z = canon
            cr = line_crossing(x, z)                       # axial (q, r) = cube (x, z)
            cube = lambda a: np.stack([a[:, 0], -a[:, 0] - a[:, 1], a[:, 1]])  # noqa: E731
            tr = line_transits(x, z)
            if not len(cr.sides_t):               # no hexspine: the interior entries say it
                tr = tr._replace(sides=tr.sides[:0], t=tr.t[:0], direction=tr.direction[:0])
            # along a hexspine, runs along hexsides and hexes alternate: five hexsides per run
            # (before it, itself, after it), so the x* entries of run j are 5 j .. 5 j + 4
            if len(tr.t) != 5 * len(cr.sides_t):  # pragma: no cover - geometry guarantees it
                raise AssertionError(f"hexspine line {canon} is not runs and hexes in turn")
            x1, x2 = cube(tr.sides[:, 0, :]), cube(tr.sides[:, 1, :])
            # the order of every entry on one scale: twice line_crossing's (see Transits); the
            # flags are the same for every line this one stands for (symmetries keep ranges)
            hit = (cube(cr.interior), 2 * cr.interior_t, cube(cr.sides[:, 0, :]),
                   cube(cr.sides[:, 1, :]), 2 * cr.sides_t, x1, x2, tr.t,
                   _transit_flags(x1, x2, x, z))
            self._canon[canon] = hit
        return hit

    def _add(self, keys: np.ndarray) -> None:
        # every key's canonical difference; their crossings at once (``hexes.line_crossings``),
        # then moved back by each key's symmetry (for speed; the same arrays as one by one)
        canon, inverse, sign = _canonical_many(keys[:, 0], keys[:, 1])
        code, back = np.unique(canon[:, 0] * (1 << 32) - canon[:, 2], return_inverse=True)
        back = back.ravel()
        cx = code >> 32
        cr = line_crossings(cx, -(code - (cx << 32)))
        spine = cr.along[back]                  # lines along a hexspine: one by one below
        ic = np.where(spine, 0, cr.count[back])
        pos, owner = _segments((np.cumsum(cr.count) - cr.count)[back], ic)
        cq, cr_r = cr.q[pos], cr.r[pos]
        ccube = np.stack([cq, -cq - cr_r, cr_r], axis=1)
        ii = sign[owner, None] * np.take_along_axis(ccube, inverse[owner], axis=1)
        iq, ir, it = ii[:, 0], ii[:, 2], 2 * cr.t[pos]
        sc = np.zeros(len(keys), np.int64)
        xc = np.zeros(len(keys), np.int64)
        parts_i, parts_s, parts_x = [], [], []
        for k in np.flatnonzero(spine).tolist():
            dq, dr = keys[k].tolist()
            canon_k, inv, sgn = _canonical(dq, -dq - dr, dr)
            ci, ti, cs1, cs2, ts, cx1, cx2, tx, fx = self._canonical_crossing(canon_k)
            i_ = sgn * ci[inv]
            s1 = sgn * cs1[inv]
            s2 = sgn * cs2[inv]
            x1 = sgn * cx1[inv]
            x2 = sgn * cx2[inv]
            parts_i.append((i_[0], i_[2], ti, np.full(len(ti), k, np.int64)))
            parts_s.append((s1[0], s1[2], s2[0], s2[2], ts))
            parts_x.append((x1[0], x1[2], x2[0], x2[2], tx, fx))
            ic[k] = len(ti)
            sc[k] = len(ts)
            xc[k] = len(tx)
        if parts_i:                             # into key order
            iq, ir, it, owner = (np.concatenate([v] + [p[j] for p in parts_i])
                                 for j, v in enumerate((iq, ir, it, owner)))
            order = np.argsort(owner, kind="stable")
            iq, ir, it = iq[order], ir[order], it[order]
        z = np.zeros(0, np.int64)
        parts_s.append((z, z, z, z, z))
        parts_x.append((z, z, z, z, z, np.zeros(0, np.int8)))
        self.istart = np.concatenate([self.istart, len(self.iq) + np.cumsum(ic) - ic])
        self.sstart = np.concatenate([self.sstart, len(self.sq1) + np.cumsum(sc) - sc])
        self.icount = np.concatenate([self.icount, ic])
        self.scount = np.concatenate([self.scount, sc])
        self._add_entry_sides(keys, iq, ir, ic, sc)
        self.iq = np.concatenate([self.iq, iq])
        self.ir = np.concatenate([self.ir, ir])
        self.it = np.concatenate([self.it, it])
        self.sq1 = np.concatenate([self.sq1] + [p[0] for p in parts_s])
        self.sr1 = np.concatenate([self.sr1] + [p[1] for p in parts_s])
        self.sq2 = np.concatenate([self.sq2] + [p[2] for p in parts_s])
        self.sr2 = np.concatenate([self.sr2] + [p[3] for p in parts_s])
        self.st = np.concatenate([self.st] + [p[4] for p in parts_s])
        self.xstart = np.concatenate([self.xstart, len(self.xq1) + np.cumsum(xc) - xc])
        self.xcount = np.concatenate([self.xcount, xc])
        xq1 = np.concatenate([p[0] for p in parts_x])
        xr1 = np.concatenate([p[1] for p in parts_x])
        xq2 = np.concatenate([p[2] for p in parts_x])
        xr2 = np.concatenate([p[3] for p in parts_x])
        self.xq1 = np.concatenate([self.xq1, xq1])
        self.xr1 = np.concatenate([self.xr1, xr1])
        self.xq2 = np.concatenate([self.xq2, xq2])
        self.xr2 = np.concatenate([self.xr2, xr2])
        self.xt = np.concatenate([self.xt] + [p[4] for p in parts_x])
        self.xdir = np.concatenate([self.xdir, _DIR_OF[xq2 - xq1 + 1, xr2 - xr1 + 1]])
        self.xflag = np.concatenate([self.xflag] + [p[5] for p in parts_x])
        new_ids = self.n + np.arange(len(keys))
        assert len(self.idir) == len(self.iq) and len(self.tdir) == self.n + len(keys)
        self.grid[keys[:, 0] + self.span, keys[:, 1] + self.span] = new_ids
        self.n += len(keys)


    def _add_entry_sides(self, keys, iq, ir, ic, sc) -> None:
        """``idir``, ``iflag`` for new interior entries (iq, ir; ``ic`` per key) and ``tdir``
        for the new keys (lines along a hexspine, ``sc`` > 0: none, see ``x*``)."""
        k = np.repeat(np.arange(len(keys)), ic)
        first = np.cumsum(ic) - ic
        is_first = np.arange(len(iq)) == np.repeat(first, ic)
        pq = np.where(is_first, 0, np.roll(iq, 1))
        pr = np.where(is_first, 0, np.roll(ir, 1))
        spine_line = sc > 0
        idir = np.where(spine_line[k], 6, _DIR_OF[np.clip(pq - iq + 1, 0, 2),
                                                  np.clip(pr - ir + 1, 0, 2)])
        dq, dr = keys[k, 0], keys[k, 1]

        def near(q, r, oq, orr):
            return _dist(q - oq, r - orr) == 1
        spine = ((near(pq, pr, 0, 0) & near(iq, ir, 0, 0))
                 | (near(pq, pr, dq, dr) & near(iq, ir, dq, dr)))
        iflag = np.where(is_first, _OWN, np.where(spine, _SPINE, 0)).astype(np.int8)
        last = first + ic - 1
        lq = np.where(ic > 0, iq[np.maximum(last, 0)] if len(iq) else 0, 0)
        lr = np.where(ic > 0, ir[np.maximum(last, 0)] if len(ir) else 0, 0)
        still = (keys[:, 0] == 0) & (keys[:, 1] == 0)
        tdir = np.where(spine_line | still, 6, _DIR_OF[np.clip(lq - keys[:, 0] + 1, 0, 2),
                                                np.clip(lr - keys[:, 1] + 1, 0, 2)])
        self.idir = np.concatenate([self.idir, idir])
        self.iflag = np.concatenate([self.iflag, iflag])
        self.tdir = np.concatenate([self.tdir, tdir])


_DIR_OF = np.full((3, 3), -1, dtype=np.int64)      # (dq + 1, dr + 1) -> side 0..5
for _k, (_dq, _dr) in enumerate(DIRECTIONS.values()):
    _DIR_OF[_dq + 1, _dr + 1] = _k


def _transit_flags(x1: np.ndarray, x2: np.ndarray, dq: int, dr: int) -> np.ndarray:
    """OWN for a hexside of the line's start or end hex, SPINE for one radiating from a vertex
    of either (both its hexes next to that end hex), else 0 (cube offsets, 3 x k)."""
    def dist(c, q, r):
        return (np.abs(c[0] - q) + np.abs(c[1] + q + r) + np.abs(c[2] - r)) // 2
    flags = np.zeros(x1.shape[1], dtype=np.int8)
    for q, r in ((0, 0), (dq, dr)):
        d1, d2 = dist(x1, q, r), dist(x2, q, r)
        flags = np.maximum(flags, np.where((d1 == 0) | (d2 == 0), _OWN,
                                           np.where((d1 == 1) & (d2 == 1), _SPINE, 0)))
    return flags.astype(np.int8)


CROSSINGS = _Crossings()
# The engine may be asked from two threads (the app's window and its engine worker): the shared
# tables grow under this lock.  Answers are computed outside it.
_LOCK = threading.RLock()


def _segments(start: np.ndarray, count: np.ndarray):
    """Flat positions of the CSR segments (start, count), and the segment of each position."""
    total = int(count.sum())
    owner = np.repeat(np.arange(len(count)), count)
    first = np.cumsum(count) - count
    pos = np.arange(total) + np.repeat(start - first, count)
    return pos, owner


# --------------------------------------------------------------------------- per map

class LosTable:
    """Daytime LOS for one map; build with :func:`los_table` (cached by map content)."""

    def __init__(self, game_map: Map, cache_size: int | None = None):
        self.map = m = game_map
        height = m.obstacle_height.astype(np.int64)
        self.orchard = np.append(m.terrain == ORCHARD, False)
        # off the map (the last slot, index -1; a line between boards with a gap, or along a
        # board's edge) nothing is there: it never blocks nor hinders, whatever the elevations
        self.ground = np.append(m.level.astype(np.int64), OFF_MAP_LEVEL)
        self.top = np.append(m.level.astype(np.int64) + height, OFF_MAP_LEVEL)
        self.hindrance = np.append(np.array([t.hindrance for t in BY_CODE])[m.terrain], False)
        self.any_orchard = bool(self.orchard.any())
        # half-level obstacles (rubble, RULES.md 7): top at ground for A6.2, plus their own rule
        self.half = np.append(m.half_level, False)
        self.any_half = bool(self.half.any())
        self.any_sides = bool(m.any_hexsides)
        # a lookup grid with a margin: every hex a line between two map hexes meets is inside
        self.q0, self.r0 = int(m.q.min()) - 2, int(m.r.min()) - 2
        w = int(m.q.max()) - self.q0 + 3
        hgt = int(m.r.max()) - self.r0 + 3
        grid = np.full((w, hgt), -1, dtype=np.int64)
        grid[m.q - self.q0, m.r - self.r0] = np.arange(m.size)
        self.grid = grid.ravel()
        self.stride = hgt
        # hexside terrain codes per lookup-grid cell and side (7 slots: side 6 is "none"), set
        # from both hexes of each hexside, also in the cells just off the map (RULES.md 7)
        self.cell_of = (m.q - self.q0) * hgt + (m.r - self.r0)
        self.step_of = np.array([dq * hgt + dr for dq, dr in DIRECTIONS.values()] + [0], np.int64)
        if self.any_sides:
            side = np.zeros(len(self.grid) * 7, dtype=np.int8)
            ii, kk = np.nonzero(m.hexside)
            codes = m.hexside[ii, kk]
            side[self.cell_of[ii] * 7 + kk] = codes
            beyond = self.cell_of[ii] + self.step_of[kk]
            np.maximum.at(side, beyond * 7 + (kk + 3) % 6, codes)
            # three layers, by the crossing's flag: 0 all terrain; SPINE: what a hexspine of an
            # end does not hide; OWN: what an end's own hexside does not hide (B9.2, B9.52)
            self.layer = len(side)
            spine_seen = np.append(~_SIDE_SPINE, False)[side] | (side == 0)
            own_seen = np.append(~_SIDE_IGNORABLE, False)[side] | (side == 0)
            self.side_grid = np.concatenate([side, np.where(spine_seen, side, 0),
                                             np.where(own_seen, side, 0)]).astype(np.int8)
            # the hexside's ground: the higher of its two hexes' (RULES.md 7), by the same index
            ground = np.full(len(self.grid) * 7, OFF_MAP_LEVEL, dtype=np.int64)
            g = self.ground[ii]
            np.maximum.at(ground, self.cell_of[ii] * 7 + kk, g)
            np.maximum.at(ground, beyond * 7 + (kk + 3) % 6, g)
            near = self.grid[beyond]
            on = near >= 0
            np.maximum.at(ground, self.cell_of[ii[on]] * 7 + kk[on], self.ground[near[on]])
            np.maximum.at(ground, beyond[on] * 7 + (kk[on] + 3) % 6, self.ground[near[on]])
            self.side_ground = np.tile(ground, 3)
            # by the same index: a wall's or hedge's ground level (B9.2: it blocks lines whose
            # ends are both there), _NONWALL for other hexside terrain, _NOSIDE for none
            kind = _SIDE_KIND[self.side_grid]
            self.side_value = np.where(kind == _SK_WALL, self.side_ground,
                                       np.where(self.side_grid != 0, _NONWALL, _NOSIDE))
            # what the sparse checks may skip: no bocage, cliff or rowhouse wall anywhere; none
            # of what an end's own hexside does not hide (cliffs, rowhouse walls)
            self.any_nonwall = bool(np.any(_NOT_WALL[codes]))
            self.any_own_seen = bool(np.any(~_SIDE_IGNORABLE[codes]))
        self._cache: OrderedDict = OrderedDict()
        # rows kept: two per hex, but at most about 256 MiB of them on a big map
        self._cache_size = cache_size or max(64, min(2 * m.size + 64,
                                                     (256 << 20) // (48 * m.size)))
        self._geometry_ready = False

    def prepare(self) -> None:
        """The per-map precomputation: the crossings of every difference between two hexes of
        this map (done once, on the first query; later maps reuse what earlier ones computed)."""
        if self._geometry_ready:
            return
        m = self.map
        span = int(max(np.ptp(m.q), np.ptp(m.r)))
        seen = np.zeros((2 * span + 1, 2 * span + 1), dtype=bool)
        for k in range(0, m.size, 256):               # in slices: memory stays small
            dq = m.q[None, :] - m.q[k:k + 256, None]
            dr = m.r[None, :] - m.r[k:k + 256, None]
            seen[dq + span, dr + span] = True
        uq, ur = np.nonzero(seen)
        CROSSINGS.ids(uq - span, ur - span)
        self._geometry_ready = True

    def _flat_offsets(self):
        """Every crossing entry as an offset into this map's lookup grid (kept in step with the
        shared crossings)."""
        C = CROSSINGS
        with _LOCK:
            if getattr(self, "_foff_len", None) != (len(C.iq), len(C.sq1), len(C.xq1)):
                ioff = C.iq * self.stride + C.ir
                self._foff = (ioff, C.sq1 * self.stride + C.sr1,
                              C.sq2 * self.stride + C.sr2,
                              ioff * 7 + C.idir + C.iflag.astype(np.int64) * getattr(self, "layer", 0),
                              (C.xq2 * self.stride + C.xr2) * 7 + (C.xdir + 3) % 6
                              + C.xflag.astype(np.int64) * getattr(self, "layer", 0))
                self._foff_len = (len(C.iq), len(C.sq1), len(C.xq1))
            return self._foff

    # ------------------------------------------------------------------------ public
    def from_location(self, viewer: int, viewer_level: int = 0) -> DayLines:
        """LOS from (viewer, its level) to the ground location of every hex (cached)."""
        key = (viewer, viewer_level)
        with _LOCK:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        # the crossings this row needs are added as it meets them (``prepare`` adds the whole
        # map's at once: a big map's first field would wait for all of them)
        targets = np.arange(self.map.size)
        res = self.lines(viewer, int(self.ground[viewer]) + viewer_level, targets,
                         self.ground[:-1])
        with _LOCK:
            self._cache[key] = res
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return res

    def line(self, a: int, a_level: int, b: int, b_level: int) -> DayLines:
        """One line, location to location (levels above each hex's ground)."""
        return self.lines(a, int(self.ground[a]) + a_level, np.array([b]),
                          np.array([int(self.ground[b]) + b_level]))

    def lines(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray) -> DayLines:
        m = self.map
        n = len(targets)
        te = np.asarray(target_elev, dtype=np.int64)
        vq, vr = int(m.q[viewer]), int(m.r[viewer])
        tq, tr = m.q[targets], m.r[targets]
        ids = CROSSINGS.ids(tq - vq, tr - vr)
        hi_t = np.maximum(viewer_elev, te)
        lo_t = np.minimum(viewer_elev, te)
        C = CROSSINGS

        base = (vq - self.q0) * self.stride + (vr - self.r0)
        ioff, soff1, soff2, iside, xside = self._flat_offsets()

        # hexes whose interior the line enters
        pos, owner = _segments(C.istart[ids], C.icount[ids])
        h = self.grid[base + ioff[pos]]
        t = C.it[pos]
        where = sval = None
        if self.any_sides:     # RULES.md 7: the hexside crossed into each hex, one gather
            where = np.take(iside, pos) + 7 * base
            sval = np.take(self.side_value, where)
        block, hind, wall = self._blocks(h, owner, hi_t, lo_t, viewer, viewer_elev, targets, te,
                                         sval)
        first_t = np.full(n, _FAR, dtype=np.int64)
        bi = np.flatnonzero(block)
        np.minimum.at(first_t, owner[bi], t[bi])

        # hexsides it runs along: a pair blocks only when both hexes block (A6.1)
        spos, sowner = _segments(C.sstart[ids], C.scount[ids])
        if len(spos):
            h1 = self.grid[base + soff1[spos]]
            h2 = self.grid[base + soff2[spos]]
            b1, d1, _ = self._blocks(h1, sowner, hi_t, lo_t, viewer, viewer_elev, targets, te)
            b2, d2, _ = self._blocks(h2, sowner, hi_t, lo_t, viewer, viewer_elev, targets, te)
            sblock = b1 & b2
            shind = (d1 | b1) & (d2 | b2) & ~sblock
            st = C.st[spos]
            sb = np.flatnonzero(sblock)
            np.minimum.at(first_t, sowner[sb], st[sb])
        else:
            shind = np.zeros(0, dtype=bool)

        # hexside terrain the line crosses (RULES.md 7): one gather of the codes per viewer
        side_hit = None
        if self.any_sides:
            found = self._sides_met(base, where, sval, owner, t, targets, ids, xside,
                                    hi_t == lo_t, spos, sowner)
            if found is not None:
                code, xwhere, xo, xt = found
                xblock, xkind = self._side_blocks(code, xwhere, xo, hi_t, lo_t, viewer,
                                                  viewer_elev, targets, te)
                xb = np.flatnonzero(xblock)
                if len(xb):
                    np.minimum.at(first_t, xo[xb], xt[xb])
                    side_hit = (xb, xo, xt, xwhere, code, xkind)

        # A6.1: hindrances before the first block; the sixth one blocks
        hmask = hind & (t < first_t[owner])
        hcount = np.bincount(owner[hmask], minlength=n)
        if len(spos):
            shmask = shind & (st < first_t[sowner])
            hcount += np.bincount(sowner[shmask], minlength=n)
        six = hcount >= MAX_HINDRANCES
        hcount = np.minimum(hcount, MAX_HINDRANCES)
        clear = (first_t == _FAR) & ~six

        # what blocks first, for the explanation and the blind-hex overlay
        kind = np.zeros(n, dtype=np.int8)
        b1_out = np.full(n, -1, dtype=np.int64)
        b2_out = np.full(n, -1, dtype=np.int64)
        side_out = np.zeros(n, dtype=np.int8)
        if len(bi):
            sel = bi[t[bi] == first_t[owner[bi]]]
            o, first = np.unique(owner[sel], return_index=True)
            b1_out[o] = b2_out[o] = h[sel[first]]
            if wall is not None:            # crossed a wall or hedge into that hex (B9.2)
                w = sel[first][wall[sel[first]]]
                if len(w):
                    ow = owner[w]
                    b1_out[ow], b2_out[ow] = self._side_hexes(where[w])
                    side_out[ow] = self.side_grid[where[w]]
                    kind[ow] = WALL
        if len(spos) and len(sb):
            sel = sb[st[sb] == first_t[sowner[sb]]]
            o, first = np.unique(sowner[sel], return_index=True)
            free = b1_out[o] < 0
            b1_out[o[free]] = h1[sel[first][free]]
            b2_out[o[free]] = h2[sel[first][free]]
        if six.any():                                   # the sixth hindrance blocks first
            e = np.flatnonzero(hmask & six[owner])
            parts = [(owner[e], t[e], h[e], h[e])]
            if len(spos):
                se = np.flatnonzero(shmask & six[sowner])
                parts.append((sowner[se], st[se], h1[se], h2[se]))
            eo, et, eh1, eh2 = (np.concatenate(a) for a in zip(*parts))
            order = np.lexsort((et, eo))
            eo, eh1, eh2 = eo[order], eh1[order], eh2[order]
            starts = np.flatnonzero(np.r_[True, eo[1:] != eo[:-1]])
            rank = np.arange(len(eo)) - np.repeat(starts, np.diff(np.r_[starts, len(eo)]))
            pick = rank == MAX_HINDRANCES - 1
            b1_out[eo[pick]] = eh1[pick]
            b2_out[eo[pick]] = eh2[pick]
        side_out[six] = 0
        if side_hit is not None and len(side_hit[0]):
            xb, xo, xt, xwhere, code, xkind = side_hit
            sel = xb[xt[xb] == first_t[xo[xb]]]
            o, first = np.unique(xo[sel], return_index=True)
            mine = ~six[o]
            o, first = o[mine], first[mine]
            b1_out[o], b2_out[o] = self._side_hexes(xwhere[sel[first]])
            side_out[o] = code[sel[first]]
            kind[o] = xkind[sel[first]]
        known = np.flatnonzero(~clear & ~six & (b1_out >= 0) & (side_out == 0))
        if len(known):
            k1 = self._kind(b1_out[known], known, hi_t, lo_t, viewer, viewer_elev, targets, te)
            k2 = self._kind(b2_out[known], known, hi_t, lo_t, viewer, viewer_elev, targets, te)
            kind[known] = np.minimum(k1, k2)
        kind[six] = HINDRANCES
        return DayLines(viewer, viewer_elev, targets, te, clear, kind, b1_out, b2_out, hcount,
                        side_out)

    def _sides_met(self, base, where_i, sval, owner, t, targets, ids, xside, same, spos, sowner):
        """The hexside terrain the lines cross and that may block them: (codes, where, line,
        order), or None.  ``where`` = 7 x the lookup-grid cell of the hex the line enters by
        the hexside + its side (``_side_hexes`` names both hexes; ``side_grid`` and
        ``side_ground`` are indexed by it).  Entering each interior hex, then the target: one
        gather each; lines along a hexspine: their own short list.  Left out at once: terrain
        ignored on an end's own hexside or hexspine (B9.2, B9.52), and walls and hedges on
        lines between two elevations (``same``: per line, both ends at one level)."""
        C = CROSSINGS
        sg = self.side_grid
        parts = []
        if self.any_nonwall:
            e = np.flatnonzero(sval == _NONWALL)    # walls and hedges: in _blocks
            if len(e):
                parts.append((where_i[e], owner[e], t[e] - 1))
        if self.any_own_seen:                       # the target's own hexside
            where = 7 * self.cell_of[targets] + C.tdir[ids] + _OWN * self.layer
            e = np.flatnonzero(sg[where] != 0)
            if len(e):
                parts.append((where[e], e, np.full(len(e), _FAR - 1, np.int64)))
        if len(spos):                   # lines along a hexspine: 5 hexsides per run
            xpos = ((5 * spos)[:, None] + _FIVE).ravel()
            xowner = np.repeat(sowner, 5)
            where = 7 * base + xside[xpos]
            e = np.flatnonzero(sg[where] != 0)
            if len(e):
                parts.append((where[e], xowner[e], C.xt[xpos[e]]))
        if not parts:
            return None
        where, line, order = (np.concatenate(a) for a in zip(*parts)) if len(parts) > 1 \
            else parts[0]
        code = sg[where]
        k = np.flatnonzero(same[line] | _NOT_WALL[code])     # B9.2: walls, same-level lines
        if not len(k):
            return None
        return code[k], where[k], line[k], order[k]

    def _side_hexes(self, where):
        """The two hexes (map indices, -1 off the map) of hexsides ``where`` (see _sides_met),
        the one nearer the line's start first."""
        cell = (where % self.layer) // 7
        return self.grid[cell + self.step_of[where % 7]], self.grid[cell]

    # ------------------------------------------------------------------------ the rules
    def _tops(self, h, owner, hi_t, lo_t):
        """Obstacle top of each entry, with orchards made hindrances between two ends at their
        own ground level (VASL / A6.1)."""
        top = self.top[h]
        if self.any_orchard:
            o = np.flatnonzero(self.orchard[h])
            if len(o):
                g = self.ground[h[o]]
                low = (hi_t[owner[o]] == g) & (lo_t[owner[o]] == g)
                top[o[low]] = g[low]
        return top

    def _blocks(self, h, owner, hi_t, lo_t, viewer, viewer_elev, targets, te, sval=None):
        """(blocks, hinders, crossed a wall) for entries h of lines owner (A6.2, A6.4, A6.1;
        ``sval``: the ``side_value`` of the hexside crossed into each, B9.2)."""
        top = self._tops(h, owner, hi_t, lo_t)
        hi = hi_t[owner]
        lo = lo_t[owner]
        # A6.2: higher than both ends, or as high as the higher and above the lower
        above_lo = top > lo
        reach_hi = top >= hi
        block = above_lo & reach_hi
        if self.any_half:                  # RULES.md 7: a half level blocks ends at its ground
            g = self.ground[h]
            block |= self.half[h] & (hi == g) & (lo == g)
        between = np.flatnonzero(above_lo & ~reach_hi)
        if len(between):
            block[between] = self._blind(h[between], owner[between], top[between], viewer,
                                         viewer_elev, targets, te, hi[between], lo[between])
        wall = None
        if sval is not None:               # B9.2: a wall or hedge at both ends' level
            wall = (sval == hi) & (sval == lo)
            block |= wall
        hind = self.hindrance[h]
        k = np.flatnonzero(hind)
        if len(k):
            g = self.ground[h[k]]
            hind[k] = (hi[k] <= g + 1) & (top[k] == g) & ~block[k]
        return block, hind, wall

    def _blind(self, h, owner, top, viewer, viewer_elev, targets, te, hi, lo):
        """A6.4: is the lower end blind behind entry h (tops strictly between the ends)?"""
        m = self.map
        hq, hr = m.q[h], m.r[h]
        tq, tr = m.q[targets[owner]], m.r[targets[owner]]
        hv = _dist(hq - m.q[viewer], hr - m.r[viewer])
        ht = _dist(tq - hq, tr - hr)
        viewer_higher = viewer_elev > te[owner]
        R = np.where(viewer_higher, hv, ht)          # higher end -> obstacle
        D = np.where(viewer_higher, ht, hv)          # obstacle -> lower end
        g = self.ground[h]
        obstacle = top > g
        limit = np.where(obstacle, np.maximum(2 * top + R // 5 - hi - lo + 1, 1),
                         np.maximum(2 * g + R // 5 - hi - lo, 0))
        return D <= limit

    def _kind(self, h, owner, hi_t, lo_t, viewer, viewer_elev, targets, te) -> np.ndarray:
        """Why entry h blocks line owner (codes HILL, HIGHER, EQUAL, BLIND)."""
        top = self._tops(h, owner, hi_t, lo_t)
        hi, lo = hi_t[owner], lo_t[owner]
        g = self.ground[h]
        between = (top > lo) & (top < hi)
        kind = np.full(len(h), CLEAR, dtype=np.int8)
        if between.any():
            b = np.flatnonzero(between)
            kind[b] = np.where(self._blind(h[b], owner[b], top[b], viewer, viewer_elev, targets,
                                           te, hi[b], lo[b]), BLIND, CLEAR)
        kind = np.where((top == hi) & (top > lo), EQUAL, kind)
        kind = np.where(top > hi, HIGHER, kind)
        kind = np.where(g > hi, HILL, kind)
        if self.any_half:
            kind = np.where(self.half[h] & (hi == g) & (lo == g), HALF, kind)
        return kind.astype(np.int8)

    def _side_blocks(self, code, where, owner, hi_t, lo_t, viewer, viewer_elev, targets, te):
        """(blocks, kind) for hexside terrain ``code`` at hexsides ``where`` (see _sides_met)
        on lines owner (RULES.md 7: B9.2, B9.52, B23.71, cliffs)."""
        sk = _SIDE_KIND[code]
        hi, lo = hi_t[owner], lo_t[owner]
        g = self.side_ground[where]                   # the hexside's ground
        # B9.2: a wall or hedge blocks a line whose two ends are at its ground level
        wall = sk == _SK_WALL
        block = wall & (g == hi) & (g == lo)
        kind = np.where(block, WALL, CLEAR).astype(np.int8)
        rest = np.flatnonzero(~wall)
        if not len(rest):
            return block, kind
        # B9.52 / B23.71: an obstacle on the hexside, judged by A6.2 and A6.4; cliffs: A6.4
        code, g, hi, lo, o = code[rest], g[rest], hi[rest], lo[rest], owner[rest]
        h1, h2 = self._side_hexes(where[rest])
        top = g + _SIDE_HEIGHT[code]
        row = code == _ROWHOUSE
        if row.any():
            top[row] = np.maximum(top[row], np.maximum(self.top[h1[row]], self.top[h2[row]]))
        ob = _SIDE_KIND[code] == _SK_OBSTACLE
        higher = ob & (top > hi)
        equal = ob & (top == hi) & (top > lo)
        sub = np.where(equal, EQUAL, CLEAR)
        sub = np.where(higher, HIGHER, sub)
        # A6.4 behind an obstacle hexside (from its hex nearer the lower end) or a cliff (from
        # its top hex)
        cliff = (_SIDE_KIND[code] == _SK_CLIFF) & (g > lo) & (g < hi)
        b = np.flatnonzero((ob & (top > lo) & (top < hi)) | cliff)
        if len(b):
            m = self.map
            ob_ = o[b]
            v_hi = viewer_elev > te[ob_]
            tq, tr = m.q[targets[ob_]], m.r[targets[ob_]]
            vq, vr = m.q[viewer], m.r[viewer]
            lq, lr = np.where(v_hi, tq, vq), np.where(v_hi, tr, vr)     # the lower end
            uq, ur = np.where(v_hi, vq, tq), np.where(v_hi, vr, tr)     # the higher end
            a1, a2 = h1[b], h2[b]
            D1 = np.where(a1 >= 0, _dist(m.q[a1] - lq, m.r[a1] - lr), _FAR)
            D2 = np.where(a2 >= 0, _dist(m.q[a2] - lq, m.r[a2] - lr), _FAR)
            R1 = _dist(m.q[a1] - uq, m.r[a1] - ur)
            R2 = _dist(m.q[a2] - uq, m.r[a2] - ur)
            # the side's hex nearer the lower end (then farther from the higher); a cliff's top
            first = (D1 < D2) | ((D1 == D2) & (R1 >= R2))
            g1, g2 = self.ground[a1], self.ground[a2]
            first = np.where(cliff[b] & (g1 != g2), g1 > g2, first)
            D = np.where(first, D1, D2)
            R = np.where(first, R1, R2)
            t = np.where(cliff[b], g[b], top[b])
            blind = D <= np.maximum(2 * t + R // 5 - hi[b] - lo[b] + 1, 1)
            sub[b[blind]] = BLIND
        kind[rest] = sub
        block[rest] = sub != CLEAR
        return block, kind


def _dist(dq, dr):
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


_MAX_TABLES = 8


@per_map(_MAX_TABLES)
def _table(game_map: Map) -> LosTable:
    # boards that carry the terrain as drawn (engine.raster): VASL's point rules
    from .raster_los import raster_table
    return raster_table(game_map) or LosTable(game_map)


def los_table(game_map: Map) -> LosTable:
    """The LOS table of a map, shared by every scenario on a map of the same content (one
    table built at a time: ``engine.cache``)."""
    with _LOCK:
        return _table(game_map)


# ---------------------------------------------------------------------------- explanations

KIND_RULE = {HILL: "A6.2", HIGHER: "A6.2", EQUAL: "A6.2", BLIND: "A6.4", HINDRANCES: "A6.1",
             HALF: "B24.1 / A6.2", WALL: "B9.2", DEPRESSION: "A6.3"}


def explain_block(m: Map, lines: DayLines, k: int) -> str:
    """A sentence saying why line k of ``lines`` is blocked (or that it is clear)."""
    src = m.names[lines.viewer]
    dst = m.names[int(lines.targets[k])]
    if lines.clear[k]:
        h = int(lines.hindrances[k])
        extra = f", through {h} hindrance{'s' if h != 1 else ''} (+{h} DRM, A6.1)" if h else ""
        return f"daytime LOS from {src} to {dst} is clear{extra} (A6.1)"
    kind = int(lines.kind[k])
    b1, b2 = int(lines.block_h1[k]), int(lines.block_h2[k])
    side = 0 if lines.block_side is None else int(lines.block_side[k])
    if side:
        return _explain_side(m, lines, k, side, kind, src, dst)
    where = _hex_words(m, b1)
    if b2 != b1:
        where = f"the hexside of {_hex_words(m, b1)} and {_hex_words(m, b2)} (both block, A6.1)"
    hi = max(lines.viewer_elev, int(lines.target_elev[k]))
    lo = min(lines.viewer_elev, int(lines.target_elev[k]))
    if kind == HILL:
        why = f"its ground is higher than both ends (levels {lo} and {hi})"
    elif kind == HIGHER:
        why = f"its obstacle rises above both ends (levels {lo} and {hi})"
    elif kind == EQUAL:
        why = (f"it is as high as the higher end (level {hi}) and above the lower (level {lo}): "
               "no height advantage")
    elif kind == BLIND:
        why = f"{dst} lies in its blind hexes, seen from level {hi} down to level {lo}"
    elif kind == HALF:
        why = (f"its half-level obstacle stands on the ground level of both ends (level {lo})")
    elif kind == DEPRESSION:
        why = ("the line leaves or enters the depression where the range and levels do not "
               "allow it")
    else:
        why = "six or more hindrances block"
    return f"{where} blocks LOS from {src} to {dst}: {why} ({KIND_RULE[kind]})"


def hexside_words(m: Map, i: int, j: int) -> str:
    """``"2M4/2M5"``: a hexside by its two hexes (the edge of the map for one off it)."""
    names = [m.names[x] for x in (i, j) if x >= 0]
    return "/".join(names) if len(names) == 2 else f"{names[0]} map edge"


def _explain_side(m: Map, lines: DayLines, k: int, side: int, kind: int, src: str, dst: str
                  ) -> str:
    """Why hexside terrain blocks line k (RULES.md 7), naming the hexside and its rule."""
    h = HEXSIDE_BY_CODE[side]
    b1, b2 = int(lines.block_h1[k]), int(lines.block_h2[k])
    where = f"the {h.label} on the {hexside_words(m, b1, b2)} hexside"
    hi = max(lines.viewer_elev, int(lines.target_elev[k]))
    lo = min(lines.viewer_elev, int(lines.target_elev[k]))
    if kind == WALL:
        why = f"both ends are at its ground level (level {lo}) and it is no end's own hexside"
    elif kind == HIGHER:
        why = f"it rises above both ends (levels {lo} and {hi})"
    elif kind == EQUAL:
        why = (f"it is as high as the higher end (level {hi}) and above the lower (level {lo}): "
               "no height advantage")
    else:
        cliff = " (a cliff: the obstacle count, VASL)" if h.kind == "cliff" else ""
        why = f"{dst} lies in its blind hexes{cliff}, seen from level {hi} down to level {lo}"
    rule = h.rule if kind != BLIND else f"{h.rule} / A6.4"
    return f"{where} blocks LOS from {src} to {dst}: {why} ({rule})"


def _hex_words(m: Map, i: int) -> str:
    if i < 0:
        return "off-map ground"
    t = BY_CODE[int(m.terrain[i])]
    return f"{m.names[i]} ({t.label}, level {int(m.level[i])})"


def hexsides_crossed(m: Map, a: int, b: int) -> list[tuple[int, int, str, bool]]:
    """The hexside terrain the line from hex a to hex b crosses, nearest first: (hex, hex,
    terrain name, ignored on an end's own hexside or hexspine; RULES.md 7)."""
    dq, dr = int(m.q[b] - m.q[a]), int(m.r[b] - m.r[a])
    tr = line_transits(dq, dr)
    if not len(tr.t):
        return []
    cube = lambda o: np.stack([o[:, 0], -o[:, 0] - o[:, 1], o[:, 1]])  # noqa: E731
    flags = _transit_flags(cube(tr.sides[:, 0]), cube(tr.sides[:, 1]), dq, dr)
    out = []
    for (p, q), k, flag in zip(tr.sides.tolist(), tr.direction.tolist(), flags.tolist()):
        i = int(m.lookup_axial(m.q[a] + p[0], m.r[a] + p[1]))
        j = int(m.lookup_axial(m.q[a] + q[0], m.r[a] + q[1]))
        code = max(int(m.hexside[i, k]) if i >= 0 else 0,
                   int(m.hexside[j, (k + 3) % 6]) if j >= 0 else 0)
        if code:
            side = HEXSIDE_BY_CODE[code]
            ignored = bool((flag == _OWN and side.ignorable) or (flag == _SPINE and side.spine_ignorable))
            out.append((i, j, side.name, ignored))
    return out
