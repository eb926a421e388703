"""Placing a starshell by mouse: the legal hexes per method, the live drift preview
(the engine's distribution and lit chances), the roll on drop with the Document's dice, one undo
step.  W-10: leader 2T6 places in 2W6 by method 2; dice usage 3, then (2, 5): it lands in 2Z4."""
from __future__ import annotations

import numpy as np
import pytest
from app_testing import drag, hex_pos, settle, steps
from PySide6.QtCore import Qt

from engine.boards import assets_dir
from engine.night import drift
from engine.night.drift import FixedDice
from engine.night.starshells import starshell_options

W10 = assets_dir() / "scenarios" / "W-10.json"


@pytest.fixture
def w10(window_on, qtbot):
    w = window_on(W10, dice=FixedDice([3, 2, 5]))
    w.document.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, w.document)
    return w


def test_drag_a_starshell_shows_the_drift_and_lit_chances(w10, qtbot):
    view, scene, doc = w10.view, w10.scene, w10.document
    options = starshell_options(doc.scenario, "L1").as_json()
    shown = scene.placement.methods
    for method in ("1", "2", "3"):
        assert shown[method] == options["methods"][method]
    m = doc.scenario.map
    start = hex_pos(view, "2T6")
    drag(qtbot, view, start, steps(start, hex_pos(view, "2W6"), 6), release=False)
    assert scene.drift.method == "2"                   # 2W6 is legal by 2 and 3: the first
    expected = drift.distribution(m, m.index("2W6"), "2")
    assert scene.drift.distribution == pytest.approx(expected)
    assert sum(scene.drift.distribution.values()) == pytest.approx(1.0)
    # the lit chances after it lands, counting the starshell in 2BB3 already there (= drift --lit)
    assert np.allclose(scene.drift.lit, drift.lit_probability_after(doc.scenario, m.index("2W6"), "2"))
    assert scene.drift.lit[m.index("2BB5")] == 1.0 and scene.drift.flare_lit[m.index("2BB5")] < 1
    assert "2W6" in w10.starshell_panel.preview.text()
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2Q5"))       # method 3 only
    assert scene.drift.method == "3"
    assert scene.drift.distribution == pytest.approx(drift.distribution(m, m.index("2Q5"), "3"))
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert scene.drift.at is None and scene.placement.methods == {}
    assert doc.undo_stack.count() == 0


def test_drop_a_starshell_rolls_the_drift_w10_lands_in_2z4_and_undo(w10, qtbot):
    view, doc = w10.view, w10.document
    before = doc.scenario
    start = hex_pos(view, "2T6")
    drag(qtbot, view, start, steps(start, hex_pos(view, "2W6"), 6))
    after = doc.scenario
    assert [(mk.type, mk.hex) for mk in after.markers][-1] == ("starshell", "2Z4")
    assert len(after.markers) == len(before.markers) + 1
    assert "2T6" in after.starshell_attempts
    assert doc.undo_stack.count() == 1                 # the whole act: one step
    assert "lands in 2Z4" in doc.undo_stack.text(0)
    assert "2Z4" in w10.starshell_panel.result.text()
    settle(qtbot, doc)
    assert doc.answers.light.lit[doc.scenario.map.index("2Z4")]
    doc.undo_stack.undo()
    assert doc.scenario == before and doc.scenario.starshell_attempts == ()
    doc.undo_stack.redo()
    assert doc.scenario == after
    settle(qtbot, doc)


def test_typed_dice_a_failed_usage_dr_and_an_illegal_hex(w10, qtbot):
    view, doc = w10.view, w10.document
    n = len(doc.scenario.markers)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2K5"))
    assert len(doc.scenario.markers) == n and doc.undo_stack.count() == 0
    assert "may not place a starshell in 2K5" in w10.statusBar().currentMessage()
    w10.starshell_panel.dice.setText("6")              # a usage dr above 4: nothing fired
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2W6"))
    assert len(doc.scenario.markers) == n
    assert doc.scenario.starshell_attempts == ("2T6",)      # the attempt is used (E1.92)
    assert "failed" in w10.starshell_panel.result.text()
    assert w10.starshell_panel.dice.text() == ""
    doc.undo_stack.undo()
    qtbot.keyClick(view, Qt.Key.Key_3)                  # method 3 chosen by key
    assert w10.hand.starshell.method == "3"
    w10.starshell_panel.dice.setText("1 4 6")           # usage 1, direction 4 (S), 6 hexes
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2W6"))
    m = doc.scenario.map
    end = drift.drift_end(m, m.index("2W6"), "3", 4, 6)
    expected = m.names[end] if end is not None else None
    last = doc.scenario.markers[-1].hex if len(doc.scenario.markers) > n else None
    assert last == expected
    settle(qtbot, doc)
