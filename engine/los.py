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

import itertools
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .cache import per_map
from .hex_lines import line_crossings, line_transits
from .hexes import DIRECTIONS
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
            # the differences missing, once each (unique on pairs packed: on rows it is slower)
            self._add(np.stack(_unpack(np.unique(_pack(dq[missing], dr[missing]))), axis=1))
            ids = self.grid[dq + self.span, dr + self.span]
        return ids

    def _add(self, keys: np.ndarray) -> None:
        # every key's canonical difference and symmetry; the crossings of the canonical ones at
        # once (``_canonical_geometry``), then moved back by each key's symmetry, the keys taken
        # in groups of one symmetry (for speed; the same arrays as line_crossing's, one by one)
        canon, inverse, sign = _canonical_many(keys[:, 0], keys[:, 1])
        g = _SYM_OF_PERM[inverse[:, 0] * 3 + inverse[:, 1]] * 2 + (sign < 0)
        order = np.argsort(g, kind="stable")      # a key's place in the arrays is free
        keys, canon, g = keys[order], canon[order], g[order]
        code, back = np.unique(_pack(canon[:, 0], canon[:, 2]), return_inverse=True)
        back = back.ravel()
        geo = _canonical_geometry(*_unpack(code))
        ic, sc = geo.icount[back], geo.scount[back]
        xc = 5 * sc
        groups = np.flatnonzero(np.concatenate([[True], g[1:] != g[:-1]]))
        bounds = np.append(groups, len(keys))

        def expand(start, count, cols, ts, flags):
            """Entries of the keys' segments (start, count) in the canonical arrays: each
            column pair (q, r) moved by the key's symmetry; orders and flags as they are."""
            pos, _ = _segments(start[back], count)
            ends = np.append(0, np.cumsum(count))[bounds]
            cubes = [(cq, -cq - cr_, cr_) for cq, cr_ in cols]
            out = [np.empty(len(pos), np.int64) for _ in range(2 * len(cols))]
            for a, b, gk in zip(ends[:-1], ends[1:], g[groups].tolist()):
                p = pos[a:b]
                (i0, _, i2), sg = _SYM_INV[gk], _SYM_SIGN[gk]
                for j, cube in enumerate(cubes):
                    q_, r_ = cube[i0][p], cube[i2][p]
                    if sg < 0:
                        np.negative(q_, out=q_)
                        np.negative(r_, out=r_)
                    out[2 * j][a:b] = q_
                    out[2 * j + 1][a:b] = r_
            return pos, out, ts[pos], None if flags is None else flags[pos]

        pos, (iq, ir), it, iflag = expand(geo.istart, ic, [(geo.iq, geo.ir)], geo.it, geo.iflag)
        idir = np.empty(len(pos), np.int64)
        ends = np.append(0, np.cumsum(ic))[bounds]
        for a, b, gk in zip(ends[:-1], ends[1:], g[groups].tolist()):
            idir[a:b] = _SYM_DIR[gk][geo.idir[pos[a:b]]]
        _, (sq1, sr1, sq2, sr2), st, _ = expand(
            geo.sstart, sc, [(geo.sq1, geo.sr1), (geo.sq2, geo.sr2)], geo.st, None)
        _, (xq1, xr1, xq2, xr2), xt, xflag = expand(
            geo.xstart, xc, [(geo.xq1, geo.xr1), (geo.xq2, geo.xr2)], geo.xt, geo.xflag)
        tdir = _SYM_DIR[g, geo.tdir[back]]
        self.istart = np.concatenate([self.istart, len(self.iq) + np.cumsum(ic) - ic])
        self.sstart = np.concatenate([self.sstart, len(self.sq1) + np.cumsum(sc) - sc])
        self.xstart = np.concatenate([self.xstart, len(self.xq1) + np.cumsum(xc) - xc])
        self.icount = np.concatenate([self.icount, ic])
        self.scount = np.concatenate([self.scount, sc])
        self.xcount = np.concatenate([self.xcount, xc])
        for name, new in (("iq", iq), ("ir", ir), ("it", it), ("idir", idir), ("iflag", iflag),
                          ("tdir", tdir), ("sq1", sq1), ("sr1", sr1), ("sq2", sq2),
                          ("sr2", sr2), ("st", st), ("xq1", xq1), ("xr1", xr1), ("xq2", xq2),
                          ("xr2", xr2), ("xt", xt), ("xflag", xflag),
                          ("xdir", _DIR_OF[xq2 - xq1 + 1, xr2 - xr1 + 1])):
            setattr(self, name, np.concatenate([getattr(self, name), new]))
        new_ids = self.n + np.arange(len(keys))
        assert len(self.idir) == len(self.iq) and len(self.tdir) == self.n + len(keys)
        self.grid[keys[:, 0] + self.span, keys[:, 1] + self.span] = new_ids
        self.n += len(keys)


