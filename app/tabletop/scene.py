"""The table drawn: elements as rectangles (type, id, side), and for the chosen shooter what the
engine answered: its range zone, the two shot lines to each legal target, what blocks the
others, the target it must shoot, and support arrows.  Drawing only: every verdict comes from
``engine.api.tabletop``."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
)

from app import style
from engine import api

from .document import Document
from .geometry import S, from_scene, to_scene
from .terrain_items import CREST, TerrainItem

SIDE_COLOURS = (QColor("#3b6fb6"), QColor("#b8413a"), QColor("#3f8f4a"), QColor("#8a5bb0"))
LEGAL = QColor("#7ee07e")
MUST = QColor("#ffd24a")
BLOCK = QColor("#ff5a4f")
SUPPORT = QColor("#6fd6ff")
RANGE = QColor(255, 255, 255, 28)
MARGIN_BW = 6.0                # room around the table: a shooter's range zone stays inside it
HANDLE = 0.35                  # BW ahead of the front where the rotate handle sits
WHEEL_STEP = 15.0              # degrees a wheel notch turns the element being dragged
SNAP_TO = 7.5                  # degrees: a handle turn this near a neighbour's facing takes it


def handle_facing(table, element_id: str, free: float) -> float:
    """The facing a turning handle gives: an enemy's front (front to front) or a friend's
    facing when within SNAP_TO degrees, else the 15-degree step nearest ``free``."""
    for how in ("enemy", "friend"):
        facing, other = api.tabletop.facing_to(table, element_id, how)
        d = (facing - free) % 360.0
        if other is not None and min(d, 360.0 - d) <= SNAP_TO:
            return facing
    return api.tabletop.turned(free, 0.0)


class RotateHandle(QGraphicsEllipseItem):
    """The knob ahead of the chosen element: drag it to turn the element about its front."""

    def __init__(self, parent: "ElementItem"):
        r = 0.09 * S
        super().__init__(-r, -HANDLE * S - r, 2 * r, 2 * r, parent)
        self.setBrush(QBrush(MUST))
        self.setPen(QPen(Qt.GlobalColor.black, 1))
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setZValue(5)

    def mousePressEvent(self, event):
        event.accept()

    def mouseMoveEvent(self, event):
        item = self.parentItem()
        d = event.scenePos() - item.pos()
        free = math.degrees(math.atan2(d.x(), -d.y())) % 360.0
        item.setRotation(handle_facing(item.table_scene.document.table, item.element_id, free))

    def mouseReleaseEvent(self, event):
        item = self.parentItem()
        item.scene().put_down(item)


class ElementItem(QGraphicsPolygonItem):
    """One element: the front edge along local x at y 0, the base behind it (local +y)."""

    def __init__(self, scene: "TableScene", element, depth: float, colour: QColor):
        w, d = S / 2, depth * S
        super().__init__(QPolygonF([QPointF(-w, 0), QPointF(w, 0), QPointF(w, d), QPointF(-w, d)]))
        self.table_scene = scene
        self.element_id = element.id
        self.setBrush(QBrush(colour.darker(115) if element.visible else colour.darker(250)))
        self.setPen(QPen(QColor("#0b0d10"), 1.5))
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        front = QGraphicsPathItem(self)
        path = QPainterPath(QPointF(-w, 0))
        path.lineTo(w, 0)
        front.setPath(path)
        front.setPen(QPen(QColor("#f4f1e8"), 3))
        label = QGraphicsSimpleTextItem(f"{element.id} {element.type}", self)
        label.setFont(style.font(max(9.0, min(16.0, d * 0.55)), bold=True))
        label.setBrush(QColor("#f4f1e8"))
        r = label.boundingRect()
        label.setTransformOriginPoint(r.center())
        label.setRotation(-element.facing)           # text stays upright whatever the facing
        label.setPos(-r.width() / 2, d / 2 - r.height() / 2)
        self.setPos(to_scene(element.x, element.y))
        self.setRotation(element.facing)
        self.handle = None
        self.grab_local: QPointF | None = None      # the point of the base held while dragged

    def show_handle(self, on: bool) -> None:
        if on and self.handle is None:
            self.handle = RotateHandle(self)
        elif not on and self.handle is not None:
            self.handle.setParentItem(None)
            if self.scene() is not None:
                self.scene().removeItem(self.handle)
            self.handle = None

    def mousePressEvent(self, event):
        event.accept()
        self.table_scene.dragging = self
        self.table_scene.press_pos = QPointF(self.pos())
        self.table_scene.press_rotation = self.rotation()
        self.grab_local = self.mapFromScene(event.scenePos())   # the point of the base held
        self.setCursor(Qt.CursorShape.ClosedHandCursor)

    def mouseMoveEvent(self, event):
        if self.table_scene.dragging is self:
            self.hold_at(event.scenePos())

    def hold_at(self, scene_point: QPointF) -> None:
        """Keep the point of the base the player holds under the pointer (also while it turns)."""
        if self.grab_local is not None:
            self.setPos(self.pos() + scene_point - self.mapToScene(self.grab_local))

    def mouseReleaseEvent(self, event):
        scene = self.table_scene
        if scene.dragging is not self:
            return
        scene.dragging = None
        moved = (self.pos() - scene.press_pos).manhattanLength() > 2 or \
            self.rotation() != scene.press_rotation
        if moved:
            scene.put_down(self)
        else:
            scene.clicked(self.element_id)

    def hoverEnterEvent(self, event):
        self.table_scene.hovered.emit(self.element_id)

    def hoverLeaveEvent(self, event):
        self.table_scene.hovered.emit("")


class TableScene(QGraphicsScene):
    hovered = Signal(str)          # an element's id, or "" when the pointer leaves it
    status = Signal(str)

    def __init__(self, document: Document):
        super().__init__()
        self.document = document
        self.items_by_id: dict[str, ElementItem] = {}
        self.terrain_items: list[TerrainItem] = []
        self.overlay: list = []
        self.dragging: ElementItem | None = None
        self.press_pos = QPointF()
        self.press_rotation = 0.0
        self.setBackgroundBrush(QColor("#2f4a2c"))
        self._pending = False
        self.palette = lambda: None      # the window's: (type, side, facing) while placing
        self.crest: list[QPointF] | None = None     # the crest being drawn, in scene points
        self.crest_item = None
        self.hovering = ""
        self.hovered.connect(self._hovering)
        document.changed.connect(self.schedule_rebuild)
        self.rebuild()

    def schedule_rebuild(self) -> None:
        """Rebuild once control is back in the event loop: a change often comes from inside an
        item's own mouse handler, and the item must outlive it."""
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self, self.rebuild)   # not once the scene is gone

    # -- building ------------------------------------------------------------------------------
    def side_colour(self, side: str) -> QColor:
        sides = self.document.table.sides()
        return SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)]

    def _hovering(self, element_id: str) -> None:
        self.hovering = element_id

    def placing_type(self):
        """The palette's type while the player is placing elements by clicking, else None."""
        chosen = self.palette()
        return None if chosen is None else chosen[0]

    def rebuild(self) -> None:
        self._pending = False
        centres = [(v, v.mapToScene(v.viewport().rect().center())) for v in self.views()]
        if self.hovering:               # the item under the pointer is about to go
            self.hovered.emit("")
        self.clear()
        self.crest_item = None
        self.items_by_id = {}
        self.overlay = []
        t = self.document.table
        self.terrain_items = []
        for i, piece in enumerate(t.terrain):
            item = TerrainItem(self, i, piece, i == self.document.terrain_choice)
            item.setZValue(0.5)
            self.addItem(item)
            self.terrain_items.append(item)
        for e in t.elements:
            item = ElementItem(self, e, e.depth_bw(t.bw_mm), self.side_colour(e.side))
            item.setZValue(2)
            self.addItem(item)
            self.items_by_id[e.id] = item
        # the scene's extent from the table alone (not the shot drawn): choosing an element
        # must not shift the view
        grown = self.table_rect(MARGIN_BW).united(self.sceneRect())
        if grown != self.sceneRect():
            self.setSceneRect(grown)
            for view, centre in centres:    # the view stays where the player left it
                view.centerOn(centre)
        self.draw_crest()
        self.draw_shot()

    def table_rect(self, margin_bw: float) -> QRectF:
        """The elements' and terrain's extent, ``margin_bw`` BW around it."""
        r = QRectF()
        for item in [*self.items_by_id.values(), *self.terrain_items]:
            r = r.united(item.sceneBoundingRect())
        if r.isNull():
            r = QRectF(-2 * S, -2 * S, 4 * S, 4 * S)
        m = margin_bw * S
        return r.adjusted(-m, -m, m, m)

    def element_point(self, element_id: str, ax: float, ay: float) -> QPointF:
        """A point of an element in scene coordinates: ``ax`` BW to its right, ``ay`` behind."""
        return self.items_by_id[element_id].mapToScene(QPointF(ax * S, ay * S))

    def centre(self, element_id: str) -> QPointF:
        e = self.document.table.element(element_id)
        return self.element_point(element_id, 0, e.depth_bw(self.document.table.bw_mm) / 2)

    def add(self, item, z_value: float = 3):
        item.setZValue(z_value)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.addItem(item)
        self.overlay.append(item)
        return item

    def draw_shot(self) -> None:
        doc = self.document
        report = doc.report
        if report is None:
            return
        s = doc.shooter
        shooter = self.items_by_id[s]
        shooter.show_handle(True)
        shooter.setPen(QPen(MUST, 3))
        front = report["rear_rank_of"] or s
        if report["range"]:
            self.add(QGraphicsPathItem(self.range_zone(front, report["range"])), 1).setBrush(
                QBrush(RANGE))
        if report["rear_rank_of"]:
            line = self.add(QGraphicsPathItem(self.arrow(self.element_point(s, 0, 0),
                                                         self.element_point(front, 0, 0.1))))
            line.setPen(QPen(SUPPORT, 2, Qt.PenStyle.DotLine))
        # blocked targets and their blockers first: a legal target's outline drawn after wins
        targets = sorted(report["targets"].items(), key=lambda kv: kv[1]["legal"])
        for tid, v in targets:
            item = self.items_by_id[tid]
            if v["legal"]:
                for ln in v["lines"] or []:
                    (ax, ay), (bx, by) = ln["points"]
                    self.add(self.scene_line(to_scene(ax, ay), to_scene(bx, by))).setPen(
                        QPen(LEGAL, 2))
                item.setPen(QPen(MUST if tid in report["must_shoot"] else LEGAL,
                                 5 if tid in report["must_shoot"] else 3))
            elif not v["in_front"]:
                item.setPen(QPen(QColor("#9aa0a6"), 2, Qt.PenStyle.DotLine))
            elif v["in_range"] and not v["clear"]:
                item.setPen(QPen(BLOCK, 2, Qt.PenStyle.DashLine))
                for b in v["blocked_by"]:
                    self.items_by_id[b].setPen(QPen(BLOCK, 3))
                for k in v.get("blocked_by_terrain", []):
                    self.terrain_items[k].setPen(QPen(BLOCK, 3))
                for a, b in v["narrow_gaps"]:
                    self.add(self.scene_line(self.centre(a), self.centre(b))).setPen(
                        QPen(BLOCK, 2, Qt.PenStyle.DashLine))
        for tid in report["must_shoot"]:
            star = self.add(QGraphicsSimpleTextItem("must shoot"), 6)
            star.setFont(style.font(13, bold=True))
            star.setBrush(MUST)
            box = self.items_by_id[tid].sceneBoundingRect()
            star.setPos(box.center().x() - star.boundingRect().width() / 2,
                        box.top() - star.boundingRect().height() - 4)
            for sup in report["supporters"].get(tid, []):
                arrow = self.add(QGraphicsPathItem(self.arrow(self.element_point(sup, 0, 0),
                                                              self.centre(tid))), 4)
                arrow.setPen(QPen(SUPPORT, 2.5, Qt.PenStyle.DashLine))
                mid = (self.element_point(sup, 0, 0) + self.centre(tid)) / 2
                tag = self.add(QGraphicsSimpleTextItem("-1"), 6)
                tag.setFont(style.font(13, bold=True))
                tag.setBrush(SUPPORT)
                tag.setPos(mid)

    @staticmethod
    def scene_line(start: QPointF, end: QPointF) -> QGraphicsPathItem:
        path = QPainterPath(start)
        path.lineTo(end)
        return QGraphicsPathItem(path)

    @staticmethod
    def arrow(start: QPointF, end: QPointF) -> QPainterPath:
        path = QPainterPath(start)
        path.lineTo(end)
        line = QLineF(end, start)
        for turn in (25, -25):
            head = QLineF(line)
            head.setLength(0.15 * S)
            head.setAngle(line.angle() + turn)
            path.moveTo(end)
            path.lineTo(head.p2())
        return path

    def range_zone(self, element_id: str, reach: float) -> QPainterPath:
        """Everything within ``reach`` BW of the element's front edge, ahead of its front line."""
        item = self.items_by_id[element_id]
        r = reach * S
        zone = QPainterPath()
        zone.addRoundedRect(QRectF(-S / 2 - r, -r, S + 2 * r, 2 * r), r, r)
        ahead = QPainterPath()
        ahead.addRect(QRectF(-S / 2 - r, -r, S + 2 * r, r))
        return item.mapToScene(zone.intersected(ahead))

    # -- interaction ---------------------------------------------------------------------------
    def clicked(self, element_id: str) -> None:
        doc = self.document
        doc.select(None if doc.shooter == element_id else element_id)

    def put_down(self, item: ElementItem) -> None:
        x, y = from_scene(item.pos())
        message = self.document.place(item.element_id, x, y, item.rotation())
        if message:
            self.status.emit(message)
        self.schedule_rebuild()    # a refused drop puts the element back where the table has it

    def wheelEvent(self, event):
        if self.dragging is not None:
            notches = round(event.delta() / 120.0)
            item = self.dragging
            item.setRotation(api.tabletop.turned(item.rotation(), WHEEL_STEP * notches))
            item.hold_at(event.scenePos())     # turns about the point held, not its front
            event.accept()
            return
        super().wheelEvent(event)

    def place_new(self, scene_point: QPointF) -> None:
        kind, side, facing = self.palette()
        x, y = from_scene(scene_point)
        _new, message = self.document.put_new(kind, side, x, y, facing)
        self.status.emit(message)

    # -- a hill's crest, drawn by clicks: Enter (or a double click) ends it, Escape drops it -----
    def start_crest(self) -> None:
        self.crest = []
        self.status.emit("Click the crest's points on the hill; Enter or a double click ends "
                         "it, Escape cancels")

    def draw_crest(self) -> None:
        if self.crest:
            path = QPainterPath(self.crest[0])
            for p in self.crest[1:]:
                path.lineTo(p)
            self.crest_item = self.add(QGraphicsPathItem(path), 7)
            self.crest_item.setPen(QPen(CREST, 3, Qt.PenStyle.DashLine))

    def end_crest(self, keep: bool) -> None:
        points, self.crest = self.crest or [], None
        i = self.document.terrain_choice
        if keep and i is not None and len(points) >= 2:
            piece = self.document.table.terrain[i]
            line = tuple(from_scene(p) for p in points)
            self.status.emit(self.document.change_terrain(
                i, api.tabletop.TerrainPiece(piece.type, piece.polygon, line), "Crest of")
                or "the crest is unchanged")
        elif keep:
            self.status.emit("a crest needs two points at least: none drawn")
        self.schedule_rebuild()

    def keyPressEvent(self, event):
        if self.crest is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter,
                                                      Qt.Key.Key_Escape):
            self.end_crest(event.key() != Qt.Key.Key_Escape)
            event.accept()
            return
        super().keyPressEvent(event)

    def mouseDoubleClickEvent(self, event):
        if self.crest is not None:
            self.end_crest(True)
            return
        super().mouseDoubleClickEvent(event)

    def mousePressEvent(self, event):
        if self.crest is not None and event.button() == Qt.MouseButton.LeftButton:
            self.crest.append(event.scenePos())
            self.schedule_rebuild()
            return
        under = self.items(event.scenePos())
        on_element = any(isinstance(i, (ElementItem, RotateHandle)) for i in under)
        if (not on_element and self.placing_type() is not None
                and event.button() == Qt.MouseButton.LeftButton):
            self.place_new(event.scenePos())          # where the player clicked
            return
        on_terrain = any(isinstance(i, TerrainItem) or i.parentItem() is not None and
                         isinstance(i.parentItem(), TerrainItem) for i in under)
        super().mousePressEvent(event)
        if not on_element and self.document.shooter is not None:
            self.document.select(None)
        if not on_element and not on_terrain and self.document.terrain_choice is not None:
            self.document.choose_terrain(None)


__all__ = ["TableScene", "ElementItem", "S", "to_scene", "from_scene"]
