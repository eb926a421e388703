"""Overlays over the terrain, each an item as large as the map holding paths built from the
engine's answers (the scene, ``map_scene``, says which answer goes where).

- ``FillOverlay``: hexes filled by colour: the selected unit's night field (nvr / gunflash /
  none) and the hexes lights reach.
- ``HatchOverlay``: blind hexes, hatched (a blaze's shadows; the viewer's A6.4 blind hexes).
- ``GunflashOverlay``: locations marked by a Gunflash or a fire marker.
- ``OutlineItem``: glowing outlines with labels (NVR rings, light circles, the selected and
  hovered hexes).
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QPaintEngine,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem

from .. import style
from .geometry import area, hex_polygon, map_clip, map_clip_rect, map_rect


class MapOverlay(QGraphicsItem):
    """An item as large as the map, clipped to its boards."""

    def __init__(self, game_map, z: float, cached: bool = False):
        super().__init__()
        self.map = game_map
        self._rect = map_rect(game_map)
        self.setZValue(z)
        if cached:
            # kept as a picture as large as the view, drawn again only when its answer changes:
            # for overlays that a drag leaves alone (lights, Gunflashes); those a drag changes
            # every step are cheaper drawn straight than re-cached
            self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None):
        clip_to_map(painter, self.map)
        self.draw(clipped(painter, map_clip(self.map)))

    def draw(self, painter: QPainter):
        raise NotImplementedError


def clip_to_map(painter: QPainter, game_map) -> None:
    """Clip to the map's boards: by a rectangle when they fill one (cheap), else by their
    outline."""
    rect = map_clip_rect(game_map)
    if rect is not None:
        painter.setClipRect(rect)
    else:
        painter.setClipPath(map_clip(game_map))


def clipped(painter: QPainter, clip: QPainterPath):
    """``painter``, or for an SVG export a stand-in that cuts what it draws to ``clip`` by hand:
    QSvgGenerator writes no clipping, and the rings and dark hexes would reach past the boards'
    edges."""
    engine = painter.paintEngine()
    if engine is None or engine.type() != QPaintEngine.Type.SVG:
        return painter
    return SvgClip(painter, clip)


class SvgClip:
    """A painter whose paths, polygons and lines are intersected with ``clip`` before they are
    drawn (strokes become filled outlines); everything else is the painter's own."""

    def __init__(self, painter: QPainter, clip: QPainterPath):
        self._painter, self._clip = painter, clip

    def __getattr__(self, name):
        return getattr(self._painter, name)

    def setClipping(self, on: bool) -> None:
        if not on:
            self._clip = None
        self._painter.setClipping(on)

    def setClipPath(self, path: QPainterPath, *args) -> None:
        self._clip = path
        self._painter.setClipPath(path, *args)

    def drawPath(self, path: QPainterPath) -> None:
        self._draw(path)

    def drawPolygon(self, polygon, *args) -> None:
        path = QPainterPath()
        path.addPolygon(polygon)
        path.closeSubpath()
        self._draw(path)

    def drawLine(self, line: QLineF, *args) -> None:
        if args:
            line = QLineF(line, *args) if not isinstance(line, QLineF) else line
        path = QPainterPath(line.p1())
        path.lineTo(line.p2())
        self._draw(path)

    def _draw(self, path: QPainterPath) -> None:
        p = self._painter
        if self._clip is None:
            p.drawPath(path)
            return
        brush, pen = p.brush(), p.pen()
        p.save()
        p.setPen(Qt.PenStyle.NoPen)
        if brush.style() != Qt.BrushStyle.NoBrush:
            p.drawPath(path.intersected(self._clip))
        if pen.style() != Qt.PenStyle.NoPen:
            scale = max(p.worldTransform().m11(), 1e-6) if pen.isCosmetic() else 1.0
            stroker = QPainterPathStroker()
            stroker.setWidth(max(pen.widthF(), 1.0 if pen.isCosmetic() else 0.0) / scale)
            stroker.setCapStyle(pen.capStyle())
            stroker.setJoinStyle(pen.joinStyle())
            if pen.style() == Qt.PenStyle.CustomDashLine:
                stroker.setDashPattern(pen.dashPattern())
            elif pen.style() != Qt.PenStyle.SolidLine:
                stroker.setDashPattern(pen.style())
            p.setBrush(pen.brush())
            p.drawPath(stroker.createStroke(path).intersected(self._clip))
        p.restore()


