"""A Waterloo-like action built from an empty fire window by a player's clicks and keys, then a
turn of fire played (rules.md 8 and 10): a French line battalion and a skirmish screen fire at a
British square in a village, with a battery stacked with a leader with an artillery bonus
(18.5: it may combine though not adjacent); the owner spreads the square's losses over the
square and the battery sheltering in the village; the British battery fires back, alone; the
next segment.  No file is written by hand: the position is the window's own."""
from __future__ import annotations

from app_testing import shown
from fire_hands import answer_modal, click, click_counter, click_hex, click_tab, pick, type_text
from PySide6.QtWidgets import QDialogButtonBox

from app.napoleonic import Document, FireWindow
from engine import api

nap = api.napoleonic


def palette(qtbot, w, side, troop, arm, formation, increments, printed, name="") -> None:
    e = w.editor
    pick(qtbot, e.side, side)
    pick(qtbot, e.troop, troop)
    pick(qtbot, e.arm, arm)
    pick(qtbot, e.formation, formation)
    type_text(qtbot, e.increments, str(increments), enter=False)
    type_text(qtbot, e.printed, str(printed), enter=False)
    type_text(qtbot, e.name, name, enter=False) if name else None


def build(qtbot, w) -> None:
    click_tab(qtbot, w, "Position")
    type_text(qtbot, w.position_editor.title, "A Waterloo-like action")
    click(qtbot, w.position_editor.first_fire)
    click_tab(qtbot, w, "Units")
    click(qtbot, w.editor.place)
    palette(qtbot, w, "british", "line", "infantry", "square", 4, 6, "28th Foot")
    click_hex(qtbot, w, "n1M7")                                  # the village
    palette(qtbot, w, "british", "foot", "artillery", "unlimbered", 2, 10, "Bull's troop")
    click_counter(qtbot, w, "B1")                                # stacked with the square
    palette(qtbot, w, "french", "line", "infantry", "line", 6, 10, "1/45e Ligne")
    click_hex(qtbot, w, "n1K7")
    palette(qtbot, w, "french", "light", "infantry", "skirmish", 3, 8, "tirailleurs")
    click_hex(qtbot, w, "n1M9")
    palette(qtbot, w, "french", "foot", "artillery", "unlimbered", 2, 12, "grand battery")
    click_hex(qtbot, w, "n1P8")
    palette(qtbot, w, "french", "line", "leader", "line", 0, 0, "Drouot")
    click(qtbot, w.editor.artillery_leader)
    click_counter(qtbot, w, "F3")                                # the leader with the battery


def test_a_waterloo_like_action_built_and_a_turn_of_fire_played(qtbot, messages):
    w = shown(qtbot, FireWindow(Document(nap.blank_position(), None)))
    build(qtbot, w)
    pos = w.pos
    assert (pos.title, pos.first_fire) == ("A Waterloo-like action", True)
    assert [(u.id, u.side, u.arm, u.formation, u.hex) for u in pos.units] == [
        ("B1", "british", "infantry", "square", "n1M7"),
        ("B2", "british", "artillery", "unlimbered", "n1M7"),
        ("F1", "french", "infantry", "line", "n1K7"),
        ("F2", "french", "infantry", "skirmish", "n1M9"),
        ("F3", "french", "artillery", "unlimbered", "n1P8"),
        ("F4", "french", "leader", "line", "n1P8")]
    assert pos.unit("F4").artillery_leader and pos.unit("B2").extra["name"] == "Bull's troop"
    assert pos.terrain_at(pos.map.index("n1M7")) == "village"

    # the French fire at the square: the line, the skirmishers and the battery with its leader
    click_tab(qtbot, w, "Attack")
    assert not w.editor.place.isChecked() and w.click_mode() == "attack"
    click_hex(qtbot, w, "n1M7")
    a = w.assessment
    assert w.target == "n1M7" and a.allowed
    assert [f.id for f in a.counted()] == ["F1", "F2", "F3"]
    f3 = next(f for f in a.firers if f.id == "F3")
    assert any("F4, a leader with an artillery bonus (18.5)" in r for r in f3.reasons)
    assert "square" in a.defence_how and "village" in a.defence_how
    expected = {(t, u): nap.assess(w.pos, "n1M7", ["F1", "F2", "F3"], (t, u))
                for t in range(1, 7) for u in range(1, 7)}
    dice = next(d for d, x in expected.items() if nap.parse_result(x.result)[0] == 2)
    type_text(qtbot, w.tens, str(dice[0]), enter=False)
    type_text(qtbot, w.units, str(dice[1]), enter=False)

    def one_each(dialog):                   # the owner: one from the square, one from the guns
        type_text(qtbot, dialog.boxes["B1"], "1", enter=False)
        type_text(qtbot, dialog.boxes["B2"], "1", enter=False)
        click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Ok))
    seen = answer_modal(one_each)
    click(qtbot, w.roll_typed)
    assert seen
    assert (w.pos.unit("B1").increments, w.pos.unit("B2").increments) == (3, 1)
    assert "B1 loses 1 increment (4 -> 3); B2 loses 1 increment (2 -> 1)" in w.result.text()
    assert w.pos.attacked == ("n1M7",)
    assert dict(w.pos.fired_now) == {"F1": "n1M7", "F2": "n1M7", "F3": "n1M7"}

    # the British battery fires back at the line, alone (no leader to combine with, 18.5)
    click_hex(qtbot, w, "n1K7")
    assert [f.id for f in w.assessment.counted()] == ["B1"]
    click_counter(qtbot, w, "B1")           # the square out ...
    click_counter(qtbot, w, "B2")           # ... the battery in
    assert [f.id for f in w.assessment.counted()] == ["B2"] and w.assessment.allowed
    assert "left out" not in w.scene.counters["B2"].toolTip()     # as this attack judges it
    type_text(qtbot, w.tens, "3", enter=False)
    type_text(qtbot, w.units, "4", enter=False)
    click(qtbot, w.roll_typed)
    assert w.pos.fired_at("B2") == "n1K7" and w.pos.attacked == ("n1M7", "n1K7")
    assert "fired F1 (at n1M7), F2 (at n1M7), F3 (at n1M7), B2 (at n1K7)" in w.record_label.text()

    # the next segment: a new record; back to the fire segment: nothing lost
    click(qtbot, w.next_button)
    assert w.pos.segment == "opportunity" and "fired nobody yet" in w.record_label.text()
    pick(qtbot, w.segment, "fire")
    assert dict(w.pos.fired_now)["B2"] == "n1K7" and w.pos.attacked == ("n1M7", "n1K7")
