"""File > Open on a VASL saved game (.vsav): a synthetic save (tests/vsav_synth.py) opens as a
new, unsaved position with its counters on their hexes; missing boards are taken from the
player's VASL boards folder or replaced by blank boards; a damaged save is refused and the
position shown stays."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import vsav_synth as vs
from app_testing import settle
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox

import app.night.vasl.vsav_open as vsav_open
from engine.boards import bundled_board, save_board

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def infos(monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(
        lambda parent, title, text, *a, **k: shown.append((title, text))))
    return shown


def game(tmp_path, boards=((0, 0, "02"), (1, 0, "34"))) -> Path:
    pieces = [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
              vs.leader("9-2", vs.hex_pixel("K5")),
              vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru"),
              vs.marker("Starshell", "ML/ss", vs.hex_pixel("M6")),
              vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"), counter_type="common"),
              vs.squad("5-2-7 1sq", (100, 100), nation="ru")]
    return vs.write_vsav(tmp_path / "game.vsav", list(boards), pieces)


def test_open_a_saved_game_as_a_new_unsaved_position(window, qtbot, tmp_path, infos,
                                                     monkeypatch):
    path = game(tmp_path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.open_dialog()                                   # File > Open...
    doc = window.document
    settle(qtbot, doc)
    s = doc.scenario
    assert [p.board.id for p in s.map.placements] == ["2", "34"]
    assert {u.extra["vasl_name"]: u.hex for u in s.units} == {
        "4-6-7 1sq": "2K5", "9-2": "2K5", "4-4-7 1sq": "34C3"}
    assert [(m.type, m.hex) for m in s.markers] == [("starshell", "2M6")]
    assert doc.path is None and not doc.undo_stack.isClean()     # new and unsaved
    assert window.isWindowModified()
    title, text = infos[0]
    assert "boards 2, 34, 3 unit(s), 1 marker(s)" in text
    assert "1 x off the boards, waiting in the map's margin" in text
    assert "support weapon" in text


def test_open_dialog_offers_saved_games(window, monkeypatch):
    seen = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda parent, caption, start, filt, *a, **k:
                                     seen.append(filt) or ("", "")))
    window.open_dialog()
    assert "*.vsav" in seen[0]


def test_missing_boards_on_blank_boards(window, qtbot, tmp_path, infos, monkeypatch):
    path = game(tmp_path, boards=((0, 0, "02"), (1, 0, "07")))
    asked = []
    monkeypatch.setattr(vsav_open, "ask_missing",
                        lambda w, boards, *more: asked.append(boards) or "blank")
    assert window.open_path(str(path), confirmed=True)
    assert asked == [["07"]]
    s = window.document.scenario
    assert [p.board.id for p in s.map.placements] == ["2", "7"]
    assert {u.extra["vasl_name"]: u.hex for u in s.units}["4-4-7 1sq"] == "7C3"
    assert "blank open board" in infos[0][1]
    # the blank board is a board in memory: Save As asks to save it first
    assert window.board_editor.unsaved() == [1]


def test_missing_boards_from_the_players_boards_folder(window, qtbot, tmp_path, infos,
                                                       monkeypatch, settings):
    folder = tmp_path / "vasl boards"
    folder.mkdir()
    b = bundled_board("34")
    save_board(b.__class__(id="7", title="board 7", default=b.default, hexes=b.hexes),
               folder / "bd07.json")
    path = game(tmp_path, boards=((0, 0, "02"), (1, 0, "07")))
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: "folder")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: str(folder)))
    assert window.open_path(str(path), confirmed=True)
    s = window.document.scenario
    assert [p.board.id for p in s.map.placements] == ["2", "7"]
    assert settings.value(vsav_open.BOARDS_KEY) == str(folder)    # remembered for next time
    asked = []
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: asked.append(boards))
    assert window.open_path(str(path), confirmed=True)
    assert asked == []                                    # the folder serves the next game


def test_giving_up_on_missing_boards_keeps_the_position(window, tmp_path, infos, monkeypatch):
    before = window.document.scenario
    path = game(tmp_path, boards=((0, 0, "07"),))
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: None)
    assert not window.open_path(str(path), confirmed=True)
    assert window.document.scenario is before and infos == []


def test_a_damaged_save_is_refused(window, tmp_path, messages):
    before = window.document.scenario
    bad = tmp_path / "bad.vsav"
    bad.write_bytes(b"not a zip at all")
    assert not window.open_path(str(bad), confirmed=True)
    assert window.document.scenario is before
    kind, title, text = messages[-1]
    assert kind == "warning" and text.startswith(str(bad)) and "not a ZIP" in text


def test_command_line_screenshot_of_a_saved_game(tmp_path):
    path = game(tmp_path)
    out = tmp_path / "shot.png"
    r = subprocess.run([sys.executable, "-m", "app", str(path), "--screenshot", str(out),
                        "--select", "ge1", "--size", "800x450"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 450)
    bad = tmp_path / "bad.vsav"
    bad.write_bytes(b"PK\x03\x04 truncated")
    r = subprocess.run([sys.executable, "-m", "app", str(bad), "--screenshot", str(out)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and r.stderr.startswith(f"error: {bad}")


def test_a_folder_that_does_not_serve_is_never_remembered(window, qtbot, tmp_path, infos,
                                                          monkeypatch, settings):
    """The remembered folder holds a damaged bd07: the dialog names board 07 and why, and
    offers another folder; a chosen folder that lacks it is asked about again and not kept;
    the folder that serves is kept once the game has opened."""
    broken, empty, good = (tmp_path / n for n in ("broken", "empty", "good"))
    for f in (broken, empty, good):
        f.mkdir()
    (broken / "bd07").write_bytes(b"not a zip")
    b = bundled_board("34")
    save_board(b.__class__(id="7", title="board 7", default=b.default, hexes=b.hexes),
               good / "bd07.json")
    settings.setValue(vsav_open.BOARDS_KEY, str(broken))
    path = game(tmp_path, boards=((0, 0, "02"), (1, 0, "07")))
    asked, picks = [], [str(empty), str(good)]
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, reasons, folder:
                        asked.append((boards, dict(reasons), folder)) or "folder")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: picks.pop(0)))
    assert window.open_path(str(path), confirmed=True)
    assert [a[0] for a in asked] == [["07"], ["07"]]
    assert asked[0][2] == str(broken) and "not a VASL board archive" in asked[0][1]["07"]
    assert asked[1][2] == str(empty) and asked[1][1]["07"] == f"no bd07 archive or board file in {empty}"
    assert settings.value(vsav_open.BOARDS_KEY) == str(good)
    assert [p.board.id for p in window.document.scenario.map.placements] == ["2", "7"]


def test_cancel_keeps_the_remembered_folder_untouched(window, tmp_path, infos, monkeypatch,
                                                      settings):
    (tmp_path / "empty").mkdir()
    settings.setValue(vsav_open.BOARDS_KEY, str(tmp_path / "old"))
    path = game(tmp_path, boards=((0, 0, "07"),))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: str(tmp_path / "empty")))
    calls = []          # another folder (which lacks the board), then Cancel
    monkeypatch.setattr(vsav_open, "ask_missing", lambda *a: calls.append(a) or (
        "folder" if len(calls) == 1 else None))
    assert not window.open_path(str(path), confirmed=True)
    assert len(calls) == 2
    assert settings.value(vsav_open.BOARDS_KEY) == str(tmp_path / "old")


def test_missing_text_names_each_board_and_why():
    text = vsav_open.missing_text(["07", "98"], {"07": "no bd07 archive or board file in /b",
                                                 "98": "its archive cannot be imported (x)"},
                                  "/b")
    assert "the boards folder /b does not serve" in text
    assert "\u2022 board 07: no bd07 archive or board file in /b" in text
    assert "\u2022 board 98: its archive cannot be imported (x)" in text


def test_reading_a_saved_game_runs_off_the_gui_thread_and_cancel_stops_the_opening(
        window, qtbot, tmp_path, infos, monkeypatch):
    """The save is read through the job runner behind a progress dialog: past 0.2 s the status
    bar says it is being read, Cancel gives up the opening at once (the window's position
    stays, nothing is asked or shown), and the reading's result arriving later is dropped."""
    import threading

    from PySide6.QtWidgets import QProgressDialog, QPushButton

    from app.jobs import runner
    path = game(tmp_path)
    before = window.document.scenario
    entered, release, read_on = threading.Event(), threading.Event(), []
    real = vsav_open.api.vasl.vsav_scenario

    def slow_read(*args):
        read_on.append(threading.current_thread())
        entered.set()
        release.wait()
        return real(*args)
    monkeypatch.setattr(vsav_open.api.vasl, "vsav_scenario", slow_read)
    said = []

    def press_cancel(text):
        said.append(text)
        if text.startswith("Reading the VASL saved game"):
            for dialog in window.findChildren(QProgressDialog):
                dialog.findChild(QPushButton).click()       # Cancel pressed
    runner().busyChanged.connect(press_cancel)
    try:
        assert not vsav_open.open_vsav(window, str(path))
    finally:
        runner().busyChanged.disconnect(press_cancel)
        release.set()
    assert entered.is_set() and read_on[0] is not threading.main_thread()
    assert said[0] == "Reading the VASL saved game game.vsav"
    assert "cancelled" in window.statusBar().currentMessage()
    runner().call(lambda: None)                 # the reading is over: its result dropped
    settle(qtbot, window.document)
    assert window.document.scenario is before and infos == []
