"""What a play-test in a real window found, each as the player met it (real mouse and key events
on the view's viewport)."""
from __future__ import annotations

from app_testing import hex_pos, settle
from PySide6.QtCore import Qt

from engine.boards import assets_dir
from engine.night.drift import FixedDice

W10 = assets_dir() / "scenarios" / "W-10.json"


def test_undo_of_a_starshell_refreshes_the_preview_under_the_mouse(window_on, qtbot):
    """W-10: L1 fires at 2W6 by method 2 (usage dr 3, drift 2, 5); with the mouse moved within 2W6 the
    preview says 2W6 is no longer legal (one attempt per hex, E1.92). Ctrl+Z takes the roll back: the
    preview says at once that 2W6 is legal again, without waiting for the mouse to move."""
    w = window_on(W10, dice=FixedDice([3, 2, 5]))
    view, doc = w.view, w.document
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.keyClick(view, Qt.Key.Key_2)                  # method 2 chosen by key
    at = hex_pos(view, "2W6")
    qtbot.mouseMove(view.viewport(), at)
    assert w.scene.drift.legal and "not a legal hex" not in w.starshell_panel.preview.text()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.scenario.markers[-1].hex == "2Z4"
    settle(qtbot, doc)
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2W6", 0.2, 0.0))  # the preview went with
    assert not w.scene.drift.legal                      # the shot: the mouse moves, aims again
    assert "not a legal hex" in w.starshell_panel.preview.text()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.scenario.starshell_attempts == ()
    settle(qtbot, doc)
    assert w.scene.drift.legal and w.scene.drift.method == "2"
    assert "2W6" in w.starshell_panel.preview.text()
    assert "not a legal hex" not in w.starshell_panel.preview.text()


def test_the_fire_windows_open_takes_a_night_position_into_a_main_window(qtbot, messages,
                                                                        monkeypatch):
    """`python -m app assets/fire/sample.json` opens the fire room alone: there is no main
    window to go back to. Its File > Open on W-01 opened nothing ("open it from the main
    window"); now W-01 opens in a night main window beside it, and a fire position still opens in
    a fire window."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.napoleonic import FireWindow
    from app.night.window import NightWindow
    from app.rooms import open_window  # as ``python -m app`` opens a file
    fire = assets_dir() / "fire"
    w = open_window(str(fire / "sample.json"))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    open_action = next(a for a in w.findChildren(QAction) if a.text() == "&Open...")  # File > Open
    w01 = str(assets_dir() / "scenarios" / "W-01.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (w01, "")))
    open_action.trigger()
    assert messages == []
    night = w.room_windows[-1]
    qtbot.addWidget(night)
    assert isinstance(night, NightWindow) and night.isVisible()
    assert night.document.path == w01 and night.document.scenario.markers[0].hex == "2Y4"
    n04 = str(fire / "N-04.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (n04, "")))
    open_action.trigger()
    other = w.room_windows[-1]
    qtbot.addWidget(other)
    assert isinstance(other, FireWindow) and other.path == n04
    settle(qtbot, night.document)


def test_the_tabletop_window_opens_files_of_every_room(qtbot, messages, monkeypatch):
    """`python -m app assets/tables/S-01.json` opens the tabletop room alone. It had no File >
    Open; now a night position opens in a main window beside it, another table in a tabletop
    window, and a refused file shows the engine's message naming it."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.night.window import NightWindow
    from app.rooms import open_window  # as ``python -m app`` opens a file
    from app.tabletop.window import TableWindow
    w = open_window(str(assets_dir() / "tables" / "S-01.json"))
    qtbot.addWidget(w)
    open_action = next(a for a in w.findChildren(QAction) if a.text() == "&Open...")

    def choose(path):
        monkeypatch.setattr(QFileDialog, "getOpenFileName",
                            staticmethod(lambda *a, **k: (str(path), "")))
        open_action.trigger()

    choose(assets_dir() / "scenarios" / "W-01.json")
    night = w.room_windows[-1]
    qtbot.addWidget(night)
    assert isinstance(night, NightWindow) and night.document.scenario.markers[0].hex == "2Y4"
    settle(qtbot, night.document)
    choose(assets_dir() / "tables" / "S-06.json")
    table = w.room_windows[-1]
    qtbot.addWidget(table)
    assert isinstance(table, TableWindow) and table.document.path.endswith("S-06.json")
    choose(assets_dir() / "boards" / "2.json")          # a board file is no position of any room
    assert len(w.room_windows) == 2 and messages and "2.json" in messages[-1][2]


