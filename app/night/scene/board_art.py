"""The boards' own pictures (SPEC.md "image"): each board that has one is drawn from it, over our
terrain art and under every overlay.

The engine says where a picture lies (``board_image_placement``: an affine map from its pixels to
map units, exact at every hex centre, turned with a turned board); the item draws the image
through that transform, cut to the board's printed area, so it follows the view at every zoom,
and PNG and SVG exports draw it like the screen.  A board under terrain SSRs is drawn in the
colours VASL's colour rules give it (``picture``).
"""
from __future__ import annotations

import os

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QImageReader, QPainter, QPainterPath, QTransform
from PySide6.QtWidgets import QGraphicsItem

from app import style
from app.hex_geometry import placement_rect
from engine import api

Z_BOARD_ART = 1                 # over our terrain art (0), under the lights (10) and the field
Z_OVERLAY_ART = 1.5             # an overlay's picture, over its board's
# the largest picture drawn (its header read first): the importer's bound (docs/formats.md),
# 160 MB as the window draws it
MAX_PICTURE_PIXELS = 40_000_000


def image_transform(affine) -> QTransform:
    """Image pixels -> scene coordinates."""
    a, b, c, d, e, f = affine
    s = style.SCALE
    return QTransform(a * s, d * s, b * s, e * s, c * s, f * s)


class BoardArtItem(QGraphicsItem):
    """One board's picture."""

    cut_to_board = True          # SVG export cuts the picture to its board (``app.export``)

    def __init__(self, game_map, pi: int, image: QImage, affine):
        super().__init__()
        self.map, self.pi = game_map, pi
        self.image = image
        self.transform_ = image_transform(affine)
        self.clip = placement_rect(game_map, pi)
        self.setZValue(Z_BOARD_ART)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self.clip

    def paint(self, painter: QPainter, option, widget=None):
        painter.save()
        path = QPainterPath()
        path.addRect(self.clip)
        painter.setClipPath(path, Qt.ClipOperation.IntersectClip)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        painter.setTransform(self.transform_, True)
        painter.drawImage(0, 0, self.image)
        painter.restore()


MAX_KEPT = 8                    # pictures kept recoloured (per board picture and rules)
_KEPT: dict[tuple, tuple] = {}  # (path, rules) -> (the engine's pixels, the QImage made of them)


def read_picture(path: str) -> tuple[QImage, str]:
    """The picture at ``path`` as it is, and "" ; or a null image and why, in a sentence: a
    header claiming more than ``MAX_PICTURE_PIXELS`` is not decoded (nothing allocated), a file
    Qt cannot read is named with Qt's reason."""
    reader = QImageReader(path)
    size = reader.size()
    name = os.path.basename(path)
    if size.isValid() and size.width() * size.height() > MAX_PICTURE_PIXELS:
        return QImage(), (f"The board picture {name} claims {size.width():,} x "
                          f"{size.height():,} pixels, past the {MAX_PICTURE_PIXELS:,} the "
                          "window draws: its terrain is drawn without it")
    image = reader.read()
    if image.isNull():
        return image, (f"The board picture {name} could not be read ({reader.errorString()}): "
                       "its terrain is drawn without it")
    return image, ""


def picture(path: str, rules=()) -> tuple[QImage, str]:
    """The board picture at ``path`` in the colours of the terrain SSRs ``rules`` (VASL's colour
    rules, rules.md 11.2: the season the rules say), kept per (picture, rules); a null image
    and why when it cannot be drawn (``read_picture``)."""
    rgba = api.ssr.picture_rgba(path, rules) if rules else None
    if rgba is None:                     # no rule changes a colour: the picture as it is
        return read_picture(path)
    key = (path, tuple(rules))
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is rgba:
        return hit[1], ""
    width, height, data = rgba
    image = QImage(data, width, height, width * 4, QImage.Format.Format_RGBA8888).copy()
    _KEPT.pop(key, None)
    while len(_KEPT) >= MAX_KEPT:
        _KEPT.pop(next(iter(_KEPT)))
    _KEPT[key] = (rgba, image)
    return image, ""


def build(game_map, rules=None, overlays=None, notes: list | None = None) -> list[BoardArtItem]:
    """An item for every board of map ``game_map`` whose picture can be read, and one for each
    overlay drawn on it; ``rules``: each placement's terrain SSRs (the picture drawn in their
    colours); ``overlays``: each placement's ``api.night.overlay_pictures``; why a picture is
    not drawn added to ``notes``."""
    items = []
    for pi in range(len(game_map.placements)):
        where = api.vasl.board_image_placement(game_map, pi)
        if where is None:
            continue
        image, why = picture(where["path"], tuple(rules[pi]) if rules else ())
        if image.isNull():
            if why and notes is not None:
                notes.append(why)
            continue
        items.append(BoardArtItem(game_map, pi, image, where["affine"]))
        for o in (overlays[pi] if overlays else ()):
            if "image" in o:
                items.append(OverlayArtItem(game_map, pi, o, where["affine"]))
    return items


class OverlayArtItem(BoardArtItem):
    """An overlay's picture on its board (rules.md 11.3), at its top-left in the board's own
    pixels (the board picture's pixels), over the board's picture, turned with the board."""

    def __init__(self, game_map, pi: int, overlay: dict, affine):
        width, height, data = overlay["image"]
        image = QImage(data, width, height, width * 4, QImage.Format.Format_RGBA8888).copy()
        super().__init__(game_map, pi, image, affine)
        self.name = overlay["name"]
        self.transform_ = QTransform.fromTranslate(overlay["x"], overlay["y"]) * self.transform_
        self.setZValue(Z_OVERLAY_ART)
