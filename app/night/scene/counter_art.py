"""Counter art drawn by code, on a 100 x 100 square (the painter is scaled to the counter).

Units: the side's colour, the counter's name on top (its id where it has none), a symbol for
the type, badges for the state (concealed ?, broken, BU/CE, moving, level, IR).  Markers:
starshell and IR bursts, blaze and flame, Gunflash, the three fire markers and FFE.  Small
counters (``compact``) keep the name (or id) and the symbol and drop the words.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF

from app import style
from engine import api

from .unit_symbols import SYMBOLS

TYPE_WORDS = {"squad": "SQUAD", "half_squad": "HALF SQ", "crew": "CREW", "leader": "LEADER",
              "armor_leader": "ARMOR LDR", "hero": "HERO", "afv": "AFV", "vehicle": "VEHICLE",
              "mortar": "MORTAR", "observer": "OBSERVER"}
MOVING_WORDS = {"entered": "MOVED", "changed_ca": "CA", "started": "START", "stopped": "STOP",
                "delay": "DELAY"}
FIRE_WORDS = {"prep_fire": ("PREP", "FIRE"), "first_fire": ("FIRST", "FIRE"),
              "final_fire": ("FINAL", "FIRE"), "bounding_fire": ("BND.", "FIRE"),
              "opportunity_fire": ("OPP.", "FIRE"), "advancing_fire": ("ADV.", "FIRE"),
              "intensive_fire": ("INT.", "FIRE")}


def fit_text(painter: QPainter, rect: QRectF, text: str, size: float, bold=True, colour=None,
             align=Qt.AlignmentFlag.AlignCenter) -> None:
    """Draw ``text`` in ``rect``, shrinking the font until it fits the width."""
    f = style.font(size, bold)
    while size > 6 and QFontMetricsF(f).horizontalAdvance(text) > rect.width():
        size -= 1
        f = style.font(size, bold)
    painter.setFont(f)
    if colour is not None:
        painter.setPen(colour)
    painter.drawText(rect, align, text)


def _body(p: QPainter, fill: QColor, edge: QColor, selected: bool, round_: bool = False):
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(style.COUNTER_SHADOW)
    if round_:
        p.drawEllipse(QRectF(6, 7, 94, 94))
    else:
        p.drawRoundedRect(QRectF(5, 6, 95, 95), 9, 9)
    p.setBrush(fill)
    p.setPen(QPen(edge, 4))
    body = QRectF(2, 2, 94, 94)
    p.drawEllipse(body) if round_ else p.drawRoundedRect(body, 8, 8)
    if selected:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(style.SELECTION, 6))
        out = QRectF(-4, -4, 106, 106)
        p.drawEllipse(out) if round_ else p.drawRoundedRect(out, 12, 12)


def _badge(p: QPainter, rect: QRectF, text: str, back: QColor, fg: QColor = style.BADGE_TEXT):
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(back)
    p.drawRoundedRect(rect, 5, 5)
    fit_text(p, rect.adjusted(2, 0, -2, 0), text, rect.height() * 0.78, True, fg)


def counter_name(unit) -> str:
    """The counter's own name ("4-6-7", "9-2", "T-34/85": the unit's ``name``), or ""."""
    name = unit.extra.get("name")
    return " ".join(name.split()) if isinstance(name, str) else ""


def counter_title(unit) -> str:
    """What the top of a unit's counter says: its name, else (no name) its id."""
    name = counter_name(unit)
    return (name if len(name) <= 14 else name[:13] + "\u2026") if name else unit.id


def draw_unit(painter: QPainter, unit, side: int, compact: bool, selected: bool = False) -> None:
    fill, ink, edge = style.SIDE_FILL[side], style.SIDE_INK[side], style.SIDE_EDGE[side]
    if unit.broken:
        fill = fill.darker(125)
    _body(painter, fill, edge, selected)
    id_h = 38 if compact else 30
    id_w = 64 if unit.concealed else 86            # room for the "?" badge
    fit_text(painter, QRectF(6, 3, id_w, id_h), counter_title(unit), id_h * 0.86, True, ink)
    painter.setPen(QPen(edge, 2))
    painter.drawLine(QPointF(10, 3 + id_h), QPointF(88, 3 + id_h))
    sym = QRectF(22, 6 + id_h, 54, 84 - id_h - (4 if compact else 20))
    SYMBOLS[unit.type](painter, sym, QColor(style.BADGE_BROKEN) if unit.broken else ink, unit)
    if not compact:
        words = TYPE_WORDS.get(unit.type, unit.type.upper())
        fit_text(painter, QRectF(6, 80, 86, 15), words, 13, True, ink)
    _unit_badges(painter, unit, compact)


