"""The map of a Napoleonic fire position: terrain hexes, counters (formation, increments,
facing), the target hex, the firers with LOS highlighted and the others dimmed.

Drawing only: every answer (values, LOS, reasons) comes from the engine's assessment."""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from app import hex_geometry
from engine import api

from .. import style
from ..style import SCALE

TERRAIN_COLOUR = {"woods": style.WOODS, "building": style.BUILDING, "orchard": style.ORCHARD_TREE,
                  "brush": style.BRUSH, "grain": style.GRAIN, "water": style.WATER,
                  "stream": style.WATER, "marsh": style.MARSH, "village": style.BUILDING,
                  "town": style.BUILDING, "chateau": style.BUILDING, "slope": style.GRAIN,
                  "ridge": style.BRUSH}
BUILT = ("building", "village", "town", "chateau")   # drawn as a block in the hex
SIDE_COLOUR = {"french": QColor("#2f5fb3"), "british": QColor("#b3312f"),
               "austrian": QColor("#e8e2cf"), "prussian": QColor("#3b3f46"),
               "russian": QColor("#2f7a4a")}
FORMATION_SHORT = {"line": "L", "column": "C", "square": "Sq", "skirmish": "Sk",
                   "general_order": "GO", "disorder": "D"}
TARGET = QColor("#ff5a3c")
COUNTED = QColor("#ffd84a")
OUT = QColor("#9aa3b5")
COUNTER = 0.9 * SCALE            # a counter's side, in scene units
CHOSEN = QColor("#ffffff")       # the unit chosen in the editor


def side_colour(side: str) -> QColor:
    c = SIDE_COLOUR.get(side.lower())
    if c is None:
        c = QColor.fromHsv(hash(side) % 360, 140, 170)
    return c


def unit_words(unit) -> str:
    """A unit in words, its nation said once: "C1: british dragoons cavalry, line, ..."."""
    who = [unit.side] + ([unit.nation] if unit.nation != unit.side else [])
    who += [w for w in (unit.troop, unit.arm) if w not in who]
    marks = [w for k, w in (("morale_check", "must check morale"), ("casualty", "casualty"))
             if unit.extra.get(k)]
    name = unit.extra.get("name")
    return (f"{unit.id}{f' ({name})' if name else ''}: {' '.join(who)}, "
            f"{unit.formation.replace('_', ' ')}, {unit.increments} "
            f"increment{'s' if unit.increments != 1 else ''}, printed {unit.printed}"
            + "".join(f", {m}" for m in marks) + (", has fired" if unit.fired else ""))


def counter_positions(pos) -> dict[str, QPointF]:
    """Centre of each counter: a stack fans out down-right from its hex centre."""
    m = pos.map
    out, seen = {}, {}
    for u in pos.units:
        k = seen.get(u.hex, 0)
        seen[u.hex] = k + 1
        c = hex_geometry.scene_center(m, m.index(u.hex))
        out[u.id] = QPointF(c.x() - 0.1 * SCALE + k * 0.2 * SCALE, c.y() - 0.06 * SCALE + k * 0.2 * SCALE)
    return out


