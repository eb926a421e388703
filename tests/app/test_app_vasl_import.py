"""File > Import VASL board (the app's part): a synthetic VASL board file
(tests/vasl_synth.py) is converted, saved where the player says (by default next to the position,
as bd99.json), its report shown, and put on the map on request (one undo step)."""
from __future__ import annotations

import pytest
import vasl_synth as synth
from app_testing import settle
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine.boards import assets_dir, load_board
from engine.hexes import parse_local

W12 = assets_dir() / "scenarios" / "W-12.json"


@pytest.fixture(scope="module")
def vasl_file(tmp_path_factory):
    return synth.standard_board("99").write(tmp_path_factory.mktemp("vasl") / "bd99")


@pytest.fixture
def on_w12(window_on, tmp_path):
    pos = tmp_path / "games" / "w12.json"
    pos.parent.mkdir()
    pos.write_text(W12.read_text())
    return window_on(pos)


def dialogs(monkeypatch, source, target=None, answer=QMessageBox.StandardButton.Yes):
    seen = {"questions": [], "saves": []}
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(source), "")))

    def save(parent, caption, start="", *a, **k):
        seen["saves"].append((caption, start))
        return (str(target) if target else start), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save))

    def question(parent, title, text, *a, **k):
        seen["questions"].append((title, text))
        return answer
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return seen


def test_import_vasl_board_saves_it_next_to_the_position_and_adds_it_to_the_layout(
        on_w12, qtbot, monkeypatch, vasl_file, tmp_path):
    w, doc = on_w12, on_w12.document
    seen = dialogs(monkeypatch, vasl_file)
    w.import_vasl_action.trigger()                         # File > Import VASL board...
    target = tmp_path / "games" / "bd99.json"
    assert seen["saves"][0][1] == str(target)              # offered next to the position
    board = load_board(target)
    assert board.id == "99"
    assert board.at(*parse_local("K3")).level == 2         # what the generator drew
    assert board.at(*parse_local("X4")).terrain == "woods"
    title, text = seen["questions"][0]
    assert "saved as" in text and "hexside" in text        # the engine's report is shown
    assert "Add it to the map east of board 2?" in text and "slot" not in text
    s = doc.scenario
    assert s.map.board_ids == ["2", "99"] and s.map_entries[1].at == (1, 0)
    assert w.board_editor.unsaved() == []
    assert s.map.canonical("2GG5") == "99A5"                # the boards join edge to edge
    doc.undo_stack.undo()
    assert doc.scenario.map.board_ids == ["2"]
    settle(qtbot, doc)


def test_import_vasl_board_in_place_of_the_stand_in(on_w12, qtbot, monkeypatch, vasl_file,
                                                    tmp_path):
    w, doc = on_w12, on_w12.document
    target = tmp_path / "real-2.json"
    source = synth.standard_board("2").write(tmp_path / "bd02")   # its file name says board 2
    seen = dialogs(monkeypatch, source, target)
    w.import_vasl_action.trigger()
    assert "in place of board 2" in seen["questions"][0][1]
    s = doc.scenario
    assert s.map_entries[0].board == str(target) and s.unit("A").hex == "2CC6"
    assert s.map.placements[0].board.at(*parse_local("X4")).terrain == "woods"
    settle(qtbot, doc)


def test_import_vasl_board_declined_leaves_the_map_and_refused_files_write_nothing(
        on_w12, qtbot, monkeypatch, vasl_file, tmp_path, messages):
    w, doc = on_w12, on_w12.document
    before = doc.scenario
    dialogs(monkeypatch, vasl_file, tmp_path / "kept.json", QMessageBox.StandardButton.No)
    w.import_vasl_action.trigger()
    assert (tmp_path / "kept.json").exists() and doc.scenario is before
    damaged = tmp_path / "bd98"
    damaged.write_bytes(b"PK\x03\x04 not really a zip")
    dialogs(monkeypatch, damaged, tmp_path / "bd98.json")
    w.import_vasl_action.trigger()
    assert not (tmp_path / "bd98.json").exists()
    kind, title, text = messages[-1]
    assert kind == "warning" and text.startswith(str(damaged))
    assert doc.scenario is before
    settle(qtbot, doc)
