"""Autosave and crash recovery: unsaved work survives a crash; saving clears it."""
import json

import engine
from app.night.document import Document
from app.night.recovery import Autosaver, pending
from engine.boards import assets_dir

W12 = assets_dir() / "scenarios" / "W-12.json"


def test_unsaved_edits_are_autosaved_and_offered_back(qtbot, tmp_path):
    doc = Document.open_file(W12)
    saver = Autosaver(doc, tmp_path / "rec", interval_ms=10)
    assert pending(tmp_path / "rec") is None
    doc.move_unit("A", "2BB6")
    qtbot.waitUntil(lambda: saver.file.exists(), timeout=3000)
    back = pending(tmp_path / "rec")                  # what the next start would find
    assert back is not None and back.scenario.unit("A").hex == "2BB6"
    assert back.belongs_to == str(W12.resolve())
    assert back.scenario.map.content_key == doc.scenario.map.content_key


def test_saving_removes_the_recovery_file(qtbot, tmp_path):
    src = tmp_path / "pos.json"
    src.write_text(W12.read_text())
    doc = Document.open_file(src)
    saver = Autosaver(doc, tmp_path / "rec", interval_ms=10)
    doc.move_unit("A", "2BB6")
    qtbot.waitUntil(lambda: saver.file.exists(), timeout=3000)
    doc.save()
    assert not saver.file.exists()
    doc.move_unit("A", "2BB5")
    doc.undo_stack.undo()                               # back to the saved state: clean
    assert not saver.file.exists()


def test_a_normal_close_leaves_nothing_and_a_clean_document_writes_nothing(qtbot, tmp_path):
    doc = Document.open_file(W12)
    saver = Autosaver(doc, tmp_path / "rec", interval_ms=10)
    saver.write_now()
    assert not saver.file.exists()
    doc.move_unit("A", "2BB6")
    saver.write_now()
    assert saver.file.exists()
    saver.finish()
    assert not saver.file.exists()


def test_a_damaged_recovery_file_is_set_aside(tmp_path):
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "recovery.json").write_text('{"format": "starshell-scenario", "version": 1, "map": [')
    assert pending(folder) is None
    assert (folder / "recovery.damaged").exists()


def test_an_unwritable_recovery_folder_does_not_break_editing(qtbot, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    doc = Document.open_file(W12)
    saver = Autosaver(doc, blocker / "rec", interval_ms=10)
    doc.move_unit("A", "2BB6")
    saver.write_now()
    assert saver.last_error and doc.scenario.unit("A").hex == "2BB6"


def test_recovery_keeps_board_files_reachable(qtbot, tmp_path):
    board = json.loads((assets_dir() / "boards" / "2.json").read_text())
    board["id"] = "b9"
    (tmp_path / "b9.json").write_text(json.dumps(board))
    pos = {"format": "starshell-scenario", "version": 1,
           "map": [{"board": "b9.json", "at": [0, 0]}],
           "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "b9CC6"}]}
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    doc = Document.open_file(tmp_path / "pos.json")
    saver = Autosaver(doc, tmp_path / "elsewhere" / "rec", interval_ms=10)
    doc.move_unit("A", "b9CC7")
    saver.write_now()
    back = pending(tmp_path / "elsewhere" / "rec")
    assert back.scenario.unit("A").hex == "b9CC7"
    assert engine.visibility_from(back.scenario, "A")["b9CC8"].sight == "nvr"
