"""The hex model's daytime line of sight (A6), the base that night rules restrict.

Per map, a ``LosTable`` answers "what does the line from hex A (at elevation Ea) to every hex B
(at elevation Eb) meet" with numpy arrays, over the crossings every map shares
(``geometry.CROSSINGS``): a viewer's lines to all hexes are one gather and a few vector
operations (for speed).

A line meets *entries*, nearest first: hexes whose interior it enters, and hexsides it runs along
(a pair of hexes; the pair blocks only when both would block, A6.1).

Rules (rules.md 2):
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
- Half-level obstacles (rubble): height 0 for A6.2 / A6.4, but they block a line whose two ends
  are both at their ground level (VASL's ``checkHalfLevelTerrainRule``).

Hexside terrain (rules.md 7): ``hexside_terrain``, the other half of the class.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import NamedTuple

import numpy as np

from ..hexes import DIRECTIONS
from ..maps import Map
from ..terrain import BY_CODE, ORCHARD
from .day_lines import BLIND, CLEAR, EQUAL, HALF, HIGHER, HILL, HINDRANCES, MAX_HINDRANCES, WALL, DayLines
from .geometry import CROSSINGS, GEOMETRY_LOCK, hex_distance, segments
from .hexside_terrain import FAR, OFF_MAP_LEVEL, HexsideTerrain


class _Ends(NamedTuple):
    """The two ends of a viewer's lines (per line: the higher and lower elevation)."""
    hi_t: np.ndarray
    lo_t: np.ndarray
    viewer: int
    viewer_elev: int
    targets: np.ndarray
    te: np.ndarray


class _Hexes(NamedTuple):
    """The hexes whose interior the lines enter (one entry each), judged."""
    owner: np.ndarray           # the line of each entry
    where: np.ndarray | None    # the hexside crossed into it (rules.md 7; None: no hexsides)
    sval: np.ndarray | None     # that hexside's ``side_value``
    h: np.ndarray               # the hex (map index, -1 off the map)
    t: np.ndarray               # its order along the line
    hind: np.ndarray            # hinders (A6.1)
    wall: np.ndarray | None     # blocked by the wall or hedge crossed into it (B9.2)
    bi: np.ndarray              # the entries that block


class _Pairs(NamedTuple):
    """The hexsides the lines run along (a pair of hexes each), judged."""
    spos: np.ndarray
    sowner: np.ndarray
    h1: np.ndarray | None
    h2: np.ndarray | None
    shind: np.ndarray
    st: np.ndarray | None
    sb: np.ndarray | None       # the pairs that block (both hexes block, A6.1)


