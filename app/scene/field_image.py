"""Hexes filled by colour drawn as one image of the view's pixels (a drag step's night field).

A ``HexRaster`` numbers, once per zoom and scroll, every pixel of the view by the hex its centre
lies in, the hex across that hex's nearest edge and how much of the pixel the first covers (the
edge's antialiasing, from the distance to the edge).  ``FieldImage`` keeps an image of the view's
size whose pixels are each hex's colour; new colours repaint only the pixels of the hexes whose
colour changed (a drag step changes a few dozen of the map's hexes).  Filling the same hexes as
paths costs more every frame than this costs at all (tracing their outlines, then rasterizing
them), and the picture is the same but for the blend where two colours meet.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor, QImage

from ..style import SCALE
from .geometry import EDGE_DIRECTION

LEVELS = 16                    # coverage steps of an edge pixel
MAX_PIXELS = 4_000_000         # a larger view draws the fills as paths (memory)
APOTHEM = np.sqrt(3.0) / 2     # centre to edge, map units (circumradius 1)


class HexRaster:
    """Per pixel of a ``width`` x ``height`` device whose transform from scene coordinates is
    ``scale`` and ``(dx, dy)``: the hex its centre lies in (``first``, -1 off the map), the hex
    across the nearest edge (``second``) and the first's share of the pixel in ``LEVELS``-ths
    (``share``); and the pixels of each hex, for changing one hex's colour."""

    def __init__(self, m, scale: float, dx: float, dy: float, width: int, height: int):
        self.key = (scale, dx, dy, width, height)
        px = scale * SCALE                                   # device pixels per map unit
        f = np.float32
        x = ((np.arange(width, dtype=f) + f(0.5) - f(dx)) / f(px))[None, :]
        y = ((np.arange(height, dtype=f) + f(0.5) - f(dy)) / f(px))[:, None]
        root3 = f(np.sqrt(3.0))
        # the nearer of the two columns' nearest centres (hexes are the centres' Voronoi cells)
        c0 = np.floor(x / f(1.5))
        shift0 = f(0.5) * (1 - c0 % 2)
        r0 = np.round(y / root3 + shift0)
        ox0, oy0 = x - f(1.5) * c0, y - root3 * (r0 - shift0)
        shift1 = f(0.5) - shift0
        r1 = np.round(y / root3 + shift1)
        ox1, oy1 = ox0 - f(1.5), y - root3 * (r1 - shift1)
        near1 = ox1 * ox1 + oy1 * oy1 < ox0 * ox0 + oy0 * oy0
        col = (c0 + near1).astype(np.int32)
        row = np.where(near1, r1, r0).astype(np.int32)
        ox, oy = np.where(near1, ox1, ox0), np.where(near1, oy1, oy0)
        c_lo, r_lo = int(m.col.min()), int(m.row.min())
        grid = np.full((int(m.col.max()) - c_lo + 3, int(m.row.max()) - r_lo + 3), -1, np.int32)
        grid[np.asarray(m.col) - c_lo + 1, np.asarray(m.row) - r_lo + 1] = np.arange(m.size)
        ci = np.clip(col - (c_lo - 1), 0, grid.shape[0] - 1)
        ri = np.clip(row - (r_lo - 1), 0, grid.shape[1] - 1)
        first = grid.ravel().take(ci * grid.shape[1] + ri)
        # the nearest edge (of the flat top and bottom, or of the four slanted ones): its
        # distance in device pixels sets the share; the hex beyond it is the second
        ax, ay = np.abs(ox), np.abs(oy)
        slant = ax * f(APOTHEM) + ay * f(0.5)
        flat = ay >= slant
        south, east = oy > 0, ox > 0
        k = np.where(flat, np.where(south, 1, 4),
                     np.where(east, np.where(south, 0, 5), np.where(south, 2, 3))).astype(np.int32)
        gap = (f(APOTHEM) - np.maximum(ay, slant)) * f(px)
        share = np.clip(np.round((f(0.5) + gap) * LEVELS), 0, LEVELS).astype(np.uint8)
        across = np.ascontiguousarray(m.neighbours[:, np.array(EDGE_DIRECTION) - 1],
                                      dtype=np.int32).ravel()                      # (n * 6)
        edge = share < LEVELS
        second = np.where(edge & (first >= 0), across.take(np.maximum(first, 0) * 6 + k), first)
        self.first = first.ravel()
        self.second = second.ravel().astype(np.int32)
        self.share = share.ravel()
        self.size = m.size
        self.width, self.height = width, height
        # the pixels of each hex: as the first, and as the second at an edge
        self._by_first = _groups(self.first, m.size)
        edge_px = np.flatnonzero(edge.ravel())
        self._by_second = _groups(self.second[edge_px], m.size, edge_px)

    def pixels_of(self, hexes: np.ndarray) -> np.ndarray:
        """The pixels (flat indices) whose colour depends on any of ``hexes``."""
        parts = []
        for order, starts in (self._by_first, self._by_second):
            for i in hexes.tolist():
                parts.append(order[starts[i]:starts[i + 1]])
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)


