"""Several items a drag leaves alone, drawn as one picture as large as the view.

Each item of the scene kept as its own cached picture costs a blend of a view-sized picture at
every repaint of the view, and a drag step repaints nearly all of it.  A ``Composite`` draws its
members (which keep their places in the scene, their visibility and their own ``paint``) into
one cached picture at the first member's depth; a member's change or a layer shown or hidden
draws that picture again (``changed``).  Members must be next to each other in depth: no other
item may lie between them.  Exports draw the members themselves (``MapScene.as_items``).
"""
from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem


class Composite(QGraphicsItem):
    def __init__(self, members: list[QGraphicsItem]):
        super().__init__()
        self.members = sorted(members, key=lambda item: item.zValue())
        self.setZValue(self.members[0].zValue())
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._rect = QRectF()
        for item in self.members:
            self._rect |= item.mapRectToScene(item.boundingRect())
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)   # drawn here
            item.composite = self

    def boundingRect(self) -> QRectF:
        return self._rect

    def changed(self, rect: QRectF | None = None) -> None:
        """A member changed within ``rect`` (scene coordinates; None: anywhere): the picture is
        drawn again whole (its members change seldom: a light, a layer; a part drawn again
        may leave a seam of rounding along its edge)."""
        self.update()

    def paint(self, painter: QPainter, option, widget=None):
        for item in self.members:
            if item.isVisible():
                painter.save()
                painter.setTransform(item.sceneTransform(), True)
                item.paint(painter, option, widget)
                painter.restore()
