"""What a second round of play-tests found, each as the player met it: a saved game given on the
command line, the starshell preview after the shot, the Position panel in a small window, and
board pictures with margins in the SVG export."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import vasl5_synth as synth
import vsav_synth as vs
from app_testing import hex_pos, settle
from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QFileDialog, QMessageBox

import app.night.vsav_open as vsav_open
from app import style
from app.__main__ import parse_args
from app.export import export_png, export_svg
from app.hex_geometry import placement_rect
from app.night.document import default_scenario_path
from engine.api import load_scenario
from engine.boards import assets_dir, bundled_board, save_board
from engine.importers import vasl
from engine.night.drift import FixedDice

ROOT = Path(__file__).resolve().parents[2]
W10 = assets_dir() / "scenarios" / "W-10.json"


# ---------------------------------------------------------------------------- python -m app GAME.vsav
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
                        lambda w, boards: asked.append(boards) or "folder")
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
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards: "blank")
    run(str(path), parse_args([str(path)]), settings)
    window, text = opened[-1]
    qtbot.addWidget(window)
    assert [p.board.id for p in window.document.scenario.map.placements] == ["2", "7"]
    assert "blank open board" in text
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards: None)   # Cancel
    n = len(opened)
    window = run(str(path), parse_args([str(path)]), settings)
    qtbot.addWidget(window)
    assert len(opened) == n                               # no "opened" message
    assert window.document.scenario == load_scenario(default_scenario_path())
    assert "was not opened" in window.statusBar().currentMessage()


def test_boards_option_gives_the_folder_of_the_vasl_boards(qtbot, tmp_path, settings,
                                                           messages, opened, monkeypatch):
    """`python -m app GAME.vsav --boards DIR`: board 7 comes from DIR without a question, and
    DIR is not remembered (it serves this game)."""
    path, folder = save_on_boards_2_and_7(tmp_path), vasl_boards_folder(tmp_path)
    asked = []
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards: asked.append(boards))
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


# ---------------------------------------------------------------------------- the starshell tool
def test_the_drift_preview_goes_once_the_starshell_is_fired(window_on, qtbot):
    """W-10: L1, the starshell tool on, method 2 chosen (key 2), hovers 2W6 (its drift preview
    shows) and clicks: usage dr 3, drift 2, 5, it lands in 2Z4.  The preview of 2W6 used to come
    back on the map as soon as the new position was worked out, as if another shot were being
    aimed there.  Now it goes with the shot (the map and the panel's preview line) and stays
    gone while the mouse rests; the next move of the mouse, the tool still on, aims again."""
    w = window_on(W10, dice=FixedDice([3, 2, 5]))
    view, doc, drift = w.view, w.document, w.scene.drift
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.keyClick(view, Qt.Key.Key_2)                  # method 2 chosen by key
    at = hex_pos(view, "2W6")
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2V6"))     # the mouse comes to 2W6
    qtbot.mouseMove(view.viewport(), at)
    assert drift.at == w.scene.map.index("2W6") and "2W6" in w.starshell_panel.preview.text()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.scenario.markers[-1].hex == "2Z4"
    settle(qtbot, doc)                                  # the new position's answers are in
    assert drift.at is None and drift.distribution == {}
    assert w.starshell_panel.preview.text() == ""
    assert "2Z4" in w.starshell_panel.result.text()     # the shot's result stays
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2Q5"))  # aiming again
    assert drift.at == w.scene.map.index("2Q5") and drift.method == "2"
    assert "2Q5" in w.starshell_panel.preview.text()


# ---------------------------------------------------------------------------- the Position panel
def test_the_nvr_box_stays_whole_and_in_place_when_the_panel_scrolls(window, qtbot):
    """In a small window the Position panel gets its scrollbar: the NVR box used to follow the
    panel's right edge (it shifted when the scrollbar came), and with the dock made narrow (the
    other docks of its side closed) the panel ran on under the scrollbar, hiding the box's
    arrows.  Now the box keeps its size and place, the dock goes no narrower than its panel,
    and the panel never runs under the scrollbar: the whole box shows."""
    dock, nvr = window.dock("position"), window.scenario_panel.nvr
    scroll = dock.widget()

    def place():
        return QRect(nvr.mapTo(scroll.widget(), QPoint(0, 0)), nvr.size())
    assert not scroll.verticalScrollBar().isVisible()
    before = place()
    window.document.select("L1")                     # the unit's text below: a longer panel
    settle(qtbot, window.document)
    for name in ("explanation", "legend", "starshell"):
        window.dock(name).close()                    # the Position dock alone on its side
    window.resize(640, 360)
    qtbot.waitUntil(lambda: window.width() <= 700 and dock.height() < 300)
    window.resizeDocks([dock], [120], Qt.Orientation.Horizontal)   # narrower than it may go
    qtbot.waitUntil(lambda: dock.width() < 300 and scroll.verticalScrollBar().isVisible())
    assert place() == before                         # same size, same place
    assert scroll.widget().width() <= scroll.viewport().width()     # nothing under the scrollbar
    shown = QRect(nvr.mapTo(scroll.viewport(), QPoint(0, 0)), nvr.size())
    assert scroll.viewport().rect().contains(shown)
    assert nvr.visibleRegion().boundingRect() == nvr.rect()         # the whole box shows


# ---------------------------------------------------------------------------- SVG export
MARGIN_GROUND = QColor(*synth.COLOURS["Level0"])      # the picture's margins: open ground


def board_with_margins(folder: Path) -> Path:
    """A VASL 5 board whose picture has margins (A1's centre 70 and 62 pixels in), imported:
    ``bd91.json`` beside its picture, and a position on it alone."""
    b = synth.SynthBoard(size=(12, 6), a1=(70, 62), pixels=(759, 448))
    b.hex_("C3", "woods", 1)
    board, _ = vasl.import_board(b.write(folder / "bd91", data="version 1.0\nx0 70\ny0 62\n"))
    save_board(board, folder / "bd91.json")
    s = {"format": "starshell-scenario", "version": 1, "title": "margins",
         "map": [{"board": "bd91.json", "at": [0, 0], "rotated": False}],
         "nvr": 3, "phase": "PFPh", "attacker": "allied", "starshells_used": "never",
         "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "91F3"}],
         "markers": []}
    path = folder / "margins.json"
    path.write_text(json.dumps(s))
    return path


def picture_pixels(image: QImage, board: QRect, inside: bool) -> int:
    """How many pixels of the picture's open ground lie inside (or outside) ``board``."""
    n = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            if board.contains(x, y) != inside:
                continue
            c = image.pixelColor(x, y)
            if max(abs(c.red() - MARGIN_GROUND.red()), abs(c.green() - MARGIN_GROUND.green()),
                   abs(c.blue() - MARGIN_GROUND.blue())) <= 12:
                n += 1
    return n


def test_svg_export_cuts_a_board_picture_with_margins_to_its_board(window_on, qtbot, tmp_path):
    """A board imported from a VASL picture with margins: the screen and the PNG export cut the
    picture at the board's edge, but the SVG export drew the whole picture, margins and all,
    past the board's edges (QSvgGenerator writes no clipping).  Now the picture is cropped to
    the board before it is drawn: rendered back, the SVG shows the picture inside the board
    and nothing of it outside."""
    w = window_on(board_with_margins(tmp_path))
    assert len(w.scene.board_art) == 1
    view = w.view
    view.fit_map()
    size = view.viewport().size()
    board = view.mapFromScene(placement_rect(w.scene.map, 0)).boundingRect()
    inner, outer = board.adjusted(3, 3, -3, -3), board.adjusted(-3, -3, 3, 3)
    assert QRect(0, 0, size.width(), size.height()).contains(outer.adjusted(-20, -20, 20, 20))
    png = tmp_path / "view.png"
    export_png(view, str(png))
    assert picture_pixels(QImage(str(png)), outer, inside=False) == 0       # as the screen
    svg = tmp_path / "view.svg"
    export_svg(view, str(svg))
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    assert picture_pixels(image, inner, inside=True) > inner.width() * inner.height() / 8
    assert picture_pixels(image, outer, inside=False) == 0
    # the board's own picture at its own resolution, cut to its 12 x 6 hexes (56.25 x 64.5
    # pixels each), not a copy of the screen
    sizes = [(int(a), int(b)) for a, b in
             re.findall(r'<image [^>]*width="(\d+)" height="(\d+)"', svg.read_text())]
    assert any(abs(a - 12 * 56.25) <= 2 and abs(b - 6 * 64.5) <= 2 for a, b in sizes), sizes
