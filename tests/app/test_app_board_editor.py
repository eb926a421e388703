"""Board and map editing: paint terrain with the mouse and watch the night field
change, raise a hill and see a blind hex appear, compose a map of two boards, rotate one, save
and reload; an edited board is never lost silently."""
from __future__ import annotations

import json

import numpy as np
import pytest
from app_testing import drag, hex_pos, scene_point, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

import engine
from app.night.editor.brush import Brush, Stroke, apply
from engine.boards import assets_dir, load_board
from engine.hexes import parse_local

W12 = assets_dir() / "scenarios" / "W-12.json"       # A in 2CC6 sees the starshell's 2Y4


@pytest.fixture
def editing(window_on, tmp_path, qtbot):
    """A window on a copy of W-12 (board 2 alone), viewer A selected."""
    pos = tmp_path / "w12.json"
    pos.write_text(W12.read_text())
    w = window_on(pos)
    w.document.select("A")
    settle(qtbot, w.document)
    return w


@pytest.fixture
def informed(monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(
        lambda parent, title, text, *a, **k: shown.append((title, text))
        or QMessageBox.StandardButton.Ok))
    return shown


def answer(monkeypatch, question=QMessageBox.StandardButton.Save, save_as=None):
    """Dialogs answered: the question, and each Save-as dialog by the words of its caption."""
    asked = []

    def ask(parent, title, text, *a, **k):
        asked.append((title, text))
        return question
    monkeypatch.setattr(QMessageBox, "question", staticmethod(ask))
    if save_as is not None:
        def save_dialog(parent, caption, start="", *a, **k):
            asked.append((caption, start))
            return next(path for word, path in save_as.items() if word in caption), ""
        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    return asked


def sight(w, hex_id: str) -> str:
    return w.document.settle().field[hex_id].sight


def click(qtbot, w, hex_id: str, button=Qt.MouseButton.LeftButton) -> None:
    qtbot.mouseClick(w.view.viewport(), button, Qt.KeyboardModifier.NoModifier,
                     hex_pos(w.view, hex_id))


# ------------------------------------------------------------------------------ painting
def test_paint_a_woods_hex_and_the_line_to_the_starshell_is_blocked(editing, qtbot):
    w, doc = editing, editing.document
    assert sight(w, "2Y4") == "nvr"                 # lit by the starshell, seen at any range
    w.board_panel.choose("woods")
    w.board_panel.paint.setChecked(True)            # the Paint action, as the panel shows it
    assert w.board_editor.mode == "paint" and w.view.hand is w.board_editor.paint
    steps_before = doc.undo_stack.count()
    click(qtbot, w, "2AA5")                         # between 2CC6 and 2Y4
    assert doc.scenario.map.terrain_name(doc.scenario.map.index("2AA5")) == "woods"
    assert doc.undo_stack.count() == steps_before + 1
    settle(qtbot, doc)                              # the overlays follow: the Document asked again
    assert doc.answers.field["2Y4"].sight == "none"
    assert any("2AA5" in r for r in doc.answers.field["2Y4"].reasons)
    assert w.board_editor.unsaved() == [0]          # board 2 now differs from the bundled one
    doc.undo_stack.undo()
    assert sight(w, "2Y4") == "nvr"


def test_paint_one_drag_is_one_undo_step(editing, qtbot):
    w, doc = editing, editing.document
    w.board_panel.choose("grain")
    w.board_editor.set_painting(True)
    view = w.view
    hexes = ["2F3", "2G3", "2H4", "2I4", "2J5"]
    before = doc.undo_stack.count()
    drag(qtbot, view, hex_pos(view, hexes[0]), [hex_pos(view, h) for h in hexes[1:]])
    m = doc.scenario.map
    assert [m.terrain_name(m.index(h)) for h in hexes] == ["grain"] * 5
    assert doc.undo_stack.count() == before + 1
    assert "grain" in doc.undo_stack.text(before) and "5 hexes" in doc.undo_stack.text(before)
    doc.undo_stack.undo()
    m = doc.scenario.map
    assert all(m.terrain_name(m.index(h)) != "grain" for h in hexes)
    settle(qtbot, doc)