def _groups(values: np.ndarray, n: int, index: np.ndarray | None = None):
    """(pixel indices sorted by value, where each value 0..n-1 starts): value -1 is left out."""
    small = values.astype(np.int16) if n < 32767 else values     # 16 bits: a radix sort
    order = np.argsort(small, kind="stable").astype(np.int32)
    starts = np.searchsorted(values[order], np.arange(n + 1))
    pixels = order if index is None else index[order].astype(np.int32)
    return pixels, starts


def _premultiplied(colour: QColor) -> np.ndarray:
    a = colour.alphaF()
    return np.array([colour.blueF() * a, colour.greenF() * a, colour.redF() * a, a]) * 255


class FieldImage:
    """An image of the view's pixels where each hex has the colour of its class."""

    def __init__(self, raster: HexRaster):
        self.raster = raster
        self.pixels = np.zeros(raster.width * raster.height, dtype=np.uint32)
        self.image = QImage(self.pixels.data, raster.width, raster.height,
                            QImage.Format.Format_ARGB32_Premultiplied)
        self._colours: list[int] | None = None
        self._classes = np.zeros(raster.size + 1, dtype=np.int64)   # the last: off the map

    def show(self, colours: list[QColor], classes: np.ndarray) -> None:
        """Each hex ``i`` in ``colours[classes[i] - 1]`` (class 0: nothing)."""
        classes = np.append(np.asarray(classes, dtype=np.int64), 0)
        key = [c.rgba() for c in colours]
        if key != self._colours:
            self._colours = key
            self._table = _blend_table(colours)
            where = None                                         # every pixel
        else:
            changed = np.flatnonzero(classes[:-1] != self._classes[:-1])
            if not len(changed):
                return
            where = self.raster.pixels_of(changed)
        self._classes = classes
        r, n = self.raster, len(colours) + 1
        first = r.first if where is None else r.first[where]
        second = r.second if where is None else r.second[where]
        share = r.share if where is None else r.share[where]
        value = self._table[(classes[first] * n + classes[second]) * (LEVELS + 1) + share]
        if where is None:
            self.pixels[:] = value
        else:
            self.pixels[where] = value


def _blend_table(colours: list[QColor]) -> np.ndarray:
    """The premultiplied ARGB pixel of (first class, second class, first's share)."""
    pre = np.array([np.zeros(4)] + [_premultiplied(c) for c in colours])          # (n, 4)
    t = np.arange(LEVELS + 1) / LEVELS
    mix = (pre[:, None, None, :] * t[None, None, :, None]
           + pre[None, :, None, :] * (1 - t)[None, None, :, None])                # (n, n, L, 4)
    mix = np.clip(np.round(mix), 0, 255).astype(np.uint32)
    argb = mix[..., 0] | (mix[..., 1] << 8) | (mix[..., 2] << 16) | (mix[..., 3] << 24)
    return argb.ravel()
