"""Recovery slots: every Autosaver (every main window, every Starshell process) writes its unsaved
work in a slot of its own in the recovery folder, so two windows never overwrite each other's
work, closing one never deletes the other's, and a slot of another process still running is
never offered to this one."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from app_testing import answer_question
from PySide6.QtWidgets import QMessageBox

from app.night.document import Document
from app.night.recovery import Autosaver, offer_recovery, pending
from app.recovery import KEY, left_behind
from engine.boards import assets_dir

W12 = assets_dir() / "scenarios" / "W-12.json"
ROOT = Path(__file__).resolve().parents[2]


def position(tmp_path, name: str):
    pos = tmp_path / name
    pos.write_text(W12.read_text())
    return pos


def unsaved_work(tmp_path, name: str, hex_id: str) -> Autosaver:
    """A document with an unsaved move, autosaved, then never closed (a crash)."""
    doc = Document.open_file(position(tmp_path, name))
    saver = Autosaver(doc)
    doc.move_unit("A", hex_id)
    saver.write_now()
    assert saver.file.exists()
    return saver


def left_by_another(saver: Autosaver, owner: str | None = None):
    """The saver's unsaved work as another process left it: in a slot of its own (this
    process's closed), with ``owner`` written in its owner file (no lock held on it)."""
    slot = saver.folder / "4242-1"
    slot.mkdir()
    shutil.copyfile(saver.file, slot / "recovery.json")
    saver.finish()
    if owner is not None:
        (slot / "owner").write_text(owner)
    return slot


# another Starshell: holds the slot's owner file as Starshell does, until its input closes
HOLDER = ("import sys; from pathlib import Path; from engine.api import hold_owner; "
          "fd = hold_owner(Path(sys.argv[1]), '4242'); print(fd is not None, flush=True); "
          "sys.stdin.read()")


def test_two_windows_unsaved_work_both_survive(window_on, tmp_path, monkeypatch, recovery_dir):
    one = window_on(position(tmp_path, "one.json"))
    two = window_on(position(tmp_path, "two.json"))
    one.document.move_unit("A", "2BB6")
    two.document.move_unit("A", "2BB5")
    one.autosaver.write_now()
    two.autosaver.write_now()                           # then the program dies
    assert one.autosaver.file != two.autosaver.file
    assert len(left_behind(recovery_dir)) == 2
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    first = offer_recovery()                            # the next start: one restored...
    Autosaver(first).finish()                           # ...and its window closed normally
    second = offer_recovery()                           # the start after: the other one
    assert len(asked) == 2
    assert ({first.path, second.path}
            == {str((tmp_path / "one.json").resolve()), str((tmp_path / "two.json").resolve())})
    for doc in (first, second):
        want = "2BB6" if doc.path.endswith("one.json") else "2BB5"
        assert doc.scenario.unit("A").hex == want
    answer_question(monkeypatch, QMessageBox.StandardButton.Discard)   # the test's end closes


def test_closing_one_window_keeps_the_others_unsaved_work(window_on, tmp_path, recovery_dir,
                                                          messages):
    one = window_on(position(tmp_path, "one.json"))
    two = window_on(position(tmp_path, "two.json"))
    one.document.move_unit("A", "2BB6")
    two.document.move_unit("A", "2BB5")
    one.autosaver.write_now()
    two.autosaver.write_now()
    one.close()                                         # asked; the recorded answer: Discard
    assert messages[-1][0] == "question"
    assert not one.autosaver.file.exists() and two.autosaver.file.exists()
    back = pending()
    assert back.belongs_to == str((tmp_path / "two.json").resolve())
    assert back.scenario.unit("A").hex == "2BB5"


def test_saving_one_document_removes_only_its_own_slot(qtbot, tmp_path, recovery_dir):
    one = unsaved_work(tmp_path, "one.json", "2BB6")
    two = unsaved_work(tmp_path, "two.json", "2BB5")
    one.document.save()
    assert not one.file.exists() and not one.slot.exists()
    assert two.file.exists()
    assert pending().scenario.unit("A").hex == "2BB5"