class MapItem(QGraphicsItem):
    """Terrain, levels, the grid and hex names; the target hex and the lines of fire."""

    def __init__(self, pos):
        super().__init__()
        self.pos = pos
        self.target: str | None = None
        self.lines: list[tuple[QPointF, QPointF, bool]] = []      # (from, to, counted)
        m = pos.map
        self._rect = hex_geometry.area(m, np.ones(m.size, dtype=bool)).boundingRect().adjusted(-4, -4, 4, 4)
        self.setZValue(0)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        m = self.pos.map
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        grid = QPen(style.GRID, 1.0)
        grid.setCosmetic(True)
        for i in range(m.size):
            poly = hex_geometry.hex_polygon(m, i)
            name = self.pos.terrain_at(i)
            level = int(m.level[i])
            ground = style.GROUND.get(max(-2, min(5, level)), style.GROUND[0])
            painter.setPen(grid)
            painter.setBrush(ground)
            painter.drawPolygon(poly)
            col = TERRAIN_COLOUR.get(name)
            if col is not None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(col)
                painter.drawPolygon(hex_geometry.hex_polygon(m, i, 0.6 if name in BUILT else 0.82))
        # hex names, small, at the top of each hex
        painter.setPen(style.COORDINATE)
        painter.setFont(style.font(0.22 * SCALE))
        for i in range(m.size):
            c = hex_geometry.scene_center(m, i)
            r = QRectF(c.x() - 0.6 * SCALE, c.y() - 0.82 * SCALE, 1.2 * SCALE, 0.3 * SCALE)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, m.names[i][len(m.board_of[i].board):])
        if self.target is not None:
            for a, b, counted in self.lines:
                pen = QPen(COUNTED if counted else OUT, 0.05 * SCALE)
                if not counted:
                    pen.setStyle(Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawLine(a, b)
            pen = QPen(TARGET, 0.1 * SCALE)
            painter.setPen(pen)
            painter.setBrush(QColor(255, 90, 60, 50))
            painter.drawPolygon(hex_geometry.hex_polygon(m, m.index(self.target), 0.93))


class FireCounter(QGraphicsItem):
    """One unit: side colour, id, formation, increments and a notch on the hexside it faces."""

    def __init__(self, unit):
        super().__init__()
        self.unit = unit
        self.state = "plain"          # plain | counted | able | unable | target
        self.chosen = False           # chosen in the editor
        self.setZValue(10)
        self.setAcceptHoverEvents(True)

    def hoverEnterEvent(self, event) -> None:
        self.setZValue(20)            # a stack's lower counter comes to the front, read whole
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event) -> None:
        self.setZValue(10)
        super().hoverLeaveEvent(event)

    def shape(self) -> QPainterPath:
        """The counter itself: the room left for its notch and badges catches no mouse, so
        the corner of a counter under it in a stack can be hovered and clicked."""
        path = QPainterPath()
        path.addRect(QRectF(-COUNTER / 2, -COUNTER / 2, COUNTER, COUNTER))
        return path

    def boundingRect(self) -> QRectF:
        s = COUNTER / 2 + 0.16 * SCALE       # the facing notch and the result's badges
        return QRectF(-s, -s, 2 * s, 2 * s)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        u = self.unit
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        s = COUNTER / 2
        rect = QRectF(-s, -s, 2 * s, 2 * s)
        colour = side_colour(u.side)
        painter.setOpacity(0.35 if self.state == "unable" else 1.0)
        edge = {"counted": QPen(COUNTED, 0.09 * SCALE), "target": QPen(TARGET, 0.09 * SCALE),
                "able": QPen(OUT, 0.06 * SCALE, Qt.PenStyle.DashLine)}.get(
                    self.state, QPen(QColor("#101010"), 0.03 * SCALE))
        painter.setPen(edge)
        painter.setBrush(colour)
        painter.drawRoundedRect(rect, 0.06 * SCALE, 0.06 * SCALE)
        if self.chosen:
            painter.setPen(QPen(CHOSEN, 0.07 * SCALE, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-0.1 * SCALE, -0.1 * SCALE, 0.1 * SCALE, 0.1 * SCALE),
                                    0.08 * SCALE, 0.08 * SCALE)
        ink = QColor("#101010") if colour.lightness() > 150 else QColor("#f4f1e8")
        painter.setPen(ink)
        painter.setFont(style.font(0.3 * SCALE, bold=True))
        painter.drawText(QRectF(-s, -s, 2 * s, 0.5 * s * 1.3), Qt.AlignmentFlag.AlignCenter, u.id)
        painter.setFont(style.font(0.26 * SCALE))
        form = FORMATION_SHORT.get(u.formation, u.formation[:3])
        arm = {"infantry": "", "cavalry": "cav ", "artillery": "art ", "leader": "ldr "}[u.arm]
        painter.drawText(QRectF(-s, -0.2 * s, 2 * s, 0.6 * s), Qt.AlignmentFlag.AlignCenter, f"{arm}{form}")
        painter.setFont(style.font(0.27 * SCALE, bold=True))
        text = f"{u.increments} inc" if u.arm != "leader" else ("art +" if u.artillery_leader else "")
        painter.drawText(QRectF(-s, 0.4 * s, 2 * s, 0.6 * s), Qt.AlignmentFlag.AlignCenter, text)
        if u.fired:                       # the "1" information marker: first fire spent
            painter.setBrush(QColor("#f4f1e8"))
            painter.setPen(QPen(QColor("#101010"), 0.02 * SCALE))
            r = QRectF(s - 0.2 * SCALE, -s - 0.06 * SCALE, 0.24 * SCALE, 0.24 * SCALE)
            painter.drawEllipse(r)
            painter.setFont(style.font(0.17 * SCALE, bold=True))
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, "1")
        badges = [t for k, t in (("morale_check", "M"), ("casualty", "X")) if u.extra.get(k)]
        for k, t in enumerate(badges):    # a result's marks: morale check, leader casualty
            r = QRectF(-s - 0.14 * SCALE, -s - 0.14 * SCALE + k * 0.34 * SCALE, 0.32 * SCALE,
                       0.32 * SCALE)
            painter.setBrush(COUNTED)
            painter.setPen(QPen(QColor("#101010"), 0.03 * SCALE))
            painter.drawEllipse(r)
            painter.setFont(style.font(0.24 * SCALE, bold=True))
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, t)
        if u.facing is not None:
            # a notch outside the counter toward the hexside faced (direction 1 = north)
            ang = math.radians(-90 + 60 * (u.facing - 1))
            d = s + 0.08 * SCALE
            tip = QPointF(math.cos(ang) * (d + 0.1 * SCALE), math.sin(ang) * (d + 0.1 * SCALE))
            side = 0.09 * SCALE
            a = QPointF(math.cos(ang) * d - math.sin(ang) * side, math.sin(ang) * d + math.cos(ang) * side)
            b = QPointF(math.cos(ang) * d + math.sin(ang) * side, math.sin(ang) * d - math.cos(ang) * side)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor("#f4f1e8"))
            painter.drawPolygon(QPolygonF([tip, a, b]))


