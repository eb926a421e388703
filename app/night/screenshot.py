"""``--screenshot``: the window's map view rendered headless to a PNG of an exact size.

The same scene and view as the window (never shown on screen), the whole map fitted in, the
selected unit's overlays and every marker.
"""
from __future__ import annotations

from PySide6.QtGui import QImage

from app.room_window import render_view

from .document import Document
from .scene.map_scene import MapScene
from .view import MapView


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


def save_screenshot(path: str, out: str, select: str | None, width: int, height: int) -> None:
    """Raises api.ScenarioError for a bad file or unit, OSError when ``out`` can't be written."""
    document = Document.open_file(path)
    if select:
        document.select(select)
    image = render_map(document, width, height)
    if not image.save(out, "PNG"):
        raise OSError(f"{out}: cannot write the PNG")
