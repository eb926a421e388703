"""Autosave and recovery in every room (app.recovery): one change in the fire or the tabletop
room, the program killed before a save, and the next start offers the change back; a recovery
file that cannot be read (a NUL in a path) is set aside, never a crash; Save As that fails
leaves the document's file as it was."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from app_testing import answer_question, fire_sample_copy
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app import rooms
from app.napoleonic import open_window as open_fire
from app.night.recovery import look as night_look
from app.tabletop.window import open_window as open_table
from engine import api

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def crash(window) -> None:
    """What kill -9 leaves: the autosave written by its timer, no close, no finish."""
    assert window.autosaver._timer.isActive()           # a change starts the autosave's timer
    window.autosaver._timer.stop()
    window.autosaver.write_now()                        # what the timer does when it fires
    window.hide()


@pytest.fixture
def fire_file(tmp_path):
    return fire_sample_copy(tmp_path / "game")


@pytest.fixture
def table_file(tmp_path):
    path = tmp_path / "table.json"
    shutil.copy(ASSETS / "tables" / "S-01.json", path)
    return path


def test_the_fire_room_offers_its_unsaved_change_after_a_crash(qtbot, messages, fire_file,
                                                                monkeypatch, recovery_dir):
    w = open_fire(str(fire_file), recover=True)
    qtbot.addWidget(w)
    other = next(s for s in api.napoleonic.SEGMENTS if s != w.pos.segment)
    w.document.set_segment(other)
    crash(w)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    again = rooms.open_window(str(fire_file), recover=True)
    qtbot.addWidget(again)
    assert len(asked) == 1 and str(fire_file.resolve()) in asked[0]
    assert again.pos.segment == other and again.path == str(fire_file.resolve())
    assert not again.document.undo_stack.isClean()      # restored work is unsaved work
    assert again.save() and api.napoleonic.load_position(fire_file).segment == other
    assert "starshell_recovery_of" not in json.loads(fire_file.read_text())
    assert not list(recovery_dir.glob("*/recovery.json"))  # saved: nothing left to recover
    again.close()
    w.document.undo_stack.setClean()


def test_the_tabletop_room_offers_its_unsaved_change_after_a_crash(qtbot, messages, table_file,
                                                                    monkeypatch, recovery_dir):
    w = open_table(str(table_file), recover=True)
    qtbot.addWidget(w)
    e = w.document.table.elements[0]
    w.document.place(e.id, e.x, e.y, (e.facing + 90.0) % 360.0, snap=False)
    turned = w.document.table.element(e.id).facing
    assert turned != e.facing
    crash(w)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    again = rooms.open_window(str(table_file), recover=True)
    qtbot.addWidget(again)
    assert len(asked) == 1
    assert again.document.table.element(e.id).facing == turned
    assert again.document.path == str(table_file.resolve())
    assert not again.document.undo_stack.isClean() and again.isWindowModified()
    answer_question(monkeypatch, QMessageBox.StandardButton.Discard)
    assert again.close()                                # dropped: nothing left to recover
    assert not list(recovery_dir.glob("*/recovery.json"))
    w.document.undo_stack.setClean()


def test_a_room_leaves_the_other_rooms_recovery_files_alone(qtbot, messages, table_file,
                                                             monkeypatch, recovery_dir):
    w = open_table(str(table_file))
    qtbot.addWidget(w)
    e = w.document.table.elements[0]
    w.document.place(e.id, e.x, e.y, (e.facing + 90.0) % 360.0, snap=False)
    crash(w)
    assert night_look(recovery_dir) is None             # not the night room's, not damaged
    assert list(recovery_dir.glob("*/recovery.json")) and not list(recovery_dir.glob("*.damaged"))
    w.document.undo_stack.setClean()


@pytest.mark.parametrize("room", ["night", "fire"])
def test_a_recovery_file_with_a_nul_in_a_path_is_set_aside_not_a_crash(room, qtbot, messages,
                                                                     recovery_dir, fire_file):
    slot = recovery_dir / "999999999-1"
    slot.mkdir(parents=True)
    if room == "night":
        data = json.loads(Path(rooms.default_path()).read_text())
        data["map"][0]["board"] = "bd\u0000x.json"
        data["starshell_recovery_of"] = "a\u0000b.json"
    else:
        data = json.loads(fire_file.read_text())
        data["charts"] = "ch\u0000arts.json"
    (slot / "recovery.json").write_text(json.dumps(data))
    window = rooms.open_window(str(fire_file) if room == "fire" else None, recover=True)
    qtbot.addWidget(window)
    warned = [m for m in messages if m[1] == "Recovery file damaged"]
    assert len(warned) == 1 and str(slot / "recovery.json") in warned[0][2]
    assert (recovery_dir / "recovery.damaged").exists()
    assert not (slot / "recovery.json").exists()


def test_a_failed_save_as_keeps_the_tables_file(qtbot, messages, table_file, monkeypatch,
                                                tmp_path):
    w = open_table(str(table_file))
    qtbot.addWidget(w)
    e = w.document.table.elements[0]
    w.document.place(e.id, e.x, e.y, (e.facing + 90.0) % 360.0, snap=False)
    bad = str(tmp_path / "no such folder" / "t.json")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (bad, "")))
    assert not w.save_as()
    assert w.document.path == str(table_file)          # Ctrl+S still writes the table's file
    assert [m[0] for m in messages] == ["critical"] and bad in messages[0][2]
    assert w.save() and api.tabletop.load_table(table_file).element(e.id).facing != e.facing


def test_the_next_start_on_no_file_offers_the_fire_rooms_work(qtbot, messages, fire_file,
                                                               monkeypatch, recovery_dir):
    """kill -9 in the fire room, then ``python -m app`` alone (the night room's default):
    the fire work is offered and opens in the fire room."""
    w = open_fire(str(fire_file))
    qtbot.addWidget(w)
    other = next(s for s in api.napoleonic.SEGMENTS if s != w.pos.segment)
    w.document.set_segment(other)
    crash(w)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    again = rooms.open_window(None, recover=True)
    qtbot.addWidget(again)
    assert len(asked) == 1 and type(again).__name__ == "FireWindow"
    assert again.pos.segment == other and again.path == str(fire_file.resolve())
    again.document.undo_stack.setClean()
    w.document.undo_stack.setClean()


def test_the_file_asked_for_opens_beside_the_work_restored(qtbot, messages, fire_file,
                                                           table_file, monkeypatch, recovery_dir):
    """A crash left fire work; the next start names a table: the dialog names the fire
    position, the fire work comes back, and the table asked for opens too, in its own window."""
    w = open_fire(str(fire_file), recover=True)
    qtbot.addWidget(w)
    other = next(s for s in api.napoleonic.SEGMENTS if s != w.pos.segment)
    w.document.set_segment(other)
    crash(w)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    again = rooms.open_window(str(table_file), recover=True)
    qtbot.addWidget(again)
    assert len(asked) == 1 and f"\u201c{w.pos.title}\u201d" in asked[0]
    assert again.pos.segment == other
    tables = [x for x in getattr(again, "room_windows", []) if hasattr(x.document, "table")]
    assert len(tables) == 1 and tables[0].isVisible()
    assert tables[0].document.path == str(table_file)
    for x in tables:
        qtbot.addWidget(x)
    again.document.undo_stack.setClean()
    w.document.undo_stack.setClean()


def test_restored_work_of_the_file_asked_for_opens_once(qtbot, messages, fire_file, monkeypatch,
                                                        recovery_dir):
    w = open_fire(str(fire_file), recover=True)
    qtbot.addWidget(w)
    w.document.set_segment(next(s for s in api.napoleonic.SEGMENTS if s != w.pos.segment))
    crash(w)
    answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    again = rooms.open_window(str(fire_file), recover=True)
    qtbot.addWidget(again)
    assert not getattr(again, "room_windows", [])          # no second window on the same file
    again.document.undo_stack.setClean()
    w.document.undo_stack.setClean()