class FireScene(QGraphicsScene):
    def __init__(self, pos):
        super().__init__()
        self.setBackgroundBrush(QBrush(style.BACKGROUND))
        self.set_position(pos)

    def choose(self, uid: str | None) -> None:
        """Outline the unit chosen in the editor (None: none)."""
        self.chosen_id = uid
        for cid, item in self.counters.items():
            item.chosen = cid == uid
            item.update()

    def set_position(self, pos) -> None:
        self.clear()
        self.pos = pos
        self.map_item = MapItem(pos)
        self.addItem(self.map_item)
        self.counters: dict[str, FireCounter] = {}
        for uid, at in counter_positions(pos).items():
            item = FireCounter(pos.unit(uid))
            item.setPos(at)
            self.addItem(item)
            self.counters[uid] = item
            item.chosen = uid == getattr(self, "chosen_id", None)
        self.setSceneRect(self.map_item.boundingRect())

    def show_assessment(self, target: str | None, assessment, choice: dict) -> None:
        """Highlight the target, the firers that fire (yellow), those that could (grey dashes)
        and dim those that cannot, each with its reasons on hover."""
        mi = self.map_item
        mi.target = target
        mi.lines = []
        for uid, item in self.counters.items():
            item.state = "plain"
            item.setToolTip(unit_words(item.unit))
        if target is not None and assessment is not None:
            m = self.pos.map
            tc = hex_geometry.scene_center(m, m.index(target))
            for u in self.pos.units_in(target):
                self.counters[u.id].state = "target"
            for f in assessment.firers:
                item = self.counters[f.id]
                able = f.can_fire and f.los
                item.state = "counted" if f.counted else ("able" if able else "unable")
                tip = [f"{f.id}: {api.napoleonic.fmt(f.value)} ({f.how})" if f.can_fire else f.id]
                if f.counted:
                    tip.append("fires: click to leave it out")
                elif able:
                    tip.append("left out: click to add it")
                tip += f.reasons
                item.setToolTip("\n".join(tip))
                mi.lines.append((hex_geometry.scene_center(m, m.index(f.hex)), tc, f.counted))
        mi.update()
        for item in self.counters.values():
            item.update()
