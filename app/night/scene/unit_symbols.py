"""The symbol in the middle of a unit counter, one small drawing per unit type.

NATO-like for infantry (a box with a cross), a star for leaders and heroes, silhouettes for
vehicles (tracks or wheels), a mortar tube, binoculars for an observer.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF


def _pen(p: QPainter, ink: QColor, w: float = 4.0, fill=None):
    pen = QPen(ink, w)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    p.setBrush(fill if fill is not None else Qt.BrushStyle.NoBrush)


def _fit(r: QRectF, aspect: float) -> QRectF:
    """The largest rect of width/height ``aspect`` centred in ``r``."""
    w = min(r.width(), r.height() * aspect)
    h = w / aspect
    return QRectF(r.center().x() - w / 2, r.center().y() - h / 2, w, h)


def infantry(painter, rect, ink, unit, scale=1.0, diagonals=2):
    b = _fit(rect, 1.5)
    b = QRectF(b.center().x() - b.width() * scale / 2, b.center().y() - b.height() * scale / 2,
               b.width() * scale, b.height() * scale)
    _pen(painter, ink)
    painter.drawRect(b)
    painter.drawLine(b.topLeft(), b.bottomRight())
    if diagonals == 2:
        painter.drawLine(b.bottomLeft(), b.topRight())
    return b


def squad(painter, rect, ink, unit):
    infantry(painter, rect, ink, unit)


def half_squad(painter, rect, ink, unit):
    b = infantry(painter, rect, ink, unit, 0.72)
    _pen(painter, ink, 3, ink)
    painter.drawRect(QRectF(b.right() + 3, b.top(), 5, b.height()))


def crew(painter, rect, ink, unit):
    b = infantry(painter, rect.adjusted(0, 0, 0, -8), ink, unit, 0.85)
    _pen(painter, ink, 3, ink)
    painter.drawEllipse(QPointF(b.center().x(), b.bottom() + 7), 5, 5)


def star_polygon(centre: QPointF, outer: float, inner_ratio: float = 0.42) -> QPolygonF:
    pts = []
    for k in range(10):
        rad = outer if k % 2 == 0 else outer * inner_ratio
        a = math.pi * k / 5
        pts.append(QPointF(centre.x() + rad * math.sin(a), centre.y() - rad * math.cos(a)))
    return QPolygonF(pts)


def leader(painter, rect, ink, unit):
    _pen(painter, ink, 2, ink)
    painter.drawPolygon(star_polygon(rect.center(), min(rect.width(), rect.height()) * 0.52))


def hero(painter, rect, ink, unit):
    c = rect.center()
    rad = min(rect.width(), rect.height()) * 0.5
    _pen(painter, ink, 3)
    painter.drawEllipse(c, rad, rad)
    _pen(painter, ink, 2, ink)
    painter.drawPolygon(star_polygon(c, rad * 0.78))


def _hull(p, b: QRectF, ink, tracked: bool):
    """Running gear: a track loop with road wheels, or three wheels."""
    if tracked:
        _pen(p, ink, 3.5)
        track = QRectF(b.left(), b.bottom() - b.height() * 0.34, b.width(), b.height() * 0.34)
        p.drawRoundedRect(track, track.height() / 2, track.height() / 2)
        _pen(p, ink, 2, ink)
        for k in range(4):
            x = track.left() + track.width() * (0.2 + 0.2 * k)
            p.drawEllipse(QPointF(x, track.center().y()), 3, 3)
    else:
        _pen(p, ink, 2, ink)
        for k in range(3):
            x = b.left() + b.width() * (0.18 + 0.32 * k)
            p.drawEllipse(QPointF(x, b.bottom() - 6), 6, 6)


def afv(painter, rect, ink, unit):
    b = _fit(rect, 1.7)
    _hull(painter, b, ink, unit.tracked)
    _pen(painter, ink, 3, ink)
    hull = QRectF(b.left() + 4, b.top() + b.height() * 0.4, b.width() - 8, b.height() * 0.24)
    painter.drawRect(hull)
    turret = QRectF(b.left() + b.width() * 0.3, b.top() + b.height() * 0.14, b.width() * 0.34,
                    b.height() * 0.24)
    painter.drawRoundedRect(turret, 4, 4)
    painter.drawLine(QPointF(turret.right(), turret.center().y()),
               QPointF(b.right() + 2, turret.center().y()))
    if not unit.bu:               # an open hatch: the commander is exposed (CE)
        painter.drawEllipse(QPointF(turret.center().x(), turret.top() - 5), 4, 4)


def vehicle(painter, rect, ink, unit):
    b = _fit(rect, 1.7)
    _hull(painter, b, ink, unit.tracked)
    _pen(painter, ink, 3)
    body = QRectF(b.left() + 2, b.top() + b.height() * 0.18, b.width() * 0.62, b.height() * 0.46)
    cab = QRectF(body.right() + 3, b.top() + b.height() * 0.34, b.width() * 0.3, b.height() * 0.3)
    painter.drawRect(body)
    painter.drawRect(cab)


def armor_leader(painter, rect, ink, unit):
    top = QRectF(rect.left(), rect.top(), rect.width(), rect.height() * 0.62)
    leader(painter, top, ink, unit)
    _hull(painter, QRectF(rect.left() + 6, rect.top() + rect.height() * 0.6, rect.width() - 12,
                          rect.height() * 0.42), ink, True)


def mortar(painter, rect, ink, unit):
    c = rect.center()
    h = rect.height() * 0.9
    _pen(painter, ink, 4)
    base = QPointF(c.x(), c.y() + h * 0.32)
    painter.drawEllipse(base, 6, 6)
    tip = QPointF(c.x(), c.y() - h * 0.48)
    painter.drawLine(QPointF(c.x(), base.y() - 6), tip)
    painter.drawLine(tip, QPointF(tip.x() - 9, tip.y() + 10))
    painter.drawLine(tip, QPointF(tip.x() + 9, tip.y() + 10))


def observer(painter, rect, ink, unit):
    c = rect.center()
    rad = min(rect.width() * 0.22, rect.height() * 0.34)
    _pen(painter, ink, 4)
    painter.drawEllipse(QPointF(c.x() - rad * 1.1, c.y() + rad * 0.2), rad, rad)
    painter.drawEllipse(QPointF(c.x() + rad * 1.1, c.y() + rad * 0.2), rad, rad)
    painter.drawLine(QPointF(c.x() - rad * 0.35, c.y() - rad * 0.3), QPointF(c.x() + rad * 0.35,
                                                                      c.y() - rad * 0.3))


def unknown(painter, rect, ink, unit):
    _pen(painter, ink, 3)
    painter.drawEllipse(rect.center(), 10, 10)


SYMBOLS = {"squad": squad, "half_squad": half_squad, "crew": crew, "leader": leader,
           "armor_leader": armor_leader, "hero": hero, "afv": afv, "vehicle": vehicle,
           "mortar": mortar, "observer": observer}


class _Symbols(dict):
    def __missing__(self, key):
        return unknown


SYMBOLS = _Symbols(SYMBOLS)
