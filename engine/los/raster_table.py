"""Daytime LOS over the terrain as drawn (A6, VASL's point rules), for boards with a raster.

On a map whose boards all carry a raster (``engine.raster_file``: terrain and ground level of
every pixel; pasted into the map's pixel frame by ``raster_frame``), the line from centre dot
to centre dot is walked pixel by pixel as VASL's ``Map.LOS`` walks it (one pixel column at a
time, every pixel row between the line's entry and exit of the column), and every point is
judged by VASL's per-point rules, in numpy for all the lines of one viewer at once:

- A6.2: ground higher than both ends blocks; an obstacle (its ground + height) higher than both
  ends blocks, a hindrance there adds a hindrance; an obstacle as high as the higher end and
  above the lower blocks ("no height advantage").
- A6.4 / B10.23: between the two ends' elevations, an obstacle or a bare crest leaves the lower
  end blind when D <= max(2 top + R//5 - hi - lo + 1, 1) (an obstacle, or a cliff hexside) or
  D <= max(2 top + R//5 - hi - lo, 0) (a crest), R the range from the higher end to the point's
  hex and D from it to the lower end; a hindrance there adds a hindrance.
- Half-level terrain (B24.1 rubble, walls...: VASL's isHalfLevelHeight) at the ground level of
  both ends blocks (obstacle) or hinders.
- Split terrain (orchards, A6.1 / B14.2): with both ends at its ground level its lower part
  rules: a hindrance (or an obstacle); otherwise the whole height.
- B9.2 hexside terrain (walls, hedges) blocks a line whose ends are both at its ground level,
  unless it is on an end's own hexsides, hexspines, or in a hex next to an end where the
  hexside's location holds no hexside terrain (VASL's isIgnorableHexsideTerrain); B9.52 bocage
  is an obstacle judged by A6.2 and A6.4.
- A6.8 Example 2: a line from a building to a location of another elevation must leave the
  building before it leaves the viewer's hex (VASL: whatever the target).
- Inherent terrain (orchard trees, rubble...) drawn over into another hex does not count there.
- A6.1: hindrances count once per range from the viewer; six block.
- A6.3: from a depression (gully, stream, sunken road) to a location it may not see over the
  edge, the line must stay in the depression until a hex lifts the restriction; into one from
  above by less than the range, it must be in the depression where the range exceeds the level
  difference (VASL's depression restriction).

Of a line's points only those that can block or hinder are judged, and a line's walk ends at
a point sure to block it; a line blocked at the first point any rule could judge is answered by
the walk itself (the compiled walk: ``raster_kernel``, which says which points each line keeps).
The hexes of the two ends are not judged (only their hexside terrain and A6.3); a point
within an end's extended border (VASL: the hex one pixel larger, java.awt.Polygon's rule)
belongs to that end.  A line along hexsides (level, or within VASL's
tolerance of 60 degrees) is judged where it lies between two hexes as in both, each with its
inherent centre terrain; for such lines VASL's table of hexside terrain at the far end of the
hexspine is followed.  Apart: rowhouse and factory walls (B23.71 / O5.31, ``raster_rowhouse``),
lines along cliffs and slopes to the higher end (``raster_cliffs``), under bridges (B6,
``raster_bridges``).  Not followed: bridges' other rules, hillocks and slopes, bocage on a
hexspine (ignored like a wall), entrenchments, counters (smoke, vehicles); a point not in an
end's border is in the hex whose centre is nearest (VASL's gridToHex splits columns in
thirds); the walk's rows use exact products where VASL adds the rise column by column.
The answer is the hex model's ``DayLines`` (blocked, the hex and the rule), read unchanged by
the night layer, the LOS thread and the precomputed tables.
"""
from __future__ import annotations

import numpy as np

