"""A turn of fire in the window (rules.md 8 and 10): each segment's record kept when the Segment
box goes elsewhere and back, a unit firing once per segment, what a click does shown per tab,
stacking on a counter, a question before two sides share a hex, the position's settings and
units' names edited with undo, losses spread by the owner in a dialog and said in words."""
from __future__ import annotations

from app_testing import answer_question, shown
from fire_hands import answer_modal, click, click_counter, click_hex, click_tab, pick, type_text
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from app.napoleonic import Document, FireWindow
from engine import api

nap = api.napoleonic
FIRE = api.assets_dir() / "fire"


def unit(uid, side, hex_id, **kw) -> dict:
    d = {"id": uid, "side": side, "nation": side, "troop": "line", "arm": "infantry",
         "formation": "line", "increments": 4, "printed": 6, "hex": hex_id}
    d.update(kw)
    return d


def window_on(qtbot, units, dice=(1, 1)):
    pos = nap.blank_position()
    for u in units:
        pos = nap.with_unit(pos, u)
    return shown(qtbot, FireWindow(Document(pos, None, dice=lambda: dice)))


TWO_TARGETS = [unit("F1", "french", "n1D4"), unit("B1", "british", "n1E4"),
               unit("B2", "british", "n1D5")]


def test_a_unit_fires_once_per_segment_in_the_window(qtbot, messages):
    w = window_on(qtbot, TWO_TARGETS)
    click_hex(qtbot, w, "n1E4")
    click(qtbot, w.roll_computer)
    assert w.pos.fired_now == (("F1", "n1E4"),)
    click_hex(qtbot, w, "n1D5")
    assert w.target == "n1D5" and not w.assessment.allowed
    assert "F1 has already fired this fire segment (at n1E4)" in w.text.toPlainText()
    assert "rules.md 8" in w.scene.counters["F1"].toolTip()
    click_counter(qtbot, w, "F1")                       # it cannot fire: its hex is targeted
    assert w.target == "n1D4"


def test_the_segment_box_keeps_each_segments_record(qtbot, messages):
    w = window_on(qtbot, TWO_TARGETS)
    click_hex(qtbot, w, "n1E4")
    click(qtbot, w.roll_computer)
    pick(qtbot, w.segment, "opportunity")
    assert w.pos.attacked == () and "fired nobody yet" in w.record_label.text()
    pick(qtbot, w.segment, "fire")
    assert w.pos.attacked == ("n1E4",) and w.pos.fired_now == (("F1", "n1E4"),)
    assert "fired F1 (at n1E4); hexes attacked n1E4" in w.record_label.text()
    click_hex(qtbot, w, "n1E4")
    assert not w.assessment.allowed and "already" in w.text.toPlainText()


def test_the_mode_of_a_click_is_shown_and_belongs_to_its_tab(qtbot, messages):
    w = window_on(qtbot, [unit("B1", "british", "n1E4", formation="square")])
    assert w.click_mode() == "attack" and "target" in w.mode.text()
    off_text, off_style = w.editor.place.text(), w.editor.place.palette().button().color()
    click_tab(qtbot, w, "Units")
    click(qtbot, w.editor.place)
    assert w.editor.place.isChecked() and w.click_mode() == "place"
    assert w.editor.place.text() != off_text and "ON" in w.editor.place.text()
    assert "PLACE" in w.mode.text()
    pick(qtbot, w.editor.side, "british")
    pick(qtbot, w.editor.arm, "leader")
    click_counter(qtbot, w, "B1")                       # on the counter: stacked in its hex
    assert [(u.id, u.hex) for u in w.pos.units] == [("B1", "n1E4"), ("B2", "n1E4")]
    click_tab(qtbot, w, "Attack")                       # leaving the tab turns placing off
    assert not w.editor.place.isChecked() and w.click_mode() == "attack"
    assert "off" in w.editor.place.text() and off_style is not None
    click_hex(qtbot, w, "n1E5")                         # an empty hex: no unit placed
    assert len(w.pos.units) == 2


def test_a_question_before_two_sides_share_a_hex(qtbot, messages, monkeypatch):
    w = window_on(qtbot, [unit("B1", "british", "n1E4", formation="square")])
    click_tab(qtbot, w, "Units")
    click(qtbot, w.editor.place)
    pick(qtbot, w.editor.side, "french")
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.No)
    click_counter(qtbot, w, "B1")
    assert len(asked) == 1 and "n1E4 holds british units (B1)" in asked[0]
    assert len(w.pos.units) == 1                        # No: nothing placed
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    click_hex(qtbot, w, "n1E4")
    assert len(asked) == 1 and [u.side for u in w.pos.units] == ["british", "french"]


