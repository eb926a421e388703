"""B23.71 / O5.31 over the terrain as drawn: rowhouse and interior factory walls (VASL's
``Map.checkRowhouseFactoryWall``).

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

from ..day_lines import BLIND, EQUAL, HALF, HIGHER
from .frame import Frame, hex_range
from .terrain import HALF_LEVEL, ROWHOUSE_T


def rowhouse_blocks(frame: Frame, ends, points, measures):
    """The points of rowhouse and interior factory walls that block (module doc): every such
    point on the map, in the ends' hexes too.  Returns [(points, why)] in the order they are
    marked, or [] when the lines meet no such wall."""
    code = points.code
    e = np.flatnonzero(ROWHOUSE_T[code] & points.on_map)
    if not len(e):
        return []
    viewer_elev = ends.viewer_elev
    top, target_elev = points.top[e], points.target_elev[e]
    high, low = measures.higher[e], measures.lower[e]
    from_viewer, from_target = measures.from_viewer[e], measures.from_target[e]
    higher = top > high                                         # A6.2
    equal = ~higher & (top == high) & (top > low)               # A6.2
    half = (~higher & ~equal & (top == viewer_elev) & (top == target_elev)
            & HALF_LEVEL[code[e]])
    # A6.4 with VASL's counts: the hex across the nearest hexside, then the wall's hex
    # as the first blind hex
    across = frame.neighbours[points.hex[e], points.side[e]]
    ok = across >= 0
    from_across = np.where(ok, hex_range(frame, np.full(len(e), ends.viewer),
                                         np.where(ok, across, 0)), np.iinfo(np.int64).max)
    down = viewer_elev > target_elev
    far = np.where(down, np.minimum(from_viewer, from_across),
                   np.minimum(from_target, from_across)) - 1
    near = np.where(down, from_target, from_viewer) + 1
    limit = np.maximum(2 * top + np.maximum(far, 0) // 5 - high - low + 1, 1)
    blind = (~(higher | equal | half) & (viewer_elev != target_elev) & (top > low)
             & (near <= limit))
    out = []
    for cond, reason in ((higher, HIGHER), (equal, EQUAL), (half, HALF), (blind, BLIND)):
        pts = np.zeros(len(code), dtype=bool)
        pts[e[cond]] = True
        out.append((pts, reason))
    return out