from ..errors import ScenarioError
from ..maps import Map
from . import raster_bits as bits
from .day_lines import (
    BLIND,
    BUILDING_EXIT,
    CLEAR,
    DEPRESSION,
    EQUAL,
    HALF,
    HIGHER,
    HILL,
    HINDRANCES,
    MAX_HINDRANCES,
    WALL,
    DayLines,
)
from .hex_table import LosTable
from .raster_bridges import BridgeRules
from .raster_cliffs import CliffRules, blind_point
from .raster_depressions import DepressionRules
from .raster_frame import (
    BOCAGE_T,
    BRIDGE_T,
    BUILDING_T,
    BUILDING_TERRAIN_T,
    CLIFF_T,
    HALF_LEVEL,
    HEIGHT,
    HEXSIDE_T,
    IN_BUILDING_T,
    INHERENT,
    LOWER_HINDRANCE,
    LOWER_OBSTACLE,
    OBSTACLE,
    OUR_HEXSIDE,
    OUT_OF_SEASON,
    ROWHOUSE_T,
    SPLIT,
    WATER_T,
    PixelFrame,
    map_rasters,
)
from .raster_rowhouse import RowhouseRules


class _Points:
    """The points of one viewer's walk being judged (arrays aligned, one entry per point):
    the hex (``hexi``; ``hx`` with off-map points at the void row), terrain ``code``, ground
    ``g``, nearest ``side``, ``at_centre``, extended-border bits ``edge``, ``line``, its target
    ``t``, ``on_map``, in an end's hex (``in_end``) or the viewer's (``in_v``), the walk's
    order ``pos``; once cut to the candidates, the obstacle ``top`` and the target's
    elevation ``T``.  Per line: the answers of the walk itself (``answer``, ``answer_hex``:
    ``raster_kernel``)."""
    JUDGED = ("hexi", "hx", "code", "g", "side", "at_centre", "line", "t", "on_map", "in_end",
              "top", "T")


class _Marks:
    """Which points block (``block``), why the first reason met does (``why``), and the
    hexside terrain code of a hexside block (``side_of``)."""

    def __init__(self, count: int):
        self.block = np.zeros(count, dtype=bool)
        self.why = np.zeros(count, dtype=np.int8)
        self.side_of = np.zeros(count, dtype=np.int8)     # our hexside terrain code of a block

    def mark(self, cond: np.ndarray, reason: int) -> None:
        new = cond & ~self.block
        self.why[new] = reason
        self.block[:] |= cond


