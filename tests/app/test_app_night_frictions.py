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
    assert not window.may_discard()
    assert asked[-1] == "This position came from GAME.vsav and is not saved yet. Save it first?"
    unit = doc.scenario.units[0]
    doc.move_unit(unit.id, "2K6")
    assert not window.may_discard()
    assert "came from GAME.vsav and is not saved yet (and has changed since)" in asked[-1]
    doc.save(tmp_path / "mine.json")
    doc.move_unit(unit.id, "2K7")
    assert not window.may_discard()
    assert asked[-1] == "The position has changed. Save it first?"
    settle(qtbot, doc)


def test_file_new_starts_a_position_on_one_board_file(window, qtbot, tmp_path, monkeypatch):
    """File > New on a board file: that board alone, no units, no markers, titled after it;
    adding a board east of it retitles it; the player renames it in the Position panel."""
    from PySide6.QtWidgets import QFileDialog

    from engine.boards import bundled_board, save_board
    save_board(bundled_board("2"), tmp_path / "bd02.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "bd02.json"), "")))
    new = next(a for a in window.file_menu.actions() if a.text().startswith("&New"))
    new.trigger()
    doc = window.document
    s = doc.scenario
    assert s.map.board_ids == ["2"] and not s.units and not s.markers
    assert s.title == "Night on board 2" and doc.path is None
    assert window.windowTitle().startswith("Night on board 2")
    assert window.board_editor.add_bundled("34")
    assert doc.scenario.title == "Night on boards 2 and 34"
    assert window.windowTitle().startswith("Night on boards 2 and 34")
    panel = window.scenario_panel
    panel.title.setText("Hill 621 at night")
    panel.title.editingFinished.emit()
    assert doc.scenario.title == "Hill 621 at night"
    assert window.windowTitle().startswith("Hill 621 at night")
    assert window.board_editor.add_bundled("1")
    assert doc.scenario.title == "Hill 621 at night"          # the player's name is kept
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.scenario.title == "Night on boards 2 and 34"   # renaming is one undo step
    settle(qtbot, doc)


def test_the_default_title_follows_its_boards(window, qtbot, monkeypatch):
    """The bundled default, "Night on boards 2 and 34 (default)": remove board 2, and the title
    names board 34 alone; a removed marker is named in words (no "prep_fire")."""
    from PySide6.QtWidgets import QMessageBox

    from engine import api
    told = []
    monkeypatch.setattr(QMessageBox, "information",
                        staticmethod(lambda parent, title, text, *a, **k: told.append(text)))
    doc = window.document
    assert doc.scenario.title.startswith("Night on boards 2 and 34")
    k = doc.scenario.map.board_ids.index("2")
    assert window.board_editor.apply_layout(
        lambda s: api.night.remove_board(s, k), "remove board 2",
        "Board removed")
    assert doc.scenario.title == "Night on board 34"
    shown = " ".join(told)
    assert "prep fire marker" in shown and "prep_fire" not in shown
    settle(qtbot, doc)


def test_a_board_file_opens_on_a_map_of_its_own(window, qtbot, tmp_path):
    from engine.boards import bundled_board, save_board
    save_board(bundled_board("34"), tmp_path / "bd34.json")
    assert window.open_path(str(tmp_path / "bd34.json"))
    doc = window.document
    assert doc.scenario.map.board_ids == ["34"] and doc.path is None
    assert doc.undo_stack.isClean()                 # nothing on it to lose yet
    settle(qtbot, doc)


def test_the_command_line_opens_a_board_file_on_a_map_of_its_own(qtbot, tmp_path, settings):
    """``python -m app bd02.json``: a window on that board alone (and a screenshot of it)."""
    from PySide6.QtGui import QImage

    from app import rooms
    from engine.boards import bundled_board, save_board
    save_board(bundled_board("2"), tmp_path / "bd02.json")
    w = rooms.open_window(str(tmp_path / "bd02.json"), settings=settings)
    qtbot.addWidget(w)
    assert w.document.scenario.map.board_ids == ["2"] and not w.document.scenario.units
    settle(qtbot, w.document)
    w.close()
    out = tmp_path / "shot.png"
    rooms.save_screenshot(str(tmp_path / "bd02.json"), str(out), 400, 200)
    assert QImage(str(out)).size().width() == 400


def test_a_units_side_is_one_of_the_games_two_sides(window, qtbot):
    """The Edit panel offers the position's two sides, no free text (a third side is refused by
    the engine); a position whose units name one side ("german") offers it and one more."""
    from engine import api
    doc, ed = window.document, window.editor
    doc.select("T1")
    assert not ed.side.isEditable()
    assert [ed.side.itemText(k) for k in range(ed.side.count())] == ["allied", "axis"]
    assert ed.side.currentText() == "allied"
    ed.side.setCurrentIndex(1)
    ed.side.activated.emit(1)
    assert doc.scenario.unit("T1").side == "axis"
    german = doc.scenario.replace(units=(api.night.Unit("G1", "german", "squad", "2K5"),),
                                  markers=())
    doc.edit(german, "one german squad")
    doc.select("G1")
    assert [ed.side.itemText(k) for k in range(ed.side.count())] == ["german", "allied"]
    palette = window.palette
    assert [palette.side.itemText(k) for k in range(palette.side.count())] == ["german", "allied"]
    settle(qtbot, doc)


def test_a_wait_over_a_fifth_of_a_second_shows_what_is_worked_out(window, qtbot, monkeypatch):
    """The engine answers off the window's thread; while it takes longer than 0.2 s the status
    bar names what it works out and the map shows a busy cursor; both go with the answers.  (The
    engine's job waits on an event the test sets: no sleep.)"""
    import threading

    import app.night.document as document_module
    doc, vp = window.document, window.view.viewport()
    settle(qtbot, doc)
    before = window.statusBar().currentMessage()
    release = threading.Event()
    real = document_module.ask_engine

    def slow(*args):
        release.wait(10)
        return real(*args)
    monkeypatch.setattr(document_module, "ask_engine", slow)
    doc.select("G1")
    qtbot.waitUntil(lambda: doc.busy_text != "", timeout=3000)
    assert window.statusBar().currentMessage() == "Working out G1's night field\u2026"
    assert vp.cursor().shape() == Qt.CursorShape.BusyCursor
    release.set()
    qtbot.waitUntil(lambda: doc.busy_text == "" and doc.is_settled, timeout=10000)
    # the busy sentence goes and gives back what it covered (the window's help)
    assert window.statusBar().currentMessage() == before
    assert vp.cursor().shape() != Qt.CursorShape.BusyCursor
    assert doc.answers.viewer == "G1"



def test_png_export_keeps_the_map_and_its_counters_not_the_windows_margins(window_on, qtbot,
                                                                           tmp_path):
    """A one-board strip in a tall window: the PNG is the map (and a margin), not the window's
    empty background; a starshell in an edge hex is drawn whole (its counter reaches past the
    board's edge)."""
    from PySide6.QtGui import QImage
    from support import position

    from app.export import export_png
    from app.hex_geometry import map_rect
    from engine.boards import bundled_board
    from engine.night.scenario import Marker, Unit
    s = position(bundled_board("2"), units=(Unit("A", "allied", "squad", "2K5"),),
                 markers=(Marker("starshell", "2A1"),))
    w = window_on(s)
    w.resize(1100, 900)
    view = w.view
    view.fit_map()
    settle(qtbot, w.document)
    out = tmp_path / "view.png"
    export_png(view, str(out))
    image = QImage(str(out))
    board = view.mapFromScene(map_rect(w.scene.map)).boundingRect()
    vp = view.viewport().rect()
    assert board.height() < vp.height() / 2                # a strip in a tall window
    assert image.height() < board.height() * 1.3 and image.width() <= vp.width()
    item = w.scene.counters.item("marker", 0)
    counter = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    assert not board.contains(counter)                      # it reaches past the board's edge
    assert view.export_rect().contains(counter)             # ... and is drawn whole


def test_after_a_drop_the_explanation_keeps_no_reason_of_the_old_position(window, qtbot,
                                                                           monkeypatch):
    """Drag G1 from 2BB5 to 2R5 while the engine is slow (its job waits on an event the test
    sets): at the drop the Explanation keeps no reason of the position before ("2BB5 is G1's
    own hex", "daytime LOS from 2BB5 ..."), says it is working the new one out, and once the
    answers are in explains 2R5 from 2R5, the mouse unmoved."""
    import threading

    import app.night.document as document_module
    view, doc = window.view, window.document
    doc.select("G1")
    settle(qtbot, doc)
    release = threading.Event()
    real = document_module.ask_engine
    monkeypatch.setattr(document_module, "ask_engine",
                        lambda *args: release.wait(10) and real(*args))
    start = counter_pos(view, "unit", "G1")
    qtbot.mouseMove(view.viewport(), start)
    path = steps(start, hex_pos(view, "2R5"), 8)
    drag(qtbot, view, start, path, release=False)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=path[-1])
    assert doc.scenario.unit("G1").hex == "2R5"
    text = window.explanation.toPlainText()
    assert "2BB5" not in text and "Working out what G1 sees" in text
    release.set()
    qtbot.waitUntil(lambda: doc.is_settled and "own hex" in window.explanation.toPlainText(),
                    timeout=10000)
    text = window.explanation.toPlainText()
    assert "2R5 is G1's own hex" in text and "2BB5" not in text