def test_settings_and_names_edited_in_the_window_with_undo(qtbot, messages):
    w = window_on(qtbot, TWO_TARGETS)
    click_tab(qtbot, w, "Position")
    type_text(qtbot, w.position_editor.title, "Hougoumont, 18 June")
    click(qtbot, w.position_editor.first_fire)
    pick(qtbot, w.position_editor.charts, "worked")
    assert (w.pos.title, w.pos.first_fire, w.pos.charts_ref) == ("Hougoumont, 18 June", True,
                                                                 "worked")
    assert "Hougoumont" in w.windowTitle()
    type_text(qtbot, w.position_editor.board, "nosuchboard")
    assert w.pos.map_entries[0].board == "n1" and "refused" in w.position_editor.note.text()
    for _ in range(3):
        w.document.undo_stack.undo()
    assert (w.pos.title, w.pos.first_fire, w.pos.charts_ref) == ("New fire position", False,
                                                                 "sample")
    assert w.position_editor.title.text() == "New fire position"
    click_tab(qtbot, w, "Units")
    click_counter(qtbot, w, "F1")                       # Place off: chosen
    type_text(qtbot, w.editor.uid, "Grenadiers", enter=False)
    type_text(qtbot, w.editor.name, "1/1st Grenadiers", enter=False)
    type_text(qtbot, w.editor.firing, "3", enter=False)
    click(qtbot, w.editor.apply)
    g = w.pos.unit("Grenadiers")
    assert (g.extra["name"], g.firing, g.hex) == ("1/1st Grenadiers", 3, "n1D4")
    assert w.editor.units.item(0).text().startswith("Grenadiers (1/1st Grenadiers): french")
    w.document.undo_stack.undo()
    assert w.pos.units[0].id == "F1"


def test_losses_are_spread_by_the_owner_and_said_in_words(qtbot, messages):
    units = [unit("F1", "french", "n1D4", formation="skirmish", troop="light", increments=12),
             unit("B1", "british", "n1E4", increments=3), unit("B2", "british", "n1E4")]
    pos = nap.blank_position()
    for u in units:
        pos = nap.with_unit(pos, u)
    dice = next((t, u) for t in range(1, 7) for u in range(1, 7)
                if nap.parse_result(nap.assess(pos, "n1E4", ["F1"], (t, u)).result or "")[0] == 2)
    w = shown(qtbot, FireWindow(Document(pos, None, dice=lambda: dice)))
    click_hex(qtbot, w, "n1E4")

    def spread(dialog):
        assert "two increments lost" in dialog.findChildren(type(w.result))[0].text()
        assert dialog.boxes["B1"].value() == 2 and dialog.boxes["B2"].value() == 0   # the top
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        type_text(qtbot, dialog.boxes["B2"], "1", enter=False)
        assert not ok.isEnabled()                       # 3 named of 2
        type_text(qtbot, dialog.boxes["B1"], "1", enter=False)
        click(qtbot, ok)
    seen = answer_modal(spread)
    click(qtbot, w.roll_computer)
    assert seen, "no dialog asked who loses the increments"
    assert (w.pos.unit("B1").increments, w.pos.unit("B2").increments) == (2, 3)
    text = w.result.text()
    assert "two increments lost" in text
    assert "B1 loses 1 increment (3 -> 2); B2 loses 1 increment (4 -> 3)" in text


def test_a_turn_played_through_in_the_window(qtbot, messages):
    w = window_on(qtbot, TWO_TARGETS)
    click_hex(qtbot, w, "n1E4")
    click(qtbot, w.roll_computer)
    click(qtbot, w.next_button)
    assert w.pos.segment == "opportunity" and w.segment.currentText() == "opportunity"
    click(qtbot, w.next_button)
    click(qtbot, w.next_button)                         # past the assault: a new turn
    assert w.pos.segment == "fire" and w.pos.fired_now == () and w.pos.attacked == ()
    click_hex(qtbot, w, "n1E4")
    assert w.assessment.allowed                         # F1 fires again in the new turn
    w.document.undo_stack.undo()
    assert w.pos.segment == "assault"