def test_paint_keeps_the_zoom_and_adding_a_board_fits_the_map_again(editing, qtbot):
    w, view = editing, editing.view
    view.zoom_by(4.0)                                    # the player zooms in (the wheel)
    view.centerOn(scene_point(view.scene().map, "2AA5"))
    w.board_editor.set_painting(True)
    zoomed, centre = view.transform(), view.mapToScene(view.viewport().rect().center())
    drag(qtbot, view, hex_pos(view, "2AA5"), [hex_pos(view, "2Z5"), hex_pos(view, "2Y5")])
    assert view.transform() == zoomed                    # the map changed, the view did not
    assert view.mapToScene(view.viewport().rect().center()) == centre
    m = w.document.scenario.map
    assert [m.terrain_name(m.index(h)) for h in ("2AA5", "2Z5", "2Y5")] == ["woods"] * 3
    w.board_editor.add_bundled("34")                     # the map grew: all of it in view
    assert view.transform() != zoomed
    rect = view.viewport().rect()
    assert rect.contains(hex_pos(view, "34GG5")) and rect.contains(hex_pos(view, "2A5"))
    settle(qtbot, w.document)


def test_paint_mode_leaves_the_right_button_to_the_LOS_thread(editing, qtbot):
    w = editing
    w.board_editor.set_painting(True)
    view = w.view
    drag(qtbot, view, hex_pos(view, "2CC6"), [hex_pos(view, "2Y4")],
         button=Qt.MouseButton.RightButton)
    threads = w.hand.threads
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end == "2Y4")
    m = w.document.scenario.map
    assert m.terrain_name(m.index("2AA5")) == "open"     # the thread painted nothing
    w.board_editor.set_painting(False)
    assert view.hand is w.hand
    settle(qtbot, w.document)


def test_paint_raise_a_hill_and_a_blind_hex_appears_behind_the_woods(editing, qtbot):
    w, doc = editing, editing.document
    w.board_editor.set_painting(True)
    w.board_panel.choose("woods")
    click(qtbot, w, "2AA5")
    settle(qtbot, doc)
    assert not doc.answers.field.blind[doc.scenario.map.index("2Z4")]
    assert doc.answers.field["2Z4"].sight == "none"       # behind the woods, both at level 0
    w.board_panel.choose("raise")
    hill = ["2CC6", "2CC5", "2CC7", "2BB6", "2BB7", "2DD6", "2DD7"]
    view = w.view
    for _ in range(2):                                    # two strokes: a level 2 hill
        drag(qtbot, view, hex_pos(view, hill[0]), [hex_pos(view, h) for h in hill[1:]])
    m = doc.scenario.map
    assert int(m.level[m.index("2CC6")]) == 2 and int(m.level[m.index("2DD7")]) == 2
    settle(qtbot, doc)
    field = doc.answers.field
    blind = [m.names[i] for i in np.flatnonzero(np.asarray(field.blind))]
    assert "2Z4" in blind                                 # just behind the woods (A6.4)
    assert "blind" in field["2Z4"].reasons[-1]
    assert field["2Y4"].sight == "nvr"                    # farther on, seen over the woods
    doc.undo_stack.undo()
    assert int(doc.scenario.map.level[doc.scenario.map.index("2CC6")]) == 1


def test_paint_buildings_joined_with_upper_levels_and_a_unit_brought_down(editing, qtbot,
                                                                          informed):
    w, doc = editing, editing.document
    w.board_editor.set_painting(True)
    w.board_panel.upper.setValue(2)
    w.board_panel.choose("join")
    view = w.view
    drag(qtbot, view, hex_pos(view, "2M3"), [hex_pos(view, "2N4"), hex_pos(view, "2O3")])
    board = doc.scenario.map.placements[0].board
    specs = [board.at(*parse_local(h)) for h in ("M3", "N4", "O3")]
    assert {s.terrain for s in specs} == {"building"}
    assert len({s.building for s in specs}) == 1 and specs[0].building
    assert {s.upper_levels for s in specs} == {2}
    doc.edit(doc.scenario.with_unit(doc.scenario.unit("B").replace(hex="2N4", level=2)), "up")
    w.board_panel.upper.setValue(0)
    w.board_panel.choose("upper")
    click(qtbot, w, "2M3")                                # the whole building loses its floors
    board = doc.scenario.map.placements[0].board
    assert board.at(*parse_local("O3")).upper_levels == 0
    assert doc.scenario.unit("B").level == 0
    assert "came down" in w.statusBar().currentMessage()
    w.board_panel.choose("separate")
    click(qtbot, w, "2O3")
    board = doc.scenario.map.placements[0].board
    assert board.at(*parse_local("O3")).building is None
    assert board.at(*parse_local("M3")).building is not None
    settle(qtbot, doc)