def test_turning_an_element_with_its_knob_reports_no_minus_zero(qtbot, messages):
    """S-01: archer 1 chosen, its yellow knob dragged round to the east. The status bar said
    "1 at (0.00, -0.00) BW, facing 89°": turning about the middle of its front leaves it at
    (0, 0), which is now written (0.00, 0.00)."""
    from app_testing import drag
    from PySide6.QtCore import QPoint

    from app.tabletop import scene as table_scene
    from app.tabletop.document import Document
    from app.tabletop.window import TableWindow
    w = TableWindow(Document.open_file(str(assets_dir() / "tables" / "S-01.json")))
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit()
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.view.mapFromScene(w.scene.element_point("1", 0.0, 0.2)))
    assert w.document.shooter == "1"
    qtbot.waitUntil(lambda: w.scene.items_by_id["1"].handle is not None, timeout=5000)
    knob = w.scene.items_by_id["1"].handle
    start = w.view.mapFromScene(knob.sceneBoundingRect().center())
    east = w.view.mapFromScene(table_scene.to_scene(1.5, -0.1))
    drag(qtbot, w.view, start, [start + QPoint(5, 0), start + QPoint(30, 10), east])
    one = w.document.table.element("1")
    assert 80 < one.facing < 100 and abs(one.y) < 1e-9
    said = w.statusBar().currentMessage()
    assert said.startswith("1 at (0.00, 0.00) BW, facing") and "-0.00" not in said


def test_save_of_a_worked_example_starts_in_a_folder_that_exists(window, qtbot, tmp_path,
                                                                 monkeypatch):
    """A new user without a Documents folder opens W-15, moves Y and presses Ctrl+S:
    the dialog opened in the program's own folder (the current one), because the documents
    folder it was given does not exist. It now starts in the home folder."""
    import os

    from PySide6.QtWidgets import QFileDialog
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert window.open_path(str(assets_dir() / "scenarios" / "W-15.json"))
    window.document.move_unit("Y", "2Y6")
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    window.activateWindow()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1
    folder = os.path.dirname(asked[0])
    assert os.path.isdir(folder) and os.path.basename(asked[0]) == "W-15.json"
    assert not folder.startswith(str(assets_dir()))
    settle(qtbot, window.document)


def test_after_a_roll_the_fire_panel_shows_the_attack_rolled_not_the_next(qtbot, messages):
    """sample.json: n1J6 targeted, F4 left out, Computer rolls. The bars showed the attack rolled
    (F2 at x4 for its first fire: 54 at 6:1) while the text above them already showed the next,
    refused attack (F2 has fired: x3, total 48). Now the text is the attack rolled, with the roll,
    and says why another is refused; Ctrl+Z brings back the attack to be made."""
    from app.napoleonic import Document, FireWindow
    from engine import api
    pos = api.napoleonic.load_position(str(assets_dir() / "fire" / "sample.json"))
    w = FireWindow(Document(pos, None, dice=lambda: (3, 5)))
    qtbot.addWidget(w)
    w.resize(1400, 820)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit()
    m = w.pos.map
    from PySide6.QtCore import QPointF

    from app.style import SCALE

    def click(scene_x, scene_y):
        qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                         pos=w.view.mapFromScene(QPointF(scene_x, scene_y)))
    j6 = m.index("n1J6")
    click(float(m.x[j6]) * SCALE, (float(m.y[j6]) + 0.55) * SCALE)          # low in the hex
    assert w.target == "n1J6"
    click(*(lambda p: (p.x(), p.y()))(w.scene.counters["F4"].scenePos()))  # F4 left out
    rolled = api.napoleonic.assess(w.pos, "n1J6", w.firers(), (3, 5))
    assert rolled.fire == 54 and "F4" not in w.firers()
    qtbot.mouseClick(w.roll_computer, Qt.MouseButton.LeftButton)
    assert w.pos.attacked == ("n1J6",) and w.chart.result == rolled.result
    text = w.text.toPlainText()
    assert "Total fire 54" in text and "Total fire 48" not in text
    assert "Rolled:" in text and "dice 35" in text
    assert "already been the target" in text
    w.document.undo_stack.undo()
    text = w.text.toPlainText()
    assert "Total fire 54" in text and "Rolled:" not in text and "may be made" in text