class RasterLosTable(LosTable, PixelFrame, DepressionRules, RowhouseRules, CliffRules, BridgeRules):
    """``LosTable`` whose lines are judged on the map's rasters (see the module doc)."""
    # VASL judges A6.3, A6.8 and B6 from the viewer: a line can be clear one way only
    ground_lines_symmetric = False

    def __init__(self, game_map: Map, rasters, cache_size: int | None = None):
        super().__init__(game_map, cache_size)
        self._build_frame(game_map, rasters)

    def mirrors(self, viewer: int, targets: np.ndarray, clear: np.ndarray, kind: np.ndarray,
                hindrances: np.ndarray) -> np.ndarray:
        """Which ground-level lines from ``viewer`` (answered ``clear``, ``kind``,
        ``hindrances``) answer the lines back too: the walk back visits the same pixels
        (``raster_kernel``), no end in a depression (A6.3) nor in a building with the other end
        at another level (A6.8), no bridge near the line (B6), not along hexsides, no end's
        centre on the frame's top row, and clear without a hindrance or blocked by more than
        hindrances (A6.1: by range from the viewer).  Each point's rule is alike both ways."""
        targets = np.asarray(targets, dtype=np.int64)
        dx = self.cx[targets] - self.cx[viewer]
        dy = self.cy[targets] - self.cy[viewer]
        same = self._reversible(dx, dy)
        bldg = BUILDING_T[self.centre_code[:-1]]
        other_level = self.ground[targets] != self.ground[viewer]
        ok = (same & ~self.depression[targets] & ~((bldg[viewer] | bldg[targets]) & other_level)
              & ~self._along_hexsides(viewer, targets) & (self.cy[targets] != 0)
              & ~self._near_bridges(viewer, targets))          # B6: judged from one end
        if self.depression[viewer] or self.cy[viewer] == 0:
            ok[:] = False
        return ok & ((clear & (hindrances == 0)) | (~clear & (kind != HINDRANCES)))

    # ---------------------------------------------------------------------------- the rules
    def lines(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray) -> DayLines:
        targets = np.asarray(targets, dtype=np.int64)
        te = np.asarray(target_elev, dtype=np.int64)
        n = len(targets)
        S = int(viewer_elev)
        clear = np.ones(n, dtype=bool)
        kind = np.zeros(n, dtype=np.int8)
        b1 = np.full(n, -1, dtype=np.int64)
        b2 = np.full(n, -1, dtype=np.int64)
        bside = np.zeros(n, dtype=np.int8)
        hcount = np.zeros(n, dtype=np.int64)
        todo = np.flatnonzero(targets != viewer)
        if len(todo):
            c, k, w1, w2, sd, h = self._judge(viewer, S, targets[todo], te[todo])
            clear[todo] = c
            kind[todo] = k
            b1[todo] = w1
            b2[todo] = w2
            bside[todo] = sd
            hcount[todo] = h
        return DayLines(viewer, S, targets, te, clear, kind, b1, b2, hcount, bside)

    def _judge(self, v: int, S: int, targets: np.ndarray, te: np.ndarray):
        """Every point of every line walked and judged (see the module doc): (clear, kind, hex,
        hex across, hexside code, hindrances) per line."""
        n = len(targets)
        # a line along hexsides (VASL: horizontal, or within a tolerance of 60 degrees): at odd
        # ranges its points lie between two hexes, and each is judged as in both, with a hex's
        # inherent centre terrain (orchard, jungle...) standing for what is drawn there
        along = self._along_hexsides(v, targets)
        p = self._points(v, S, targets, te, *self._line_modes(v, S, targets, te, along))
        if along.any():
            self._along_copies(p, v, along)
        bldg, dep_block, dep_skip = self._candidates(p, v, S, targets, te)
        hi = np.maximum(S, p.T)
        lo = np.minimum(S, p.T)
        hx, t, line = p.hx, p.t, p.line
        if self.D is not None:
            rs = self.D[v][hx]
            rt = self.D[hx, t]
            R = self.D[v][targets][line]
        else:
            rs = self._dist(hx, np.full_like(hx, v))
            rt = self._dist(hx, t)
            R = self._dist(np.full(n, v), targets)[line]
        marks, p.along = _Marks(len(p.code)), along[line]   # one entry per point judged
        if dep_block is not None:                         # A6.3, found above
            marks.mark(dep_block, DEPRESSION)
        if bldg is not None:                              # A6.8, found above
            marks.mark(bldg, BUILDING_EXIT)
        self._hexside_rules(p, marks, v, S, targets, along, hi, lo, rs, rt)
        self._rowhouse_rules(p, marks, v, S, hi, lo, rs, rt)       # B23.71 / O5.31
        hind = self._height_rules(p, marks, v, S, hi, lo, rs, rt, dep_skip)
        # A6.1: a hindrance counts between the ends, once per range from the viewer
        hind &= (rs < R) & (rt < R)
        out = self._first_blocks(p, marks, hind, n, rs)
        # the lines the walk answered (A6.2, A6.8): no point kept, blocked where it ended
        done = np.flatnonzero(p.answer)
        clear, kind, where, across, bside, hcount = out
        clear[done] = False
        kind[done] = np.array([CLEAR, HILL, HIGHER, EQUAL, BUILDING_EXIT],
                              dtype=np.int8)[p.answer[done]]
        where[done] = across[done] = p.answer_hex[done]
        bside[done] = 0
        hcount[done] = 0
        return out

    # ------------------------------------------------------------------ the points walked
    def _line_modes(self, v: int, S: int, targets: np.ndarray, te: np.ndarray,
                    along: np.ndarray):
        """Per line, the class threshold and the mode of its walk (``raster_kernel``): plain
        terrain at or below the lower end's elevation can neither block nor hinder (A6.2,
        A6.4, A6.1), nor can the ends' own hexes but by their hexside terrain; lines that need
        more keep it: A6.3 (leaving or entering a depression) every point, A6.8 (from a
        building to another elevation) every point until the line leaves the building (the
        drawn building: a hex's inherent terrain taken on a line along hexsides is never a
        building, so it can only leave earlier), lines along hexsides their points on hex
        borders (they take a hex's inherent terrain)."""
        floor = np.clip(np.minimum(S, te), -128, 126)
        threshold = self.cls_from[floor + 128]
        edge = np.where(along, bits.KEEP_EDGE, 0)
        mode = edge | bits.DROP_ENDS
        exits, enters = self._depression_lines(v, S, targets, te)
        mode = np.where(exits | enters, edge | bits.KEEP_ALL, mode)
        if BUILDING_T[self.centre_code[v]]:
            a68 = (te != S) & ~(exits | enters)
            mode = np.where(a68, mode | bits.KEEP_BUILDING, mode)
        return threshold, mode.astype(np.uint8)

    def _points(self, v: int, S: int, targets: np.ndarray, te: np.ndarray,
                threshold: np.ndarray, mode: np.ndarray) -> _Points:
        """The points of the walk (one per run of a pixel class) with what they are, as the
        lines' ``threshold`` and ``mode`` keep them (``_line_modes``); a point in an end's
        extended border belongs to that end (VASL).  The lines the walk answered itself:
        ``answer`` and ``answer_hex``."""
        p = _Points()
        cls, line, p.answer_hex, p.answer = self._walk(v, S, targets, te, threshold, mode)
        p.line = line
        p.hexi = hexi = self.cls_hex[cls]
        p.code = self.cls_code[cls]
        p.g = self.cls_lev[cls]
        p.side = self.cls_side[cls]
        p.at_centre = self.cls_centre[cls]
        p.edge = edge = self.cls_edge[cls]
        p.t = t = targets[line]
        p.on_map = on_map = hexi >= 0
        void = len(self.qa) - 1
        p.hx = hx = np.where(on_map, hexi, void)
        p.in_v = in_v = hexi == v
        p.in_end = in_end = in_v | (hexi == t)
        # a point in an end's extended border belongs to that end (VASL)
        e = np.flatnonzero((edge != 0) & ~in_end & on_map)
        if len(e):
            nbs = self.nb[hx[e]]                                # (k, 6)
            bits = (edge[e][:, None] >> np.arange(6)[None, :]) & 1
            ends = (nbs == v) | (nbs == t[e][:, None])
            in_end[e[(ends & (bits == 1)).any(axis=1)]] = True
            in_v[e[((nbs == v) & (bits == 1)).any(axis=1)]] = True
        p.pos = np.arange(len(cls))
        return p

    def _candidates(self, p: _Points, v: int, S: int, targets: np.ndarray, te: np.ndarray):
        """Only points that can block or hinder are judged: above the lower end, hexside
        terrain, half-level or split terrain at its level, A6.3's and A6.8's points; ``p`` cut
        to them (with ``top`` and ``T``, the target's elevation).  Returns (A6.8's blocks,
        A6.3's blocks, A6.3's points the height rule leaves alone), None when none apply."""
        n = len(targets)
        hexi, code, g, line, t = p.hexi, p.code, p.g, p.line, p.t
        top = g + HEIGHT[code]
        T = te[line]
        lo = np.minimum(S, T)
        cand = (top > lo) | HEXSIDE_T[code] | (HALF_LEVEL[code] & (top == lo)) \
            | (SPLIT[code] & (g == lo)) | BRIDGE_T[code]
        dep_block, dep_skip = self._depressions(v, S, targets, te, line, hexi, p.hx, t,
                                                p.in_end, p.in_v, g)
        if dep_block is not None:
            cand |= dep_block
        bldg = None
        if BUILDING_T[self.centre_code[v]]:
            # A6.8 Example 2: leave the building before leaving the viewer's hex (to another
            # elevation, whatever the target: VASL)
            order = np.arange(len(code))
            first_out = np.full(n, len(code), dtype=np.int64)
            o = np.flatnonzero(~IN_BUILDING_T[code])
            np.minimum.at(first_out, line[o], order[o])
            bldg = ((order < first_out[line]) & ~p.in_v & BUILDING_TERRAIN_T[code]
                    & (S != T) & (top >= S))
            cand |= bldg
        keep = np.flatnonzero(cand)
        p.top, p.T = top, T
        for name in _Points.JUDGED:
            setattr(p, name, getattr(p, name)[keep])
        if bldg is not None:
            bldg = bldg[keep]
        if dep_block is not None:
            dep_block, dep_skip = dep_block[keep], dep_skip[keep]
        return bldg, dep_block, dep_skip

    # ---------------------------------------------------------------------------- the rules
    def _hexside_rules(self, p: _Points, marks: _Marks, v, S, targets, along, hi, lo, rs, rt):
        """B9.2 / B9.52: hexside terrain, also in the ends' own hexes (not where VASL's
        isIgnorableHexsideTerrain ignores it, ``_ignorable``)."""
        code, g, hx, side, at_centre, line, t, top, T = (
            p.code, p.g, p.hx, p.side, p.at_centre, p.line, p.t, p.top, p.T)
        hs = HEXSIDE_T[code] & ~CLIFF_T[code] & ~ROWHOUSE_T[code] & p.on_map   # B23.71 apart
        if not hs.any():
            return
        e = np.flatnonzero(hs)
        exit_spine, enter_spine = self._line_spines(v, targets, along)
        ign = (self._ignorable(v, hx[e], side[e], at_centre[e], exit_spine[line[e]])
               | self._ignorable(t[e], hx[e], side[e], at_centre[e],
                                 enter_spine[line[e]]))
        boc = BOCAGE_T[code[e]]
        wall = ~ign & ~boc & (g[e] == S) & (g[e] == T[e])
        btop = top[e]
        bo = ~ign & boc
        bblock = bo & ((btop > hi[e]) | ((btop == hi[e]) & (btop > lo[e])))
        bblind = bo & ~bblock & (btop > lo[e]) & (btop < hi[e]) & blind_point(
            S, T[e], rs[e], rt[e], btop, np.ones(len(e), bool))
        cond = np.zeros(len(code), dtype=bool)
        cond[e[wall]] = True
        marks.mark(cond, WALL)
        cond[:] = False
        cond[e[bblock]] = True
        marks.mark(cond, HIGHER)
        cond[:] = False
        cond[e[bblind]] = True
        marks.mark(cond, BLIND)
        hit = e[wall | bblock | bblind]
        marks.side_of[hit] = OUR_HEXSIDE[code[hit]]

    def _height_rules(self, p: _Points, marks: _Marks, v, S, hi, lo, rs, rt, dep_skip):
        """A6.2, B24.1, split terrain, A6.4 / B10.23 on the hexes between the ends: marks the
        blocks, returns the points that hinder (A6.1, not yet cut to the ends' ranges)."""
        code, g, hx, side, at_centre, t, top, T = (
            p.code, p.g, p.hx, p.side, p.at_centre, p.t, p.top, p.T)
        mark = marks.mark
        h = HEIGHT[code]
        centre = self.centre_code[hx]
        # the hexes between the ends; inherent terrain drawn over from another hex is ignored
        mid = p.on_map & ~p.in_end & ~(INHERENT[code] & (centre != code))
        hind, under = np.zeros(len(code), dtype=bool), self._under_bridge(p)     # B6
        # A6.2: ground higher than both ends
        mark(mid & (g > hi) & ~under, HILL)
        mid &= ~ROWHOUSE_T[code]          # B23.71 / O5.31: their own rule (raster_rowhouse)
        # split terrain (orchards) with both ends at its ground level
        sp = mid & SPLIT[code] & (g == S) & (g == T)
        mark(sp & LOWER_OBSTACLE[code], HIGHER)
        hind |= sp & LOWER_HINDRANCE[code] & ~LOWER_OBSTACLE[code]
        # half-level terrain at both ends' level (B24.1)
        half = mid & HALF_LEVEL[code] & ~HEXSIDE_T[code] & (top == S) & (top == T)
        mark(half & OBSTACLE[code], HALF)
        hind |= half & ~OBSTACLE[code]
        # A6.2: higher than both ends
        higher = mid & ~sp & (top > hi)
        mark(higher & OBSTACLE[code], HIGHER)
        hind |= higher & ~OBSTACLE[code]
        # A6.2: as high as the higher end and above the lower (no height advantage)
        water = (WATER_T[centre] & (h < 1)
                 & (((rs == 1) & (S > T) & WATER_T[self.centre_code[t]])
                    | ((rt == 1) & (T > S) & WATER_T[self.centre_code[v]])))
        level = (mid & (top == hi) & (top > lo) & ~water
                 & (~under | self._still_blocks_under_bridge(p)))
        if level.any():                                                         # B10.23, B10.2
            level &= ~self._along_cliff(p, v, hi, rs) & ~self._beside_higher_end(
                p, v, S, rs, rt, (h == 0) & level)
        if dep_skip is not None:          # A6.3: the depression's own hexes, as VASL
            level &= ~dep_skip
        mark(level & ~OUT_OF_SEASON[code], EQUAL)
        hind |= level & OUT_OF_SEASON[code]
        # A6.4 / B10.23: blind hexes behind obstacles and crests
        # B10.23: a cliff's own pixels count a level higher here (VASL's cliffadj)
        up = top + CLIFF_T[code]
        between = mid & (up > lo) & (up < hi)
        if between.any():
            e = np.flatnonzero(between)
            cliff = ~at_centre[e] & self.cliff_side[hx[e], side[e]] & ~p.along[e]
            bl = blind_point(S, T[e], rs[e], rt[e], top[e], (h[e] > 0) | cliff)
            c = np.flatnonzero(cliff & bl)
            if len(c):                                                          # B10.23
                bl[c[self._cliff_by_end(p, e[c], v, S, rs[e[c]], rt[e[c]])]] = False
            ob, cond = OBSTACLE[code[e]], np.zeros(len(code), dtype=bool)
            cond[e[bl & ob]] = True
            mark(cond, BLIND)
            crest = bl & ~ob & (g[e] > lo[e]) & (g[e] < hi[e]) & blind_point(
                S, T[e], rs[e], rt[e], g[e], cliff)
            cond[:] = False
            cond[e[crest]] = True
            mark(cond, BLIND)
            hb = bl & ~ob & ~crest & (~OUT_OF_SEASON[code[e]] | (rt[e] == 1))
            hind[e[hb]] = True
        return hind

    def _first_blocks(self, p: _Points, marks: _Marks, hind, n: int, rs):
        """Each line's first block, or its sixth hindrance when that comes first (A6.1):
        (clear, kind, hex, hex across, hexside code, hindrances) per line."""
        line, hexi, hx, side = p.line, p.hexi, p.hx, p.side
        block, why, side_of = marks.block, marks.why, marks.side_of
        count = len(p.code)
        order = np.arange(count)
        first = np.full(n, count, dtype=np.int64)
        bi = np.flatnonzero(block)
        np.minimum.at(first, line[bi], order[bi])
        hi_pts = np.flatnonzero(hind & (order < first[line]))
        hcount = np.zeros(n, dtype=np.int64)
        sixth = np.full(n, -1, dtype=np.int64)
        if len(hi_pts):
            key = np.unique(line[hi_pts] * 4096 + np.minimum(rs[hi_pts], 4095))
            hl = key // 4096
            hcount = np.bincount(hl, minlength=n)
            # where the sixth counts: the sixth range met
            rank = np.arange(len(key)) - np.searchsorted(hl, hl)
            six_keys = key[rank == MAX_HINDRANCES - 1]
            sixth[six_keys // 4096] = six_keys % 4096
        six = hcount >= MAX_HINDRANCES
        blocked = (first < count) | six
        kind = np.zeros(n, dtype=np.int8)
        where = np.full(n, -1, dtype=np.int64)
        bl_lines = np.flatnonzero(first < count)
        kind[bl_lines] = why[first[bl_lines]]
        where[bl_lines] = hexi[first[bl_lines]]
        across = where.copy()
        bside = np.zeros(n, dtype=np.int8)
        bside[bl_lines] = side_of[first[bl_lines]]
        hs_lines = bl_lines[bside[bl_lines] > 0]
        across[hs_lines] = self.nb[hx[first[hs_lines]], side[first[hs_lines]]]
        if six.any():
            # the sixth hindrance blocks first when it comes before the block
            s = np.flatnonzero(six)
            pts = np.flatnonzero(hind & six[line])
            for li in s.tolist():
                pt = pts[(line[pts] == li) & (rs[pts] == sixth[li])]
                if len(pt) and (first[li] == count or pt[0] < first[li]):
                    kind[li] = HINDRANCES
                    where[li] = across[li] = hexi[pt[0]]
                    bside[li] = 0
        kind[~blocked] = CLEAR
        return ~blocked, kind, where, across, bside, np.minimum(hcount, MAX_HINDRANCES)


def raster_table(game_map: Map) -> RasterLosTable | None:
    """The raster LOS table of a map whose boards all carry rasters (else None)."""
    try:
        rasters = map_rasters(game_map)
    except ScenarioError:               # a raster file gone or damaged: the hex model answers
        return None
    if rasters is None:
        return None
    try:
        return RasterLosTable(game_map, rasters)
    except ValueError:
        return None


__all__ = ["RasterLosTable", "map_rasters", "raster_table"]
