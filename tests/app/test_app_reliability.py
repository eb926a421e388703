"""Failures the player must see: a damaged recovery file (kept, numbered, its folder offered), an
autosave that cannot be written (status bar, and once a dialog), a VASL file that is refused (a
message naming it, never a traceback), and a VASL import that runs in a worker thread behind a
progress dialog that can cancel it."""
from __future__ import annotations

import threading

import vasl_synth as synth
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.night.editor.vasl_import import ImportJob
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


def test_a_refused_vasl_file_is_a_message_naming_it(window, monkeypatch, tmp_path, messages):
    bad = synth.hostile_archive(tmp_path / "bd05", metadata=synth.metadata_xml("05",
                                                                                hexHeight="NaN"))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(bad), "")))
    saves = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: saves.append(a) or ("", "")))
    window.import_vasl_action.trigger()
    assert not saves                                     # nothing to save: refused first
    title, text = messages[-1][1], messages[-1][2]
    assert title == "Cannot import this VASL board" and str(bad) in text and "hexHeight" in text


def test_the_vasl_import_runs_in_a_worker_and_reports_progress(qtbot, tmp_path, window):
    source = synth.standard_board("99").write(tmp_path / "bd99")
    job = ImportJob(str(source))
    seen, threads = [], []
    job.progressed.connect(seen.append)
    real = job._progress

    def progress(fraction):
        threads.append(threading.get_ident())
        real(fraction)
    job._progress = progress
    board, report = job.run(window)
    assert board.id == "99" and seen and seen[-1] == 1000
    assert threads and threading.get_ident() not in threads


def test_cancel_stops_the_vasl_import(qtbot, tmp_path, window):
    source = synth.standard_board("98").write(tmp_path / "bd98")
    job = ImportJob(str(source))
    job.progressed.connect(lambda value: job.cancel())   # Cancel pressed while it runs
    assert job.run(window) is None


def test_the_import_is_cancelled_from_the_menu_without_writing(window, monkeypatch, tmp_path,
                                                              messages):
    source = synth.standard_board("97").write(tmp_path / "bd97")
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(source), "")))
    saves = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: saves.append(a) or ("", "")))
    real = ImportJob._progress

    def pressed_cancel(job, fraction):
        job.cancel()                                    # Cancel pressed while it runs
        real(job, fraction)
    monkeypatch.setattr(ImportJob, "_progress", pressed_cancel)
    window.import_vasl_action.trigger()
    assert not saves and not messages                   # stopped: nothing asked, nothing shown
    assert "cancelled" in window.statusBar().currentMessage()
    assert not list(tmp_path.glob("*.json"))