def test_the_status_bar_range_follows_the_unit_clicked(window_on, qtbot):
    """W-15: Y (2Y7) selected, the mouse over the stack in 2CC8: "range 4 from Y". A click on C,
    the unit of that stack, selects it; the status bar kept "range 4 from Y" until the mouse
    moved. It now says "range 0 from C" at once, and follows a move of C by Ctrl+Z as well."""
    from app_testing import counter_pos
    w = window_on(assets_dir() / "scenarios" / "W-15.json")
    view, doc = w.view, w.document
    doc.select("Y")
    settle(qtbot, doc)
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2CC8", 0.0, 0.45))
    assert w.where.text().endswith("range 4 from Y")
    at = counter_pos(view, "unit", "C")
    qtbot.mouseMove(view.viewport(), at)
    assert w.where.text().startswith("2CC8")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.viewer == "C"
    assert w.where.text().endswith("range 0 from C")
    doc.move_unit("C", "2CC6")
    assert w.where.text().endswith("range 2 from C")
    doc.undo_stack.undo()
    assert w.where.text().endswith("range 0 from C")
    settle(qtbot, doc)


def test_a_thread_from_an_empty_hex_never_shows_the_probes_id(window, qtbot):
    """Default position: a right-drag from the empty hex 2W7 to G3's hex 34H7, then Alt+Shift+Up
    (the end one level up). The night verdict is that of a Good Order squad put in 2W7 for the
    question; the panel said "beyond __thread__'s NVR of 3" and "__thread__target is a Known
    enemy unit": the squad's and the unit's internal ids. It now says "the squad's NVR" and "a
    unit in 34H7"."""
    from app_testing import drag, steps
    view = window.view
    a, b = hex_pos(view, "2W7", 0.0, 0.4), hex_pos(view, "34H7", 0.0, 0.4)
    drag(qtbot, view, a, steps(a, b), button=Qt.MouseButton.RightButton)
    threads = window.hand.threads
    qtbot.waitUntil(lambda: threads.thread is not None)
    t = threads.thread
    assert (t.start, t.end, t.viewer) == ("2W7", "34H7", None)
    text = window.explanation.toPlainText()
    assert "the squad's NVR of 3" in text and "__" not in text
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end_elevation == 1)
    c, d = hex_pos(view, "2W7", 0.0, 0.4), hex_pos(view, "2Y7", 0.0, 0.4)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    drag(qtbot, view, c, steps(c, d), button=Qt.MouseButton.RightButton)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end == "2Y7")
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end_elevation == 1)
    text = window.explanation.toPlainText()
    assert "a unit in 2Y7" in text and "__" not in text
    settle(qtbot, window.document)


def test_export_png_of_a_table_and_of_a_fire_position_starts_beside_its_file(
        qtbot, messages, tmp_path, monkeypatch):
    """A table copied to a folder of one's own, Ctrl+E: the dialog opened in the current folder
    (the program's) with no name, and the fire room's offered "fire.png" there too. Both now
    offer NAME.png beside the file."""
    import shutil

    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.napoleonic import open_window as open_fire
    from app.tabletop import open_window as open_table
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    table = tmp_path / "S-06.json"
    shutil.copy(assets_dir() / "tables" / "S-06.json", table)
    fire = tmp_path / "game" / "sample.json"
    shutil.copytree(assets_dir() / "fire", tmp_path / "game")
    for w in (open_table(str(table)), open_fire(str(fire))):
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        export = next(a for a in w.findChildren(QAction) if "Export" in a.text())   # File menu
        export.trigger()
    assert asked == [str(tmp_path / "S-06.png"), str(tmp_path / "game" / "sample.png")]


