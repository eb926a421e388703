"""The window keeps the command line's bound on a drawn map's pixel classes (docs/formats.md,
*Loading*): a map past it is not built; the player is told (the position's file, the count,
the bound) and asked whether to build it anyway, the choice kept for that document.  (The
bound is made small here: a noisy board of the test's own, every pixel drawn at random.)"""
from __future__ import annotations

import json

import numpy as np
import pytest
from app_testing import settle

from app.night import document as document_module
from app.night import drawn_bound
from app.night.document import default_scenario_path as default_path
from engine import load_scenario
from engine.boards import Board, HexTerrain, save_board, with_raster
from engine.los.raster import frame as frame_module
from engine.los.raster.frame import build_frame, map_rasters
from engine.maps import Map, Placement
from engine.night.verdicts import visibility_from
from engine.raster_file import Raster


def _noisy_board(board_id: str) -> Board:
    rng = np.random.default_rng(11)
    codes = np.array([0, 63, 24, 60, 8], np.uint8)
    raster = Raster(codes[rng.integers(0, len(codes), (645, 1801))],
                    rng.integers(0, 3, (645, 1801)).astype(np.int8),
                    (0.0, 32.25, 56.25, 64.5), (33, 10))
    return with_raster(Board(board_id, "noisy", HexTerrain(), {}, size=(33, 10)), raster)


@pytest.fixture(scope="module")
def classes() -> int:
    """The pixel classes of the noisy board (whatever its id)."""
    m = Map([Placement(_noisy_board("q0"), (0, 0))])
    return len(build_frame(m, map_rasters(m)).cls_level)


@pytest.fixture
def noisy_file(tmp_path, classes):
    """``make(board_id)``: a position file on one noisy drawn board beside it (each test its own
    board id: no LOS table of another test's is cached for it), and its pixel classes."""
    def make(board_id: str):
        save_board(_noisy_board(board_id), tmp_path / f"{board_id}.json")
        doc = {"format": "starshell-scenario", "version": 1, "title": "noise",
               "map": [{"board": f"{board_id}.json", "at": [0, 0]}], "nvr": 3,
               "phase": "PFPh", "attacker": "allied", "starshells_used": "earlier",
               "units": [{"id": "A", "side": "allied", "type": "squad", "hex": f"{board_id}E5"},
                         {"id": "G", "side": "axis", "type": "squad", "hex": f"{board_id}K3"}]}
        path = tmp_path / "noise.json"
        path.write_text(json.dumps(doc))
        return path, classes
    return make


@pytest.fixture
def frames(monkeypatch):
    """The drawn frames made from now on (each a whole build)."""
    made = []
    real = frame_module.Frame

    def counted(**parts):
        made.append(len(parts["cls_level"]))
        return real(**parts)
    monkeypatch.setattr(frame_module, "Frame", counted)
    return made


def test_a_map_past_the_bound_is_refused_in_the_window_and_not_now_is_kept(
        window_on, qtbot, noisy_file, frames, monkeypatch, capfd):
    path, classes = noisy_file("qa")
    bound = classes // 2
    monkeypatch.setattr(document_module, "MAX_PIXEL_CLASSES", bound)
    asked = []
    monkeypatch.setattr(drawn_bound, "ask_build_anyway",
                        lambda window, text: asked.append(text) or False)     # "Not now"
    w = window_on(path)
    doc = w.document
    qtbot.waitUntil(lambda: bool(asked), timeout=60000)
    assert len(asked) == 1
    text = asked[0]
    assert text.startswith(str(path)) and f"{classes:,} pixel classes" in text, text
    assert f"{bound:,}" in text and "boards qa" in text, text
    assert doc.build_choice == "not now" and doc.refusal == text
    doc.select("A")                                  # asked again: refused at once
    settle(qtbot, doc)
    assert doc.answers is None and w.statusBar().currentMessage() == text
    assert f"{classes:,} pixel classes" in w.unit_panel.text.text()     # not "asking..."
    assert asked == [text] and frames == []          # never asked twice, never built
    assert "Traceback" not in capfd.readouterr().err


def test_build_anyway_builds_it(window_on, qtbot, noisy_file, frames, monkeypatch):
    path, classes = noisy_file("qb")
    monkeypatch.setattr(document_module, "MAX_PIXEL_CLASSES", classes - 1)
    asked = []
    monkeypatch.setattr(drawn_bound, "ask_build_anyway",
                        lambda window, text: asked.append(text) or True)      # "Build anyway"
    w = window_on(path)
    doc = w.document
    qtbot.waitUntil(lambda: doc.build_choice == "anyway", timeout=60000)
    doc.select("A")
    qtbot.waitUntil(lambda: doc.answers is not None and doc.answers.viewer == "A",
                    timeout=60000)
    assert len(asked) == 1 and frames == [classes]
    direct = visibility_from(load_scenario(path), "A").codes
    assert np.array_equal(doc.answers.field.codes, direct)


def test_at_the_bound_it_is_built_without_asking(window_on, qtbot, noisy_file, frames,
                                                  monkeypatch):
    path, classes = noisy_file("qc")
    monkeypatch.setattr(document_module, "MAX_PIXEL_CLASSES", classes)
    asked = []
    monkeypatch.setattr(drawn_bound, "ask_build_anyway",
                        lambda window, text: asked.append(text) or False)
    w = window_on(path)
    w.document.select("A")
    qtbot.waitUntil(lambda: w.document.answers is not None
                    and w.document.answers.viewer == "A", timeout=60000)
    assert w.document.answers.field is not None and frames == [classes] and asked == []


@pytest.mark.parametrize("button, anyway", [(drawn_bound.BUILD_ANYWAY, True),
                                            (drawn_bound.NOT_NOW, False)])
def test_the_question_builds_anyway_or_not_now(window_on, qtbot, button, anyway):
    """The two buttons as the player reads them; Not now is the default (Enter builds
    nothing)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    w = window_on(load_scenario(default_path()))
    seen = []

    def click():
        box = QApplication.activeModalWidget()
        seen.append(sorted(b.text() for b in box.buttons()))
        seen.append(box.defaultButton().text())
        next(b for b in box.buttons() if b.text() == button).click()
    QTimer.singleShot(0, click)
    assert drawn_bound.ask_build_anyway(w, "past the bound") is anyway
    assert seen == [sorted(["Build anyway (may need more than 2 GB of memory)", "Not now"]),
                    "Not now"]