class FillOverlay(MapOverlay):
    """Hexes filled with one colour each: ``set_areas([(colour, mask, edge pen or None)])``."""

    def __init__(self, game_map, z: float, cached: bool = False):
        super().__init__(game_map, z, cached)
        self.areas: list[tuple[QColor, QPainterPath, QPainterPath | None, QPen | None]] = []
        self._key = None

    def set_areas(self, areas) -> None:
        key = [(c.rgba(), np.packbits(np.asarray(mask, dtype=bool)).tobytes(), None if e is None
                else (e.color().rgba(), e.widthF())) for c, mask, e in areas if mask is not None]
        if key == self._key:
            return                  # unchanged: keep the cached picture
        self._key = key
        self.areas = []
        for colour, mask, edge in areas:
            if mask is not None and mask.any():
                fill = area(self.map, mask)
                self.areas.append((colour, fill, fill if edge else None, edge))
        self.update()

    def draw(self, painter: QPainter):
        for colour, fill, border, edge in self.areas:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawPath(fill)
            if border is not None:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(edge)
                painter.drawPath(border)


def cosmetic_pen(colour: QColor, width: float, style_=Qt.PenStyle.SolidLine,
                 dashes: list[float] | None = None) -> QPen:
    """A pen of ``width`` screen pixels at any zoom."""
    p = QPen(colour, width, style_)
    p.setCosmetic(True)
    p.setCapStyle(Qt.PenCapStyle.FlatCap if dashes else Qt.PenCapStyle.RoundCap)
    p.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    if dashes:
        p.setDashPattern(dashes)
    return p


class HatchOverlay(MapOverlay):
    """Hexes hatched with lines (``cross``: both diagonals), over a faint tint of the colour.

    The hatching is a small tile painted with a brush whose transform undoes the view's scale:
    lines a constant few pixels apart at any zoom, drawn in one fill (clipping thousands of
    lines to a many-hex path took a second a frame on a big map); the tile carries the tint
    too (one fill, not two: a drag repaints it every frame)."""

    TILE = 8

    def __init__(self, game_map, z: float, colour: QColor, cross: bool = False,
                 cached: bool = False):
        super().__init__(game_map, z, cached)
        self.colour = colour
        self.cross = cross
        self.fill = QPainterPath()
        self.border = QPainterPath()
        self.tile = self._tile()
        self._key = None

    def _tile(self) -> QPixmap:
        n = self.TILE
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

    def set_mask(self, mask: np.ndarray | None) -> None:
        key = None if mask is None else np.packbits(np.asarray(mask, dtype=bool)).tobytes()
        if key == self._key and self._key is not None:
            return
        self._key = key
        has = mask is not None and mask.any()
        self.fill = area(self.map, mask) if has else QPainterPath()
        self.border = self.fill
        self.update()

    def draw(self, painter: QPainter):
        if self.fill.isEmpty():
            return
        painter.setPen(Qt.PenStyle.NoPen)
        hatch = QBrush(self.tile)
        scale = max(painter.worldTransform().m11(), 1e-6)
        hatch.setTransform(QTransform.fromScale(1 / scale, 1 / scale))
        painter.setBrush(hatch)
        painter.drawPath(self.fill)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(self.colour, 1.6))
        painter.drawPath(self.border)


class GunflashOverlay(MapOverlay):
    """A glowing amber ring inside each hex marked by a Gunflash (E1.8)."""

    def __init__(self, game_map, z: float):
        super().__init__(game_map, z, cached=True)
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


def _draw_glowing(painter: QPainter, path: QPainterPath, pen: QPen) -> None:
    """``path`` drawn with ``pen`` over a soft glow of its colour."""
    glow = QPen(pen)
    c = QColor(pen.color())
    c.setAlphaF(0.22)
    glow.setColor(c)
    glow.setWidthF(pen.widthF() + 5)
    glow.setStyle(Qt.PenStyle.SolidLine)
    painter.setPen(glow)
    painter.drawPath(path)
    painter.setPen(pen)
    painter.drawPath(path)


