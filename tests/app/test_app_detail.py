"""Level of detail: zoomed far out the coordinates (and textures) are left out; zoomed in they
are drawn, and the Coordinates toggle shows or hides them."""
from __future__ import annotations

from app_testing import scene_point
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from app import style


def render(scene, hex_id: str, pixels_per_unit: float, size=(300, 200)) -> QImage:
    w, h = size
    c = scene_point(scene.map, hex_id)
    span = style.SCALE / pixels_per_unit
    source = QRectF(c.x() - w * span / 2, c.y() - h * span / 2, w * span, h * span)
    image = QImage(w, h, QImage.Format.Format_ARGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, w, h), source)
    painter.end()
    return image


def coordinates_drawn(window, pixels_per_unit: float, size=(300, 200)) -> bool:
    scene = window.scene
    window.layer_actions["counters"].setChecked(False)
    with_labels = render(scene, "2K5", pixels_per_unit, size)
    window.layer_actions["coordinates"].setChecked(False)
    without = render(scene, "2K5", pixels_per_unit, size)
    window.layer_actions["coordinates"].setChecked(True)
    return with_labels != without


def test_coordinates_only_when_zoomed_in(window):
    assert coordinates_drawn(window, 60.0)
    # zoomed out, no hex prints its id (the board's edges print its letters and numbers)
    assert not coordinates_drawn(window, style.LOD_COORDINATES / 2, (150, 100))


def test_terrain_textures_only_when_zoomed_in(window, monkeypatch):
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from app.night.scene.terrain import TerrainItem
    textured = []
    monkeypatch.setattr(TerrainItem, "_paint_patch",
                        lambda self, painter, patch, textures: textured.append(textures))
    terrain = window.scene.terrain
    assert terrain.art.patches                       # the default map has woods and jungle
    for pixels_per_unit, expected in ((60.0, True), (style.LOD_TEXTURE / 2, False)):
        textured.clear()
        image = QImage(50, 50, QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        painter.scale(pixels_per_unit / style.SCALE, pixels_per_unit / style.SCALE)
        terrain.paint(painter, QStyleOptionGraphicsItem())
        painter.end()
        assert textured and all(t is expected for t in textured)
