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
    QFontMetricsF,
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
from .field_image import MAX_PIXELS, FieldImage, HexRaster
from .geometry import area, hex_polygon, hex_rects, map_clip, map_clip_rect, map_rect


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


class FillOverlay(MapOverlay):
    """Hexes filled with one colour each: ``set_areas([(colour, mask, edge pen or None)])``.

    A new set of areas repaints only the hexes whose areas changed (and the whole of an area
    with an edge whose hexes changed: its dashes run along the whole border).  With ``image``
    (the selected unit's field, which a drag changes every step) the fills are drawn as one
    image of the view's pixels (``field_image``) once a drag has asked for it (``live``) and
    while the view keeps its zoom and scroll; else, and in exports to SVG, as paths."""

    def __init__(self, game_map, z: float, cached: bool = False, image: bool = False):
        super().__init__(game_map, z, cached)
        self._given: list[tuple[QColor, np.ndarray, QPen | None]] = []
        self._paths: list | None = []
        self._edges: list | None = None         # the edged areas' paths, drawn over the image
        self._styles: list | None = None        # (colour, edge) of each area shown
        self._member: np.ndarray | None = None  # per hex: a bit for each area it is in
        self.image = image
        self.live = False                       # build the image at the next paint
        self._field: FieldImage | None = None

    @property
    def areas(self) -> list[tuple[QColor, QPainterPath, QPainterPath | None, QPen | None]]:
        """(colour, fill, border or None, edge pen or None) of each area that has hexes."""
        if self._paths is None:
            self._paths = []
            for colour, mask, edge in self._given:
                if mask.any():
                    fill = area(self.map, mask)
                    self._paths.append((colour, fill, fill if edge else None, edge))
        return self._paths

    def set_areas(self, areas) -> None:
        areas = [(c, np.asarray(mask, dtype=bool), e) for c, mask, e in areas if mask is not None]
        styles = [(c.rgba(), None if e is None else
                   (e.color().rgba(), e.widthF(), tuple(e.dashPattern()))) for c, _, e in areas]
        member = np.zeros(self.map.size, dtype=np.int64)
        for k, (_, mask, _) in enumerate(areas):
            member |= mask.astype(np.int64) << k
        old_styles, old_member = self._styles, self._member
        if styles == old_styles and np.array_equal(member, old_member):
            return                  # unchanged: keep the cached picture
        self._styles, self._member = styles, member
        self._given, self._paths, self._edges = areas, None, None    # traced when drawn
        if self._field is not None:
            self._show_field()
        if styles != old_styles or old_member is None:
            self.update()
            return
        changed = member != old_member
        rects = hex_rects(self.map, np.flatnonzero(changed))
        for k, (_, _, edge) in enumerate(areas):
            moved = (member ^ old_member) >> k & 1
            if edge is not None and moved.any():
                inside = ((member | old_member) >> k & 1).astype(bool)
                rects += hex_rects(self.map, np.flatnonzero(inside), most=0)
        self.repaint(rects)

    def _show_field(self) -> None:
        classes = np.zeros(self.map.size, dtype=np.int64)
        for k, (_, mask, _) in enumerate(self._given):
            classes[mask] = k + 1
        self._field.show([c for c, _, _ in self._given], classes)

    def draw(self, painter: QPainter):
        field = self._field_for(painter) if self.image else None
        if field is not None:
            painter.save()
            painter.resetTransform()
            painter.drawImage(0, 0, field.image)
            painter.restore()
        for colour, fill, border, edge in (self.areas if field is None else self._edged()):
            if field is None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(colour)
                painter.drawPath(fill)
            if border is not None:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(edge)
                painter.drawPath(border)

    def _edged(self):
        """The areas that have an edge, as paths (the image holds the fills)."""
        if self._paths is not None:
            return [a for a in self._paths if a[2] is not None]
        if self._edges is None:
            self._edges = []
            for colour, mask, edge in self._given:
                if edge is not None and mask.any():
                    border = area(self.map, mask)
                    self._edges.append((colour, border, border, edge))
        return self._edges

    def _field_for(self, painter: QPainter) -> FieldImage | None:
        """The image of the fills for this painter's pixels, when it can be drawn as one (an
        unturned view on a raster device) and a drag asked for it; None: draw paths."""
        t, device = painter.worldTransform(), painter.device()
        engine = painter.paintEngine()
        if (engine is None or engine.type() != QPaintEngine.Type.Raster or device is None
                or device.devicePixelRatio() != 1 or t.m12() != 0 or t.m21() != 0
                or t.m11() <= 0 or t.m11() != t.m22() or not t.isAffine()
                or device.width() * device.height() > MAX_PIXELS):
            return None
        key = (t.m11(), t.dx(), t.dy(), device.width(), device.height())
        if self._field is not None and self._field.raster.key == key:
            return self._field
        self._field = None                      # another zoom or scroll: paths until a drag
        if not self.live:
            return None
        self._field = FieldImage(HexRaster(self.map, *key))
        self._show_field()
        return self._field


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
        """Hatch the hexes of ``mask``; only the hexes that changed are repainted."""
        mask = (np.zeros(self.map.size, dtype=bool) if mask is None
                else np.asarray(mask, dtype=bool))
        old = self._key
        if old is not None and np.array_equal(mask, old):
            return
        self._key = mask
        self.fill = area(self.map, mask) if mask.any() else QPainterPath()
        self.border = self.fill
        if old is None:
            self.update()
        else:
            self.repaint(hex_rects(self.map, np.flatnonzero(mask != old)))

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
    zoomed out; when it would cover what ``keep_clear(scale)`` lists (the letters printed along
    the boards' edges) or another of its labels, it goes to the nearest free spot on the map.
    New outlines repaint only where the old and the new ones lie (a drag moves the rings every
    step)."""

    def __init__(self, game_map, z: float, clip: bool = True, cached: bool = False):
        super().__init__(game_map, z, cached)
        self.clip = clip
        self.outlines: list[tuple[QPainterPath, QPen]] = []
        self.labels: list[tuple[QPointF, str, QColor, bool]] = []
        self.keep_clear = None          # scale -> scene rectangles labels stay off
        self._stamps: list[tuple[tuple, QPainterPath, QImage]] = []   # (key, shape, image)
        self._scale: float | None = None        # the scale it was last painted at
        self._drawn: list[QRectF] = []          # where it was last painted
        self._placed: tuple | None = None       # (labels, (scale, keep_clear), label_rects)

    def set_outlines(self, outlines, labels=()) -> None:
        outlines, labels = list(outlines), list(labels)
        if (len(outlines) == len(self.outlines) and labels == self.labels
                and all(p is q or p == q for (p, _), (q, _) in zip(outlines, self.outlines))
                and all(a == b for (_, a), (_, b) in zip(outlines, self.outlines))):
            return                  # unchanged: keep the cached picture
        self.outlines = outlines
        self.labels = labels
        if self._scale is None:
            self.update()
            return
        old, self._drawn = self._drawn, self.extents(self._scale)
        self.repaint(old + self._drawn)

    def extents(self, scale: float) -> list[QRectF]:
        """Where the outlines (with their glow) and the labels lie at ``scale``."""
        out = []
        for path, pen in self.outlines:
            m = (pen.widthF() + 10) / scale if pen.isCosmetic() else pen.widthF() + 10 / scale
            out.append(path.boundingRect().adjusted(-m, -m, m, m))
        return out + [rect for rect, *_ in self.label_rects(scale)]

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2 * style.SCALE, -2 * style.SCALE, 2 * style.SCALE,
                                   2 * style.SCALE)

    def paint(self, painter: QPainter, option, widget=None):
        scale = max(painter.worldTransform().m11(), 1e-6)
        if scale != self._scale:
            self._scale, self._drawn = scale, self.extents(scale)
        if self.clip:
            painter.save()
            clip_to_map(painter, self.map)
            self.draw(clipped(painter, map_clip(self.map)))
            painter.restore()               # the labels: clear of the clip (within the view's)
        else:
            self.draw(painter)
        if self.labels:
            self._draw_labels(painter)

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
        scale = max(painter.worldTransform().m11(), 1e-6)
        style.label_font(painter, 0.3, style.MIN_LABEL_PX)
        for rect, text, colour in self.label_rects(scale):
            h = rect.height()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.BOARD_LABEL_BACK)
            painter.drawRoundedRect(rect, h / 4, h / 4)
            painter.setPen(colour)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def label_rects(self, scale: float) -> list[tuple[QRectF, str, QColor]]:
        """(scene rectangle, text, colour) of each label at ``scale`` (screen pixels per scene
        unit): centred above (below) its anchor, or the nearest spot clear of ``keep_clear``'s
        rectangles and of the labels placed before it."""
        if not self.labels:
            return []
        avoid = self.keep_clear(scale) if self.keep_clear is not None else np.zeros((0, 4))
        key = (scale, avoid.tobytes())
        if self._placed is not None and self._placed[0] is self.labels and self._placed[1] == key:
            return self._placed[2]          # painted again: placed as before
        size = max(0.3 * style.SCALE, style.MIN_LABEL_PX / scale)
        fm = QFontMetricsF(style.font(size, bold=True))
        gap = 2 / scale
        out = []
        top, bottom = self._rect.top(), self._rect.bottom()
        for anchor, text, colour, above in self.labels:
            w, h = fm.horizontalAdvance(text) + size, fm.height() * 1.1
            x0, y0 = anchor.x() - w / 2, anchor.y() - (h if above else 0)
            x0, y0 = _clear_spot(avoid, x0, y0, w, h, gap, -1 if above else 1, top, bottom)
            out.append((QRectF(x0, y0, w, h), text, colour))
            avoid = np.vstack([avoid, [(x0, y0, x0 + w, y0 + h)]])     # nor on each other
        self._placed = (self.labels, key, out)
        return out


# where a label may go instead, in label heights (dy) and widths (dx), nearest first
_TRIES = sorted(((dy, dx) for dy in np.arange(-4, 4.01, 0.5) for dx in np.arange(-1, 1.01, 0.25)),
                key=lambda t: (abs(t[0]) + 1.5 * abs(t[1]), -t[0]))
_TRY_ARRAY = np.array(_TRIES)


def _clear_spot(avoid: np.ndarray, x0: float, y0: float, w: float, h: float, gap: float,
                away: int, top: float, bottom: float) -> tuple[float, float]:
    """(x0, y0), the top left of a ``w`` x ``h`` label, when it is ``gap`` clear of every
    rectangle of ``avoid`` (rows of left, top, right, bottom); else the nearest spot that is,
    on the map between ``top`` and ``bottom`` (``away``: the way it prefers, -1 up, 1 down);
    else (x0, y0)."""
    def clear(xs, ys):
        return ~((avoid[None, :, 0] < xs[:, None] + w + gap)
                 & (avoid[None, :, 2] > xs[:, None] - gap)
                 & (avoid[None, :, 1] < ys[:, None] + h + gap)
                 & (avoid[None, :, 3] > ys[:, None] - gap)).any(axis=1)
    if not len(avoid) or clear(np.array([x0]), np.array([y0]))[0]:
        return x0, y0
    tries = _TRY_ARRAY * np.array([away, 1.0])
    ys, xs = y0 + tries[:, 0] * h, x0 + tries[:, 1] * w
    ok = np.flatnonzero(clear(xs, ys) & (ys >= top) & (ys + h <= bottom))
    if not len(ok):
        return x0, y0
    return float(xs[ok[0]]), float(ys[ok[0]])
