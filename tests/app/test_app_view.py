"""The view's keys: W views the map as a side sees it (the selected enemy's field hidden), Ctrl+=
zooms in as Ctrl++ does."""
from __future__ import annotations

from app_testing import settle
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def test_viewing_as_a_side_hides_the_selected_enemys_field(window, qtbot):
    """G1 (axis) selected, W views the map as the allied side sees it: G1's outline, NVR ring
    and field are not shown; viewing every unit again shows them."""
    view, doc, scene = window.view, window.document, window.scene
    doc.select("G1")
    settle(qtbot, doc)
    assert scene.sight.areas and scene.nvr_ring.outlines and scene.selection.outlines
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_W)
    assert doc.view_side == doc.scenario.sides[0] != "axis"
    settle(qtbot, doc)
    assert scene.sight.areas == [] and scene.nvr_ring.outlines == []
    assert scene.selection.outlines == [] and scene.moving_rings.outlines == []
    doc.set_view_side(None)
    settle(qtbot, doc)
    assert scene.sight.areas and scene.nvr_ring.outlines and scene.selection.outlines


def test_ctrl_equals_zooms_in_as_ctrl_plus_does(window, qtbot):
    view = window.view
    view.fit_map()
    view.setFocus()
    before = view.pixels_per_unit
    QTest.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.pixels_per_unit > before
