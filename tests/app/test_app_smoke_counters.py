"""Counters in LOS in the window (rules.md 11.4): the palette puts smoke, a wreck and rubble
down, they hinder the selected unit's sight, and the hex under the pointer says what each does."""
from __future__ import annotations

from app_testing import hex_pos, settle
from PySide6.QtCore import Qt

import engine


def put(window, qtbot, marker_type: str, hex_id: str) -> None:
    window.palette.buttons[("marker", marker_type)].click()
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=hex_pos(window.view, hex_id))


def along_column(scenario):
    """The first unit, the hex next to it along its column and the one beyond."""
    viewer = scenario.units[0]
    m = scenario.map
    col, row = m.pos(m.index(viewer.hex))
    between, beyond = (m.names[m.index_of_pos[(col, row - k)]] for k in (1, 2))
    return viewer, between, beyond


def test_smoke_from_the_palette_hinders_and_is_explained(window, qtbot, tmp_path):
    doc = window.document
    m = doc.scenario.map
    viewer, between, beyond = along_column(doc.scenario)
    put(window, qtbot, "smoke", between)
    put(window, qtbot, "rubble", beyond)
    smoke = doc.scenario.markers[-2]
    assert (smoke.type, smoke.hex) == ("smoke", between)
    assert doc.scenario.markers[-1].extra == {"material": "stone"}    # rubble names its stone
    doc.select(viewer.id)
    settle(qtbot, doc)
    window.explanation.show_hex(m.index(beyond))
    text = window.explanation.toPlainText()
    assert f"smoke in {between}: White +3 Smoke (+3 hindrance, A24" in text
    assert "White +3 Smoke: +3 hindrance to lines in or through it" not in text   # not here
    window.explanation.show_hex(m.index(between))
    assert "White +3 Smoke: +3 hindrance to lines in or through it, 2 levels high" in \
        window.explanation.toPlainText()
    path = tmp_path / "p.json"
    engine.save_scenario(doc.scenario, path)
    again = engine.load_scenario(path)
    assert again.markers[-1].extra == {"material": "stone"}


def test_the_edit_panel_chooses_a_smoke_counters_kind(window, qtbot):
    # rules.md 11.4: the palette puts down White +3 Smoke; the Edit panel makes it another
    # counter (White +2 WP: +2 hindrance), one undo step; a marker turned into rubble names its
    # stone (a position the file can hold)
    doc = window.document
    m = doc.scenario.map
    viewer, between, beyond = along_column(doc.scenario)
    put(window, qtbot, "smoke", between)
    k = len(doc.scenario.markers) - 1
    doc.pick_marker(k)
    ed = window.editor
    assert ed.smoke.isVisibleTo(ed) and ed.smoke.currentData() == "white+3"
    ed.smoke.setCurrentIndex(ed.smoke.findData("wp+2"))
    ed.smoke.activated.emit(ed.smoke.currentIndex())
    assert doc.scenario.markers[k].extra == {"kind": "wp+2"}
    doc.select(viewer.id)
    settle(qtbot, doc)
    window.explanation.show_hex(m.index(beyond))
    assert f"smoke in {between}: White +2 WP (+2 hindrance, A24" in \
        window.explanation.toPlainText()
    doc.undo_stack.undo()
    assert doc.scenario.markers[k].extra.get("kind", "white+3") == "white+3"
    doc.pick_marker(k)
    ed.type.setCurrentIndex(ed.type.findData("rubble"))
    ed.type.activated.emit(ed.type.currentIndex())
    assert (doc.scenario.markers[k].type, doc.scenario.markers[k].extra) == \
        ("rubble", {"material": "stone"})
    assert not ed.smoke.isVisibleTo(ed)
