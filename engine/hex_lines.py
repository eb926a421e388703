"""Exact line crossing on the hex grid (A6.1: LOS runs from centre dot to centre dot; rules.md 1).

A line between two hex centres is worked out with integers only, by the difference of the two
hexes in axial coordinates (``hexes.to_axial``): the hexes whose interior it enters, the
hexside pairs it runs along (``line_crossing``, many at once in ``line_crossings``; global hexes
in ``crossed_hexes``) and the hexsides it crosses (rules.md 7, ``line_transits``).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .hexes import DIRECTIONS, axial_distance, from_axial, to_axial


class Crossing(NamedTuple):
    """What a centre-to-centre line crosses, relative to its start (axial offsets).

    ``interior``: (k, 2) offsets of the hexes whose interior the line enters, nearest first
    (end hexes excluded).  ``sides``: (m, 2, 2) pairs of hexes whose common hexside the line runs
    along for a positive length (it enters neither).  ``interior_t`` / ``sides_t`` order them along
    the line (a common scale, smaller is nearer the start).
    """
    interior: np.ndarray
    interior_t: np.ndarray
    sides: np.ndarray
    sides_t: np.ndarray


_STEPS_AND_STAY = np.array([(0, 0)] + list(DIRECTIONS.values()), dtype=np.int64)


def cube_round_many(fq: np.ndarray, fr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cube_round`` of arrays of fractional axial points (the same rounding: half to even,
    as Python's round): the axial hex holding each."""
    q, r = fq, fr
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return rq.astype(np.int64), rr.astype(np.int64)


