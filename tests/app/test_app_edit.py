"""Editing the position: every property of a unit or marker and the scenario's settings,
pieces from the palette, delete; each change one undo step; impossible edits refused with the
engine's message; save after edits and reload; export; keys listed in Help; unsaved changes."""
from __future__ import annotations

from app_testing import counter_pos, drag, hex_pos, settle, steps
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

import engine


def test_edit_every_unit_property_with_undo(window, qtbot):
    doc, ed = window.document, window.editor
    doc.select("T1")                                     # an AFV, buttoned up
    before = doc.scenario
    ed.flags["bu"].setChecked(False)
    assert doc.scenario.unit("T1").bu is False and doc.scenario.unit("T1").is_ce
    ed.flags["tracked"].setChecked(True)
    ed.moving.setCurrentIndex(ed.moving.findData("entered"))
    ed.moving.activated.emit(ed.moving.currentIndex())
    ed.level.setValue(0)
    ed.side.setCurrentText("axis")
    ed.side.activated.emit(0)
    u = doc.scenario.unit("T1")
    assert (u.tracked, u.moving, u.side) == (True, "entered", "axis")
    assert doc.undo_stack.count() == 4
    for _ in range(4):
        doc.undo_stack.undo()
    assert doc.scenario == before
    doc.select("G2")                                     # a concealed squad
    for flag in ("concealed", "broken", "pinned", "bypass"):
        box = ed.flags[flag]
        box.setChecked(not box.isChecked())
        assert getattr(doc.scenario.unit("G2"), flag) == box.isChecked()
    ed.type.setCurrentIndex(ed.type.findData("half_squad"))
    ed.type.activated.emit(ed.type.currentIndex())
    assert doc.scenario.unit("G2").type == "half_squad"
    ed.id.setText("G9")
    ed.id.editingFinished.emit()
    assert doc.viewer == "G9" and "G2" not in {u.id for u in doc.scenario.units}
    assert doc.undo_stack.count() == 6
    settle(qtbot, doc)


def test_an_impossible_edit_is_refused_with_the_engines_message(window, qtbot):
    doc, ed = window.document, window.editor
    doc.select("T1")                                     # BU: CE too would be impossible
    before = doc.scenario
    ed.flags["ce"].setChecked(True)
    assert doc.scenario is before and doc.undo_stack.count() == 0
    assert "both buttoned up (bu) and CE" in ed.error.text()
    assert "both buttoned up" in window.statusBar().currentMessage()
    assert not ed.flags["ce"].isChecked()               # the widget shows the position again
    doc.select("G1")
    ed.flags["tracked"].setChecked(True)                # a squad is not tracked
    assert "only vehicles are tracked" in ed.error.text()
    settle(qtbot, doc)


def test_edit_a_marker_and_the_scenario_settings_with_undo(window, qtbot):
    doc, ed, panel = window.document, window.editor, window.scenario_panel
    k = next(k for k, mk in enumerate(doc.scenario.markers) if mk.type == "blaze")
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=counter_pos(window.view, "marker", k))
    ed.radius.setValue(4)
    assert doc.scenario.markers[k].radius == 4
    panel.nvr.setValue(5)
    panel.phase.setCurrentIndex(panel.phase.findData("DFPh"))
    panel.phase.activated.emit(panel.phase.currentIndex())
    panel.attacker.setCurrentText("axis")
    panel.attacker.activated.emit(1)
    panel.starshells.setCurrentIndex(panel.starshells.findData("earlier"))
    panel.starshells.activated.emit(panel.starshells.currentIndex())
    s = doc.scenario
    assert (s.nvr, s.phase, s.attacker, s.starshells_used) == (5, "DFPh", "axis", "earlier")
    panel.phase_begun.setChecked(True)
    assert doc.scenario.extra.get("phase_start") is False
    assert doc.undo_stack.count() == 6
    for _ in range(3):
        doc.undo_stack.undo()
    assert doc.scenario.attacker == "allied" and panel.attacker.currentText() == "allied"
    settle(qtbot, doc)


def test_palette_adds_pieces_delete_removes_them_undo_brings_back(window, qtbot):
    doc, view = window.document, window.view
    n_units, n_markers = len(doc.scenario.units), len(doc.scenario.markers)
    window.palette.side.setCurrentText("axis")
    window.palette.buttons[("unit", "squad")].click()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2K5"))
    new = doc.scenario.units[-1]
    assert (new.id, new.side, new.type, new.hex) == ("S1", "axis", "squad", "2K5")
    assert doc.viewer == "S1"
    window.palette.buttons[("marker", "gunflash")].click()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2K7"))
    assert doc.scenario.markers[-1] == engine.Marker("gunflash", "2K7", "axis")
    assert doc.marker == n_markers
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Delete)             # the picked marker
    assert len(doc.scenario.markers) == n_markers
    doc.select("S1")
    qtbot.keyClick(view, Qt.Key.Key_Delete)             # the selected unit
    assert len(doc.scenario.units) == n_units and doc.viewer is None
    for _ in range(2):
        doc.undo_stack.undo()
    assert doc.scenario.units[-1].id == "S1" and len(doc.scenario.markers) == n_markers + 1
    settle(qtbot, doc)


