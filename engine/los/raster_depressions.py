"""A6.3 over the terrain as drawn (VASL's depression restrictions), for ``raster_table``:
which lines leave or enter a depression, and which points of their walk block."""
from __future__ import annotations

import numpy as np


class DepressionRules:
    """The A6.3 half of ``raster_table.RasterLosTable`` (its frame: ``raster_frame``)."""

    def _depression_lines(self, v, S, targets, te):
        """A6.3: the lines leaving the viewer's depression to a location it may not see over
        its edge (lower, higher by less than the range, or in another depression at its
        level), and those entering the target's from above by less than the range."""
        dep = self.depression
        rng = self._range(v, targets)
        exits = dep[v] & ((te < S) | ((te > S) & (te - S < rng)) | (dep[targets] & (te == S)))
        enters = dep[targets] & (S > te) & (S - te < rng)
        return exits, enters

    def _depressions(self, v, S, targets, te, line, hexi, hx, t, in_end, in_v, g):
        """A6.3 (VASL's depression restrictions): from a depression to a location it may not
        see over the depression's edge (lower, or higher by less than the range; or in another
        depression at its level), the line must stay in the depression until it reaches a hex
        that lifts the restriction; into a depression from above by less than the range, it
        must be in the depression wherever the range is more than the level difference.
        Returns (blocking points, points the height rule leaves alone) or (None, None)."""
        dep = self.depression
        exits, enters = self._depression_lines(v, S, targets, te)
        if not (exits.any() or enters.any()):
            return None, None
        # only the points of those lines (the others' are neither blocked nor skipped here)
        sel = np.flatnonzero((exits | enters)[line])
        block_all = np.zeros(len(line), dtype=bool)
        skip_all = np.zeros(len(line), dtype=bool)
        line, hx, t, in_end, in_v, g = (a[sel] for a in (line, hx, t, in_end, in_v, g))
        cur = np.where(in_end, np.where(in_v, v, t), hx)            # VASL's current hex
        base = self.ground[cur]
        T = te[line]
        pos = np.arange(len(line))
        rt = self.D[cur, t] if self.D is not None else self._dist(cur, t)
        rs = self._range(v, cur)
        lift = exits[line] & (cur != v) & ((dep[cur] & (T - base >= rt))
                                           | (~dep[cur] & (base <= S)))
        lift_at = np.full(len(targets), len(pos), dtype=np.int64)
        li = np.flatnonzero(lift)
        np.minimum.at(lift_at, line[li], pos[li])
        lift_hex = np.full(len(targets) + 1, -2, dtype=np.int64)
        got = lift_at < len(pos)
        lift_hex[np.flatnonzero(got)] = cur[lift_at[got]]
        still = exits[line] & (pos < lift_at[line])
        block = still & (g > base)
        block |= enters[line] & (rs > S - T) & ~(dep[cur] & (g == base))
        skip = (exits[line] & ~still & (cur == lift_hex[line])) | (enters[line] & dep[cur]) \
            | (still & dep[cur])
        block_all[sel] = block
        skip_all[sel] = skip
        return block_all, skip_all
