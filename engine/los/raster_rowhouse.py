"""B23.71 / O5.31 over the terrain as drawn: rowhouse and interior factory walls (VASL's
``Map.checkRowhouseFactoryWall``), for ``raster_table``.

B23.71: a rowhouse bar is a wall from the ground to the roof of the building it divides; it is
not a wall or hedge that an end beside it sees over (B9.2 does not apply), so it is judged in
every hex of the line, the ends' own hexes included, even between two adjacent hexes.  Its top
is its ground + the building's height (VASL's "Rowhouse Wall, N Level" terrain heights) and it
blocks by the height rules (A6.2): above both ends; as high as the higher end and above the
lower; at both ends' elevation, being of half-level height.  Below the higher end it makes
blind hexes (A6.4) with VASL's counts, where the rulebook leaves the count open: the wall's hex
is the first blind hex (the range to the lower end + 1, from the higher end - 1), the range
from the higher end taken to the hex across the wall's nearest hexside when that is shorter
(VASL measures that one from the viewer's hex whichever end is higher: followed as VASL).

Not followed: rooftops (none here) and VASL's own case of a line along an interior factory
wall's hexspine (such a line is judged like any other).
"""
from __future__ import annotations

import numpy as np

from .day_lines import BLIND, EQUAL, HALF, HIGHER
from .raster_frame import HALF_LEVEL, OUR_HEXSIDE, ROWHOUSE_T


class RowhouseRules:
    """The B23.71 / O5.31 half of ``raster_table.RasterLosTable`` (its frame:
    ``raster_frame``)."""

    def _rowhouse_rules(self, p, marks, v: int, S: int, hi, lo, rs, rt) -> None:
        """Marks the points of rowhouse and interior factory walls that block (module doc):
        every such point on the map, in the ends' hexes too."""
        code = p.code
        e = np.flatnonzero(ROWHOUSE_T[code] & p.on_map)
        if not len(e):
            return
        top, T = p.top[e], p.T[e]
        high, low = hi[e], lo[e]
        higher = top > high                                         # A6.2
        equal = ~higher & (top == high) & (top > low)               # A6.2
        half = ~higher & ~equal & (top == S) & (top == T) & HALF_LEVEL[code[e]]
        # A6.4 with VASL's counts: the hex across the nearest hexside, then the wall's hex
        # as the first blind hex
        across = self.nb[p.hx[e], p.side[e]]
        ok = across >= 0
        r_across = np.where(ok, self._dist(np.full(len(e), v), np.where(ok, across, 0)),
                            np.iinfo(np.int64).max)
        down = S > T
        far = np.where(down, np.minimum(rs[e], r_across), np.minimum(rt[e], r_across)) - 1
        near = np.where(down, rt[e], rs[e]) + 1
        limit = np.maximum(2 * top + np.maximum(far, 0) // 5 - high - low + 1, 1)
        blind = ~(higher | equal | half) & (S != T) & (top > low) & (near <= limit)
        hit = e[(higher | equal | half | blind) & ~marks.block[e]]
        for cond, reason in ((higher, HIGHER), (equal, EQUAL), (half, HALF), (blind, BLIND)):
            pts = np.zeros(len(code), dtype=bool)
            pts[e[cond]] = True
            marks.mark(pts, reason)
        marks.side_of[hit] = OUR_HEXSIDE[code[hit]]