@lru_cache(maxsize=None)
def line_crossing(dq: int, dr: int) -> Crossing:
    """Exact crossing of the line from the centre of hex (0, 0) to the centre of hex (dq, dr).

    In cube coordinates (x, y, z) = (q, -q-r, r) a hex cell is ``|u|, |v|, |w| <= 1`` with
    u = x-y, v = y-z, w = z-x measured from its centre.  Along the line every one of u, v, w is a
    linear function of t; with t scaled by L = lcm of the slopes every interval bound is an
    integer, so "enters the interior", "runs along a hexside" and "touches a vertex only" are
    decided without any floating point.
    """
    n = axial_distance(dq, dr)
    empty2 = np.zeros((0, 2), dtype=np.int64)
    if n <= 1:
        return Crossing(empty2, np.zeros(0, np.int64), np.zeros((0, 2, 2), np.int64),
                        np.zeros(0, np.int64))
    # candidates: hexes around samples every half hex along the line, plus their neighbours
    ts = np.arange(2 * n + 1) / (2 * n)
    q0, r0 = cube_round_many(ts * dq, ts * dr)          # cube_round of every sample at once
    key = np.unique(((q0[:, None] + _STEPS_AND_STAY[:, 0]) << 21)
                    + (r0[:, None] + _STEPS_AND_STAY[:, 1] + (1 << 20)))   # sorted by (q, r)
    h = np.stack([key >> 21, (key & ((1 << 21) - 1)) - (1 << 20)], axis=1)
    h = h[~(((h[:, 0] == 0) & (h[:, 1] == 0)) | ((h[:, 0] == dq) & (h[:, 1] == dr)))]
    hq, hr = h[:, 0], h[:, 1]
    # cube of candidate and of the line end
    hx, hy, hz = hq, -hq - hr, hr
    dx, dy, dz = dq, -dq - dr, dr
    slopes = (dx - dy, dy - dz, dz - dx)
    centres = (hx - hy, hy - hz, hz - hx)
    L = 1
    for s in slopes:
        if s:
            L = L * abs(s) // math.gcd(L, abs(s))
    lo = np.zeros(len(h), dtype=np.int64)
    hi = np.full(len(h), L, dtype=np.int64)
    open_ok = np.ones(len(h), dtype=bool)     # constraints with zero slope, open cell
    closed_ok = np.ones(len(h), dtype=bool)   # ... closed cell
    for s, c in zip(slopes, centres):
        if s == 0:
            open_ok &= c == 0
            closed_ok &= np.abs(c) <= 1
            continue
        # c - 1 < t*s < c + 1 ; with T = t*L: bounds (c -+ 1) * L / s
        b1 = (c - 1) * (L // s) if s > 0 else (c + 1) * (L // s)
        b2 = (c + 1) * (L // s) if s > 0 else (c - 1) * (L // s)
        lo = np.maximum(lo, b1)
        hi = np.minimum(hi, b2)
    length = hi > lo
    interior = open_ok & length
    along = closed_ok & length & ~open_ok
    mid = lo + hi                                  # 2 * midpoint, for ordering
    order = np.argsort(mid[interior], kind="stable")
    inter = h[interior][order]
    inter_t = mid[interior][order]
    # hexsides: the two hexes sharing a side have the same contact interval
    sides, sides_t = [], []
    a_idx = np.nonzero(along)[0]
    groups: dict[tuple[int, int], list[int]] = {}
    for i in a_idx:
        groups.setdefault((int(lo[i]), int(hi[i])), []).append(int(i))
    for (l_, h_), members in sorted(groups.items()):
        if len(members) != 2:  # pragma: no cover - geometry guarantees pairs
            raise AssertionError(f"hexside run without a pair for delta {(dq, dr)}: {members}")
        sides.append([h[members[0]], h[members[1]]])
        sides_t.append(l_ + h_)
    sides_arr = np.array(sides, dtype=np.int64).reshape(-1, 2, 2)
    return Crossing(inter, inter_t, sides_arr, np.array(sides_t, dtype=np.int64))


class Crossings(NamedTuple):
    """:func:`line_crossing`'s interiors of many lines at once (CSR): line k's hexes are
    ``q, r, t[start[k]:start[k] + count[k]]``, nearest first.  Lines that run along a hexside
    (``along[k]``, lines along a hexspine) have no entries here: ask :func:`line_crossing`."""
    count: np.ndarray
    q: np.ndarray
    r: np.ndarray
    t: np.ndarray
    along: np.ndarray


_BATCH_SAMPLES = 1 << 19      # candidate hexes per slice of :func:`line_crossings` (memory)


def line_crossings(dq: np.ndarray, dr: np.ndarray) -> Crossings:
    """:func:`line_crossing` of many differences at once, each in the sector between axial
    (1, -1) and (2, -1) (``-dq <= dr <= -dq / 2``: every line is one of these up to a symmetry
    of the grid), vectorised over them with the same integer arithmetic (for speed).

    In that sector the line's angle from the map's x axis is 0 to -30 degrees, so a hex it
    enters (its centre nearer than 1 to the line) lies in a column q with |r - r*| < 2/3, r* the
    line's r at that column: the candidates are the two hexes around r* in every column."""
    dq = np.asarray(dq, dtype=np.int64).ravel()
    dr = np.asarray(dr, dtype=np.int64).ravel()
    if np.any((dr > 0) | (dr < -dq) | (2 * dr > -dq)):
        raise ValueError("line_crossings: a difference outside the sector -dq <= dr <= -dq/2")
    cand = np.where(dq > 1, 2 * (dq + 1), 0)
    cut = [0]
    total = 0
    for k, c in enumerate(cand.tolist()):
        if total + c > _BATCH_SAMPLES and k > cut[-1]:
            cut.append(k)
            total = 0
        total += c
    cut.append(len(dq))
    parts = [_line_crossings(dq[a:b], dr[a:b]) for a, b in zip(cut, cut[1:]) if b > a]
    if not parts:
        z = np.zeros(0, np.int64)
        return Crossings(z, z, z, z, np.zeros(0, bool))
    return Crossings(*(np.concatenate(p) for p in zip(*parts)))


def _line_crossings(dq, dr) -> Crossings:
    # In the sector the three slopes of line_crossing's u, v, w are s1 = 2 dq + dr > 0,
    # s2 = -dq - 2 dr >= 0 and -s3 with s3 = dq - dr > 0; s2 = 0 only along a hexspine (those
    # lines run along hexsides).  With L = lcm(s1, s2, s3) and k = L / s, a hex's open cell
    # meets the line for (c - 1) k < T < (c + 1) k on each axis (c: its centre's u, v, -w) and
    # 0 <= T <= L: the same integers as line_crossing's, per column and then per row (r0 and
    # r0 + 1 differ by +1, -2 and -1 in c), for speed.
    m = len(dq)
    s1, s2, s3 = 2 * dq + dr, -dq - 2 * dr, dq - dr
    along = (dq > 1) & (s2 == 0)
    live = np.flatnonzero((dq > 1) & (s2 != 0))
    q, r = dq[live], dr[live]
    a1, a2, a3 = s1[live], s2[live], s3[live]
    big = np.lcm(np.lcm(a1, a2), a3)
    k1, k2, k3 = big // a1, big // a2, big // a3
    # every bound is at most 2 (3 dq + 3) L: in 32 bits when that fits (for speed)
    small = 2 * (3 * int(q.max(initial=0)) + 3) * int(big.max(initial=0)) < 2 ** 31
    if small:
        q, r, k1, k2, k3, big = (v.astype(np.int32) for v in (q, r, k1, k2, k3, big))
    cols = q + 1
    first = np.cumsum(cols, dtype=q.dtype) - cols
    n = int(cols.sum())
    line = np.repeat(np.arange(len(live)), cols)
    hq = np.arange(n, dtype=q.dtype) - np.repeat(first, cols)
    r0 = (hq * np.repeat(r, cols)) // np.repeat(q, cols)  # floor of the line's r at column hq
    K1, K2, K3 = np.repeat(k1, cols), np.repeat(k2, cols), np.repeat(k3, cols)
    lo1 = (2 * hq + r0 - 1) * K1
    lo2 = (-hq - 2 * r0 - 1) * K2
    lo3 = (hq - r0 - 1) * K3
    Lc = np.repeat(big, cols)
    out = []
    for d1, d2, d3 in ((0, 0, 0), (K1, -2 * K2, -K3)):    # rows r0 and r0 + 1
        b1, b2, b3 = lo1 + d1, lo2 + d2, lo3 + d3
        lo = np.maximum(np.maximum(b1, b2), np.maximum(b3, 0))
        hi = np.minimum(np.minimum(b1 + 2 * K1, b2 + 2 * K2), np.minimum(b3 + 2 * K3, Lc))
        out.append((lo, hi))
    # candidates in line_crossing's order of columns, r0 before r0 + 1; not the two ends
    lo = np.stack([out[0][0], out[1][0]], axis=1).ravel()
    hi = np.stack([out[0][1], out[1][1]], axis=1).ravel()
    ok = hi > lo
    ok[2 * first] = False                       # the start (0, 0): column 0, row 0
    ok[2 * (first + q)] = False                 # the end (dq, dr): its last column, row r0 = dr
    inside = np.flatnonzero(ok)
    cand_line = inside >> 1
    ln = line[cand_line]
    hq_i = hq[cand_line]
    hr_i = r0[cand_line] + (inside & 1)
    mid = lo[inside] + hi[inside]                 # 2 * midpoint, for ordering
    scale = int(mid.max(initial=0)) + 1
    order = (np.argsort(ln * scale + mid, kind="stable") if len(live) * scale < 2 ** 62
             else np.lexsort((mid, ln)))
    ln, hq_i, hr_i, mid = ln[order], hq_i[order], hr_i[order], mid[order]
    count = np.zeros(m, np.int64)
    count[live] = np.bincount(ln, minlength=len(live))
    return Crossings(count, hq_i.astype(np.int64), hr_i.astype(np.int64), mid.astype(np.int64),
                     along)


def crossed_hexes(start: tuple[int, int], end: tuple[int, int]):
    """Global hexes whose interior the line start->end enters, and hexside pairs it runs along."""
    qa, ra = to_axial(*start)
    qb, rb = to_axial(*end)
    cr = line_crossing(qb - qa, rb - ra)
    inter = [from_axial(int(qa + o[0]), int(ra + o[1])) for o in cr.interior]
    sides = [tuple(from_axial(int(qa + o[0]), int(ra + o[1])) for o in pair) for pair in cr.sides]
    return inter, sides



_DIRECTION_INDEX = {v: k for k, v in enumerate(DIRECTIONS.values())}     # (dq, dr) -> 0..5


_DIRECTION_OF = np.full((3, 3), -1, dtype=np.int64)        # (dq + 1, dr + 1) -> 0..5
for (_dq, _dr), _k in _DIRECTION_INDEX.items():
    _DIRECTION_OF[_dq + 1, _dr + 1] = _k


class Transits(NamedTuple):
    """The hexsides a centre-to-centre line crosses, relative to its start (axial offsets).

    ``sides``: (k, 2, 2) the two hexes of each hexside, the first one nearer the start where the
    line passes from one to the other; ``t``: order along the line, on twice the scale of
    :class:`Crossing`'s ``interior_t`` (strictly between the elements it lies between);
    ``direction``: 0..5, the side of the first hex it is.
    """
    sides: np.ndarray
    t: np.ndarray
    direction: np.ndarray


@lru_cache(maxsize=None)
def line_transits(dq: int, dr: int) -> Transits:
    """The hexsides the line from hex (0, 0) to hex (dq, dr) crosses (rules.md 7).

    Walking the line: passing from one hex into the next (through a hexside or at a vertex of
    both) crosses their common hexside; a stretch running exactly along a hexside crosses that
    hexside (VASL: hexside terrain lies on the hexside); and where such a stretch starts or ends
    at a vertex, the line also crosses the two hexsides of the hex it leaves or enters there
    (they meet at that vertex, on the line).  Touching the far end of a hexside elsewhere is not
    crossing it.
    """
    n = axial_distance(dq, dr)
    empty = Transits(np.zeros((0, 2, 2), np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))
    if n == 0:
        return empty
    cr = line_crossing(dq, dr)
    if not len(cr.sides_t):
        # no run along a hexside (every line but those along a hexspine): from hex to hex
        seq = np.concatenate([np.zeros((1, 2), np.int64), cr.interior,
                              np.array([[dq, dr]], np.int64)])
        t_in = cr.interior_t
        ts = np.concatenate([[2 * t_in[0] - 1 if len(t_in) else 1],
                             t_in[:-1] + t_in[1:],
                             [2 * t_in[-1] + 1] if len(t_in) else []]).astype(np.int64)
        step = seq[1:] - seq[:-1]
        return Transits(np.stack([seq[:-1], seq[1:]], axis=1), ts,
                        _DIRECTION_OF[step[:, 0] + 1, step[:, 1] + 1])
    # the line's elements in order: (t, 0, hex offset) and (t, 1, (hex, hex)) for a run
    items = [(t, 0, (o[0], o[1])) for o, t in zip(cr.interior.tolist(), cr.interior_t.tolist())]
    items += [(t, 1, ((p[0][0], p[0][1]), (p[1][0], p[1][1])))
              for p, t in zip(cr.sides.tolist(), cr.sides_t.tolist())]
    items.sort()
    last_t = items[-1][0] + 1 if items else 1
    seq = [(-1, 0, (0, 0))] + items + [(last_t, 0, (dq, dr))]
    a_q, a_r, b_q, b_r, ts = [], [], [], [], []

    def add(a, b, t):
        a_q.append(a[0])
        a_r.append(a[1])
        b_q.append(b[0])
        b_r.append(b[1])
        ts.append(t)
    for (t1, k1, e1), (t2, k2, e2) in zip(seq, seq[1:]):
        t = t1 + t2 if t1 >= 0 else 2 * t2 - 1
        if k1 == 0 and k2 == 0:
            add(e1, e2, t)
        elif k1 == 0:                      # a hex, then a run along a hexside from its vertex
            add(e1, e2[0], t)
            add(e1, e2[1], t)
        else:                              # the run itself, then the hex it ends in (runs and
            add(e1[0], e1[1], 2 * t1)      # hex interiors alternate)
            add(e1[0], e2, t)
            add(e1[1], e2, t)
    aq, ar, bq, br = (np.array(v, dtype=np.int64) for v in (a_q, a_r, b_q, b_r))
    sides = np.stack([np.stack([aq, ar], axis=1), np.stack([bq, br], axis=1)], axis=1)
    dirs = _DIRECTION_OF[bq - aq + 1, br - ar + 1]
    ts = np.array(ts, dtype=np.int64)
    return Transits(sides, ts, dirs)
