"""The window names a board's hexes as the board does (rules.md 11.6): on a "b" half board the
printed hex labels and the letters along its edges run Q..GG, as VASL prints them."""
from __future__ import annotations

from engine import api
from engine.boards import Board, HexTerrain, save_board
from engine.hexes import Naming


def test_a_b_half_boards_labels_are_vasls_names(tmp_path, window_on):
    board = Board("hb", "a b half", HexTerrain(), {(2, 2): HexTerrain("woods")}, size=(17, 20),
                  naming=Naming(16))
    save_board(board, tmp_path / "hb.json")
    w = window_on(api.night.board_position(tmp_path / "hb.json"))
    grid = w.scene.grid
    printed = {text for _, text in grid.labels}
    assert {"Q1", "R0", "S2", "GG20"} <= printed and not {"A1", "C2"} & printed
    letters = {text for *_, text, _ in grid.columns}
    assert {"R", "AA", "FF"} <= letters and "A" not in letters and "B" not in letters
    m = w.document.scenario.map
    assert m.terrain_name(m.index("hbS2")) == "woods"