class LosTable(HexsideTerrain):
    """Daytime LOS for one map; build with :func:`engine.los.los_table` (cached by map
    content)."""
    # A6: a line between two ground locations is clear both ways or neither (engine.los.ground)
    ground_lines_symmetric = True

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
        # half-level obstacles (rubble, rules.md 7): top at ground for A6.2, plus their own rule
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
        # from both hexes of each hexside, also in the cells just off the map (rules.md 7)
        self.cell_of = (m.q - self.q0) * hgt + (m.r - self.r0)
        self.step_of = np.array([dq * hgt + dr for dq, dr in DIRECTIONS.values()] + [0], np.int64)
        if self.any_sides:
            self._build_hexsides(m)
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
        with GEOMETRY_LOCK:
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
        with GEOMETRY_LOCK:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        # the crossings this row needs are added as it meets them (``prepare`` adds the whole
        # map's at once: a big map's first field would wait for all of them)
        targets = np.arange(self.map.size)
        res = self.lines(viewer, int(self.ground[viewer]) + viewer_level, targets,
                         self.ground[:-1])
        with GEOMETRY_LOCK:
            self._cache[key] = res
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return res

    def line(self, viewer: int, viewer_level: int, target: int, target_level: int) -> DayLines:
        """One line, location to location (levels above each hex's ground)."""
        return self.lines(viewer, int(self.ground[viewer]) + viewer_level, np.array([target]),
                          np.array([int(self.ground[target]) + target_level]))

    def lines(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray) -> DayLines:
        """LOS from (viewer, its elevation) to each of ``targets`` (at ``target_elev``): the
        entries each line meets, judged by A6.2, A6.4, A6.1 and rules.md 7, nearest first."""
        m = self.map
        n = len(targets)
        te = np.asarray(target_elev, dtype=np.int64)
        vq, vr = int(m.q[viewer]), int(m.r[viewer])
        tq, tr = m.q[targets], m.r[targets]
        ids = CROSSINGS.ids(tq - vq, tr - vr)
        ends = _Ends(np.maximum(viewer_elev, te), np.minimum(viewer_elev, te), viewer,
                     viewer_elev, targets, te)
        base = (vq - self.q0) * self.stride + (vr - self.r0)
        ioff, soff1, soff2, xside = self._flat_offsets()
        first_t = np.full(n, FAR, dtype=np.int64)
        hexes = self._hex_entries(ids, base, ioff, ends, first_t)
        pairs = self._pair_entries(ids, base, soff1, soff2, ends, first_t)
        side_hit, spine_walls = self._side_terrain_met(ids, base, xside, hexes, pairs, ends,
                                                       first_t)

        # A6.1: hindrances before the first block; the sixth one blocks
        hmask = hexes.hind & (hexes.t < first_t[hexes.owner])
        hcount = np.bincount(hexes.owner[hmask], minlength=n)
        shmask = None
        if len(pairs.spos):
            shmask = pairs.shind & (pairs.st < first_t[pairs.sowner])
            hcount += np.bincount(pairs.sowner[shmask], minlength=n)
        six = hcount >= MAX_HINDRANCES
        hcount = np.minimum(hcount, MAX_HINDRANCES)
        clear = (first_t == FAR) & ~six

        # what blocks first, for the explanation and the blind-hex overlay
        kind = np.zeros(n, dtype=np.int8)
        b1_out = np.full(n, -1, dtype=np.int64)
        b2_out = np.full(n, -1, dtype=np.int64)
        side_out = np.zeros(n, dtype=np.int8)
        out = (kind, b1_out, b2_out, side_out)
        self._first_entry_blocks(hexes, pairs, first_t, out)
        if six.any():                                   # the sixth hindrance blocks first
            self._sixth_hindrance(hexes, pairs, hmask, shmask, six, out)
        side_out[six] = 0
        self._first_side_blocks(side_hit, spine_walls, first_t, six, out)
        known = np.flatnonzero(~clear & ~six & (b1_out >= 0) & (side_out == 0))
        if len(known):
            k1 = self._kind(b1_out[known], known, *ends)
            k2 = self._kind(b2_out[known], known, *ends)
            kind[known] = np.minimum(k1, k2)
        kind[six] = HINDRANCES
        return DayLines(viewer, viewer_elev, targets, te, clear, kind, b1_out, b2_out, hcount,
                        side_out)

    # ------------------------------------------------------------------- the entries met
    def _hex_entries(self, ids, base, ioff, ends, first_t) -> _Hexes:
        """The hexes whose interior the lines enter, judged (A6.2, A6.4, A6.1; rules.md 7: the
        hexside crossed into each, B9.2); each line's first block lowers ``first_t``."""
        C = CROSSINGS
        pos, owner = segments(C.istart[ids], C.icount[ids])
        where = sval = None
        if self.any_sides:     # rules.md 7: the hexside crossed into each hex, and the hex
            where = np.take(ioff, pos)
            where += 7 * base
            h = self.grid7[where]
            sval = self.side_value[where]
        else:
            h = self.grid[base + ioff[pos]]
        t = C.it[pos]
        block, hind, wall = self._blocks(h, owner, *ends, sval)
        bi = np.flatnonzero(block)
        np.minimum.at(first_t, owner[bi], t[bi])
        return _Hexes(owner, where, sval, h, t, hind, wall, bi)

    def _pair_entries(self, ids, base, soff1, soff2, ends, first_t) -> _Pairs:
        """The hexsides the lines run along: a pair blocks only when both hexes block (A6.1);
        each line's first block lowers ``first_t``."""
        C = CROSSINGS
        spos, sowner = segments(C.sstart[ids], C.scount[ids])
        if not len(spos):
            return _Pairs(spos, sowner, None, None, np.zeros(0, dtype=bool), None, None)
        h1 = self.grid[base + soff1[spos]]
        h2 = self.grid[base + soff2[spos]]
        b1, d1, _ = self._blocks(h1, sowner, *ends)
        b2, d2, _ = self._blocks(h2, sowner, *ends)
        sblock = b1 & b2
        shind = (d1 | b1) & (d2 | b2) & ~sblock
        st = C.st[spos]
        sb = np.flatnonzero(sblock)
        np.minimum.at(first_t, sowner[sb], st[sb])
        return _Pairs(spos, sowner, h1, h2, shind, st, sb)

    # ------------------------------------------------------------------ what blocks first
    def _first_entry_blocks(self, hexes: _Hexes, pairs: _Pairs, first_t, out) -> None:
        """Each line's first blocking hex (or hexside pair, A6.1; or the wall or hedge crossed
        into that hex, B9.2) into ``out`` (kind, hex, hex, hexside code)."""
        kind, b1_out, b2_out, side_out = out
        bi, owner, t, h = hexes.bi, hexes.owner, hexes.t, hexes.h
        if len(bi):
            sel = bi[t[bi] == first_t[owner[bi]]]
            o, first = np.unique(owner[sel], return_index=True)
            b1_out[o] = b2_out[o] = h[sel[first]]
            if hexes.wall is not None:      # crossed a wall or hedge into that hex (B9.2)
                w = sel[first][hexes.wall[sel[first]]]
                if len(w):
                    ow = owner[w]
                    b1_out[ow], b2_out[ow] = self._side_hexes(hexes.where[w])
                    side_out[ow] = self.side_grid[hexes.where[w]]
                    kind[ow] = WALL
        sb = pairs.sb
        if len(pairs.spos) and len(sb):
            sel = sb[pairs.st[sb] == first_t[pairs.sowner[sb]]]
            o, first = np.unique(pairs.sowner[sel], return_index=True)
            free = b1_out[o] < 0
            b1_out[o[free]] = pairs.h1[sel[first][free]]
            b2_out[o[free]] = pairs.h2[sel[first][free]]

    @staticmethod
    def _sixth_hindrance(hexes: _Hexes, pairs: _Pairs, hmask, shmask, six, out) -> None:
        """A6.1: where six hindrances block, the sixth one met is what blocks (into ``out``)."""
        _, b1_out, b2_out, _ = out
        owner, t, h = hexes.owner, hexes.t, hexes.h
        e = np.flatnonzero(hmask & six[owner])
        parts = [(owner[e], t[e], h[e], h[e])]
        if len(pairs.spos):
            se = np.flatnonzero(shmask & six[pairs.sowner])
            parts.append((pairs.sowner[se], pairs.st[se], pairs.h1[se], pairs.h2[se]))
        eo, et, eh1, eh2 = (np.concatenate(a) for a in zip(*parts))
        order = np.lexsort((et, eo))
        eo, eh1, eh2 = eo[order], eh1[order], eh2[order]
        starts = np.flatnonzero(np.r_[True, eo[1:] != eo[:-1]])
        rank = np.arange(len(eo)) - np.repeat(starts, np.diff(np.r_[starts, len(eo)]))
        pick = rank == MAX_HINDRANCES - 1
        b1_out[eo[pick]] = eh1[pick]
        b2_out[eo[pick]] = eh2[pick]

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
        if self.any_half:                  # rules.md 7: a half level blocks ends at its ground
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
        hv = hex_distance(hq - m.q[viewer], hr - m.r[viewer])
        ht = hex_distance(tq - hq, tr - hr)
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
