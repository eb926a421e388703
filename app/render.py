"""A view rendered headless to an image of an exact size (``--screenshot`` of every room).  A
leaf: only the house style is imported here."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from . import style


def render_view(view, width: int, height: int, prepare=None, antialias: bool = False) -> QImage:
    """``view`` (never shown on screen) at ``width`` x ``height`` pixels as an image: laid out,
    then ``prepare()`` (fit the map in...), then painted; the view and its scene are let go."""
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    view.resize(width, height)
    view.show()
    QApplication.processEvents()
    if prepare is not None:
        prepare()
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    if antialias:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    view.render(painter)
    painter.end()
    scene = view.scene()
    view.close()
    view.deleteLater()
    if scene is not None:
        scene.deleteLater()
    return image
