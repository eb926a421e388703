"""Export the map view as the player sees it: a PNG image, or an SVG drawing (QtSvg's
``QSvgGenerator``, part of PySide6-Essentials), drawn by the one renderer (``app.render``) and
written whole or not at all.  Every room's File > Export comes here (``app.room_window``)."""
from __future__ import annotations

from contextlib import contextmanager

from PySide6.QtCore import QIODevice, QRect, QRectF, QSaveFile, QSize, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPolygonF, QTransform
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem

from . import style
from .render import paint_view, scene_image, view_image, write_png

SCENE_WIDTH = 1600          # pixels: a scene's rectangle exported (``export_png(scene_rect=)``)


def view_area(view) -> QRect:
    """The part of the viewport exported: the view's ``export_rect()`` when it has one (the
    night map: the map and its counters, without the window's empty margins), else all of it."""
    area = getattr(view, "export_rect", None)
    rect = area() if area is not None else view.viewport().rect()
    return rect if not rect.isEmpty() else view.viewport().rect()


def cut_picture(image: QImage, to_scene: QTransform, frame: QRectF) -> tuple[QImage, QTransform]:
    """The part of a picture (``to_scene``: its pixels -> scene) inside the scene rectangle
    ``frame``, and where that part lies: the pixels of the bounding box, those outside the frame
    (a turned picture's corners, a pixel cut through) made transparent."""
    from_scene, invertible = to_scene.inverted()
    if not invertible or frame.isEmpty():
        return QImage(), to_scene
    outline = from_scene.map(QPolygonF(frame))
    box = outline.boundingRect().toAlignedRect().intersected(image.rect())
    if box.isEmpty():
        return QImage(), to_scene
    part = image.copy(box).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    outside = QPainterPath()
    outside.addRect(QRectF(part.rect()))
    inside = QPainterPath()
    inside.addPolygon(outline.translated(-box.x(), -box.y()))
    painter = QPainter(part)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Clear)
    painter.fillPath(outside.subtracted(inside), Qt.GlobalColor.black)
    painter.end()
    return part, QTransform.fromTranslate(box.x(), box.y()) * to_scene


@contextmanager
def _pictures_cut_to_their_boards(view):
    """While the SVG is drawn, every board picture (SPEC.md "image") is drawn from the picture
    itself, at its own resolution, cut beforehand to its board's frame and the part in view:
    QSvgGenerator writes no clipping, and a picture with margins would spill past its board.
    A board picture is an item with ``cut_to_board`` true and its ``image``, ``transform_``
    (its pixels -> scene) and ``clip`` (its board's frame)."""
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    seen.adjust(-style.SCALE, -style.SCALE, style.SCALE, style.SCALE)   # cut past the view's edge
    kept = []
    for item in view.scene().items():
        if getattr(item, "cut_to_board", False):     # a board picture (``app.night.scene.board_art``)
            kept.append((item, item.image, item.transform_, item.cacheMode()))
            item.image, item.transform_ = cut_picture(item.image, item.transform_,
                                                      item.clip.intersected(seen))
            item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        yield
    finally:
        for item, image, transform, cache in kept:
            item.image, item.transform_ = image, transform
            item.setCacheMode(cache)


def export_png(view, path: str, scene_rect: QRectF | None = None,
               width: int = SCENE_WIDTH) -> QSize:
    """The view's visible area (its ``export_rect``, when it has one) as a PNG of that size;
    or, given ``scene_rect``, that part of the view's scene ``width`` pixels wide, wherever
    the view is scrolled.  The image's size; OSError naming the path (nothing written)."""
    if scene_rect is not None:
        image = scene_image(view.scene(), scene_rect, width)
    else:
        image = view_image(view, view_area(view))
    write_png(image, path)
    return image.size()


def export_svg(view, path: str) -> QSize:
    """The view's visible area as an SVG drawing (raises OSError naming the path, nothing
    written); the drawing's size."""
    size = view.viewport().size()
    out = QSaveFile(path)
    if not out.open(QIODevice.OpenModeFlag.WriteOnly):
        raise OSError(f"{path}: cannot write the SVG ({out.errorString()})")
    svg = QSvgGenerator()
    svg.setOutputDevice(out)
    svg.setSize(size)
    svg.setViewBox(QRect(0, 0, size.width(), size.height()))
    svg.setTitle("Starshell map view")
    document = getattr(view.scene(), "document", None)
    title = getattr(getattr(document, "position", None), "title", "") if document else ""
    svg.setDescription(title or "a Starshell map")
    painter = QPainter()
    if not painter.begin(svg):
        out.cancelWriting()
        raise OSError(f"{path}: cannot write the SVG")
    lines = [item for item in view.scene().items() if getattr(item, "EXPORT_UNCACHED", False)]
    for item in lines:          # drawn as lines, not as the view's cached picture
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        with _pictures_cut_to_their_boards(view):
            paint_view(view, painter, size)
    finally:
        for item in lines:
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        painter.end()
    if out.size() == 0 or not out.commit():
        reason = out.errorString()
        out.cancelWriting()
        raise OSError(f"{path}: cannot write the SVG" + (f" ({reason})" if reason else ""))
    return size
