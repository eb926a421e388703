"""Failures of autosave and recovery the player must see: a damaged recovery file (kept, numbered,
its folder offered), an autosave that cannot be written (status bar, and once a dialog)."""
from __future__ import annotations

from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox

from app.night.recovery import Autosaver, autosave_for, offer_recovery

DAMAGED = '{"format": "starshell-scenario", "version": 1, "map": ['


def test_damaged_recovery_files_are_numbered_kept_and_told(tmp_path, monkeypatch):
    folder = tmp_path / "rec"
    folder.mkdir()
    opened, told = [], []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url)))

    def warning(parent, title, text, *args):
        told.append((title, text))
        return QMessageBox.StandardButton.Open          # the player asks for the folder
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    for k in range(3):                                  # three crashes, three damaged files
        (folder / "recovery.json").write_text(DAMAGED + str(k))
        assert offer_recovery(None, folder) is None
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == ["recovery-2.damaged", "recovery-3.damaged", "recovery.damaged"]
    assert (folder / "recovery-3.damaged").read_text() == DAMAGED + "2"   # none overwritten
    assert len(told) == 3 and "recovery-3.damaged" in told[2][1]
    assert "recovery.json" in told[0][1]                # the engine's message names the file
    assert [u.toLocalFile() for u in opened] == [str(folder)] * 3


def test_a_recovery_file_naming_an_impossible_board_path_does_not_stop_the_start(tmp_path,
                                                                                 messages):
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "recovery.json").write_text(
        '{"format": "starshell-scenario", "version": 1, "map": [{"board": "%s.json"}]}'
        % ("x" * 300))
    assert offer_recovery(None, folder) is None
    assert (folder / "recovery.damaged").exists()
    assert "map[0].board" in messages[0][2] and "too long" in messages[0][2]


def test_autosave_failures_show_in_the_status_bar_and_once_in_a_dialog(window, qtbot, tmp_path,
                                                                       messages):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the recovery folder should be")
    window.autosaver.detach()
    window.autosaver = None
    window.autosaver = saver = autosave_for(window)
    saver.folder = blocker / "rec"
    unit = window.document.scenario.units[0]
    window.document.move_unit(unit.id, window.document.scenario.units[1].hex)
    saver.write_now()
    saver.write_now()                                   # fails again: no second dialog
    assert window.autosave_warning.isVisible()
    assert "Autosave failed" in window.autosave_warning.text()
    assert str(blocker) in window.autosave_warning.toolTip()
    dialogs = [m for m in messages if m[1] == "Autosave failed"]
    assert len(dialogs) == 1 and str(blocker) in dialogs[0][2]
    saver.folder = tmp_path / "rec"                     # writable again: the warning goes
    saver.write_now()
    assert saver.file.exists() and not window.autosave_warning.isVisible()


def test_an_autosaver_reports_failure_by_signal(qtbot, tmp_path):
    from app.night.document import Document
    from engine.boards import assets_dir
    doc = Document.open_file(assets_dir() / "scenarios" / "W-12.json")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    saver = Autosaver(doc, blocker / "rec", interval_ms=10)
    with qtbot.waitSignal(saver.signals.failed, timeout=3000) as failed:
        doc.move_unit("A", "2BB6")
    assert str(blocker) in failed.args[0]
