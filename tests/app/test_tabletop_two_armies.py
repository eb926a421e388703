"""Two DBA armies of twelve elements, a wood and a hill between them, built from an empty
window with the window's own clicks and keys (no file written by hand), then a bound of
shooting played for each side: the shot chosen by clicking, its result applied, the next bound
(rules.md 9; docs/rules.md section 6)."""
from __future__ import annotations

import pytest
from app_testing import drag, settle_table, shown
from PySide6.QtCore import QPoint, Qt

from app.tabletop.document import Document
from app.tabletop.geometry import to_scene
from app.tabletop.window import TableWindow
from engine import api

BLUE = ["3Kn", "3Kn", "4Bw", "4Bw", "4Bw", "4Bw", "Sp", "Sp", "4Bw", "4Bw", "LH", "Art"]
RED = ["HCh", "LCh", "8Bw", "8Bw", "3Bw", "3Bw", "Ax", "Ax", "3Bw", "Wb", "Ps", "El"]
RED_LINE = 2.5          # the red front, 2.5 BW from the blue front: within bow range (3 BW)


def vp(w, x, y) -> QPoint:
    return w.view.mapFromScene(to_scene(x, y))


def click(qtbot, w, x, y) -> None:
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=vp(w, x, y))
    settle_table(qtbot, w)


def pick(combo, code) -> None:
    combo.setCurrentIndex(combo.findData(code))
    combo.activated.emit(combo.currentIndex())


def army(qtbot, w, side: str, types: list[str], y: float) -> None:
    """One side's line, an element at each whole BW from x 0, put down by clicks."""
    ed = w.editor
    ed.new_side.setCurrentText(side)
    qtbot.keyClick(w.view, Qt.Key.Key_P)
    for x, code in enumerate(types):
        pick(ed.new_type, code)
        click(qtbot, w, float(x), y)
    qtbot.keyClick(w.view, Qt.Key.Key_Escape)


def terrain(qtbot, w, kind: str, x: float, y: float) -> None:
    """A piece added from the panel, then dragged by its body to (x, y)."""
    ed = w.editor
    pick(ed.terrain_kind, kind)
    qtbot.mouseClick(ed.add_terrain_button, Qt.MouseButton.LeftButton)
    settle_table(qtbot, w)
    piece = w.document.table.terrain[w.document.terrain_choice]
    c = piece.shape().centroid
    w.view.centerOn(to_scene(c.x, c.y))
    start = vp(w, c.x, c.y)
    drag(qtbot, w.view, start, [start + QPoint(4, 4), vp(w, x, y)])
    settle_table(qtbot, w)


@pytest.fixture
def window(qtbot, messages):
    w = shown(qtbot, TableWindow(Document.new()), 1400, 900)
    w.activateWindow()
    w.view.setFocus()
    return w


def test_two_armies_built_by_hand_and_a_bound_of_shooting_each(window, qtbot, tmp_path):
    w, doc = window, window.document
    w.view.centerOn(to_scene(5.5, 1.5))
    army(qtbot, w, "blue", BLUE, 0.0)
    army(qtbot, w, "red", RED, RED_LINE)
    table = doc.table
    assert len(table.elements) == 24 and api.tabletop.overlaps(table) == []
    assert {e.facing for e in table.elements if e.side == "blue"} == {0.0}
    assert {e.facing for e in table.elements if e.side == "red"} == {180.0}   # facing blue
    assert [table.element(str(i + 1)).x for i in range(12)] == pytest.approx(list(range(12)),
                                                                               abs=0.011)
    w.view.fit()
    terrain(qtbot, w, "woods", 9.0, 1.25)     # between blue's 4Bw at 8 and 9 and red's 3Bw, Wb
    terrain(qtbot, w, "hill", 6.5, 1.25)       # between the spears and the auxilia
    wood, hill = doc.table.terrain
    assert wood.type == "woods" and wood.shape().centroid.x == pytest.approx(9.0, abs=0.02)
    assert hill.type == "hill" and hill.crest is not None
    # blue's bound
    pick(w.editor.turn, "blue")
    w.editor.turn.activated.emit(w.editor.turn.currentIndex())
    assert doc.table.turn == "blue"
    click(qtbot, w, 4.0, -0.2)                # blue's 4Bw (element 5) chosen: its shot shown
    assert doc.shooter == "5"
    rep = doc.report
    assert rep["must_shoot"] == ["17"]        # red's 3Bw straight ahead
    assert "17" in w.panel.toPlainText()
    qtbot.mouseClick(w.editor.destroy_button, Qt.MouseButton.LeftButton)
    assert "17" not in doc.table.ids()
    click(qtbot, w, 8.0, -0.2)                # blue's 4Bw behind the wood: the wood blocks
    assert doc.shooter == "9"
    assert doc.report["targets"]["21"]["blocked_by_terrain"] == [0]
    qtbot.mouseClick(w.editor.end_bound_button, Qt.MouseButton.LeftButton)
    assert doc.table.turn == "red"
    # red's bound: its 8Bw (element 15) shoots the blue bow before it, which recoils
    click(qtbot, w, 2.0, RED_LINE + 0.2)
    assert doc.shooter == "15"
    target = doc.report["must_shoot"][0]
    assert doc.table.element(target).side == "blue"
    y0 = doc.table.element(target).y
    qtbot.mouseClick(w.editor.recoil_button, Qt.MouseButton.LeftButton)
    assert doc.table.element(target).y == pytest.approx(y0 - doc.table.element(target).depth_bw())
    out = tmp_path / "battle.json"
    doc.save(str(out))
    again = api.tabletop.load_table(out)
    assert again.elements == doc.table.elements and again.terrain == doc.table.terrain
    assert again.turn == "red"
