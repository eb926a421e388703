"""The boards' terrain as one item, cached in device pixels (redrawn only when the zoom changes).

Zoomed far out (level of detail), the textures are left out: ground, hills, patches and
buildings stay.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from app import style
from app.hex_geometry import map_clip, map_rect, placement_rect

from .overlays import clipped
from .terrain_art import build

Z_TERRAIN = 0


def pixels_per_unit(painter: QPainter, option: QStyleOptionGraphicsItem) -> float:
    return option.levelOfDetailFromTransform(painter.worldTransform()) * style.SCALE


def pen(colour, width_units: float) -> QPen:
    """A pen ``width_units`` map units wide."""
    p = QPen(colour, width_units * style.SCALE)
    p.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return p


class TerrainItem(QGraphicsItem):
    def __init__(self, game_map):
        super().__init__()
        self.map = game_map
        self.art = build(game_map)
        self._rect = map_rect(game_map)
        self.setZValue(Z_TERRAIN)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None):
        ppu = pixels_per_unit(painter, option)
        outer = painter
        outer.save()            # within the clip it was given (the view's exposed part)
        painter.setClipPath(map_clip(self.map), Qt.ClipOperation.IntersectClip)
        painter = clipped(painter, map_clip(self.map))      # an SVG export cuts by hand
        painter.setPen(Qt.PenStyle.NoPen)
        for level, path in self.art.ground:
            painter.setBrush(style.GROUND.get(level, style.GROUND[max(min(level, 5), -2)]))
            painter.drawPath(path)
        textures = ppu >= style.LOD_TEXTURE
        for patch in self.art.patches:
            self._paint_patch(painter, patch, textures)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen(style.HILL_EDGE, 0.09))
        painter.drawPath(self.art.contours)
        if textures:
            painter.setPen(pen(style.HILL_EDGE_LIGHT, 0.035))
            painter.drawPath(self.art.contour_lights)
        for b in self.art.buildings:
            self._paint_building(painter, b, ppu)
        outer.restore()
        painter = outer
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(style.BOARD_EDGE, 0.06 * style.SCALE))
        for pi in range(len(self.map.placements)):
            painter.drawRect(placement_rect(self.map, pi))

    def _paint_patch(self, painter: QPainter, patch, textures: bool):
        look = patch.look
        painter.setPen(Qt.PenStyle.NoPen)
        if look.texture == "orchard":
            painter.setBrush(look.fill)
            painter.drawPath(patch.texture_fill)
            return
        painter.setBrush(look.fill)
        edge = look.fill.darker(160)
        painter.setPen(pen(edge, 0.035))
        painter.drawPath(patch.shape)
        if not textures:
            return
        if not patch.texture_fill.isEmpty():
            painter.setPen(pen(look.fill.darker(140), 0.025))
            painter.setBrush(look.detail)
            painter.drawPath(patch.texture_fill)
        else:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(pen(look.detail, 0.03))
            painter.drawPath(patch.texture)

    def _paint_building(self, painter: QPainter, b, ppu: float):
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.BUILDING_GROUND)
        painter.drawPath(b.ground)
        painter.setBrush(style.BUILDING)
        painter.setPen(pen(style.BUILDING_EDGE, 0.05))
        painter.drawPath(b.shape)
        if not b.upper:
            return
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(pen(style.BUILDING_LEVEL, 0.025))
        for level in b.levels:
            painter.drawPath(level)
        if ppu >= style.LOD_COORDINATES:
            x, y = b.badge_at
            painter.setPen(style.BUILDING_EDGE)
            painter.setFont(style.font(0.26 * style.SCALE, bold=True))
            r = QRectF((x - 0.5) * style.SCALE, (y + 0.2) * style.SCALE, 1.0 * style.SCALE,
                       0.3 * style.SCALE)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, f"+{b.upper} lvl")