class OutlineItem(MapOverlay):
    """Outlines with a soft glow: ``set_outlines([(path, pen)], [(anchor, text, colour, above)])``.

    A label sits centred above (or below) its anchor, a scene point, and stays readable when
    zoomed out.
    """

    def __init__(self, game_map, z: float, clip: bool = True, cached: bool = False):
        super().__init__(game_map, z, cached)
        self.clip = clip
        self.outlines: list[tuple[QPainterPath, QPen]] = []
        self.labels: list[tuple[QPointF, str, QColor, bool]] = []
        self._stamps: list[tuple[tuple, QPainterPath, QImage]] = []   # (key, shape, image)

    def set_outlines(self, outlines, labels=()) -> None:
        outlines, labels = list(outlines), list(labels)
        if (len(outlines) == len(self.outlines) and labels == self.labels
                and all(p is q or p == q for (p, _), (q, _) in zip(outlines, self.outlines))
                and all(a == b for (_, a), (_, b) in zip(outlines, self.outlines))):
            return                  # unchanged: keep the cached picture
        self.outlines = outlines
        self.labels = labels
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2 * style.SCALE, -2 * style.SCALE, 2 * style.SCALE,
                                   2 * style.SCALE)

    def paint(self, painter: QPainter, option, widget=None):
        if self.clip:
            clip_to_map(painter, self.map)
            painter = clipped(painter, map_clip(self.map))
        self.draw(painter)

    STAMPS = 8                  # images kept per item
    STAMP_PIXELS = 1 << 22      # larger outlines (zoomed far in) are drawn directly

    def draw(self, painter: QPainter):
        painter.setBrush(Qt.BrushStyle.NoBrush)
        t = painter.worldTransform()
        stamp = (painter.paintEngine() is not None
                 and painter.paintEngine().type() == QPaintEngine.Type.Raster
                 and painter.device() is not None and painter.device().devicePixelRatio() == 1
                 and t.isAffine() and t.m12() == 0 and t.m21() == 0 and t.m11() > 0 and t.m22() > 0
                 and all(pen.isCosmetic() for _, pen in self.outlines))
        for path, pen in self.outlines:
            if stamp:
                self._draw_stamp(painter, t, path, pen)
            else:
                _draw_glowing(painter, path, pen)
        if self.labels:
            painter.setClipping(False)
            self._draw_labels(painter)

    def _draw_stamp(self, painter: QPainter, t: QTransform, path: QPainterPath, pen: QPen):
        """The outline as an image drawn once per shape, pen and zoom, then only moved: a
        drag moves the same rings every frame (stroking a glowing ring took milliseconds)."""
        rect = path.boundingRect()
        shape = path.translated(-rect.topLeft())
        key = (round(t.m11(), 9), round(t.m22(), 9), pen.color().rgba(), pen.widthF(),
               int(pen.style().value), tuple(pen.dashPattern()), int(pen.capStyle().value))
        stamps = self._stamps
        image = next((img for k, s, img in stamps if k == key and s == shape), None)
        margin = pen.widthF() + 8
        if image is None:
            size = t.mapRect(QRectF(0, 0, rect.width(), rect.height()))
            if (size.width() + 2 * margin) * (size.height() + 2 * margin) > self.STAMP_PIXELS:
                _draw_glowing(painter, path, pen)
                return
            image = QImage(int(size.width() + 2 * margin) + 1, int(size.height() + 2 * margin) + 1,
                           QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            p = QPainter(image)
            p.setRenderHints(painter.renderHints())
            p.translate(margin, margin)
            p.scale(t.m11(), t.m22())
            _draw_glowing(p, shape, pen)
            p.end()
            stamps.insert(0, (key, shape, image))
            del stamps[self.STAMPS:]
        at = t.map(rect.topLeft())
        painter.save()
        painter.resetTransform()
        painter.drawImage(QPointF(round(at.x() - margin), round(at.y() - margin)), image)
        painter.restore()

    def _draw_labels(self, painter: QPainter):
        size, fm = style.label_font(painter, 0.3, style.MIN_LABEL_PX)
        for anchor, text, colour, above in self.labels:
            w, h = fm.horizontalAdvance(text) + size, fm.height() * 1.1
            rect = QRectF(anchor.x() - w / 2, anchor.y() - (h if above else 0), w, h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.BOARD_LABEL_BACK)
            painter.drawRoundedRect(rect, h / 4, h / 4)
            painter.setPen(colour)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
