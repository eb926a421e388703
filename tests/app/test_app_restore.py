"""Autosave in the window and recovery at start-up: the window keeps an Autosaver for
its document; a normal close removes the recovery file; at the next start, what a crash left is
offered back and restored unsaved, under the file it belongs to."""
from __future__ import annotations

from app_testing import answer_question, hex_pos, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

import app.__main__ as app_main
import app.night
import engine
from app.night.document import Document
from app.night.recovery import Autosaver, autosave_for, offer_recovery, pending
from app.night.window import NightWindow
from app.recovery import recovery_folder
from engine.boards import assets_dir
from engine.hexes import parse_local

W12 = assets_dir() / "scenarios" / "W-12.json"


def crash_with_unsaved_work(tmp_path) -> str:
    """A position edited and autosaved, then never closed (a crash)."""
    pos = tmp_path / "mine.json"
    pos.write_text(W12.read_text())
    doc = Document.open_file(pos)
    saver = Autosaver(doc)
    doc.move_unit("A", "2BB6")
    saver.write_now()
    assert saver.file.exists()
    return str(pos.resolve())


def test_the_window_autosaves_into_the_recovery_folder_and_a_close_removes_it(
        window_on, qtbot, recovery_dir, messages):
    w = window_on(W12)
    assert w.autosaver.folder == recovery_dir == recovery_folder()
    w.document.move_unit("A", "2BB6")
    w.autosaver.write_now()
    assert pending() is not None
    assert autosave_for(w) is w.autosaver               # same document: same autosaver
    w.close()                                           # asked; the recorded answer: Discard
    assert messages[-1][0] == "question"
    assert pending() is None and not w.autosaver.file.exists()
    assert list(recovery_dir.iterdir()) == []           # its slot went with it


def test_restore_opens_the_work_unsaved_under_its_own_file(qtbot, tmp_path, monkeypatch,
                                                          settings, recovery_dir):
    belongs = crash_with_unsaved_work(tmp_path)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    doc = offer_recovery()
    assert asked and belongs in asked[0]
    assert doc.path == belongs
    assert doc.scenario.unit("A").hex == "2BB6"
    assert not doc.undo_stack.isClean()
    w = NightWindow(doc, settings)
    qtbot.addWidget(w)
    assert w.isWindowModified() and "mine.json" in w.windowTitle()
    answer_question(monkeypatch, QMessageBox.StandardButton.Save)
    assert w.save()                                     # Save writes where the player expects
    assert engine.load_scenario(belongs).unit("A").hex == "2BB6"
    assert pending() is None                            # saved: nothing left to recover
    settle(qtbot, doc)


def test_restore_declined_deletes_the_recovery_file(tmp_path, monkeypatch, recovery_dir):
    crash_with_unsaved_work(tmp_path)
    answer_question(monkeypatch, QMessageBox.StandardButton.No)
    assert offer_recovery() is None
    assert pending() is None


def test_restore_at_start_up_in_window_mode(qtbot, tmp_path, monkeypatch, settings):
    belongs = crash_with_unsaved_work(tmp_path)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    windows = []

    class Recorded(NightWindow):
        def __init__(self, document, _settings=None, *, open_other=None):
            super().__init__(document, settings, open_other=open_other)
            windows.append(self)
    monkeypatch.setattr(app.night, "NightWindow", Recorded)      # the night room's door makes it
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)
    assert app_main.main([]) == 0                       # no scenario named: the crash comes first
    w = windows[0]
    qtbot.addWidget(w)
    assert len(asked) == 1 and w.document.path == belongs
    assert w.document.scenario.unit("A").hex == "2BB6" and w.isWindowModified()
    assert w.autosaver.document is w.document
    settle(qtbot, w.document)
    answer_question(monkeypatch, QMessageBox.StandardButton.Discard)   # the test's end closes it


def test_a_screenshot_never_asks_about_recovery(tmp_path, monkeypatch):
    crash_with_unsaved_work(tmp_path)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    assert app_main.main([str(W12), "--screenshot", str(tmp_path / "shot.png"),
                          "--size", "320x200"]) == 0
    assert asked == [] and pending() is not None


def test_restore_brings_back_a_painted_board_still_unsaved(window_on, qtbot, tmp_path,
                                                           monkeypatch, settings, recovery_dir):
    pos = tmp_path / "w12.json"
    pos.write_text(W12.read_text())
    w = window_on(pos)
    w.board_editor.set_painting(True)
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, hex_pos(w.view, "2AA5"))
    w.autosaver.write_now()
    w.autosaver.write_now()                              # then the program dies
    assert [p.name for p in recovery_dir.iterdir()] == [w.autosaver.slot.name]
    assert sorted(p.name for p in w.autosaver.slot.iterdir()) == ["board-0-2.json", "owner",
                                                                  "recovery.json"]
    answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    doc = offer_recovery()
    assert doc.scenario.map.placements[0].board.at(*parse_local("AA5")).terrain == "woods"
    w2 = NightWindow(doc, settings)
    qtbot.addWidget(w2)
    assert w2.board_editor.unsaved() == [0]              # still to be saved as a board file
    settle(qtbot, doc)
    settle(qtbot, w.document)
    answer_question(monkeypatch, QMessageBox.StandardButton.Discard)
