"""B10.23 / A6.2 over the terrain as drawn: a line along a cliff hexside (VASL's cliff hexside
test in ``Map.checkTerrainHeightRule``).

A line along hexsides (level, or 60 degrees: VASL's LOSisHorizontal / LOSis60Degree) runs, at
an odd range from the viewer, along a hexside of the hex it is in.  When that hexside is a
cliff (B10.23), the ground beside it is the lower of the two hexes' base levels (the hex across
not counted when it is an end): the line runs at the foot of the cliff, and the upper side's
ground as high as the higher end does not block it by A6.2 ("no height advantage") while that
lower level is below the higher end.  The rulebook leaves a line exactly along a cliff open:
followed as VASL.  The hexside is the one of the two parallel to the line nearer the point
(VASL's getHexsideWhenLOSAlongHexside; here by the point's nearest side).

B10.23 next to an end (VASL's test in ``isBlindHex``): a cliff hexside of a hex next to the
higher end, on the half facing it, or next to the lower end, on the half away from it, makes
no blind hex: that end's own view down the cliff was judged already.  The same locations as
below stand for VASL's half hexes.

B10.2 EXC (VASL's test in the same rule): ground (no obstacle) as high as the higher end, in a
hex next to that end whose base level is below it, does not block on the half of that hex
nearer the end (the slope up to the end's hill): here the points whose nearest location is the
hexside facing the end or one beside it (VASL measures each point's distance to the end's
centre; these locations stand for it).
"""
from __future__ import annotations

import numpy as np

from .frame import Frame, facing, line_spines, location_terrain
from .terrain import CLIFF_T


def along_cliff(frame: Frame, ends, points, measures) -> np.ndarray:
    """The points of lines along hexsides that run at the foot of a cliff hexside lower
    than the higher end (module doc): A6.2's "no height advantage" spares them."""
    out = np.zeros(len(points.code), dtype=bool)
    sel = np.flatnonzero(points.along & points.on_map & (measures.from_viewer % 2 == 1))
    if not len(sel):
        return out
    hexes, side = points.hex[sel], points.side[sel]
    # VASL's getHexsideWhenLOSAlongHexside: of the two hexsides parallel to the line, the
    # nearer to the point (here by the point's nearest side)
    _, enter_spine = line_spines(frame, ends.viewer, ends.targets, ends.along)
    spine = enter_spine[points.line[sel]]
    a, b = (spine + 4) % 6, (spine + 1) % 6
    turn = (side - a) % 6
    side = np.where(np.minimum(turn, 6 - turn) < 2, a, b)
    cliff = frame.cliff_side[hexes, side]
    sel, hexes, side = sel[cliff], hexes[cliff], side[cliff]
    across = frame.neighbours[hexes, side]
    lower = frame.ground[hexes]
    counted = (across >= 0) & (across != ends.viewer) & (across != points.target[sel])
    lower = np.where(counted, np.minimum(lower, frame.ground[np.where(counted, across, 0)]),
                     lower)
    out[sel[lower < measures.higher[sel]]] = True
    return out


def beside_higher_end(frame: Frame, ends, points, measures, bare) -> np.ndarray:
    """B10.2 EXC (module doc): ``bare`` ground next to the higher end, below it by its hex's
    base level, on the hexside location facing that end."""
    out = np.zeros(len(points.code), dtype=bool)
    from_viewer, from_target = measures.from_viewer, measures.from_target
    sel = np.flatnonzero(bare & points.on_map
                         & ((from_viewer == 1) | (from_target == 1)))
    if not len(sel):
        return out
    hexes, target, target_elev = points.hex[sel], points.target[sel], points.target_elev[sel]
    base = frame.ground[hexes]
    side = points.side[sel]
    near_viewer = ((from_viewer[sel] == 1) & (ends.viewer_elev > base)
                   & facing(frame, hexes, side, ends.viewer))
    near_target = (from_target[sel] == 1) & (target_elev > base) & facing(frame, hexes, side,
                                                                          target)
    out[sel[near_viewer | near_target]] = True
    return out


def cliff_by_end(frame: Frame, ends, points, measures, chosen) -> np.ndarray:
    """B10.23 next to an end (module doc): of the points ``chosen`` (cliff hexsides between the
    ends' elevations), those VASL's blind-hex count leaves alone."""
    hexes, side = points.hex[chosen], points.side[chosen]
    target, target_elev = points.target[chosen], points.target_elev[chosen]
    from_viewer, from_target = measures.from_viewer[chosen], measures.from_target[chosen]
    down = ends.viewer_elev > target_elev
    high_end, low_end = np.where(down, ends.viewer, target), np.where(down, target, ends.viewer)
    from_high = np.where(down, from_viewer, from_target)
    from_low = np.where(down, from_target, from_viewer)
    at_cliff = CLIFF_T[location_terrain(frame, hexes, side)]
    near_high = (from_high == 1) & facing(frame, hexes, side, high_end)
    away_low = (from_low == 1) & ~facing(frame, hexes, side, low_end)
    return at_cliff & (near_high | away_low)


def blind_point(viewer_elev: int, target_elev: np.ndarray, from_viewer, from_target, top,
                obstacle) -> np.ndarray:
    """A6.4 (VASL's isBlindHex): with the higher end's range R to the point and the point's
    range D to the lower end: D <= max(2 top + R//5 - hi - lo + 1, 1) behind an obstacle (or a
    cliff), D <= max(2 top + R//5 - hi - lo, 0) behind a crest; never between equal ends."""
    higher = np.maximum(viewer_elev, target_elev)
    lower = np.minimum(viewer_elev, target_elev)
    viewer_higher = viewer_elev >= target_elev
    from_high = np.where(viewer_higher, from_viewer, from_target)
    to_low = np.where(viewer_higher, from_target, from_viewer)
    limit = np.where(obstacle, np.maximum(2 * top + from_high // 5 - higher - lower + 1, 1),
                     np.maximum(2 * top + from_high // 5 - higher - lower, 0))
    return (viewer_elev != target_elev) & (to_low <= limit)
