"""B6 over the terrain as drawn: a line passing under a bridge (VASL's ``ignoreGroundLevelHex``
in ``Map.checkGroundLevelRule`` and ``checkTerrainHeightRule``), for ``raster_table``.

B6.3: a bridge's span is no obstacle to a line along the water or depression it crosses.  Once
the line meets bridge pixels (VASL's BRIDGE terrain: stone, wooden, single-hex bridges) in a
hex, the rest of that hex's ground (the bridge's road and banks, drawn at the span's level)
neither blocks as ground higher than both ends nor as high as the higher end (A6.2) - the line
runs beneath it - until the line meets a bridge in another hex; an obstacle of a level or more
in a depression hex still blocks.  VASL keeps one such hex (the last bridge hex met) and asks
its extended border; here the point's hex.
"""
from __future__ import annotations

import numpy as np

from .raster_frame import BRIDGE_T, HEIGHT


class BridgeRules:
    """The B6 half of ``raster_table.RasterLosTable`` (frame: ``raster_frame``)."""

    def _under_bridge(self, p) -> np.ndarray:
        """The points whose hex is the last hex where their line met a bridge pixel, at or
        after that pixel (the walk's points are in order, line by line)."""
        n = len(p.code)
        is_bridge = BRIDGE_T[p.code] & p.on_map
        if not is_bridge.any():
            return np.zeros(n, dtype=bool)
        last = np.maximum.accumulate(np.where(is_bridge, np.arange(n), -1))
        seen = last >= 0
        at = np.where(seen, last, 0)
        return seen & (p.line[at] == p.line) & (p.hx[at] == p.hx)

    def _still_blocks_under_bridge(self, p) -> np.ndarray:
        """VASL: under a bridge, an obstacle of a level or more in a depression hex blocks."""
        return self.depression[p.hx] & (HEIGHT[p.code] >= 1)

    def _near_bridges(self, viewer: int, targets: np.ndarray) -> np.ndarray:
        """Lines passing through a hex holding bridge pixels (within its corners' distance of its
        centre): their walk back may meet the bridge in another order (B6 is judged from the
        viewer)."""
        if not hasattr(self, "_bridge_centres"):
            hexes = np.unique(self.cls_hex[BRIDGE_T[self.cls_code] & (self.cls_hex >= 0)])
            self._bridge_centres = np.stack([self.cx[hexes], self.cy[hexes]], axis=1).astype(
                np.float64)
        near = np.zeros(len(targets), dtype=bool)
        if not len(self._bridge_centres):
            return near
        ax, ay = float(self.cx[viewer]), float(self.cy[viewer])
        dx = (self.cx[targets] - ax).astype(np.float64)[:, None]
        dy = (self.cy[targets] - ay).astype(np.float64)[:, None]
        px = self._bridge_centres[None, :, 0] - ax
        py = self._bridge_centres[None, :, 1] - ay
        length = np.maximum(dx * dx + dy * dy, 1.0)
        s = np.clip((px * dx + py * dy) / length, 0.0, 1.0)
        gap = np.hypot(px - s * dx, py - s * dy)
        return (gap <= self.geometry[2] * 2 / 3 + 2).any(axis=1)   # the hex's corners, a pixel more
