"""B6 over the terrain as drawn: a line passing under a bridge (VASL's ``ignoreGroundLevelHex``
in ``Map.checkGroundLevelRule`` and ``checkTerrainHeightRule``).

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

from .frame import Frame
from .terrain import BRIDGE_T, HEIGHT


def under_bridge(points) -> np.ndarray:
    """The points whose hex is the last hex where their line met a bridge pixel, at or
    after that pixel (the walk's points are in order, line by line)."""
    count = len(points.code)
    is_bridge = BRIDGE_T[points.code] & points.on_map
    if not is_bridge.any():
        return np.zeros(count, dtype=bool)
    last = np.maximum.accumulate(np.where(is_bridge, np.arange(count), -1))
    seen = last >= 0
    at = np.where(seen, last, 0)
    return seen & (points.line[at] == points.line) & (points.hex[at] == points.hex)


def still_blocks_under_bridge(frame: Frame, points) -> np.ndarray:
    """VASL: under a bridge, an obstacle of a level or more in a depression hex blocks."""
    return frame.depression[points.hex] & (HEIGHT[points.code] >= 1)


def near_bridges(frame: Frame, viewer: int, targets: np.ndarray) -> np.ndarray:
    """Lines passing through a hex holding bridge pixels (within its corners' distance of its
    centre): their walk back may meet the bridge in another order (B6 is judged from the
    viewer)."""
    near = np.zeros(len(targets), dtype=bool)
    centres = frame.bridge_centres
    if not len(centres):
        return near
    ax, ay = float(frame.centre_x[viewer]), float(frame.centre_y[viewer])
    dx = (frame.centre_x[targets] - ax).astype(np.float64)[:, None]
    dy = (frame.centre_y[targets] - ay).astype(np.float64)[:, None]
    px = centres[None, :, 0] - ax
    py = centres[None, :, 1] - ay
    length = np.maximum(dx * dx + dy * dy, 1.0)
    along = np.clip((px * dx + py * dy) / length, 0.0, 1.0)
    gap = np.hypot(px - along * dx, py - along * dy)
    return (gap <= frame.geometry[2] * 2 / 3 + 2).any(axis=1)   # the hex's corners, a pixel more
