"""``HatchOverlay``: blind hexes, hatched (a blaze's shadows; the viewer's A6.4 blind
hexes)."""

import numpy as np
from PySide6.QtCore import QLineF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QTransform,
)

from app.hex_geometry import area, hex_rects

from .field_image import TILE, Hatch
from .overlays import MapOverlay, cosmetic_pen


class HatchOverlay(MapOverlay):
    """Hexes hatched with lines (``cross``: both diagonals), over a faint tint of the colour.

    The hatching is a small tile painted with a brush whose transform undoes the view's scale:
    lines a constant few pixels apart at any zoom, laid from a whole pixel, drawn in one fill
    (clipping thousands of lines to a many-hex path took a second a frame on a big map); the
    tile carries the tint too (one fill, not two).  With ``drawn_in`` (the night field), that
    item draws the hatching while it is shown, over its fills and under its areas' edges: in
    the image of its pixels during a drag (the outline then never traced), else as paths."""

    BORDER = 1.6                # the border's width, pixels

    def __init__(self, game_map, z_value: float, colour: QColor, cross: bool = False,
                 cached: bool = False):
        super().__init__(game_map, z_value, cached)
        self.colour = colour
        self.cross = cross
        self.tile = self._tile()
        self.drawn_in: MapOverlay | None = None     # the FillOverlay whose image draws it
        self.mask: np.ndarray | None = None     # the hexes hatched
        self._fill: QPainterPath | None = QPainterPath()
        tile = self.tile.toImage().convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        rows = np.frombuffer(tile.constBits(), dtype=np.uint8).reshape(TILE, -1)
        pixels = rows[:, :4 * TILE].copy().view(np.uint32)          # premultiplied ARGB
        self.look = Hatch(pixels.tobytes(), colour.rgba(), self.BORDER)

    def _tile(self) -> QPixmap:
        n = TILE
        pix = QPixmap(n, n)
        tint = QColor(self.colour)
        tint.setAlphaF(0.12)
        pix.fill(tint)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(self.colour, 1.3))
        for k in (-n, 0, n):            # the neighbours' lines too: the tile repeats seamlessly
            p.drawLine(QLineF(k, n, k + n, 0))
            if self.cross:
                p.drawLine(QLineF(k, 0, k + n, n))
        p.end()
        return pix

    @property
    def fill(self) -> QPainterPath:
        """The hatched hexes' outline (traced when first asked for)."""
        if self._fill is None:
            self._fill = area(self.map, self.mask)
        return self._fill

    def set_mask(self, mask: np.ndarray | None) -> None:
        """Hatch the hexes of ``mask``; only the hexes that changed are repainted."""
        mask = (np.zeros(self.map.size, dtype=bool) if mask is None
                else np.asarray(mask, dtype=bool))
        old = self.mask
        if old is not None and np.array_equal(mask, old):
            return
        self.mask = mask
        self._fill = None if mask.any() else QPainterPath()
        if old is None:
            self.update()
        else:
            self.repaint(hex_rects(self.map, np.flatnonzero(mask != old)))

    def paint(self, painter: QPainter, option, widget=None):
        if self.drawn_in is not None and self.drawn_in.isVisible():
            return                              # the field draws it, between fills and edges
        super().paint(painter, option, widget)

    def draw(self, painter: QPainter):
        if self.mask is None or not self.mask.any():
            return
        painter.setPen(Qt.PenStyle.NoPen)
        hatch = QBrush(self.tile)
        t = painter.worldTransform()
        scale = max(t.m11(), 1e-6)
        # the tile in screen pixels from a whole pixel (as the field's image lays it)
        hatch.setTransform(QTransform(1 / scale, 0, 0, 1 / scale, (round(t.dx()) - t.dx()) / scale,
                                      (round(t.dy()) - t.dy()) / scale))
        painter.setBrush(hatch)
        painter.drawPath(self.fill)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(self.colour, self.BORDER))
        painter.drawPath(self.fill)                         # its border