def test_a_slot_of_a_live_other_process_is_not_offered(qtbot, tmp_path, monkeypatch,
                                                       recovery_dir):
    slot = left_by_another(unsaved_work(tmp_path, "theirs.json", "2BB6"))
    other = subprocess.Popen([sys.executable, "-c", HOLDER, str(slot / "owner")],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             cwd=ROOT)
    try:
        assert other.stdout.readline().strip() == "True"   # another Starshell, still running
        asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
        assert offer_recovery() is None and asked == []
        assert pending() is None and (slot / "recovery.json").exists()    # theirs, untouched
    finally:
        other.stdin.close()
        other.wait()
    assert pending().scenario.unit("A").hex == "2BB6"  # it has ended: now it is offered


@pytest.mark.parametrize("owner", ["gone", "1", "parent", "not a pid"])
def test_a_slot_no_running_starshell_holds_is_offered(qtbot, tmp_path, monkeypatch,
                                                      recovery_dir, owner):
    """Its process crashed (its pid free, or taken since by another program: pid 1, our own
    parent): whatever pid the owner file names, nobody holds it, so the work is offered."""
    if owner == "gone":
        gone = subprocess.Popen([sys.executable, "-c", "pass"])
        assert gone.wait() == 0
        owner = str(gone.pid)
    owner = str(os.getppid()) if owner == "parent" else owner
    slot = left_by_another(unsaved_work(tmp_path, "crashed.json", "2BB6"), owner)
    asked = answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    doc = offer_recovery()
    assert len(asked) == 1 and "crashed.json" in asked[0]
    assert doc.scenario.unit("A").hex == "2BB6"
    assert (slot / "owner").read_text() == str(os.getpid())   # ours now
    restored = Autosaver(doc)                           # the window writes on in that slot
    assert restored.slot == slot
    restored.write_now()
    assert [p for p in recovery_dir.iterdir()] == [slot]
    restored.finish()


def test_a_recovery_file_of_an_earlier_version_is_offered_and_moved_into_a_slot(
        qtbot, tmp_path, monkeypatch, recovery_dir):
    data = json.loads(W12.read_text())
    data["units"][0]["hex"] = "2BB6"
    data[KEY] = str(W12.resolve())
    recovery_dir.mkdir()
    (recovery_dir / "recovery.json").write_text(json.dumps(data))
    answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    doc = offer_recovery()
    assert doc.path == str(W12.resolve()) and doc.scenario.units[0].hex == "2BB6"
    assert not (recovery_dir / "recovery.json").exists()    # moved, not lost
    saver = Autosaver(doc)
    assert saver.file.exists() and saver.slot.parent == recovery_dir
    saver.finish()
    assert pending() is None and list(recovery_dir.iterdir()) == []


def test_a_damaged_slot_is_set_aside_and_the_next_one_offered(qtbot, tmp_path, monkeypatch,
                                                              recovery_dir, messages):
    bad = unsaved_work(tmp_path, "bad.json", "2BB6")
    good = unsaved_work(tmp_path, "good.json", "2BB5")
    bad.file.write_text('{"format": "starshell-scenario", "version": 1, "map": [')
    os.utime(bad.file, (1, 1))                          # the older one: offered first
    answer_question(monkeypatch, QMessageBox.StandardButton.Yes)
    doc = offer_recovery()
    assert doc.scenario.unit("A").hex == "2BB5" and doc.recovery_slot == good.slot
    assert messages[0][0] == "warning" and "recovery.damaged" in messages[0][2]
    assert (recovery_dir / "recovery.damaged").exists()
    assert not bad.slot.exists()


def test_a_damaged_file_that_cannot_be_moved_is_told_once(qtbot, monkeypatch, recovery_dir,
                                                          messages):
    import app.recovery
    recovery_dir.mkdir()
    (recovery_dir / "recovery.json").write_text('{"format": "starshell-scenario", "map": [')
    monkeypatch.setattr(app.recovery, "set_aside", lambda path, folder=None: None)  # stuck
    assert offer_recovery() is None
    assert [m[0] for m in messages] == ["warning"] and "could not be moved" in messages[0][2]
