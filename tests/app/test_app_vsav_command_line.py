"""`python -m app GAME.vsav`: the command line opens a VASL saved game as File > Open does (missing
boards asked for, what was left out listed), `--boards DIR`, and headless `--screenshot`."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import vsav_synth as vs
from PySide6.QtWidgets import QFileDialog, QMessageBox

import app.night.vasl.vsav_open as vsav_open
from app.__main__ import parse_args
from app.night.document import default_scenario_path
from engine import api
from engine.boards import assets_dir, bundled_board, save_board


def test_python_m_app_on_a_saved_game_lists_what_was_left_out(qtbot, tmp_path, monkeypatch,
                                                              settings, messages):
    """`python -m app GAME.vsav` on a save played on boards 2 and 4 (4 nowhere) with an LMG: the
    window opened with one line in the status bar, while File > Open lists what was
    approximated or left out in a message (README: "a message lists what was left out"). The
    command line now shows the same message: the blank board 4 and the LMG left out."""
    import vsav_synth as vs
    from PySide6.QtWidgets import QApplication, QMessageBox

    import app.night.vasl.vsav_open as vsav_open
    from app.night import open_window
    shown = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(
        lambda parent, title, text, *a, **k: shown.append((parent, title, text))))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: "blank")  # as File > Open
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


ROOT = Path(__file__).resolve().parents[2]


W10 = assets_dir() / "scenarios" / "W-10.json"


def run(path: str, args, settings=None):
    """``python -m app GAME.vsav [--boards DIR]`` as ``__main__`` opens it, the night room's door
    (the event loop is not run): the window."""
    from app.night import open_window
    window = open_window(path, boards=args.boards, settings=settings)
    assert window.isVisible()
    return window


@pytest.fixture
def opened(monkeypatch):
    """The "VASL saved game opened" messages: (window, text); none is shown."""
    shown = []
    monkeypatch.setattr(QMessageBox, "information", staticmethod(
        lambda parent, title, text, *a, **k: shown.append((parent, text))))
    return shown


def save_on_boards_2_and_7(tmp_path) -> Path:
    """A saved game on boards 2 (bundled) and 7 (which Starshell does not have)."""
    return vs.write_vsav(tmp_path / "game.vsav", [(0, 0, "02"), (1, 0, "07")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                          vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru")])


def vasl_boards_folder(tmp_path) -> Path:
    """The player's VASL boards folder, holding board 7."""
    folder = tmp_path / "vasl boards"
    folder.mkdir()
    b = bundled_board("34")
    save_board(b.__class__(id="7", title="board 7", default=b.default, hexes=b.hexes),
               folder / "bd07.json")
    return folder


def test_the_command_line_asks_for_missing_boards_as_file_open_does(qtbot, tmp_path, settings,
                                                                     messages, opened,
                                                                     monkeypatch):
    """`python -m app GAME.vsav` on a save played on boards 2 and 7 (7 nowhere) opened it at
    once on a blank board 7, while File > Open of the same file asks: the folder of the VASL
    boards, or blank boards.  Now the command line asks the same question; the player chooses
    the folder holding bd07, which is remembered as File > Open remembers it."""
    path, folder = save_on_boards_2_and_7(tmp_path), vasl_boards_folder(tmp_path)
    asked = []
    monkeypatch.setattr(vsav_open, "ask_missing",
                        lambda w, boards, *more: asked.append(boards) or "folder")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: str(folder)))
    args = parse_args([str(path)])
    run(str(path), args, settings)
    window, text = opened[-1]
    qtbot.addWidget(window)
    assert asked == [["07"]]
    s = window.document.scenario
    assert [p.board.id for p in s.map.placements] == ["2", "7"]
    assert "blank open board" not in text
    assert {u.extra["vasl_name"]: u.hex for u in s.units}["4-4-7 1sq"] == "7C3"
    assert window.document.path is None and window.isWindowModified()   # new and unsaved
    assert settings.value(vsav_open.BOARDS_KEY) == str(folder)


def test_the_command_line_on_blank_boards_or_given_up(qtbot, tmp_path, settings, messages,
                                                      opened, monkeypatch):
    """The same save: "Use blank boards" opens it on a blank board 7 (the message says so);
    Cancel leaves the window on the bundled position, the status bar saying the game was not
    opened."""
    path = save_on_boards_2_and_7(tmp_path)
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: "blank")
    run(str(path), parse_args([str(path)]), settings)
    window, text = opened[-1]
    qtbot.addWidget(window)
    assert [p.board.id for p in window.document.scenario.map.placements] == ["2", "7"]
    assert "blank open board" in text
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: None)   # Cancel
    n = len(opened)
    window = run(str(path), parse_args([str(path)]), settings)
    qtbot.addWidget(window)
    assert len(opened) == n                               # no "opened" message
    assert window.document.scenario == api.night.load_scenario(default_scenario_path())
    assert "was not opened" in window.statusBar().currentMessage()


def test_boards_option_gives_the_folder_of_the_vasl_boards(qtbot, tmp_path, settings,
                                                           messages, opened, monkeypatch):
    """`python -m app GAME.vsav --boards DIR`: board 7 comes from DIR without a question, and
    DIR is not remembered (it serves this game)."""
    path, folder = save_on_boards_2_and_7(tmp_path), vasl_boards_folder(tmp_path)
    asked = []
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, *more: asked.append(boards))
    args = parse_args([str(path), "--boards", str(folder)])
    run(str(path), args, settings)
    window, text = opened[-1]
    qtbot.addWidget(window)
    assert asked == []
    assert [p.board.id for p in window.document.scenario.map.placements] == ["2", "7"]
    assert "blank open board" not in text
    assert settings.value(vsav_open.BOARDS_KEY) is None


def test_boards_option_headless_and_its_mistakes(tmp_path):
    """Headless (`--screenshot`) nobody can be asked: a board found nowhere is a blank open
    board, with a warning on stderr; `--boards DIR` gives it.  `--boards` on a position file or
    on a folder that does not exist: `error:` and status 2."""
    path, folder = save_on_boards_2_and_7(tmp_path), vasl_boards_folder(tmp_path)
    out = tmp_path / "shot.png"

    def run(*extra):
        return subprocess.run([sys.executable, "-m", "app", *map(str, extra), "--screenshot",
                               str(out), "--size", "400x300"], capture_output=True, text=True,
                              cwd=ROOT, timeout=120,
                              env={**os.environ,
                                   "XDG_CONFIG_HOME": str(tmp_path / "config")})
    r = run(path)
    assert r.returncode == 0 and "warning:" in r.stderr and "blank open board" in r.stderr
    r = run(path, "--boards", folder)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = run(W10, "--boards", folder)
    assert r.returncode == 2 and r.stderr.startswith("error: --boards is for a VASL saved game")
    r = run(path, "--boards", tmp_path / "nowhere")
    assert r.returncode == 2 and "not a folder" in r.stderr
