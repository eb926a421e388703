"""Daytime line of sight (A6), the base that night rules restrict.

Per map, a ``LosTable`` answers "what does the line from hex A (at elevation Ea) to every hex B
(at elevation Eb) meet" with numpy arrays.  The geometry of a line depends only on the axial
difference B - A (``hexes.line_crossing``), and the twelve symmetries of the hex grid map lines
onto lines, so the exact crossing is computed once per difference up to symmetry and kept in flat
arrays (CSR) shared by every map: a viewer's lines to all hexes are then one gather and a few
vector operations (issue 5: speed).

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
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .hexes import line_crossing
from .maps import Map
from .terrain import BY_CODE, ORCHARD

# why a line is blocked (codes kept in arrays; sentences built only when asked for)
CLEAR, HILL, HIGHER, EQUAL, BLIND, HINDRANCES = 0, 1, 2, 3, 4, 5
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
            hit = (cube(cr.interior), cr.interior_t, cube(cr.sides[:, 0, :]),
                   cube(cr.sides[:, 1, :]), cr.sides_t)
            self._canon[canon] = hit
        return hit

    def _add(self, keys: np.ndarray) -> None:
        parts_i, parts_s, ic, sc = [], [], [], []
        for dq, dr in keys.tolist():
            canon, inv, sign = _canonical(dq, -dq - dr, dr)
            ci, ti, cs1, cs2, ts = self._canonical_crossing(canon)
            ii = sign * ci[inv]
            s1 = sign * cs1[inv]
            s2 = sign * cs2[inv]
            parts_i.append((ii[0], ii[2], ti))
            parts_s.append((s1[0], s1[2], s2[0], s2[2], ts))
            ic.append(len(ti))
            sc.append(len(ts))
        ic = np.array(ic, np.int64)
        sc = np.array(sc, np.int64)
        self.istart = np.concatenate([self.istart, len(self.iq) + np.cumsum(ic) - ic])
        self.sstart = np.concatenate([self.sstart, len(self.sq1) + np.cumsum(sc) - sc])
        self.icount = np.concatenate([self.icount, ic])
        self.scount = np.concatenate([self.scount, sc])
        self.iq = np.concatenate([self.iq] + [p[0] for p in parts_i])
        self.ir = np.concatenate([self.ir] + [p[1] for p in parts_i])
        self.it = np.concatenate([self.it] + [p[2] for p in parts_i])
        self.sq1 = np.concatenate([self.sq1] + [p[0] for p in parts_s])
        self.sr1 = np.concatenate([self.sr1] + [p[1] for p in parts_s])
        self.sq2 = np.concatenate([self.sq2] + [p[2] for p in parts_s])
        self.sr2 = np.concatenate([self.sr2] + [p[3] for p in parts_s])
        self.st = np.concatenate([self.st] + [p[4] for p in parts_s])
        new_ids = self.n + np.arange(len(keys))
        self.grid[keys[:, 0] + self.span, keys[:, 1] + self.span] = new_ids
        self.n += len(keys)


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
        # a lookup grid with a margin: every hex a line between two map hexes meets is inside
        self.q0, self.r0 = int(m.q.min()) - 2, int(m.r.min()) - 2
        w = int(m.q.max()) - self.q0 + 3
        hgt = int(m.r.max()) - self.r0 + 3
        grid = np.full((w, hgt), -1, dtype=np.int64)
        grid[m.q - self.q0, m.r - self.r0] = np.arange(m.size)
        self.grid = grid.ravel()
        self.stride = hgt
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size or 2 * m.size + 64
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
            if getattr(self, "_foff_len", None) != (len(C.iq), len(C.sq1)):
                self._foff = (C.iq * self.stride + C.ir, C.sq1 * self.stride + C.sr1,
                              C.sq2 * self.stride + C.sr2)
                self._foff_len = (len(C.iq), len(C.sq1))
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
            self.prepare()
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
        ioff, soff1, soff2 = self._flat_offsets()

        # hexes whose interior the line enters
        pos, owner = _segments(C.istart[ids], C.icount[ids])
        h = self.grid[base + ioff[pos]]
        t = C.it[pos]
        block, hind = self._blocks(h, owner, hi_t, lo_t, viewer, viewer_elev, targets, te)
        first_t = np.full(n, _FAR, dtype=np.int64)
        bi = np.flatnonzero(block)
        np.minimum.at(first_t, owner[bi], t[bi])

        # hexsides it runs along: a pair blocks only when both hexes block (A6.1)
        spos, sowner = _segments(C.sstart[ids], C.scount[ids])
        if len(spos):
            h1 = self.grid[base + soff1[spos]]
            h2 = self.grid[base + soff2[spos]]
            b1, d1 = self._blocks(h1, sowner, hi_t, lo_t, viewer, viewer_elev, targets, te)
            b2, d2 = self._blocks(h2, sowner, hi_t, lo_t, viewer, viewer_elev, targets, te)
            sblock = b1 & b2
            shind = (d1 | b1) & (d2 | b2) & ~sblock
            st = C.st[spos]
            sb = np.flatnonzero(sblock)
            np.minimum.at(first_t, sowner[sb], st[sb])
        else:
            shind = np.zeros(0, dtype=bool)

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
        if len(bi):
            sel = bi[t[bi] == first_t[owner[bi]]]
            o, first = np.unique(owner[sel], return_index=True)
            b1_out[o] = b2_out[o] = h[sel[first]]
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
        known = np.flatnonzero(~clear & ~six & (b1_out >= 0))
        if len(known):
            k1 = self._kind(b1_out[known], known, hi_t, lo_t, viewer, viewer_elev, targets, te)
            k2 = self._kind(b2_out[known], known, hi_t, lo_t, viewer, viewer_elev, targets, te)
            kind[known] = np.minimum(k1, k2)
        kind[six] = HINDRANCES
        return DayLines(viewer, viewer_elev, targets, te, clear, kind, b1_out, b2_out, hcount)

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

    def _blocks(self, h, owner, hi_t, lo_t, viewer, viewer_elev, targets, te):
        """(blocks, hinders) for entries h of lines owner (A6.2, A6.4, A6.1)."""
        top = self._tops(h, owner, hi_t, lo_t)
        hi = hi_t[owner]
        lo = lo_t[owner]
        block = (top > hi) | ((top == hi) & (top > lo))
        between = np.flatnonzero((top > lo) & (top < hi))
        if len(between):
            block[between] = self._blind(h[between], owner[between], top[between], viewer,
                                         viewer_elev, targets, te, hi[between], lo[between])
        hind = self.hindrance[h]
        k = np.flatnonzero(hind)
        if len(k):
            g = self.ground[h[k]]
            hind[k] = (hi[k] <= g + 1) & (top[k] == g) & ~block[k]
        return block, hind

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
        return kind.astype(np.int8)


def _dist(dq, dr):
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


_TABLES: OrderedDict = OrderedDict()
_MAX_TABLES = 8


def los_table(game_map: Map) -> LosTable:
    """The LOS table of a map, shared by every scenario on a map of the same content."""
    key = game_map.content_key
    with _LOCK:
        t = _TABLES.get(key)
        if t is None:
            t = LosTable(game_map)
            _TABLES[key] = t
            if len(_TABLES) > _MAX_TABLES:
                _TABLES.popitem(last=False)
        else:
            _TABLES.move_to_end(key)
        return t


# ---------------------------------------------------------------------------- explanations

KIND_RULE = {HILL: "A6.2", HIGHER: "A6.2", EQUAL: "A6.2", BLIND: "A6.4", HINDRANCES: "A6.1"}


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
    else:
        why = "six or more hindrances block"
    return f"{where} blocks LOS from {src} to {dst}: {why} ({KIND_RULE[kind]})"


def _hex_words(m: Map, i: int) -> str:
    if i < 0:
        return "off-map ground"
    t = BY_CODE[int(m.terrain[i])]
    return f"{m.names[i]} ({t.label}, level {int(m.level[i])})"
