"""The night room's frictions a new player met: the Explanation after a drop, ..."""
from __future__ import annotations

from app_testing import counter_pos, drag, hex_pos, settle, steps
from PySide6.QtCore import Qt


def test_the_explanation_follows_a_drop_without_the_mouse_moving(window, qtbot):
    view, doc = window.view, window.document
    doc.select("G1")
    settle(qtbot, doc)
    start = counter_pos(view, "unit", "G1")
    qtbot.mouseMove(view.viewport(), start)
    path = steps(start, hex_pos(view, "2R5"), 8)
    drag(qtbot, view, start, path, release=False)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=path[-1])
    settle(qtbot, doc)
    qtbot.waitUntil(lambda: "2R5" in window.explanation.toPlainText(), timeout=5000)
    text = window.explanation.toPlainText()
    print(text)
    assert "2BB5 is G1" not in text
    assert doc.scenario.unit("G1").hex == "2R5"
