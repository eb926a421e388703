"""``GunflashOverlay``: locations marked by a Gunflash or a fire marker."""

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPainterPath,
)

from app import style
from app.hex_geometry import hex_polygon

from .overlays import MapOverlay, cosmetic_pen


class GunflashOverlay(MapOverlay):
    """A glowing amber ring inside each hex marked by a Gunflash (E1.8)."""

    def __init__(self, game_map, z_value: float):
        super().__init__(game_map, z_value, cached=True)
        self.rings = QPainterPath()
        self._key = None

    def set_mask(self, mask: np.ndarray | None) -> None:
        key = None if mask is None else np.packbits(np.asarray(mask, dtype=bool)).tobytes()
        if key == self._key and self._key is not None:
            return
        self._key = key
        self.rings = QPainterPath()
        for i in np.flatnonzero(mask) if mask is not None else ():
            self.rings.addPolygon(hex_polygon(self.map, int(i), 0.86))
            self.rings.closeSubpath()
        self.update()

    def draw(self, painter: QPainter):
        glow = QColor(style.GUNFLASH_LOCATION)
        glow.setAlphaF(0.35)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(glow, 7.0))
        painter.drawPath(self.rings)
        painter.setPen(cosmetic_pen(style.GUNFLASH_LOCATION, 2.2))
        painter.drawPath(self.rings)
