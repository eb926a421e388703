"""Hexes filled by colour drawn as one image of the view's pixels (a drag step's night field).

A ``HexRaster`` numbers, once per zoom and scroll, every pixel of the view by the hex its centre
lies in, the hex across that hex's nearest edge and the distance to that edge (for the edge's
antialiasing and for a border line along it).  ``FieldImage`` keeps an image of the view's size
whose pixels are each hex's colour, with some hexes hatched (a ``Hatch``: a small tile repeated
in screen pixels, a tint and a border line around the hatched hexes, as ``HatchOverlay`` draws
them); new colours or hatched hexes repaint only the pixels of the hexes that changed (a drag
step changes a few dozen of the map's hexes).  Filling and hatching the same hexes as paths
costs more every frame than this costs at all (tracing their outlines, then rasterizing them),
and the picture is the same but for the blend where two colours meet.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QColor, QImage

from app.hex_geometry import EDGE_DIRECTION
from app.style import SCALE

LEVELS = 16                    # distance steps per pixel near an edge
BAND = 24                      # distances kept, in LEVELS-ths of a pixel: 1.5 pixels
TILE = 8                       # a hatch tile's side, in pixels
MAX_PIXELS = 4_000_000         # a larger view draws the fills as paths (memory)
APOTHEM = np.sqrt(3.0) / 2     # centre to edge, map units (circumradius 1)


@dataclass(frozen=True)
class Hatch:
    """How hatched hexes look: ``tile`` (TILE x TILE premultiplied ARGB pixels, the tint and
    the lines) repeated from a whole pixel, and a border ``pen`` colour ``width`` pixels wide
    along the edges between hatched and other hexes."""
    tile: bytes
    pen: int                   # QColor.rgba() of the border
    width: float


class HexRaster:
    """Per pixel of a ``width`` x ``height`` device whose transform from scene coordinates is
    ``scale`` and ``(dx, dy)``: the hex its centre lies in (``first``, -1 off the map), the hex
    across the nearest edge (``second``), and ``fixed``: the distance from the pixel's centre
    to that edge in ``LEVELS``-ths of a pixel up to ``BAND``, times the tile's size, plus the
    pixel's place in a hatch tile laid from a whole pixel (what of its entry in
    ``FieldImage``'s table its hexes' classes leave alone); and the pixels of each hex, for
    changing one hex.  Hex numbers in 16 bits where the map allows: about 16 bytes a pixel
    with the per-hex copies (12 MB for a 1400 x 800 window; a view of 4 million pixels at
    most)."""

    def __init__(self, game_map, scale: float, dx: float, dy: float, width: int, height: int):
        m = game_map
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
        # distance in device pixels sets the first hex's share of the pixel and a border's
        # cover; the hex beyond it is the second
        ax, ay = np.abs(ox), np.abs(oy)
        slant = ax * f(APOTHEM) + ay * f(0.5)
        flat = ay >= slant
        south, east = oy > 0, ox > 0
        k = np.where(flat, np.where(south, 1, 4),
                     np.where(east, np.where(south, 0, 5), np.where(south, 2, 3))).astype(np.int32)
        gap = (f(APOTHEM) - np.maximum(ay, slant)) * f(px)
        near = np.clip(np.round(gap * LEVELS), 0, BAND).astype(np.uint8)
        across = np.ascontiguousarray(m.neighbours[:, np.array(EDGE_DIRECTION) - 1],
                                      dtype=np.int32).ravel()                      # (n * 6)
        edge = near < BAND
        second = np.where(edge & (first >= 0), across.take(np.maximum(first, 0) * 6 + k), first)
        hexes = np.int16 if m.size < 32767 else np.int32
        self.first = first.ravel().astype(hexes)
        self.second = second.ravel().astype(hexes)
        tx = (np.arange(width) - round(dx)) % TILE
        ty = (np.arange(height) - round(dy)) % TILE
        tile = tx[None, :] + TILE * ty[:, None]
        self.fixed = (near.astype(np.int16) * (TILE * TILE) + tile).astype(np.int16).ravel()
        self.size = m.size
        self.width, self.height = width, height
        # the pixels of each hex: as the first (with their second), and as the second near an
        # edge (with their first); each with its ``fixed``, in the same order
        pixels, starts = _groups(self.first, m.size)
        self._by_first = (pixels, self.second[pixels], self.fixed[pixels]), starts
        edge_px = np.flatnonzero(edge.ravel())
        pixels, starts = _groups(self.second[edge_px], m.size, edge_px)
        self._by_second = (pixels, self.first[pixels], self.fixed[pixels]), starts

    def pixels_of(self, hexes: np.ndarray) -> tuple[np.ndarray, ...]:
        """The pixels (flat indices) whose colour depends on any of ``hexes``, with their
        ``first``, ``second`` and ``fixed`` (read from copies in the pixels' order by hex:
        runs of neighbouring memory, not scattered reads over the whole view)."""
        where, first, second, fixed = [], [], [], []
        for (pixels, other, fix), starts, own, across in (
                (*self._by_first, first, second), (*self._by_second, second, first)):
            lo = starts[hexes]
            count = starts[hexes + 1] - lo
            total = int(count.sum())
            if total:           # the runs lo[k]..lo[k] + count[k], end to end
                at = np.arange(total) + np.repeat(lo - (np.cumsum(count) - count), count)
                where.append(pixels.take(at))
                own.append(np.repeat(hexes, count))         # the group's own hex
                across.append(other.take(at))
                fixed.append(fix.take(at))
        if not where:
            return tuple(np.zeros(0, np.int32) for _ in range(4))
        return tuple(np.concatenate(c) for c in (where, first, second, fixed))


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
    """An image of the view's pixels where each hex has the colour of its class, hatched or
    not."""

    def __init__(self, raster: HexRaster):
        self.raster = raster
        self.pixels = np.zeros(raster.width * raster.height, dtype=np.uint32)
        self.image = QImage(self.pixels.data, raster.width, raster.height,
                            QImage.Format.Format_ARGB32_Premultiplied)
        self._look: tuple | None = None
        self._classes = np.zeros(raster.size + 1, dtype=np.int32)   # the last: off the map

    def show(self, colours: list[QColor], classes: np.ndarray, hatch: Hatch | None = None,
             hatched: np.ndarray | None = None) -> None:
        """Each hex ``i`` in ``colours[classes[i] - 1]`` (class 0: nothing), hatched with
        ``hatch`` where ``hatched[i]``."""
        n = len(colours) + 1
        classes = np.append(np.asarray(classes, dtype=np.int32), 0)
        if hatch is not None and hatched is not None:
            classes[:-1] += n * np.asarray(hatched, dtype=bool)
        look = (tuple(c.rgba() for c in colours), hatch)
        if look != self._look:
            self._look = look
            self._table = _blend_table(colours, hatch)
            where = None                                         # every pixel
        else:
            where = np.flatnonzero(classes[:-1] != self._classes[:-1])     # the hexes
            if not len(where):
                return
        self._classes = classes
        r, n2 = self.raster, 2 * n
        if where is None:
            first, second, fixed = r.first, r.second, r.fixed
        else:
            where, first, second, fixed = r.pixels_of(where)
        at = classes.take(first) * n2                    # int32: classes' own type
        at += classes.take(second)
        at *= (BAND + 1) * TILE * TILE
        at += fixed
        value = self._table.take(at)
        if where is None:
            self.pixels[:] = value
        else:
            self.pixels[where] = value


def _premultiplied_argb(values: np.ndarray) -> np.ndarray:
    """(..., 4) floats b, g, r, a (0-255, premultiplied) from packed 32-bit ARGB pixels."""
    v = np.asarray(values, dtype=np.uint32)
    return np.stack([v & 255, v >> 8 & 255, v >> 16 & 255, v >> 24], axis=-1).astype(float)


def _blend_table(colours: list[QColor], hatch: Hatch | None) -> np.ndarray:
    """The premultiplied ARGB pixel of (first class, second class, distance to the edge
    between them, place in the hatch tile); a class ``c + n`` is class ``c`` hatched."""
    n = len(colours) + 1
    pre = np.array([np.zeros(4)] + [_premultiplied(c) for c in colours])          # (n, 4)
    cls, hatched = np.arange(2 * n) % n, (np.arange(2 * n) >= n).astype(float)
    d = np.arange(BAND + 1) / LEVELS                     # the pixel's centre to the edge
    share = np.minimum(1.0, 0.5 + d)                     # of the pixel, in the first hex
    s = share[None, None, :, None]
    fill = pre[cls][:, None, None, :] * s + pre[cls][None, :, None, :] * (1 - s)   # (N, N, D, 4)
    out = np.broadcast_to(fill[:, :, :, None, :], fill.shape[:3] + (TILE * TILE, 4))
    if hatch is not None:
        tile = _premultiplied_argb(np.frombuffer(hatch.tile, dtype=np.uint32))    # (T, 4)
        cover = hatched[:, None, None] * share + hatched[None, :, None] * (1 - share)  # (N, N, D)
        lines = tile[None, None, None, :, :] * cover[..., None, None]
        # the border: a line ``width`` pixels wide along the edges of the hatched hexes
        differs = hatched[:, None, None] != hatched[None, :, None]
        along = np.where(differs, np.clip(hatch.width / 2 + 0.5 - d, 0.0, 1.0), 0.0)
        pen = _premultiplied(QColor.fromRgba(hatch.pen))
        border = pen * along[..., None]                                           # (N, N, D, 4)
        over = border[:, :, :, None, :] + lines * (1 - border[:, :, :, None, 3:4] / 255)
        out = over + out * (1 - over[..., 3:4] / 255)
    mix = np.clip(np.round(out), 0, 255).astype(np.uint32)
    argb = mix[..., 0] | (mix[..., 1] << 8) | (mix[..., 2] << 16) | (mix[..., 3] << 24)
    return argb.ravel()