def _unit_badges(p: QPainter, unit, compact: bool) -> None:
    h = 22 if compact else 18
    left, right = [], []
    if unit.is_vehicle or unit.type == "armor_leader":
        left.append(("CE", style.BADGE_CE) if unit.is_ce else ("BU", style.BADGE_INFO))
    if unit.moving:
        right.append((MOVING_WORDS.get(unit.moving, unit.moving.upper()), style.BADGE_MOVING))
    if unit.level:
        left.append((f"L{unit.level}", style.BADGE_INFO))
    if unit.ir:
        right.append(("IR", style.BADGE_INFO))
    if unit.bypass:
        right.append(("BYP", style.BADGE_INFO))
    if unit.pinned:
        right.append(("PIN", style.BADGE_BROKEN))
    y = 98 - h - (0 if compact else 16)
    for k, (text, back) in enumerate(left[:2]):
        _badge(p, QRectF(3, y - k * (h + 2), 34, h), text, back)
    for k, (text, back) in enumerate(right[:2]):
        w = 46 if len(text) > 3 else 34
        _badge(p, QRectF(95 - w, y - k * (h + 2), w, h), text, back)
    if unit.broken:
        p.save()
        p.translate(50, 58)
        p.rotate(-30)
        _badge(p, QRectF(-46, -10, 92, 20), "BROKEN", style.BADGE_BROKEN)
        p.restore()
    if unit.concealed:
        p.setPen(QPen(style.MARKER_DARK, 3))
        p.setBrush(style.MARKER_STAR)
        p.drawEllipse(QRectF(70, -6, 34, 34))
        fit_text(p, QRectF(70, -6, 34, 34), "?", 28, True, style.MARKER_DARK)


def burst(centre: QPointF, rays: int, outer: float, inner: float, turn: float = 0) -> QPolygonF:
    pts = []
    for k in range(rays * 2):
        r = outer if k % 2 == 0 else inner
        a = math.pi * k / rays + turn
        pts.append(QPointF(centre.x() + r * math.sin(a), centre.y() - r * math.cos(a)))
    return QPolygonF(pts)


def flame(cx: float, base: float, width: float, height: float) -> QPainterPath:
    w, h = width, height
    path = QPainterPath(QPointF(cx, base))
    path.cubicTo(cx - w, base - 0.05 * h, cx - w * 0.9, base - 0.6 * h, cx - w * 0.2, base - h)
    path.cubicTo(cx - w * 0.1, base - 0.62 * h, cx + w * 0.5, base - 0.75 * h, cx + w * 0.35,
                 base - 0.95 * h)
    path.cubicTo(cx + w * 1.1, base - 0.5 * h, cx + w, base - 0.05 * h, cx, base)
    return path


