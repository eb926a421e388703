"""What every overlay shares: ``MapOverlay``, an item as large as the map, clipped to its
boards; the painting helpers (clip to the map, an SVG stand-in that clips by hand, cosmetic
pens).  The overlays, one module each:

- ``fill_overlay.FillOverlay``: hexes filled by colour: the selected unit's night field (nvr /
  gunflash / none) and the hexes lights reach.
- ``hatch_overlay.HatchOverlay``: blind hexes, hatched (a blaze's shadows; the viewer's A6.4
  blind hexes).
- ``gunflash_overlay.GunflashOverlay``: locations marked by a Gunflash or a fire marker.
- ``outline_overlay.OutlineItem``: glowing outlines with labels (NVR rings, light circles, the
  selected and hovered hexes).

The scene (``app.night.map.map_scene``) says which answer goes where.
"""

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QPaintEngine,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsItem

from app.hex_geometry import map_clip, map_clip_rect, map_rect


class MapOverlay(QGraphicsItem):
    """An item as large as the map, clipped to its boards."""

    def __init__(self, game_map, z_value: float, cached: bool = False):
        super().__init__()
        self.map = game_map
        self._rect = map_rect(game_map)
        self.setZValue(z_value)
        if cached:
            # kept as a picture as large as the view, drawn again only when its answer changes:
            # for overlays that a drag leaves alone (lights, Gunflashes); those a drag changes
            # every step are cheaper drawn straight than re-cached
            self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._rect

    def update(self, *rect) -> None:
        """Repaint ``rect`` (item coordinates; none: the whole item).  An item the view draws
        in its cached background (``MapScene.under``) has that part of the background drawn
        again; one drawn in a ``Composite``, that part of the composite's picture."""
        scene = self.scene()
        composite = getattr(self, "composite", None)
        if composite is not None:           # drawn in a composite's picture (``composite``)
            composite.changed(self.mapRectToScene(QRectF(*rect) if rect else self.boundingRect()))
        elif scene is not None and getattr(scene, "under", None) and self in scene.under:
            r = QRectF(*rect) if rect else self.boundingRect()
            scene.background_changed(self.mapRectToScene(r))
        else:
            super().update(*rect)

    def paint(self, painter: QPainter, option, widget=None):
        clip_to_map(painter, self.map)
        self.draw(clipped(painter, map_clip(self.map)))

    def repaint(self, rects) -> None:
        """Have the view repaint only ``rects`` (item coordinates): what changed, when the item
        draws straight (a drag step changes a few dozen hexes of a field as large as the map);
        a cached item is drawn again whole.  Through the item, not the scene: one repaint of
        the view per step, with the counters that moved."""
        if self.cacheMode() != QGraphicsItem.CacheMode.NoCache:
            self.update()
            return
        for r in rects:
            self.update(r)

    def draw(self, painter: QPainter):
        raise NotImplementedError


def pixel_exact(painter: QPainter, transform: QTransform) -> bool:
    """Whether images of the view's pixels drawn at whole pixels look as the painter's own
    drawing does: a raster device of one pixel per pixel, ``transform`` only scaled and moved."""
    if transform.type() not in _SCALED or transform.m11() <= 0 or transform.m22() <= 0:
        return False
    engine = painter.paintEngine()
    device = painter.device()
    return (engine is not None and engine.type() == QPaintEngine.Type.Raster
            and device is not None and device.devicePixelRatio() == 1)


def clip_to_map(painter: QPainter, game_map) -> None:
    """Clip to the map's boards: by a rectangle when they fill one (cheap), else by their
    outline."""
    rect = map_clip_rect(game_map)
    if rect is not None:
        painter.setClipRect(rect, Qt.ClipOperation.IntersectClip)
    else:
        painter.setClipPath(map_clip(game_map), Qt.ClipOperation.IntersectClip)


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



_PENS: dict[tuple, QPen] = {}


def cosmetic_pen(colour: QColor, width: float, style_=Qt.PenStyle.SolidLine,
                 dashes: list[float] | None = None) -> QPen:
    """A pen of ``width`` screen pixels at any zoom (one object per look: a drag step asks for
    the same dozen pens again, and outlines drawn with the same pen compare at once).  Not to
    be changed: copy it (``QPen(pen)``) to draw with another."""
    key = (colour.rgba(), width, style_, tuple(dashes) if dashes else None)
    pen = _PENS.get(key)
    if pen is None:
        if len(_PENS) > 256:
            _PENS.clear()
        pen = _PENS[key] = _new_pen(colour, width, style_, dashes)
    return pen


def _new_pen(colour: QColor, width: float, style_, dashes: list[float] | None) -> QPen:
    p = QPen(colour, width, style_)
    p.setCosmetic(True)
    p.setCapStyle(Qt.PenCapStyle.FlatCap if dashes else Qt.PenCapStyle.RoundCap)
    p.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    if dashes:
        p.setDashPattern(dashes)
    return p



_SCALED = {QTransform.TransformationType.TxNone, QTransform.TransformationType.TxTranslate,
           QTransform.TransformationType.TxScale}
