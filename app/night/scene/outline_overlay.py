"""``OutlineItem``: glowing outlines with labels (NVR rings, light circles, the selected and
hovered hexes), and where a label finds a clear spot."""

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QTransform,
)

from app import style
from app.hex_geometry import map_clip

from .overlays import MapOverlay, clip_to_map, clipped, pixel_exact


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
    step).  On screen an outline is drawn from a stamp, an image drawn once per shape, pen and
    zoom and then only moved (``_draw_stamp``), and a label from an image drawn once per text,
    colour and zoom (``_draw_labels``)."""

    def __init__(self, game_map, z_value: float, clip: bool = True, cached: bool = False):
        super().__init__(game_map, z_value, cached)
        self.clip = clip
        self.outlines: list[tuple[QPainterPath, QPen]] = []
        self.labels: list[tuple[QPointF, str, QColor, bool]] = []
        self.keep_clear = None          # scale -> scene rectangles labels stay off
        self.keep_clear_if_room = None  # ... and those they stay off where there is room
        self.keep_clear_rather = None   # ... those before the others' (markers over units)
        self._stamps: list[tuple[int, QPen, tuple, QImage]] = []   # (shape, pen, zoom, image)
        self._shapes: list[tuple[QPainterPath, int]] = []  # shapes seen (moved to 0, 0), numbered
        self._shape_count = 0
        self._placing: dict[int, tuple] = {}    # id(path) -> (path, bounding rect, shape number)
        self._cosmetic = True                   # all the pens are cosmetic
        self._label_images: dict[tuple, QImage] = {}    # (text, colour, zoom, hints) -> image
        self._staying: list[bool] = []          # per label: shown by the outlines before too
        self._scale: float | None = None        # the scale it was last painted at
        self._drawn: list[QRectF] = []          # where it was last painted
        # (labels, (scale,), label_rects, keep_clear's rectangles, each label's reach)
        self._placed: tuple | None = None

    def set_outlines(self, outlines, labels=()) -> None:
        outlines, labels = list(outlines), list(labels)
        if (len(outlines) == len(self.outlines) and labels == self.labels
                and all(p is q or p == q for (p, _), (q, _) in zip(outlines, self.outlines))
                and all(a == b for (_, a), (_, b) in zip(outlines, self.outlines))):
            return                  # unchanged: keep the cached picture
        before = {(text, colour.rgba()) for _, text, colour, _ in self.labels}
        self._staying = [(text, colour.rgba()) in before for _, text, colour, _ in labels]
        self.outlines = outlines
        self.labels = labels
        self._placing = {}
        self._cosmetic = all(pen.isCosmetic() for _, pen in outlines)
        if self._scale is None:
            self.update()
            return
        old, self._drawn = self._drawn, self.extents(self._scale)
        self.repaint(old + self._drawn)

    def relabel(self) -> None:
        """What the labels keep clear of (``keep_clear``) may have moved: they are placed
        again, and repainted where they were and are if that moved them."""
        if self._scale is None or not self.labels:
            return
        was = self._placed[2] if self._placed is not None else None
        now = self.label_rects(self._scale)         # placed again if they moved
        if now is was:
            return
        if was is not None and [r for r, *_ in was] == [r for r, *_ in now]:
            return
        old, self._drawn = self._drawn, self.extents(self._scale)
        self.repaint(old + self._drawn)

    def placed_label_rects(self, scale: float) -> list[tuple[QRectF, str, QColor]]:
        """``label_rects`` as placed (by ``set_outlines`` or ``relabel``, which repaint where
        they move), not placed again: what other labels keep clear of."""
        placed = self._placed
        if placed is not None and placed[0] is self.labels and placed[1][0] == scale:
            return placed[2]
        return self.label_rects(scale)

    def extents(self, scale: float) -> list[QRectF]:
        """Where the outlines (with their glow) and the labels lie at ``scale``."""
        out = []
        for path, pen in self.outlines:
            m = (pen.widthF() + 10) / scale if pen.isCosmetic() else pen.widthF() + 10 / scale
            out.append(self._place(path)[1].adjusted(-m, -m, m, m))
        return out + [rect for rect, *_ in self.label_rects(scale)]

    def _place(self, path: QPainterPath) -> tuple[QPainterPath, QRectF, int]:
        """(path, its bounding rect, the number of its shape): paths of one shape (a ring moved
        by a drag) share a number, the key of their stamps.  Found once per path (the first
        ``extents`` after ``set_outlines``), by comparing the path moved to 0, 0 with the few
        shapes seen before."""
        placing = self._placing.get(id(path))
        if placing is not None and placing[0] is path:
            return placing
        rect = path.boundingRect()
        shape = path.translated(-rect.topLeft())
        number = next((n for s, n in self._shapes if s == shape), None)
        if number is None:
            self._shape_count += 1
            number = self._shape_count
            self._shapes.insert(0, (shape, number))
            del self._shapes[2 * self.STAMPS:]
        placing = self._placing[id(path)] = (path, rect, number)
        return placing

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-2 * style.SCALE, -2 * style.SCALE, 2 * style.SCALE,
                                   2 * style.SCALE)

    def paint(self, painter: QPainter, option, widget=None):
        t = painter.worldTransform()
        scale = max(t.m11(), 1e-6)
        if scale != self._scale:
            self._scale, self._drawn = scale, self.extents(scale)
        stamp = self._stampable(painter, t)
        if self.clip:
            painter.save()
            clip_to_map(painter, self.map)
            self.draw(clipped(painter, map_clip(self.map)), stamp)
            painter.restore()               # the labels: clear of the clip (within the view's)
        else:
            self.draw(painter, stamp)
        if self.labels:
            self._draw_labels(painter, stamp)

    STAMPS = 8                  # images kept per item
    STAMP_PIXELS = 1 << 22      # larger outlines (zoomed far in) are drawn directly
    LABEL_IMAGES = 16           # labels remembered per item

    @staticmethod
    def _stampable(painter: QPainter, t: QTransform) -> bool:
        return pixel_exact(painter, t)

    def draw(self, painter: QPainter, stamp: bool | None = None):
        """The outlines; ``stamp``: whether the painter may draw them as images (``paint``
        asks once for the outlines and the labels)."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        t = painter.worldTransform()
        if stamp is None:
            stamp = self._stampable(painter, t)
        stamp = stamp and self._cosmetic
        for path, pen in self.outlines:
            if stamp:
                self._draw_stamp(painter, t, path, pen)
            else:
                _draw_glowing(painter, path, pen)

    def _draw_stamp(self, painter: QPainter, t: QTransform, path: QPainterPath, pen: QPen):
        """The outline as an image drawn once per shape, pen and zoom, then only moved: a
        drag moves the same rings every frame (stroking a glowing ring took milliseconds)."""
        _, rect, number = self._place(path)
        zoom = (round(t.m11(), 9), round(t.m22(), 9))
        stamps = self._stamps
        image = next((img for n, p, z, img in stamps if n == number and z == zoom and p == pen),
                     None)
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
            _draw_glowing(p, path.translated(-rect.topLeft()), pen)
            p.end()
            stamps.insert(0, (number, QPen(pen), zoom, image))
            del stamps[self.STAMPS:]
        at = t.map(rect.topLeft())
        painter.save()
        painter.resetTransform()
        painter.drawImage(QPointF(round(at.x() - margin), round(at.y() - margin)), image)
        painter.restore()

    def _draw_labels(self, painter: QPainter, stamp: bool):
        t = painter.worldTransform()
        scale = max(t.m11(), 1e-6)
        # where they were placed (``set_outlines``, ``relabel``: each repaints where they were
        # and are), never moved by a paint (its old spot would not be repainted)
        rects = self.placed_label_rects(scale)
        if not stamp:
            style.label_font(painter, 0.3, style.MIN_LABEL_PX)
            for rect, text, colour in rects:
                _draw_label(painter, rect, text, colour)
            return
        # a label that stays (a ring's, moved with it) as an image, drawn at whole pixels:
        # drawing the text took a tenth of a millisecond a label, every frame of a drag; a new
        # one (the hovered hex's name, another each step) directly.  Chosen by set_outlines:
        # every repaint until the next draws a label the same way
        zoom = (round(t.m11(), 9), round(t.m22(), 9), painter.renderHints())
        images, stamped, font_set = self._label_images, [], False
        for (rect, text, colour), staying in zip(rects, self._staying):
            if not staying:
                if not font_set:
                    style.label_font(painter, 0.3, style.MIN_LABEL_PX)
                    font_set = True
                _draw_label(painter, rect, text, colour)
                continue
            key = (text, colour.rgba(), zoom)
            image = images.pop(key, None)
            if image is None:
                image = self._label_image(painter, t, rect, text, colour)
            images[key] = image                     # the newest last
            at = t.map(rect.topLeft())
            stamped.append((QPointF(round(at.x()) - 1, round(at.y()) - 1), image))
        while len(images) > self.LABEL_IMAGES:
            del images[next(iter(images))]
        if stamped:
            painter.save()
            painter.resetTransform()
            for at, image in stamped:
                painter.drawImage(at, image)
            painter.restore()

    @staticmethod
    def _label_image(painter: QPainter, t: QTransform, rect: QRectF, text: str,
                     colour: QColor) -> QImage:
        """The label drawn as ``painter`` would at ``t``'s zoom, its rectangle's top left at
        (1, 1): a pixel of margin for the antialiased edge."""
        w, h = rect.width() * t.m11(), rect.height() * t.m22()
        image = QImage(int(w) + 3, int(h) + 3, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        p.setRenderHints(painter.renderHints())
        p.translate(1, 1)
        p.scale(t.m11(), t.m22())
        style.label_font(p, 0.3, style.MIN_LABEL_PX)
        _draw_label(p, QRectF(0, 0, rect.width(), rect.height()), text, colour)
        p.end()
        return image

    def label_rects(self, scale: float) -> list[tuple[QRectF, str, QColor]]:
        """(scene rectangle, text, colour) of each label at ``scale`` (screen pixels per scene
        unit): centred above (below) its anchor, or the nearest spot clear of ``keep_clear``'s
        rectangles and of the labels placed before it."""
        if not self.labels:
            return []
        hard = self.keep_clear(scale) if self.keep_clear is not None else np.zeros((0, 4))
        soft = (self.keep_clear_if_room(scale) if self.keep_clear_if_room is not None
                else np.zeros((0, 4)))
        rather = (self.keep_clear_rather(scale) if self.keep_clear_rather is not None
                  else np.zeros((0, 4)))
        avoid = np.vstack([hard, rather, soft])
        placed = self._placed
        if placed is not None and placed[0] is self.labels and placed[1][0] == scale \
                and _unmoved_near(placed[3], avoid, placed[4]):
            # painted again, or what they keep clear of moved only far from them (a dragged
            # counter): placed as before, as ``_clear_spot`` would place them
            self._placed = (*placed[:3], avoid, placed[4])
            return placed[2]
        size = max(0.3 * style.SCALE, style.MIN_LABEL_PX / scale)
        gap = 2 / scale
        out, reach = [], []
        top, bottom = self._rect.top(), self._rect.bottom()
        given = avoid
        for anchor, text, colour, above in self.labels:
            w, h = _label_box(text, size)
            x0, y0 = anchor.x() - w / 2, anchor.y() - (h if above else 0)
            if out:                                                     # nor on each other
                r = out[-1][0]
                avoid = np.vstack([avoid, [(r.left(), r.top(), r.right(), r.bottom())]])
                hard = np.vstack([hard, [(r.left(), r.top(), r.right(), r.bottom())]])
                rather = np.vstack([rather, [(r.left(), r.top(), r.right(), r.bottom())]])
            reach.append(_reach(x0, y0, w, h, gap))
            way = -1 if above else 1
            spot = _clear_spot(avoid, x0, y0, w, h, gap, way, top, bottom, blocked=None)
            if spot is None and len(rather):    # no room clear of everything: of the markers
                spot = _clear_spot(np.vstack([hard, rather]), x0, y0, w, h, gap, way, top,
                                   bottom, blocked=None)
            if spot is None:        # nor that: of what must stay readable
                spot = _clear_spot(hard, x0, y0, w, h, gap, way, top, bottom)
            x0, y0 = spot
            out.append((QRectF(x0, y0, w, h), text, colour))
        self._placed = (self.labels, (scale,), out, given, np.array(reach).reshape(-1, 4))
        return out


def _draw_label(painter: QPainter, rect: QRectF, text: str, colour: QColor) -> None:
    """A label: ``text`` in the painter's font, centred on a dark rounded ``rect``."""
    h = rect.height()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(style.BOARD_LABEL_BACK)
    painter.drawRoundedRect(rect, h / 4, h / 4)
    painter.setPen(colour)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


_BOXES: dict[tuple[str, float], tuple[float, float]] = {}
_METRICS: dict[float, QFontMetricsF] = {}


def _label_box(text: str, size: float) -> tuple[float, float]:
    """(width, height) of a label of ``text`` in the bold label font ``size`` scene units high,
    measured once per text and size (a drag places the rings' labels every step)."""
    box = _BOXES.get((text, size))
    if box is None:
        fm = _METRICS.get(size)
        if fm is None:
            fm = _METRICS[size] = QFontMetricsF(style.font(size, bold=True))
            if len(_METRICS) > 16:
                del _METRICS[next(iter(_METRICS))]
        box = _BOXES[(text, size)] = (fm.horizontalAdvance(text) + size, fm.height() * 1.1)
        if len(_BOXES) > 256:
            del _BOXES[next(iter(_BOXES))]
    return box


# where a label may go instead, in label heights (dy) and widths (dx), nearest first
_TRIES = sorted(((dy, dx) for dy in np.arange(-4, 4.01, 0.5) for dx in np.arange(-1, 1.01, 0.25)),
                key=lambda t: (abs(t[0]) + 1.5 * abs(t[1]), -t[0]))
_TRY_ARRAY = np.array(_TRIES)
_TRY_REACH = np.abs(_TRY_ARRAY).max(axis=0)     # the farthest try (dy, dx), either way


def _reach(x0: float, y0: float, w: float, h: float, gap: float) -> tuple:
    """The rectangle (left, top, right, bottom) holding every rectangle ``_clear_spot`` looks
    at for a label whose first spot is (x0, y0): one outside it does not move the label."""
    reach_y, reach_x = (_TRY_REACH[0] + 1) * h + gap, (_TRY_REACH[1] + 1) * w + gap
    return (x0 - reach_x, y0 - reach_y, x0 + w + reach_x, y0 + h + reach_y)


def _unmoved_near(before: np.ndarray, now: np.ndarray, reach: np.ndarray) -> bool:
    """Whether the rectangles ``now`` are ``before`` but for rows far from every ``reach``
    (rows of left, top, right, bottom; the same rows in the same order)."""
    if before.shape != now.shape:
        return False
    moved = (before != now).any(axis=1)
    if not moved.any():
        return True
    rows = np.vstack([before[moved], now[moved]])
    return not ((rows[:, None, 0] < reach[None, :, 2]) & (rows[:, None, 2] > reach[None, :, 0])
                & (rows[:, None, 1] < reach[None, :, 3])
                & (rows[:, None, 3] > reach[None, :, 1])).any()


def _clear_spot(avoid: np.ndarray, x0: float, y0: float, w: float, h: float, gap: float,
                away: int, top: float, bottom: float, blocked="first"):
    """(x0, y0), the top left of a ``w`` x ``h`` label, when it is ``gap`` clear of every
    rectangle of ``avoid`` (rows of left, top, right, bottom); else the nearest spot that is,
    on the map between ``top`` and ``bottom`` (``away``: the way it prefers, -1 up, 1 down);
    else (x0, y0), or ``blocked`` when that is not "first".  The tries are tested against the
    rectangles within their reach only."""
    if not len(avoid):
        return x0, y0
    left, up, right, down = avoid.T
    hit = left < x0 + w + gap
    hit &= right > x0 - gap
    hit &= up < y0 + h + gap
    hit &= down > y0 - gap
    if not hit.any():
        return x0, y0
    far_left, far_up, far_right, far_down = _reach(x0, y0, w, h, gap)
    near = avoid[(left < far_right) & (right > far_left) & (up < far_down) & (down > far_up)]
    tries = _TRY_ARRAY * np.array([away, 1.0])
    ys, xs = y0 + tries[:, 0] * h, x0 + tries[:, 1] * w
    clear = ~((near[None, :, 0] < xs[:, None] + w + gap)
              & (near[None, :, 2] > xs[:, None] - gap)
              & (near[None, :, 1] < ys[:, None] + h + gap)
              & (near[None, :, 3] > ys[:, None] - gap)).any(axis=1)
    ok = np.flatnonzero(clear & (ys >= top) & (ys + h <= bottom))
    if not len(ok):
        return (x0, y0) if blocked == "first" else blocked
    return float(xs[ok[0]]), float(ys[ok[0]])