def draw_marker(painter: QPainter, marker, side: int | None, compact: bool) -> None:
    t = marker.type
    if api.night.MARKER_KINDS[t].light is api.night.Light.STAR:
        _body(painter, style.MARKER_DARK, style.MARKER_STAR.darker(170), False, round_=True)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.MARKER_STAR)
        painter.drawPolygon(burst(QPointF(49, 47 if compact else 42), 8, 40 if compact else 34, 12))
        painter.setBrush(QColor("#fffbe8"))
        painter.drawEllipse(QPointF(49, 47 if compact else 42), 9, 9)
        if t == "ir":
            _badge(painter, QRectF(30, 62, 38, 26), "IR", style.MARKER_DARK, style.MARKER_STAR)
        elif not compact:
            fit_text(painter, QRectF(14, 72, 70, 16), "STARSHELL", 13, True, style.MARKER_STAR)
    elif t in ("blaze", "flame", "trip_flare"):
        _body(painter, style.MARKER_DARK, style.MARKER_FLAME.darker(150), False, round_=(t != "blaze"))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.MARKER_FLAME)
        painter.drawPath(flame(49, 82 if compact else 70, 26, 66 if compact else 58))
        painter.setBrush(style.MARKER_FLAME_CORE)
        painter.drawPath(flame(49, 82 if compact else 70, 12, 34 if compact else 30))
        if not compact:
            word = "TRIP FLARE" if t == "trip_flare" else t.upper()
            fit_text(painter, QRectF(10, 72, 78, 18), f"{word} r{marker.light_radius}", 14, True,
                     style.MARKER_FLAME_CORE)
    elif t == "gunflash":
        _body(painter, style.MARKER_DARK, style.GUNFLASH_LOCATION.darker(150), False)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.GUNFLASH_LOCATION)
        painter.drawPolygon(burst(QPointF(49, 44 if compact else 40), 7, 38 if compact else 32, 14, 0.3))
        if not compact:
            fit_text(painter, QRectF(8, 72, 82, 18), "GUNFLASH", 14, True, style.GUNFLASH_LOCATION)
    elif t in FIRE_WORDS:
        _fire_marker(painter, t, side, compact)
    elif t == "ffe":
        _body(painter, style.MARKER_FFE, style.MARKER_FFE.darker(160), False)
        painter.setPen(QPen(style.MARKER_FIRE, 6))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(49, 49), 30, 30)
        painter.drawLine(QPointF(49, 10), QPointF(49, 88))
        painter.drawLine(QPointF(10, 49), QPointF(88, 49))
        _badge(painter, QRectF(20, 36, 58, 26), "FFE", style.MARKER_FFE, style.MARKER_FIRE)
    elif t == "smoke":          # rules.md 11.4: its strength on the counter, as VASL's shows it
        _smoke(painter, api.night.marker_label(marker), compact)
    else:
        _body(painter, style.MARKER_DARK, style.MARKER_FIRE, False)
        fit_text(painter, QRectF(6, 30, 86, 36), api.night.marker_label(marker).upper(), 20,
                 True, style.MARKER_FIRE)


def _smoke(p: QPainter, label: str, compact: bool) -> None:
    """A smoke counter read at a glance: its strength large ("+3"), what it is under it (SMOKE,
    WP, GRENADE), white or gray as its name says."""
    gray = label.lower().startswith("gray")
    _body(p, QColor("#9a9a9a") if gray else QColor("#ececec"), QColor("#5a5a5a"), False,
          round_=True)
    strength = next((w for w in label.split() if w[:1] in "+-" and w[1:].isdigit()), "")
    lower = label.lower()
    word = "GRENADE" if "grenade" in lower else "WP" if "wp" in lower.split() else "SMOKE"
    fit_text(p, QRectF(6, 8 if not compact else 14, 86, 50), strength, 44, True,
             style.MARKER_DARK)
    if not compact:
        fit_text(p, QRectF(6, 60, 86, 28), word, 20, True, style.MARKER_DARK)


def _fire_marker(p: QPainter, t: str, side: int | None, compact: bool) -> None:
    edge = style.SIDE_EDGE[side] if side is not None else style.MARKER_FIRE.darker(150)
    _body(p, style.MARKER_FIRE, edge, False)
    if side is not None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(style.SIDE_FILL[side].darker(115))
        p.drawRect(QRectF(4, 4, 90, 12))
    top, bottom = FIRE_WORDS[t]
    p.setBrush(style.GUNFLASH_LOCATION)
    p.setPen(Qt.PenStyle.NoPen)
    p.drawPolygon(burst(QPointF(82, 82), 6, 14, 6))
    size = 34 if compact else 28
    fit_text(p, QRectF(6, 18, 86, 36), top, size, True, style.MARKER_FIRE_INK)
    fit_text(p, QRectF(6, 52, 76, 32), bottom, size * 0.8, True, style.MARKER_FIRE_INK)
