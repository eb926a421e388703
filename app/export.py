"""Export the map view as the player sees it: a PNG image, or an SVG drawing (QtSvg's
``QSvgGenerator``, part of PySide6-Essentials)."""
from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, QSize
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem

from . import style


def _paint(view, painter: QPainter, size: QSize) -> None:
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.fillRect(QRect(0, 0, size.width(), size.height()), style.BACKGROUND)
    view.render(painter, QRectF(0, 0, size.width(), size.height()), view.viewport().rect())


def export_png(view, path: str) -> None:
    """The view's visible area as a PNG of the viewport's size (raises OSError)."""
    size = view.viewport().size()
    image = QImage(size, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    _paint(view, painter, size)
    painter.end()
    if not image.save(path, "PNG"):
        raise OSError(f"{path}: cannot write the PNG")


def export_svg(view, path: str) -> None:
    """The view's visible area as an SVG drawing (raises OSError)."""
    size = view.viewport().size()
    svg = QSvgGenerator()
    svg.setFileName(path)
    svg.setSize(size)
    svg.setViewBox(QRect(0, 0, size.width(), size.height()))
    svg.setTitle("Starshell map view")
    svg.setDescription(view.scene().document.scenario.title or "a night position")
    painter = QPainter()
    if not painter.begin(svg):
        raise OSError(f"{path}: cannot write the SVG")
    lines = [item for item in view.scene().items() if getattr(item, "EXPORT_UNCACHED", False)]
    for item in lines:          # drawn as lines, not as the view's cached picture
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        _paint(view, painter, size)
    finally:
        for item in lines:
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    painter.end()
    try:
        with open(path, "rb") as f:
            if not f.read(64):
                raise OSError(f"{path}: the SVG is empty")
    except FileNotFoundError:
        raise OSError(f"{path}: cannot write the SVG") from None
