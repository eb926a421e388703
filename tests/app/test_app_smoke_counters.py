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


def test_smoke_from_the_palette_hinders_and_is_explained(window, qtbot, tmp_path):
    doc = window.document
    s = doc.scenario
    viewer = s.units[0]
    m = s.map
    # a hex two hexes from the viewer along its column, and the one between
    col, row = m.pos(m.index(viewer.hex))
    between, beyond = (m.names[m.index_of_pos[(col, row - k)]] for k in (1, 2))
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
