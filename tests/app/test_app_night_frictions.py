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


def test_the_worked_example_menu_lists_every_rooms_examples(window, qtbot):
    """File > Open worked example: the night room's, then the fire room's and the tabletop's in a
    submenu each; one of those opens in its own room's window."""
    menu = window.examples_menu
    menu.aboutToShow.emit()
    subs = {a.text().replace("&", ""): a.menu() for a in menu.actions() if a.menu() is not None}
    assert set(subs) == {"Napoleonic fire room", "DBA 3.0 tabletop room"}
    fire = [a.text() for a in subs["Napoleonic fire room"].actions()]
    tables = [a.text() for a in subs["DBA 3.0 tabletop room"].actions()]
    assert any(t.startswith("N-01") for t in fire) and any(t.startswith("S-01") for t in tables)
    assert any(a.text().startswith("W-10") for a in menu.actions())
    entry = next(a for a in subs["DBA 3.0 tabletop room"].actions() if a.text().startswith("S-01"))
    entry.trigger()
    assert len(window.room_windows) == 1
    other = window.room_windows[0]
    assert other is not window and "S-01" in other.windowTitle()
    other.close()


def test_closing_a_fresh_vasl_import_says_where_it_came_from(window, qtbot, tmp_path,
                                                             monkeypatch, messages):
    """A saved game opened untouched is unsaved: closing says so as such, naming the save; once
    changed, it says that too; once saved, the ordinary question."""
    import vsav_synth as vs
    from PySide6.QtWidgets import QMessageBox
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    path = vs.write_vsav(tmp_path / "GAME.vsav", [(0, 0, "02")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    assert window.open_path(str(path))
    doc = window.document
    settle(qtbot, doc)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda parent, title, text, *a, **k: asked.append(text) or QMessageBox.StandardButton.Cancel))
    assert not window._may_discard()
    assert asked[-1] == "This position came from GAME.vsav and is not saved yet. Save it first?"
    unit = doc.scenario.units[0]
    doc.move_unit(unit.id, "2K6")
    assert not window._may_discard()
    assert "came from GAME.vsav and is not saved yet (and has changed since)" in asked[-1]
    doc.save(tmp_path / "mine.json")
    doc.move_unit(unit.id, "2K7")
    assert not window._may_discard()
    assert asked[-1] == "The position has changed. Save it first?"
    settle(qtbot, doc)