def test_save_after_edits_and_reload(window, qtbot, tmp_path, monkeypatch):
    doc, view = window.document, window.view
    doc.select("L1")
    start = counter_pos(view, "unit", "L1")
    drag(qtbot, view, start, steps(start, hex_pos(view, "2T8"), 5))
    window.editor.flags["concealed"].setChecked(True)
    window.scenario_panel.nvr.setValue(2)
    window.palette.buttons[("marker", "starshell")].click()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "34X3"))
    assert window.isWindowModified() and "*" not in window.windowTitle().replace("[*]", "")
    edited = engine.scenario_to_json(doc.scenario)
    target = tmp_path / "edited.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "")))
    assert window.save()
    assert not window.isWindowModified()
    again = engine.load_scenario(target)
    assert engine.scenario_to_json(again, tmp_path) == engine.scenario_to_json(doc.scenario, tmp_path)
    assert again.unit("L1").hex == "2T8" and again.unit("L1").concealed and again.nvr == 2
    assert engine.scenario_to_json(again)["units"] == edited["units"]
    window.open_path(str(target))
    assert doc.scenario == again
    settle(qtbot, doc)


def test_unsaved_changes_show_in_the_title_and_closing_asks(window, messages, qtbot):
    doc = window.document
    assert not window.isWindowModified()
    doc.move_unit("A1", "2Y8")
    assert window.isWindowModified()
    doc.undo_stack.undo()
    assert not window.isWindowModified()
    doc.move_unit("A1", "2Y8")
    window.close()                                      # the recorded answer is Discard
    assert messages[-1][0] == "question" and "Unsaved" in messages[-1][1]
    settle(qtbot, doc)


def test_export_the_view_as_png_and_svg(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtGui import QImage
    window.document.select("L1")
    settle(qtbot, window.document)
    for kind in ("png", "svg"):
        target = tmp_path / f"view.{kind}"
        monkeypatch.setattr(QFileDialog, "getSaveFileName",
                            staticmethod(lambda *a, t=target, **k: (str(t), "")))
        action = next(a for a in window.play_actions
                      if f"as {kind.upper()}" in a.text().replace("&", ""))
        action.trigger()
        assert target.exists() and target.stat().st_size > 1000
    image = QImage(str(tmp_path / "view.png"))
    area = window.view.export_rect()                 # the map and its counters, no margins
    assert image.size() == area.size()
    assert window.view.viewport().rect().contains(area)
    svg = (tmp_path / "view.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg


def test_help_lists_the_keys_of_every_action(window, qtbot):
    action = next(a for a in window.play_actions if a.text().startswith("&Keyboard"))
    action.trigger()
    dialog = window.help_dialog
    assert dialog.isVisible() and not dialog.isModal()
    text = dialog.text.toPlainText()
    for words in ("Tab", "Del", "Esc", "Ctrl+E", "Ctrl+Z", "LOS thread", "starshell",
                  "View as the next side", "Right-drag", "Method 2"):
        assert words in text, words
    for a in window.play_actions:
        if a.shortcuts():
            assert a.shortcuts()[0].toString() in text, a.text()
    dialog.close()


def test_the_position_panel_sets_a_day_position_and_says_so(window, qtbot):
    """rules.md 11.5: "day" beside the NVR turns the night rules off (one undo step); NVR and
    the starshell state are then greyed out, and the selected unit's NVR ring goes."""
    doc, panel, scene = window.document, window.scenario_panel, window.scene
    doc.select(doc.scenario.units[0].id)
    settle(qtbot, doc)
    qtbot.waitUntil(lambda: bool(scene.nvr_ring.labels), timeout=5000)
    assert not panel.day.isChecked() and panel.nvr.isEnabled()
    panel.day.click()
    assert doc.scenario.night is False
    assert panel.day.isChecked() and not panel.nvr.isEnabled()
    assert not panel.starshells.isEnabled()
    settle(qtbot, doc)
    qtbot.waitUntil(lambda: not scene.nvr_ring.labels, timeout=5000)
    doc.undo_stack.undo()
    assert doc.scenario.night is True and panel.nvr.isEnabled()
    settle(qtbot, doc)