def _pack(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairs of integers (``b`` within 32 bits, signed) as one 64-bit integer each, in the
    pairs' order: for ``np.unique`` on pairs."""
    return np.asarray(a, dtype=np.int64) * (1 << 32) + b


def _unpack(code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``_pack`` made."""
    a = (code + (1 << 31)) >> 32
    return a, code - a * (1 << 32)


_DIR_OF = np.full((3, 3), -1, dtype=np.int64)      # (dq + 1, dr + 1) -> side 0..5
for _k, (_dq, _dr) in enumerate(DIRECTIONS.values()):
    _DIR_OF[_dq + 1, _dr + 1] = _k
_STEP_DIR = np.full(25, -1, dtype=np.int64)          # (dq + 2) * 5 + (dr + 2) -> side, or -1
_STEP_DIR.reshape(5, 5)[1:4, 1:4] = _DIR_OF


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


class _Geometry(NamedTuple):
    """Crossings of canonical differences, in ``_Crossings``' CSR layout (one segment each)."""
    icount: np.ndarray
    istart: np.ndarray
    iq: np.ndarray
    ir: np.ndarray
    it: np.ndarray
    idir: np.ndarray
    iflag: np.ndarray
    tdir: np.ndarray
    scount: np.ndarray
    sstart: np.ndarray
    sq1: np.ndarray
    sr1: np.ndarray
    sq2: np.ndarray
    sr2: np.ndarray
    st: np.ndarray
    xstart: np.ndarray
    xq1: np.ndarray
    xr1: np.ndarray
    xq2: np.ndarray
    xr2: np.ndarray
    xt: np.ndarray
    xflag: np.ndarray


# a run of a line along a hexspine (2, -1) from hex j (2, -1): the five hexsides it crosses
# (line_transits' order: into the run's two hexes, the run itself, out of them), as offsets
_RUN_1 = np.array([(0, 0), (0, 0), (1, -1), (1, -1), (1, 0)], np.int64)
_RUN_2 = np.array([(1, -1), (1, 0), (1, 0), (2, -1), (2, -1)], np.int64)


def _canonical_geometry(cx: np.ndarray, cz: np.ndarray) -> _Geometry:
    """The crossings of canonical differences (axial (cx, cz), in ``hexes.line_crossings``'
    sector) with what ``_Crossings`` keeps of each: interior hexes (``line_crossings``), the
    side each is entered by and its flag, the side the line enters its end by; lines along a
    hexspine ((2k, -k): hexes and runs along a hexside in turn) from their pattern, exactly
    ``line_crossing`` and ``line_transits`` of them (RULES.md 7)."""
    cr = line_crossings(cx, cz)
    m = len(cx)
    spine = cr.along
    k = np.where(spine, cx // 2, 0)
    icount = np.where(spine, np.maximum(k - 1, 0), cr.count)
    istart = np.cumsum(icount) - icount
    n = int(icount.sum())
    # line_crossings' entries, with the hexes of lines along a hexspine put in their place:
    # hex j (2, -1), j = 1 .. k - 1, at 6 j on line_crossing's scale
    sp = np.flatnonzero(spine)
    at = (np.cumsum(cr.count) - cr.count)[sp]
    parts: list = [[], [], []]
    done = 0
    for line_at, kk in zip(at.tolist(), k[sp].tolist()):
        j = np.arange(1, kk)
        for part, whole, extra in zip(parts, (cr.q, cr.r, cr.t), (2 * j, -j, 6 * j)):
            part += [whole[done:line_at], extra]
        done = line_at
    iq, ir, it = (np.concatenate(part + [whole[done:]]) for part, whole
                  in zip(parts, (cr.q, cr.r, cr.t)))
    it *= 2
    # the side of each interior hex the line enters it by, and whether that side is an end's
    # own (the first) or on an end's hexspine (both hexes next to that end)
    line = np.repeat(np.arange(m), icount)
    is_first = np.zeros(n, bool)
    is_first[istart[icount > 0]] = True
    pq, pr = np.empty_like(iq), np.empty_like(ir)
    pq[1:], pr[1:] = iq[:-1], ir[:-1]
    pq[is_first] = 0
    pr[is_first] = 0
    # consecutive hexes are next to each other but on a line along a hexspine (no side: 6)
    idir = np.where(spine[line], 6, _STEP_DIR[(pq - iq + 2) * 5 + (pr - ir + 2)])
    d0 = _dist(iq, ir)
    d1 = _dist(iq - cx[line], ir - cz[line])
    p0, p1 = np.empty_like(d0), np.empty_like(d1)
    p0[1:], p1[1:] = d0[:-1], d1[:-1]         # the hex before (the first's is the start: OWN)
    near = ((d0 == 1) & (p0 == 1)) | ((d1 == 1) & (p1 == 1))
    iflag = np.where(is_first, _OWN, np.where(near, _SPINE, 0)).astype(np.int8)
    last = np.maximum(istart + icount - 1, 0)
    lq = np.where(icount > 0, iq[last] if n else 0, 0)
    lr = np.where(icount > 0, ir[last] if n else 0, 0)
    still = (cx == 0) & (cz == 0)
    tdir = np.where(spine | still, 6, _DIR_OF[np.clip(lq - cx + 1, 0, 2),
                                              np.clip(lr - cz + 1, 0, 2)])
    # lines along a hexspine: run j between hexes j and j + 1 runs along the hexside of
    # (2j + 1, -j - 1) and (2j + 1, -j), at 6 j + 3; five hexsides crossed per run
    scount = k
    sstart = np.cumsum(scount) - scount
    pos, own = _segments(sstart, scount)
    j = pos - sstart[own]
    sq1, sr1, sq2, sr2, st = 2 * j + 1, -j - 1, 2 * j + 1, -j, 12 * j + 6
    xstart = 5 * sstart
    e = np.tile(np.arange(5), len(j))
    jx, kx = np.repeat(j, 5), np.repeat(k[own], 5)
    xq1, xr1 = 2 * jx + _RUN_1[e, 0], -jx + _RUN_1[e, 1]
    xq2, xr2 = 2 * jx + _RUN_2[e, 0], -jx + _RUN_2[e, 1]
    xt = np.where(e < 2, np.where(jx == 0, 5, 12 * jx + 3),
                  np.where(e == 2, 12 * jx + 6, np.where(jx == kx - 1, 12 * kx - 5,
                                                         12 * jx + 9)))
    xflag = np.zeros(len(e), np.int8)
    for oq, orr in ((0, 0), (2 * kx, -kx)):          # _transit_flags, both ends
        d1, d2 = _dist(xq1 - oq, xr1 - orr), _dist(xq2 - oq, xr2 - orr)
        xflag = np.maximum(xflag, np.where((d1 == 0) | (d2 == 0), _OWN,
                                           np.where((d1 == 1) & (d2 == 1), _SPINE, 0)))
    return _Geometry(icount, istart, iq, ir, it, idir, iflag, tdir, scount, sstart, sq1, sr1,
                     sq2, sr2, st, xstart, xq1, xr1, xq2, xr2, xt, xflag.astype(np.int8))


# the twelve symmetries of the grid, numbered 2 x (inverse permutation) + (sign < 0), as
# _canonical_many gives them; and where each takes the six sides (6: none; -1 stays -1)
_PERMS = list(itertools.permutations(range(3)))
_SYM_OF_PERM = np.full(9, -1, np.int64)
for _k, _p in enumerate(_PERMS):
    _SYM_OF_PERM[_p[0] * 3 + _p[1]] = _k
_SYM_INV = [p for p in _PERMS for _ in (1, -1)]
_SYM_SIGN = [s for _ in _PERMS for s in (1, -1)]
_SYM_DIR = np.full((12, 8), -1, np.int64)
for _g, (_p, _s) in enumerate(zip(_SYM_INV, _SYM_SIGN)):
    for _k, (_dq, _dr) in enumerate(DIRECTIONS.values()):
        _c = (_dq, -_dq - _dr, _dr)
        _SYM_DIR[_g, _k] = _DIR_OF[_s * _c[_p[0]] + 1, _s * _c[_p[2]] + 1]
    _SYM_DIR[_g, 6] = 6


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
            # the hex of each cell, by the same index
            self.grid7 = np.tile(np.repeat(self.grid, 7), 3)
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
        """Every crossing entry as an offset into this map's lookup grid, kept in step with the
        shared crossings (they only grow: the new entries' offsets are added).  On a map with
        hexside terrain an interior entry's offset is that of the side it is entered by, in
        the layer of its flag (``side_grid``'s index less 7 x the viewer's cell: the hex and
        its side in one gather, for speed)."""
        C = CROSSINGS
        with _LOCK:
            old = getattr(self, "_foff", None)
            have = self._foff_len if old is not None else (0, 0, 0)
            now = (len(C.iq), len(C.sq1), len(C.xq1))
            if old is None or have != now:
                a, b, c = have
                layer, stride = getattr(self, "layer", 0), self.stride
                ioff = C.iq[a:] * stride + C.ir[a:]
                if self.any_sides:      # the side crossed into the hex, in its layer
                    ioff = ioff * 7 + C.idir[a:] + C.iflag[a:].astype(np.int64) * layer
                new = (ioff, C.sq1[b:] * stride + C.sr1[b:], C.sq2[b:] * stride + C.sr2[b:],
                       ((C.xq2[c:] * stride + C.xr2[c:]) * 7 + (C.xdir[c:] + 3) % 6
                        + C.xflag[c:].astype(np.int64) * layer).reshape(-1, 5))
                self._foff = new if old is None else tuple(np.concatenate([o, v])
                                                           for o, v in zip(old, new))
                self._foff_len = now
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
        ioff, soff1, soff2, xside = self._flat_offsets()

        # hexes whose interior the line enters
        pos, owner = _segments(C.istart[ids], C.icount[ids])
        where = sval = None
        if self.any_sides:     # RULES.md 7: the hexside crossed into each hex, and the hex
            where = np.take(ioff, pos)
            where += 7 * base
            h = self.grid7[where]
            sval = self.side_value[where]
        else:
            h = self.grid[base + ioff[pos]]
        t = C.it[pos]
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
        side_hit = spine_walls = None
        if self.any_sides and (self.any_nonwall or self.any_own_seen):
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
        elif self.any_sides and len(spos):
            # walls and hedges only (the map's other hexside terrain is none): those on the
            # hexsides of lines along a hexspine block the lines whose two ends are at their
            # ground level (B9.2), as ``_sides_met`` and ``_side_blocks`` find them
            xwhere = xside[spos] + 7 * base               # 5 hexsides per run
            xval = self.side_value[xwhere].ravel()
            k = np.flatnonzero(xval > _NONWALL)
            if len(k):
                xo = sowner[k // 5]
                k = k[(xval[k] == hi_t[xo]) & (xval[k] == lo_t[xo])]
                if len(k):
                    xo, xt, xwhere = sowner[k // 5], C.xt[5 * spos[k // 5] + k % 5], \
                        xwhere.ravel()[k]
                    np.minimum.at(first_t, xo, xt)
                    spine_walls = (xo, xt, xwhere)

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
        if spine_walls is not None:          # walls and hedges along hexspines
            xo, xt, xwhere = spine_walls
            sel = np.flatnonzero((xt == first_t[xo]) & ~six[xo])
            if len(sel):                # each line's first (its entries are in order)
                sel = sel[np.concatenate([[True], xo[sel[1:]] != xo[sel[:-1]]])]
                o = xo[sel]
                b1_out[o], b2_out[o] = self._side_hexes(xwhere[sel])
                side_out[o] = self.side_grid[xwhere[sel]]
                kind[o] = WALL
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
            where = 7 * base + xside[spos].ravel()
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
