"""The LOS thread: a player's string stretched from one hex centre to another (A6.1).

It draws the engine's ``engine.night.los_thread.LosThread``: the hexes the string crosses, the
blocking hex (the string turns red beyond it), a blind end hex hatched in red, and a label
with the range, the levels, the hindrances and the night verdict.  The words are the
explanation panel's.
"""
from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPainterPath

from app import style
from app.hex_geometry import hex_polygon, scene_center

from ..scene.overlays import MapOverlay, cosmetic_pen

SIGHT_SHORT = {"nvr": "night: seen (NVR or lit)", "gunflash": "night: Gunflash only",
               "none": "night: no LOS"}


def thread_summary(thread) -> str:
    """One line on the string: range, levels, the day's verdict, the night's."""
    day = "clear" if thread.day_clear else (
        "blind hex" if thread.blind else f"blocked by {' / '.join(thread.blocking)}")
    count = thread.hindrances
    hind = f", {count} hindrance{'s' if count != 1 else ''}" if count else ""
    night = SIGHT_SHORT.get(thread.night_sight, thread.night_sight)
    return (f"{thread.start} \u2192 {thread.end}: range {thread.range}, levels "
            f"{thread.start_elevation} \u2192 {thread.end_elevation}; day: {day}{hind}; {night}")


class ThreadItem(MapOverlay):
    """``set_thread(engine Thread or None)``."""

    def __init__(self, game_map, z_value: float):
        super().__init__(game_map, z_value)
        self.thread = None
        self.crossed = QPainterPath()
        self.label_rect: QRectF | None = None       # where the label was last drawn
        self.moved = None            # called when the thread changes (the scene's relabel)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-4 * style.SCALE, -4 * style.SCALE, 4 * style.SCALE,
                                   4 * style.SCALE)

    def visible_rect(self) -> QRectF | None:
        """The part of the scene the (first) view shows, or None without a view."""
        views = self.scene().views() if self.scene() is not None else []
        if not views:
            return None
        v = views[0]
        return v.mapToScene(v.viewport().rect()).boundingRect()

    def set_thread(self, thread) -> None:
        self.thread = thread
        if self.moved is not None:
            self.moved()             # the ring labels keep clear of its label
        self.crossed = QPainterPath()
        if thread is not None:
            for name in thread.crossed:
                self.crossed.addPolygon(hex_polygon(self.map, self.map.index(name), 0.9))
                self.crossed.closeSubpath()
        self.update()

    def paint(self, painter: QPainter, option, widget=None):
        self.draw(painter)

    def draw(self, painter: QPainter):
        t = self.thread
        if t is None:
            return
        m = self.map
        a, b = scene_center(m, m.index(t.start)), scene_center(m, m.index(t.end))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(style.THREAD_CROSSED, 1.2, dashes=[2, 2]))
        painter.drawPath(self.crossed)
        cut = b
        if not t.day_clear:
            for name in t.blocking:
                painter.setPen(cosmetic_pen(style.THREAD_BLOCKED, 3.0))
                painter.drawPolygon(hex_polygon(m, m.index(name), 0.93))
            if t.blocking:
                cut = scene_center(m, m.index(t.blocking[0]))
        if t.blind:
            painter.setPen(cosmetic_pen(style.THREAD_BLOCKED, 3.0, dashes=[2, 2]))
            painter.drawPolygon(hex_polygon(m, m.index(t.end), 0.93))
        shadow = cosmetic_pen(style.BOARD_LABEL_BACK, 5.0)
        painter.setPen(shadow)
        painter.drawLine(QLineF(a, b))
        painter.setPen(cosmetic_pen(style.THREAD, 2.2))
        painter.drawLine(QLineF(a, cut))
        if cut != b:
            painter.setPen(cosmetic_pen(style.THREAD_BLOCKED, 2.2, dashes=[4, 3]))
            painter.drawLine(QLineF(cut, b))
        for p in (a, b):
            painter.setPen(cosmetic_pen(style.THREAD, 7.0))
            painter.drawPoint(p)
        self._label(painter, b, thread_summary(t))

    def label_box(self, scale: float) -> QRectF | None:
        """Where the thread's label lies at ``scale`` (screen pixels per scene unit), in scene
        coordinates; None without a thread.  The ring labels keep clear of it."""
        t = self.thread
        if t is None:
            return None
        size = max(0.3 * style.SCALE, 12.0 / max(scale, 1e-6))     # as style.label_font
        fm = QFontMetricsF(style.font(size, bold=True))
        text = thread_summary(t)
        at = scene_center(self.map, self.map.index(t.end))
        w, h = fm.horizontalAdvance(text) + size, fm.height() * 1.2
        rect = QRectF(at.x() - w / 2, at.y() + 0.6 * style.SCALE, w, h)
        seen = self.visible_rect()
        return inside(rect, seen, at, size * 0.5) if seen is not None else rect

    def _label(self, painter: QPainter, at: QPointF, text: str):
        size, fm = style.label_font(painter, 0.3, 12.0)
        h = fm.height() * 1.2
        rect = self.label_box(max(painter.worldTransform().m11(), 1e-6))
        self.label_rect = rect
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.BOARD_LABEL_BACK)
        painter.drawRoundedRect(rect, h / 4, h / 4)
        painter.setPen(style.THREAD_BLOCKED if self.thread.night_sight == "none" else style.THREAD)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def inside(rect: QRectF, seen: QRectF, at: QPointF, pad: float) -> QRectF:
    """``rect`` (a label below ``at``) moved inside ``seen``: sideways, and above ``at`` when
    there is no room below."""
    r = QRectF(rect)
    if r.bottom() > seen.bottom() - pad:
        r.moveBottom(at.y() - 0.6 * style.SCALE)
    if r.right() > seen.right() - pad:
        r.moveRight(seen.right() - pad)
    if r.left() < seen.left() + pad:
        r.moveLeft(seen.left() + pad)
    if r.top() < seen.top() + pad:
        r.moveTop(seen.top() + pad)
    return r
