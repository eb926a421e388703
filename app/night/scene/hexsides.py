"""Hexside terrain drawn on its hexsides (rules.md 7): walls, hedges, cactus hedges, bocage,
cliffs and rowhouse walls, at every zoom (never thinner than a few screen pixels), over the
night veil like the grid so that they read in the dark.

Each kind has one look, shared with the legend (``HEXSIDE_LOOKS``, ``legend_swatch``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPicture
from PySide6.QtWidgets import QGraphicsItem

from app import style
from app.hex_geometry import all_corners, map_clip, map_rect
from engine.api import HEXSIDE_BY_CODE

from .terrain import pixels_per_unit

# over the grid (21), the Gunflashes (28) and the light circles (30): terrain that decides
# LOS (B9.2) is not hidden under a circle's edge
Z_HEXSIDES = 30.5


@dataclass(frozen=True)
class HexsideLook:
    colour: QColor
    width: float                 # map units
    min_px: float                # never thinner on screen
    edge: QColor | None = None   # a darker casing under the line
    dots: QColor | None = None   # a row of tufts along it (hedges, bocage)
    hachures: bool = False       # short ticks towards the lower side (cliffs)


HEXSIDE_LOOKS: dict[str, HexsideLook] = {
    "wall": HexsideLook(QColor("#b9b4a8"), 0.10, 2.5, edge=QColor("#2a2824")),
    "hedge": HexsideLook(QColor("#3f9a3c"), 0.11, 2.5, dots=QColor("#8fd36f")),
    "cactus_hedge": HexsideLook(QColor("#6b9a3c"), 0.09, 2.0, dots=QColor("#d5e37a")),
    "bocage": HexsideLook(QColor("#1f6b2a"), 0.20, 3.5, edge=QColor("#0b240f"), dots=QColor("#5fbf55")),
    "cliff": HexsideLook(QColor("#7a5a2a"), 0.09, 2.5, hachures=True),
    "rowhouse_wall": HexsideLook(QColor("#111318"), 0.12, 2.5),
}


def hexside_segments(game_map) -> list[tuple[str, QLineF, QPointF]]:
    """(terrain name, the hexside as a scene line, the unit normal towards its lower hex) for
    every hexside with terrain, once."""
    corners = all_corners(game_map)
    out = []
    ii, kk = np.nonzero(game_map.hexside)
    for i, k in zip(ii.tolist(), kk.tolist()):
        j = int(game_map.neighbours[i, k])
        if 0 <= j < i:                       # drawn once, from the lower index
            continue
        h = HEXSIDE_BY_CODE[int(game_map.hexside[i, k])]
        a, b = corners[i, (k + 4) % 6], corners[i, (k + 5) % 6]   # side k: corners k+4, k+5
        line = QLineF(QPointF(*a), QPointF(*b))
        mid = (a + b) / 2
        outward = mid - np.array([game_map.x[i], game_map.y[i]]) * style.SCALE   # from hex i to beyond
        n = outward / max(np.hypot(*outward), 1e-9)
        if j >= 0 and game_map.level[j] > game_map.level[i]:
            n = -n                           # hachures point down the slope
        out.append((h.name, line, QPointF(float(n[0]), float(n[1]))))
    return out


class HexsideItem(QGraphicsItem):
    """Every hexside with terrain on the map."""

    EXPORT_UNCACHED = True      # an SVG export draws it uncached: lines (app.export)

    def __init__(self, game_map):
        super().__init__()
        self.map = game_map
        self._rect = map_rect(game_map)
        self.segments = hexside_segments(game_map)
        self._picture: tuple[float, QPicture] | None = None     # (zoom, its drawing)
        self.setZValue(Z_HEXSIDES)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # kept as a picture as large as the view: a drag repaints the view every step and
        # leaves the hexsides alone
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None):
        if not self.segments:
            return
        ppu = pixels_per_unit(painter, option)
        painter.save()
        painter.setClipPath(map_clip(self.map), Qt.ClipOperation.IntersectClip)
        painter.drawPicture(QPointF(0, 0), self.picture(ppu))
        painter.restore()

    def picture(self, ppu: float) -> QPicture:
        """Every hexside drawn at this zoom, recorded once and replayed at each repaint (a
        drag repaints the view every step; an export still gets lines, not pixels)."""
        key = round(ppu, 4)
        if self._picture is None or self._picture[0] != key:
            pic = QPicture()
            p = QPainter(pic)
            for name, line, normal in self.segments:
                paint_side(p, HEXSIDE_LOOKS[name], line, normal, ppu)
            p.end()
            self._picture = (key, pic)
        return self._picture[1]


def _pen(colour: QColor, width_units: float, min_px: float, ppu: float) -> QPen:
    """A pen ``width_units`` wide, at least ``min_px`` screen pixels."""
    width = max(width_units * style.SCALE, min_px * style.SCALE / max(ppu, 1e-6))
    p = QPen(colour, width)
    p.setCapStyle(Qt.PenCapStyle.RoundCap)
    return p


def paint_side(painter: QPainter, look: HexsideLook, line: QLineF, normal: QPointF, ppu: float) -> None:
    """One hexside's terrain; ``ppu``: screen pixels per map unit."""
    if look.edge is not None:
        painter.setPen(_pen(look.edge, look.width * 1.6, look.min_px + 1.5, ppu))
        painter.drawLine(line)
    painter.setPen(_pen(look.colour, look.width, look.min_px, ppu))
    painter.drawLine(line)
    if look.dots is not None and ppu >= 12:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(look.dots)
        r = max(look.width * 0.32 * style.SCALE, 0.8 * style.SCALE / max(ppu, 1e-6))
        for t in (0.15, 0.38, 0.62, 0.85):
            painter.drawEllipse(line.pointAt(t), r, r)
    if look.hachures:
        tick = max(0.16 * style.SCALE, 4.0 * style.SCALE / max(ppu, 1e-6))
        path = QPainterPath()
        for t in np.linspace(0.1, 0.9, 6):
            p = line.pointAt(float(t))
            path.moveTo(p)
            path.lineTo(p + normal * tick)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(_pen(look.colour, look.width * 0.6, 1.5, ppu))
        painter.drawPath(path)


def legend_swatch(width: int, height: int, ground: QColor = style.GROUND[0]):
    """A hex of open ground whose sides carry a wall (N), a hedge (NE), bocage (SE), a cliff (S)
    and a rowhouse wall (SW), as the map draws them: the legend's key to hexside terrain."""
    from PySide6.QtGui import QPixmap, QPolygonF
    pix = QPixmap(width, height)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    r = height / 1.7320508 * 0.95
    c = QPointF(width / 2, height / 2)
    pts = [c + QPointF(r * np.cos(np.radians(a)), r * np.sin(np.radians(a))) for a in range(0, 360, 60)]
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(ground)
    p.drawPolygon(QPolygonF(pts))
    ppu = 80.0 * r / style.SCALE          # the hex is r pixels across its circumradius
    p.scale(r / style.SCALE, r / style.SCALE)
    k = style.SCALE / r
    for name, side in (("wall", 0), ("hedge", 1), ("bocage", 2), ("cliff", 3), ("rowhouse_wall", 4)):
        a, b = pts[(side + 4) % 6] * k, pts[(side + 5) % 6] * k
        mid = (a + b) / 2 - c * k
        n = mid / max((mid.x() ** 2 + mid.y() ** 2) ** 0.5, 1e-9)
        paint_side(p, HEXSIDE_LOOKS[name], QLineF(a, b), -n, ppu / 2)
    p.end()
    return pix
