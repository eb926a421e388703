"""The printed hex grid: hexsides, centre dots, hex coordinates and board ids (toggleable).

Coordinates are printed near the top of each hex, as on a board; a half hex cut by a board edge
prints its coordinate in the half that is on the board.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from .. import style
from .geometry import all_corners, board_rect, map_clip, map_rect
from .terrain import pixels_per_unit

Z_GRID = 5
LABEL_SPOTS = ((0.0, -0.63), (0.0, 0.63), (0.45, -0.63), (-0.45, -0.63), (0.45, 0.63),
               (-0.45, 0.63))


class GridItem(QGraphicsItem):
    def __init__(self, game_map):
        super().__init__()
        self.map = game_map
        self._rect = map_rect(game_map)
        self.show_coordinates = True
        self.sides = _hexsides(game_map)
        self.labels = _labels(game_map)
        self.setZValue(Z_GRID)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._rect

    def set_coordinates(self, on: bool) -> None:
        self.show_coordinates = on
        self.update()

    def paint(self, painter: QPainter, option, widget=None):
        ppu = pixels_per_unit(painter, option)
        painter.setClipPath(map_clip(self.map))
        if ppu >= style.LOD_GRID:
            grid = QPen(style.GRID, 1.0)
            grid.setCosmetic(True)
            painter.setPen(grid)
            painter.drawPath(self.sides)
        if ppu >= style.LOD_COORDINATES:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.GRID_DOT)
            r = 0.045 * style.SCALE
            for x, y in zip(self.map.x, self.map.y):
                painter.drawEllipse(QPointF(x * style.SCALE, y * style.SCALE), r, r)
            if self.show_coordinates:
                painter.setPen(style.COORDINATE)
                painter.setFont(style.font(0.27 * style.SCALE))
                for rect, text in self.labels:
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.setClipping(False)
        if self.show_coordinates:
            self._paint_board_ids(painter)

    def _paint_board_ids(self, painter: QPainter):
        """Each board's id in a tab at its north-west and south-east corners."""
        painter.setFont(style.font(0.7 * style.SCALE, bold=True))
        fm = QFontMetricsF(painter.font())
        for p in self.map.placements:
            b = board_rect(p.at)
            text = p.board.id + (" \u21bb" if p.rotated else "")
            w, h = fm.horizontalAdvance(text) + 0.5 * style.SCALE, fm.height() + 0.1 * style.SCALE
            for x, y in ((b.left() + 0.15 * style.SCALE, b.top() + 0.15 * style.SCALE),
                         (b.right() - 0.15 * style.SCALE - w, b.bottom() - 0.15 * style.SCALE - h)):
                tab = QRectF(x, y, w, h)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(style.BOARD_LABEL_BACK)
                painter.drawRoundedRect(tab, 0.15 * style.SCALE, 0.15 * style.SCALE)
                painter.setPen(style.BOARD_LABEL)
                painter.drawText(tab, Qt.AlignmentFlag.AlignCenter, text)


def _hexsides(m) -> QPainterPath:
    """Every hexside once: edges 0..2 of each hex, and the others where no hex lies beyond."""
    corners = all_corners(m)
    path = QPainterPath()
    for i in range(m.size):
        for k in range(6):
            if k >= 3 and m.neighbours[i, ((k + 2) % 6)] >= 0:
                continue
            a, b = corners[i, k], corners[i, (k + 1) % 6]
            path.moveTo(float(a[0]), float(a[1]))
            path.lineTo(float(b[0]), float(b[1]))
    return path


def _labels(m) -> list[tuple[QRectF, str]]:
    clip = map_clip(m)
    s = style.SCALE
    out = []
    for i, name in enumerate(m.names):
        local = m.board_of[i].local
        for dx, dy in LABEL_SPOTS:
            rect = QRectF((m.x[i] + dx - 0.42) * s, (m.y[i] + dy - 0.16) * s, 0.84 * s, 0.32 * s)
            if clip.contains(rect):
                out.append((rect, local))
                break
    return out
