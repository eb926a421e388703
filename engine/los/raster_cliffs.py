"""B10.23 / A6.2 over the terrain as drawn: a line along a cliff hexside (VASL's cliff hexside
test in ``Map.checkTerrainHeightRule``), for ``raster_table``.

A line along hexsides (level, or 60 degrees: VASL's LOSisHorizontal / LOSis60Degree) runs, at
an odd range from the viewer, along a hexside of the hex it is in.  When that hexside is a
cliff (B10.23), the ground beside it is the lower of the two hexes' base levels (the hex across
not counted when it is an end): the line runs at the foot of the cliff, and the upper side's
ground as high as the higher end does not block it by A6.2 ("no height advantage") while that
lower level is below the higher end.  The rulebook leaves a line exactly along a cliff open:
followed as VASL.  The hexside is the point's nearest hexside location (VASL asks the line's
hexside there).

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

from .raster_frame import CLIFF_T


class CliffRules:
    """The along-a-cliff half of ``raster_table.RasterLosTable`` (frame: ``raster_frame``)."""

    def _along_cliff(self, p, v: int, hi, rs) -> np.ndarray:
        """The points of lines along hexsides that run at the foot of a cliff hexside lower
        than the higher end (module doc): A6.2's "no height advantage" spares them."""
        out = np.zeros(len(p.code), dtype=bool)
        sel = np.flatnonzero(p.along & p.on_map & ~p.at_centre & (rs % 2 == 1))
        if not len(sel):
            return out
        hx, side = p.hx[sel], p.side[sel]
        cliff = self.cliff_side[hx, side]
        sel, hx, side = sel[cliff], hx[cliff], side[cliff]
        across = self.nb[hx, side]
        lower = self.ground[hx]
        counted = (across >= 0) & (across != v) & (across != p.t[sel])
        lower = np.where(counted, np.minimum(lower, self.ground[np.where(counted, across, 0)]),
                         lower)
        out[sel[lower < hi[sel]]] = True
        return out

    def _beside_higher_end(self, p, v: int, S: int, rs, rt, bare) -> np.ndarray:
        """B10.2 EXC (module doc): bare ground next to the higher end, below it by its hex's
        base level, on the hexside location facing that end."""
        out = np.zeros(len(p.code), dtype=bool)
        sel = np.flatnonzero(bare & p.on_map & ~p.at_centre & ((rs == 1) | (rt == 1)))
        if not len(sel):
            return out
        hx, t, T = p.hx[sel], p.t[sel], p.T[sel]
        base = self.ground[hx]
        side = p.side[sel]
        near_v = (rs[sel] == 1) & (S > base) & self._facing(hx, side, v)
        near_t = (rt[sel] == 1) & (T > base) & self._facing(hx, side, t)
        out[sel[near_v | near_t]] = True
        return out

    def _facing(self, hx, side, end) -> np.ndarray:
        """Whether a hexside location of hex ``hx`` (next to ``end``) is the one facing the
        end or one of the two beside it: the locations nearer the end's centre than ``hx``'s
        own centre is (VASL measures each point; these locations stand for it)."""
        nb = self.nb[hx]
        end = np.broadcast_to(np.asarray(end), hx.shape)
        k = np.argmax(nb == end[:, None], axis=1)
        off = (side - k) % 6
        return (nb == end[:, None]).any(axis=1) & ((off == 0) | (off == 1) | (off == 5))

    def _cliff_by_end(self, p, e, v: int, S: int, rs, rt) -> np.ndarray:
        """B10.23 next to an end (module doc): of the points ``e`` (cliff hexsides between the
        ends' elevations), those VASL's blind-hex count leaves alone."""
        hx, side, t, T = p.hx[e], p.side[e], p.t[e], p.T[e]
        down = S > T
        high_end, low_end = np.where(down, v, t), np.where(down, t, v)
        r_high, r_low = np.where(down, rs, rt), np.where(down, rt, rs)
        at_cliff = CLIFF_T[self.side_code[np.minimum(hx, len(self.side_code) - 1), side]]
        near_high = (r_high == 1) & self._facing(hx, side, high_end)
        away_low = (r_low == 1) & ~self._facing(hx, side, low_end)
        return at_cliff & (near_high | away_low)


def blind_point(viewer_elev: int, target_elev: np.ndarray, rs, rt, top, obstacle) -> np.ndarray:
    """A6.4 (VASL's isBlindHex): with the higher end's range R to the point and the point's
    range D to the lower end: D <= max(2 top + R//5 - hi - lo + 1, 1) behind an obstacle (or a
    cliff), D <= max(2 top + R//5 - hi - lo, 0) behind a crest; never between equal ends."""
    S, T = viewer_elev, target_elev
    hi = np.maximum(S, T)
    lo = np.minimum(S, T)
    R = np.where(S >= T, rs, rt)
    D = np.where(S >= T, rt, rs)
    limit = np.where(obstacle, np.maximum(2 * top + R // 5 - hi - lo + 1, 1),
                     np.maximum(2 * top + R // 5 - hi - lo, 0))
    return (S != T) & (D <= limit)