# ------------------------------------------------------------------------------ saving boards
def test_paint_then_save_asks_to_save_the_board_first_and_reloads_the_woods(editing, qtbot,
                                                                             monkeypatch,
                                                                             tmp_path):
    w, doc = editing, editing.document
    w.board_editor.set_painting(True)
    w.board_panel.choose("woods")
    click(qtbot, w, "2AA5")
    asked = answer(monkeypatch, save_as={"board": str(tmp_path / "my-board-2.json"),
                                         "position": str(tmp_path / "night.json")})
    assert w.save_as()
    assert asked[0][0] == "Save the position as"
    assert "Board(s) 2" in asked[1][1]                    # the question: save the board first
    assert asked[2][1].startswith(str(tmp_path))          # offered next to the position
    saved = json.loads((tmp_path / "night.json").read_text())
    assert saved["map"] == [{"board": "my-board-2.json", "at": [0, 0]}]
    assert load_board(tmp_path / "my-board-2.json").at(*parse_local("AA5")).terrain == "woods"
    again = engine.load_scenario(tmp_path / "night.json")
    assert engine.visibility_from(again, "A")["2Y4"].sight == "none"
    assert not w.isWindowModified() and w.board_editor.unsaved() == []
    settle(qtbot, doc)


def test_paint_then_save_refused_keeps_the_position_unsaved(editing, qtbot, monkeypatch,
                                                            tmp_path):
    w, doc = editing, editing.document
    w.board_editor.set_painting(True)
    click(qtbot, w, "2AA5")
    answer(monkeypatch, question=QMessageBox.StandardButton.Cancel)
    before = (tmp_path / "w12.json").read_text()
    assert not w.save()
    assert (tmp_path / "w12.json").read_text() == before
    assert w.isWindowModified()
    settle(qtbot, doc)


def test_new_blank_board_painted_renamed_and_saved(editing, qtbot, monkeypatch, tmp_path):
    w, doc, ed = editing, editing.document, editing.board_editor
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: ("b7", True)))
    assert ed.new_board()
    s = doc.scenario
    assert s.map.board_ids == ["2", "b7"] and s.map_entries[1].at == (1, 0)
    assert ed.board.id == "b7" and ed.unsaved() == [1]
    ed.set_painting(True)
    w.board_panel.choose("dense_jungle")
    click(qtbot, w, "b7E5")
    w.board_panel.board_id.setText("j1")
    w.board_panel.title.setText("My jungle")
    w.board_panel.board_id.editingFinished.emit()
    board = doc.scenario.map.placements[1].board
    assert (board.id, board.title) == ("j1", "My jungle")
    assert board.at(*parse_local("E5")).terrain == "dense_jungle"
    assert ed.save_board_as(1, str(tmp_path / "j1"))
    assert doc.scenario.map_entries[1].board == str(tmp_path / "j1.json")
    assert ed.unsaved() == []
    assert load_board(tmp_path / "j1.json").title == "My jungle"
    settle(qtbot, doc)


# ------------------------------------------------------------------------------ the layout
def test_layout_compose_two_boards_rotate_one_save_and_reload(editing, qtbot, monkeypatch,
                                                              tmp_path, informed):
    w, doc = editing, editing.document
    panel = w.layout_panel
    panel.bundled.setCurrentIndex(panel.bundled.findData("34"))
    add = next(b for b in panel.findChildren(type(panel.move_button)) if b.text() == "Add")
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    s = doc.scenario
    assert [(e.board, e.at) for e in s.map_entries] == [("2", (0, 0)), ("34", (1, 0))]
    assert s.map.canonical("2GG5") == "34A5"              # the boards join
    doc.edit(s.with_unit(engine.Unit("Z", "allied", "squad", "34E5")), "Z")
    panel.boards.setCurrentRow(1)
    qtbot.mouseClick(panel.rotate_button, Qt.MouseButton.LeftButton)
    s = doc.scenario
    assert s.map_entries[1].rotated and s.unit("Z").hex == "34E5"
    assert s.map.pos(s.map.index("34E5")) == (32 + 32 - 4, 11 - 5)   # turned half round
    assert informed == []                                 # nothing lost: nothing to tell
    w.board_editor.set_painting(True)
    w.board_editor.choose_board(0)
    click(qtbot, w, "34E4")                               # paint on the turned board
    assert doc.scenario.map.placements[1].board.at(*parse_local("E4")).terrain == "woods"
    assert w.board_editor.board_index == 1                # the panel shows the painted board
    assert "unsaved" in w.board_panel.board.currentText()
    answer(monkeypatch, save_as={"board": str(tmp_path / "board-34.json"),
                                 "position": str(tmp_path / "two.json")})
    assert w.save_as()
    again = engine.load_scenario(tmp_path / "two.json")
    assert [(e.board, e.at, e.rotated) for e in again.map_entries] == [
        ("2", (0, 0), False), ("board-34.json", (1, 0), True)]
    assert again.unit("Z").hex == "34E5"
    assert again.map.terrain_name(again.map.index("34E4")) == "woods"
    assert again.map.pos(again.map.index("34E5")) == (60, 6)
    assert w.open_path(str(tmp_path / "two.json"))
    assert w.layout_panel.boards.count() == 2 and "rotated" in w.layout_panel.boards.item(1).text()
    settle(qtbot, doc)


