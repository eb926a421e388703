"""Helpers of the Qt tests: waiting for the engine's answers, and reading the colour the view
shows inside a hex (clear of counters, labels, the centre dot and the hexsides)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QTransform
from PySide6.QtWidgets import QApplication, QMessageBox

from app.night.document import Document
from app.style import SCALE

DATA = Path(__file__).resolve().parent / "data"


def answer_question(monkeypatch, button) -> list[str]:
    """Every question the window asks (QMessageBox.question) answered ``button``; the list
    fills with the questions' texts."""
    asked = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return button
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def fire_sample_copy(folder: Path) -> Path:
    """A copy of the bundled fire sample in ``folder``, beside its own board and chart pack (so
    saving writes there, never into the bundle)."""
    fire = Path(__file__).resolve().parents[2] / "assets" / "fire"
    folder.mkdir()
    data = json.loads((fire / "sample.json").read_text())
    shutil.copy(fire / "boards" / "n1.json", folder / "n1.json")
    shutil.copy(fire / "charts" / "sample.json", folder / "charts.json")
    data["map"][0]["board"] = "n1.json"
    data["charts"] = "charts.json"
    path = folder / "sample.json"
    path.write_text(json.dumps(data))
    return path


def shown(qtbot, window, width: int = 1400, height: int = 820):
    """A fire or table window shown at a size, on screen (offscreen) and its map fitted."""
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    window.view.fit()
    return window


def settle_table(qtbot, window) -> None:
    """Wait for the table window's scene to draw what its document holds."""
    qtbot.waitUntil(lambda: not window.scene._pending, timeout=5000)


def settle(qtbot, document: Document) -> None:
    """Wait (event loop running) for the debounced answers of the current position."""
    qtbot.waitUntil(lambda: document.is_settled, timeout=20000)


def scene_point(m, hex_id: str, dx: float = 0.0, dy: float = 0.0) -> QPointF:
    """A point of hex ``hex_id`` in scene coordinates, (dx, dy) map units from its centre."""
    i = m.index(hex_id)
    return QPointF((float(m.x[i]) + dx) * SCALE, (float(m.y[i]) + dy) * SCALE)


INTERIOR = ((0.5, 0.0), (-0.5, 0.0), (0.4, 0.3), (-0.4, 0.3), (0.4, -0.3), (-0.4, -0.3),
            (0.0, 0.3), (0.0, -0.3))


def free_pixel(view, hex_id: str):
    """A viewport pixel inside ``hex_id`` clear of counters, labels, the centre dot and the
    hexsides, or None."""
    scene = view.scene()
    m = scene.map
    counters = [item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())
                for item in scene.counters.items]
    for dx, dy in INTERIOR:
        p = view.mapFromScene(scene_point(m, hex_id, dx, dy))
        if not any(r.adjusted(-2, -2, 2, 2).contains(QPointF(p)) for r in counters):
            return p
    return None


def look_at(view, hex_id: str, pixels_per_unit: float = 80.0) -> None:
    """Zoom the view on ``hex_id`` (counters shrink to their share of a hex)."""
    view.setTransform(QTransform.fromScale(pixels_per_unit / SCALE, pixels_per_unit / SCALE))
    view.centerOn(scene_point(view.scene().map, hex_id))
    view.zoomChanged.emit(view.pixels_per_unit)


def pixel(view, hex_id: str):
    """The colour the view shows at a free point of ``hex_id``, looked at closely."""
    look_at(view, hex_id)
    p = free_pixel(view, hex_id)
    assert p is not None, f"no free point in {hex_id}"
    return view.grab().toImage().pixelColor(p)


def close(actual, expected, tolerance: int = 4) -> bool:
    return all(abs(a - b) <= tolerance for a, b in
               zip(actual.getRgb()[:3], expected.getRgb()[:3]))


# ---------------------------------------------------------------------------- the mouse
def hex_pos(view, hex_id: str, dx: float = 0.0, dy: float = 0.0):
    """The viewport point (QPoint) of a point of ``hex_id``, (dx, dy) map units from its centre."""
    return view.mapFromScene(scene_point(view.scene().map, hex_id, dx, dy))


def counter_pos(view, kind: str, key):
    """The viewport point at the middle of a counter."""
    item = view.scene().counters.item(kind, key)
    assert item is not None, (kind, key)
    rect = item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())
    return rect.center().toPoint()


def drag(qtbot, view, start, points, button=None, modifier=None, release=True):
    """Press at ``start``, move through ``points`` (viewport QPoints), release at the last."""
    from PySide6.QtCore import Qt
    button = button or Qt.MouseButton.LeftButton
    modifier = modifier or Qt.KeyboardModifier.NoModifier
    vp = view.viewport()
    qtbot.mousePress(vp, button, modifier, start)
    for p in points:
        qtbot.mouseMove(vp, p)
    if release:
        qtbot.mouseRelease(vp, button, modifier, points[-1] if points else start)


def steps(a, b, n: int = 6):
    """``n`` points from QPoint ``a`` to QPoint ``b`` (the last is ``b``)."""
    from PySide6.QtCore import QPoint
    return [QPoint(round(a.x() + (b.x() - a.x()) * k / n), round(a.y() + (b.y() - a.y()) * k / n))
            for k in range(1, n + 1)]


def on_screen(window) -> np.ndarray:
    """The view's pixels as the window shows them now (RGB, rows x columns x 3)."""
    vp = window.view.viewport()
    at = vp.mapTo(window, QPoint(0, 0))
    image = QApplication.primaryScreen().grabWindow(window.winId(), at.x(), at.y(),
                                                   vp.width(), vp.height()).toImage()
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    a = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4)
    return a[..., :3].astype(int)


def paint_terrain(qtbot, window, hex_id: str, terrain: str) -> None:
    """Paint one hex with the Board panel's brush, as a player clicks it."""
    view = window.view
    window.board_panel.choose(terrain)
    window.board_panel.paint.setChecked(True)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, hex_id))
    window.board_panel.paint.setChecked(False)
