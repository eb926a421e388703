"""Terrain drawn and shaped by hand: a piece's polygon, a hill's crest, and on the chosen piece
the handles a player drags (each corner to reshape, the body to move, a knob to turn it, a
corner box to resize it).  Every change goes to the Document as one undo step; the piece is
checked by the engine (``engine.api.tabletop.checked_piece``)."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsPathItem,
    QGraphicsPolygonItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
)

from app import style
from engine import api

from .geometry import S, from_scene, to_scene

TERRAIN_COLOURS = {"woods": QColor(20, 70, 24, 200), "oasis": QColor(60, 120, 60, 200),
                   "bua": QColor(140, 128, 112, 210), "hill": QColor(150, 124, 70, 150),
                   "river": QColor(58, 110, 165, 200), "marsh": QColor(80, 110, 96, 180),
                   "rough": QColor(110, 105, 70, 170), "road": QColor(160, 140, 105, 200)}
CREST = QColor("#f2d59a")
GRIP = QColor("#ffffff")
KNOB_BW = 0.45                 # how far above the piece its turning knob sits


class Grip(QGraphicsRectItem):
    """A handle of the chosen piece; ``kind`` "corner" (with its index), "turn" or "size"."""

    def __init__(self, owner: "TerrainItem", kind: str, at: QPointF, index: int = -1):
        r = 0.08 * S
        super().__init__(-r, -r, 2 * r, 2 * r, owner)
        self.owner, self.kind, self.index = owner, kind, index
        self.setPos(at)
        self.setBrush(QBrush(GRIP if kind == "corner" else QColor("#ffd24a")))
        self.setPen(QPen(Qt.GlobalColor.black, 1))
        self.setZValue(8)
        self.setCursor(Qt.CursorShape.SizeAllCursor if kind != "turn"
                       else Qt.CursorShape.CrossCursor)

    def mousePressEvent(self, event):
        event.accept()
        self.start = event.scenePos()

    def mouseMoveEvent(self, event):
        self.setPos(self.mapToParent(self.mapFromScene(event.scenePos())))

    def mouseReleaseEvent(self, event):
        self.owner.grip_released(self, self.start, event.scenePos())


class TerrainItem(QGraphicsPolygonItem):
    """One terrain piece: its polygon, a hill's crest as a dashed line; the chosen one has grips
    and moves when dragged."""

    def __init__(self, scene, index: int, piece, chosen: bool):
        super().__init__(QPolygonF([to_scene(x, y) for x, y in piece.polygon]))
        self.table_scene, self.index, self.piece = scene, index, piece
        self.setBrush(QBrush(TERRAIN_COLOURS.get(piece.type, QColor(90, 90, 90, 160))))
        self.setPen(QPen(QColor("#ffffff"), 3, Qt.PenStyle.DashLine) if chosen
                    else QPen(QColor(0, 0, 0, 120), 1.5))
        self.setAcceptHoverEvents(True)
        if piece.crest:
            path = QPainterPath(to_scene(*piece.crest[0]))
            for p in piece.crest[1:]:
                path.lineTo(to_scene(*p))
            crest = QGraphicsPathItem(path, self)
            crest.setPen(QPen(CREST, 3, Qt.PenStyle.DashLine))
        label = QGraphicsSimpleTextItem(piece.type, self)
        label.setFont(style.font(11, bold=True))
        label.setBrush(QColor(255, 255, 255, 170))
        c = self.boundingRect().center()
        label.setPos(c.x() - label.boundingRect().width() / 2,
                     c.y() - label.boundingRect().height() / 2)
        self.chosen = chosen
        self.grips: list[Grip] = []
        if chosen:
            box = self.boundingRect()
            self.grips = [Grip(self, "corner", to_scene(x, y), i)
                          for i, (x, y) in enumerate(piece.polygon)]
            self.grips.append(Grip(self, "turn", QPointF(self.centre().x(),
                                                         box.top() - KNOB_BW * S)))
            self.grips.append(Grip(self, "size", box.bottomRight()))
            knob = QGraphicsEllipseItem(-4, -4, 8, 8, self.grips[-2])
            knob.setBrush(QBrush(QColor("#ffd24a")))
            self.setCursor(Qt.CursorShape.OpenHandCursor)

    def centre(self) -> QPointF:
        c = self.piece.shape().centroid
        return to_scene(c.x, c.y)

    # -- the player's hand ------------------------------------------------------------------------
    def mousePressEvent(self, event):
        event.accept()
        scene = self.table_scene
        if not self.chosen:
            scene.document.choose_terrain(self.index)
            return
        self.press = event.scenePos()
        self.start_pos = QPointF(self.pos())

    def mouseMoveEvent(self, event):
        if self.chosen and hasattr(self, "press"):
            self.setPos(self.start_pos + event.scenePos() - self.press)

    def mouseReleaseEvent(self, event):
        if not (self.chosen and hasattr(self, "press")):
            return
        d = event.scenePos() - self.press
        del self.press
        if d.manhattanLength() > 2:
            self.apply(api.tabletop.transformed(self.piece, move=(d.x() / S, -d.y() / S)),
                       "Move")

    def grip_released(self, grip: Grip, start: QPointF, end: QPointF) -> None:
        piece, c = self.piece, self.centre()
        if grip.kind == "corner":
            pts = list(piece.polygon)
            pts[grip.index] = from_scene(end)
            changed = api.tabletop.TerrainPiece(piece.type, tuple(pts), piece.crest)
            self.apply(changed, "Reshape")
            return
        if grip.kind == "turn":
            a0 = math.atan2(start.x() - c.x(), -(start.y() - c.y()))
            a1 = math.atan2(end.x() - c.x(), -(end.y() - c.y()))
            turn = round(math.degrees(a1 - a0) / 5.0) * 5.0      # 5-degree steps
            self.apply(api.tabletop.transformed(piece, turn=turn), "Turn")
            return
        sx = (end.x() - c.x()) / (start.x() - c.x()) if start.x() != c.x() else 1.0
        sy = (end.y() - c.y()) / (start.y() - c.y()) if start.y() != c.y() else 1.0
        if sx <= 0.05 or sy <= 0.05:
            self.table_scene.status.emit("Resize: refused, the piece would turn inside out")
            self.table_scene.schedule_rebuild()
            return
        self.apply(api.tabletop.transformed(piece, scale=(sx, sy)), "Resize")

    def apply(self, piece, what: str) -> None:
        scene = self.table_scene
        try:
            message = scene.document.change_terrain(self.index, piece, what)
        except api.ScenarioError as err:
            message = f"{what}: refused, {err.problem}"
        if message:
            scene.status.emit(message)
        scene.schedule_rebuild()          # a refused change puts the piece back

    def hoverEnterEvent(self, event):
        self.table_scene.hovered.emit(f"terrain:{self.index}")

    def hoverLeaveEvent(self, event):
        self.table_scene.hovered.emit("")