def test_the_ir_preview_names_the_method_in_words(window_on, qtbot):
    """W-10: L1 selected, the starshell tool on, key I over 2W6: the panel said "2W6 by method
    ir-los (not a legal hex)", the method's key. It now says "by IR along a LOS (E1.932)"; key 2
    still reads "by method 2"."""
    w = window_on(W10)
    view, doc = w.view, w.document
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2W6"))
    qtbot.keyClick(view, Qt.Key.Key_I)
    text = w.starshell_panel.preview.text()
    assert "2W6</b> by IR along a LOS (E1.932)" in text and "ir-los" not in text
    qtbot.keyClick(view, Qt.Key.Key_2)
    assert "2W6</b> by method 2:" in w.starshell_panel.preview.text()


def test_importing_a_vasl_board_into_a_missing_folder_names_that_folder(
        window_on, qtbot, monkeypatch, tmp_path, messages):
    """File > Import VASL board, a synthetic bd99, saved as imp/bd99.json in a folder that does
    not exist (typed into the dialog): the message was "[Errno 2] No such file or directory:
    '.../imp/bd99.raster.npz.tmp'", a file the player never named. It now names the board file
    and the missing folder, and nothing is written."""
    import vasl_synth as synth
    from PySide6.QtWidgets import QFileDialog
    source = synth.standard_board("99").write(tmp_path / "bd99")
    target = tmp_path / "imp" / "bd99.json"
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(source), "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "")))
    w = window_on(W10)
    before = w.document.scenario
    w.import_vasl_action.trigger()
    kind, title, text = messages[-1]
    assert title == "Cannot save the board"
    assert text == f"{target}: the folder {target.parent} does not exist"
    assert ".tmp" not in text and not target.parent.exists()
    assert w.document.scenario is before


def test_python_m_app_on_a_saved_game_lists_what_was_left_out(qtbot, tmp_path, monkeypatch,
                                                              settings, messages):
    """`python -m app GAME.vsav` on a save played on boards 2 and 4 (4 nowhere) with an LMG: the
    window opened with one line in the status bar, while File > Open lists what was
    approximated or left out in a message (README: "a message lists what was left out"). The
    command line now shows the same message: the blank board 4 and the LMG left out."""
    import vsav_synth as vs
    from PySide6.QtWidgets import QApplication, QMessageBox

    import app.night.vsav_open as vsav_open
    from app.night import open_window
    shown = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(
        lambda parent, title, text, *a, **k: shown.append((parent, title, text))))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards: "blank")  # as File > Open
    path = vs.write_vsav(tmp_path / "game.vsav", [(0, 0, "2"), (1, 0, "4")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                          vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"),
                                   counter_type="common")])

    opened = open_window(str(path), settings=settings)   # as ``python -m app game.vsav`` does
    assert opened.isVisible()
    window, title, text = shown[-1]
    qtbot.addWidget(window)
    assert title == "VASL saved game opened" and window in QApplication.topLevelWidgets()
    assert "board 4" in text and "blank open board" in text
    assert "Left out (1 piece(s))" in text
    assert window.document.scenario.unit("ge1").hex == "2K5"


def test_a_unit_dropped_off_the_map_goes_back(window, qtbot):
    """L1 dragged from 2T6 past the board's top edge and let go there: it used to land on the
    last hex it crossed; now it goes back to 2T6, no undo step is made and the status bar
    says why."""
    from app_testing import counter_pos, drag, steps
    from PySide6.QtCore import QPoint

    view, doc = window.view, window.document
    before = doc.scenario
    start = counter_pos(view, "unit", "L1")
    outside = QPoint(start.x(), 2)                     # above the board, in the view's margin
    drag(qtbot, view, start, steps(start, outside, 8))
    assert doc.scenario.unit("L1").hex == before.unit("L1").hex
    assert doc.undo_stack.count() == 0
    assert "off the map" in window.statusBar().currentMessage()
    settle(qtbot, doc)