def test_layout_move_and_remove_a_board_reports_what_left_and_undo_brings_it_back(
        editing, qtbot, informed):
    w, doc, ed = editing, editing.document, editing.board_editor
    assert ed.add_bundled("34")
    doc.edit(doc.scenario.with_unit(engine.Unit("Z", "allied", "squad", "34E5")), "Z")
    assert ed.move(1, (0, 1))                             # below board 2
    assert doc.scenario.map_entries[1].at == (0, 1)
    assert not ed.move(1, (0, 0))                         # taken: refused with the engine's words
    assert doc.scenario.map_entries[1].at == (0, 1)
    assert ed.remove(1)
    assert [u.id for u in doc.scenario.units] == ["A", "B"]
    title, text = informed[-1]
    assert "unit Z in 34E5 was removed" in text
    assert "unit Z in 34E5 was removed" in w.statusBar().currentMessage()
    doc.undo_stack.undo()
    assert doc.scenario.unit("Z").hex == "34E5" and len(doc.scenario.map_entries) == 2
    settle(qtbot, doc)


def test_layout_add_a_board_file(editing, qtbot, monkeypatch, tmp_path):
    w, doc = editing, editing.document
    data = json.loads((assets_dir() / "boards" / "1.json").read_text())
    (tmp_path / "one.json").write_text(json.dumps(data))
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "one.json"), "")))
    assert w.board_editor.add_file()
    assert doc.scenario.map.board_ids == ["2", "1"]
    assert w.board_editor.unsaved() == []
    settle(qtbot, doc)


def test_brush_on_a_joined_hex_paints_both_halves():
    s = engine.load_scenario(assets_dir() / "scenarios" / "default.json")   # boards 2 and 34
    r = apply(s, s.map.index("34A5"), Brush("terrain", "woods"), Stroke(s))
    boards = {p.board.id: p.board for p in r.scenario.map.placements}
    assert boards["2"].at(*parse_local("GG5")).terrain == "woods"
    assert boards["34"].at(*parse_local("A5")).terrain == "woods"


def test_painting_a_drawn_board_drops_its_drawing_and_says_so():
    """A board imported from VASL is drawn per pixel; a hex painted by hand no longer matches
    the drawing: it is dropped, explicitly (the stroke's report tells the player), and the
    board's lines of sight are its hexes' from then on; undo gives the drawing back."""
    from engine.boards import with_raster
    from engine.raster_file import Raster
    s = engine.load_scenario(assets_dir() / "scenarios" / "default.json")   # boards 2 and 34
    board = s.map.placements[0].board
    rows = round(2 * 32.25 + (board.size[1] - 1) * 64.5)
    cols = round((board.size[0] - 1) * 56.25)
    drawing = Raster(np.zeros((rows, cols), np.uint8), np.zeros((rows, cols), np.int8),
                     (0.0, 32.25, 56.25, 64.5), board.size)
    entries = list(s.map_entries)
    drawn = engine.api.night.set_layout(s, entries, {entries[0].board: with_raster(board, drawing)})
    s = drawn.scenario
    assert s.map.placements[0].board.raster is not None
    stroke = Stroke(s)
    r = apply(s, s.map.index(f"{board.id}C3"), Brush("terrain", "woods"), stroke)
    assert r.scenario.map.placements[0].board.raster is None
    assert any(f"board {board.id}'s terrain as drawn" in line and "dropped" in line
               for line in stroke.report)
    assert s.map.placements[0].board.raster is not None     # the position undo goes back to
