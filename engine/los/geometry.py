"""Line geometry shared by every map's LOS table (A6): the crossings of canonical lines.

The geometry of a line depends only on the axial difference B - A (``hex_lines.line_crossing``),
and the twelve symmetries of the hex grid map lines onto lines, so the exact crossing is
computed once per difference up to symmetry and kept in flat arrays (CSR) shared by every map
(``CROSSINGS``): a viewer's lines to all hexes are then one gather and a few vector operations
(for speed).  A line also crosses *hexsides* (``hex_lines.line_transits``, rules.md 7), kept in the
same CSR way with the side of the first hex each one is, and whether it is an end's own hexside
(``OWN``) or radiates from an end's vertex (``SPINE``).
"""
from __future__ import annotations

import itertools
import threading
from typing import NamedTuple

import numpy as np

from ..hex_lines import line_crossings
from ..hexes import DIRECTIONS

# transit flags: a hexside of an end hex (OWN), or radiating from an end hex's vertex (SPINE)
OWN, SPINE = 2, 1


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
        # hexsides crossed (rules.md 7).  Entering an interior hex from the one before crosses
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
        with GEOMETRY_LOCK:
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
            pos, _ = segments(start[back], count)
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


def transit_flags(x1: np.ndarray, x2: np.ndarray, dq: int, dr: int) -> np.ndarray:
    """OWN for a hexside of the line's start or end hex, SPINE for one radiating from a vertex
    of either (both its hexes next to that end hex), else 0 (cube offsets, 3 x k)."""
    def dist(c, q, r):
        return (np.abs(c[0] - q) + np.abs(c[1] + q + r) + np.abs(c[2] - r)) // 2
    flags = np.zeros(x1.shape[1], dtype=np.int8)
    for q, r in ((0, 0), (dq, dr)):
        d1, d2 = dist(x1, q, r), dist(x2, q, r)
        flags = np.maximum(flags, np.where((d1 == 0) | (d2 == 0), OWN,
                                           np.where((d1 == 1) & (d2 == 1), SPINE, 0)))
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
    """The crossings of canonical differences (axial (cx, cz), in ``hex_lines.line_crossings``'
    sector) with what ``_Crossings`` keeps of each: interior hexes (``line_crossings``), the
    side each is entered by and its flag, the side the line enters its end by; lines along a
    hexspine ((2k, -k): hexes and runs along a hexside in turn) from their pattern, exactly
    ``line_crossing`` and ``line_transits`` of them (rules.md 7)."""
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
    d0 = hex_distance(iq, ir)
    d1 = hex_distance(iq - cx[line], ir - cz[line])
    p0, p1 = np.empty_like(d0), np.empty_like(d1)
    p0[1:], p1[1:] = d0[:-1], d1[:-1]         # the hex before (the first's is the start: OWN)
    near = ((d0 == 1) & (p0 == 1)) | ((d1 == 1) & (p1 == 1))
    iflag = np.where(is_first, OWN, np.where(near, SPINE, 0)).astype(np.int8)
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
    pos, own = segments(sstart, scount)
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
    for oq, orr in ((0, 0), (2 * kx, -kx)):          # transit_flags, both ends
        d1, d2 = hex_distance(xq1 - oq, xr1 - orr), hex_distance(xq2 - oq, xr2 - orr)
        xflag = np.maximum(xflag, np.where((d1 == 0) | (d2 == 0), OWN,
                                           np.where((d1 == 1) & (d2 == 1), SPINE, 0)))
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
GEOMETRY_LOCK = threading.RLock()


def segments(start: np.ndarray, count: np.ndarray):
    """Flat positions of the CSR segments (start, count), and the segment of each position."""
    total = int(count.sum())
    owner = np.repeat(np.arange(len(count)), count)
    first = np.cumsum(count) - count
    pos = np.arange(total) + np.repeat(start - first, count)
    return pos, owner


def hex_distance(dq, dr):
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