def test_a_drag_held_at_the_views_edge_scrolls_the_map(window, qtbot):
    """Zoomed in on 2T6, drag L1 to the view's east edge and hold it there: the map scrolls
    east and L1 goes on east under the mouse; the release stops it."""
    from app_testing import look_at
    view, doc = window.view, window.document
    look_at(view, "2T6", 120.0)
    start = counter_pos(view, "unit", "L1")
    vp = view.viewport().rect()
    edge = start.__class__(vp.right() - 4, start.y())
    drag(qtbot, view, start, steps(start, edge, 10), release=False)
    first = doc.scenario.map.index(doc.scenario.unit("L1").hex)
    x0 = view.horizontalScrollBar().value()
    m = doc.scenario.map
    qtbot.waitUntil(lambda: m.x[m.index(doc.scenario.unit("L1").hex)] > m.x[first] + 1,
                    timeout=5000)
    assert view.horizontalScrollBar().value() > x0
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=edge)
    assert not view._edge_timer.isActive()
    assert doc.undo_stack.count() == 1
    settle(qtbot, doc)


def test_a_drop_outside_the_view_puts_the_piece_back(window, qtbot):
    """Dropped over the side panel (outside the map view), the unit goes back: the hex under
    the panel is one the player cannot see."""
    from app_testing import look_at

    from app.hex_geometry import hex_at
    view, doc = window.view, window.document
    look_at(view, "2T6", 120.0)
    before = doc.scenario
    start = counter_pos(view, "unit", "L1")
    vp = view.viewport().rect()
    beyond = start.__class__(vp.right() + 60, start.y())
    assert hex_at(doc.scenario.map, view.mapToScene(beyond)) >= 0    # a hex of the map there
    drag(qtbot, view, start, steps(start, beyond, 10))
    assert doc.scenario.unit("L1").hex == before.unit("L1").hex
    assert doc.undo_stack.count() == 0
    assert "outside the map view" in window.statusBar().currentMessage()
    settle(qtbot, doc)


def test_at_night_the_map_hatches_only_blind_hexes_that_matter_the_thread_all(window, qtbot):
    """G2 on the hill of 2CC8: 2Z0, 9 hexes away, unlit, is blind (A6.4) but beyond its NVR:
    not hatched; the LOS thread to it still says blind hex (its daytime verdict)."""
    import numpy as np
    doc, m = window.document, window.document.scenario.map
    doc.select("G2")
    settle(qtbot, doc)
    f = doc.answers.field
    far = m.index("2Z0")
    assert f.blind[far] and not f.blind_at_night[far]
    hatched = window.scene.viewer_blind.mask
    assert not hatched[far] and np.array_equal(hatched, f.blind_at_night)
    from engine import api
    window.hand.threads.set_thread(api.night.los_thread(doc.scenario, "2CC8", "2Z0",
                                                        viewer_id="G2"))
    assert "blind hex (A6.4)" in window.explanation.toPlainText()
