"""``--screenshot``: the window's map view rendered headless to a PNG of an exact size.

The same scene and view as the window (never shown on screen), the whole map fitted in, the
selected unit's overlays and every marker.
"""
from __future__ import annotations

from PySide6.QtGui import QImage

from app.render import render_view, write_png

from .document import Document
from .map.map_scene import MapScene
from .map.view import MapView


def render_map(document: Document, width: int, height: int) -> QImage:
    """The map view of ``document`` as a ``width`` x ``height`` image."""
    document.settle()
    scene = MapScene(document)
    view = MapView(scene)
    view.zoomChanged.connect(scene.counters.set_pixels_per_unit)

    def prepare():
        view.show_key(True)
        view.fit_map()
    return render_view(view, width, height, prepare)


def render_position(document: Document, out: str, width: int, height: int) -> None:
    """``document``'s map view to the PNG ``out``; OSError when it can't be written."""
    write_png(render_map(document, width, height), out)
