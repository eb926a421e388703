"""File > Import VASL board as the player meets it when it goes wrong or takes time: a refused file
is a message naming it, the import runs in a worker thread behind a progress dialog that can
cancel it, and a missing target folder is named."""
from __future__ import annotations

import threading

import vasl_synth as synth
from PySide6.QtWidgets import QFileDialog

from app.night.editor.vasl_import import ImportJob
from engine.boards import assets_dir


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


W10 = assets_dir() / "scenarios" / "W-10.json"


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
