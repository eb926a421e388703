"""The one renderer of a view to an image, for File > Export (``app.export``) and
``--screenshot`` of every room (``render_view``: a view rendered headless to an image of an
exact size), and the one way an image is written to a PNG file (``write_png``, through the
engine's one writer of files).  A leaf: only the house style and that writer are imported here."""
from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from engine import api

from . import style


def paint_view(view, painter: QPainter, size: QSize, area: QRect | None = None,
               antialias: bool = True) -> None:
    """The viewport's ``area`` (all of it when None) of ``view`` drawn by ``painter`` to fill
    ``size`` pixels, on the house background."""
    if antialias:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.fillRect(QRect(0, 0, size.width(), size.height()), style.BACKGROUND)
    view.render(painter, QRectF(0, 0, size.width(), size.height()),
                area if area is not None else view.viewport().rect())


def view_image(view, area: QRect | None = None, antialias: bool = True,
               size: QSize | None = None) -> QImage:
    """The viewport's ``area`` (all of it when None) as an image of that size, or of
    ``size``."""
    if size is None:
        size = (area if area is not None else view.viewport().rect()).size()
    image = QImage(size, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    paint_view(view, painter, size, area, antialias)
    painter.end()
    return image


def scene_image(scene, rect: QRectF, width: int) -> QImage:
    """The scene's ``rect`` as an image ``width`` pixels wide (its height in proportion), on
    the house background: what a view shows of it, wherever the view is scrolled."""
    height = max(1, round(width * rect.height() / rect.width())) if rect.width() > 0 else 1
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, width, height), rect)
    painter.end()
    return image


def write_png(image: QImage, path: str) -> None:
    """``image`` to the PNG file ``path``, whole or not at all: written beside it first, then
    put in its place (``api.atomic_write_bytes``: never through a link), so a failed write (a
    read-only folder, a bad path, a full disk) leaves whatever was there; OSError naming the
    path."""
    data = QByteArray()
    out = QBuffer(data)
    if not (out.open(QIODevice.OpenModeFlag.WriteOnly) and image.save(out, "PNG")):
        raise OSError(f"{path}: cannot write the PNG (the image cannot be encoded)")
    out.close()
    try:
        api.atomic_write_bytes(path, bytes(data), backup=False)
    except api.ScenarioError as e:
        raise OSError(f"{path}: cannot write the PNG ({e.problem})") from None


def render_view(view, width: int, height: int, prepare=None, antialias: bool = False) -> QImage:
    """``view`` (never shown on screen) at ``width`` x ``height`` pixels as an image: laid out,
    then ``prepare()`` (fit the map in...), then painted; the view and its scene are let go."""
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    view.resize(width, height)
    view.show()
    QApplication.processEvents()
    if prepare is not None:
        prepare()
    image = view_image(view, None, antialias, QSize(width, height))
    scene = view.scene()
    view.close()
    view.deleteLater()
    if scene is not None:
        scene.deleteLater()
    return image
