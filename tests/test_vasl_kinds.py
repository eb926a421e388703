"""Every kind of VASL board (RULES.md 11.6) read as VASL reads it: the hex's level and centre
terrain at VASL's centre sample point, half boards and Deluxe boards, and maps of one kind."""
from __future__ import annotations

import pytest
import vasl5_synth as synth5
import vasl_synth as synth

from engine.hexes import parse_local
from engine.importers import vasl


def _at(board, hex_id: str):
    return board.at(*parse_local(hex_id, board.size))


def test_vasl6_level_and_centre_terrain_are_read_at_the_truncated_centre(tmp_path):
    # Hex.resetTerrain: the base height and the centre terrain at (int cx, int cy) alone
    b = synth.SynthBoard("98")
    diagonals = ((1, -1), (1, 1), (-1, 1), (-1, -1))
    x, y = (int(v) for v in synth.centre("E4"))
    for dx, dy in diagonals:                    # a level-1 ring around a level-0 centre
        b.elevation[x + dx, y + dy] = 1
    x, y = (int(v) for v in synth.centre("H5"))
    b.elevation[x, y] = -1                      # a level -1 centre, level 0 all round
    x, y = (int(v) for v in synth.centre("K6"))
    b.terrain[x + 1, y - 1] = synth.STONE       # a building pixel beside the centre only
    x, y = (int(v) for v in synth.centre("M3"))
    b.terrain[x, y] = synth.STONE               # ... and one at the centre
    board, _ = vasl.import_board(b.write(tmp_path / "bd98"))
    assert _at(board, "E4").level == 0
    assert _at(board, "H5").level == -1
    assert _at(board, "K6").terrain == "open"
    assert _at(board, "M3").terrain == "building"


def test_vasl5_level_is_read_at_the_truncated_centre(tmp_path):
    b = synth5.SynthBoard()
    b.dots = False
    b.render()
    x, y = (int(v) for v in synth5.centre(*parse_local("E4")))
    # a level-1 strip starting one pixel right of the centre, the centre itself level 0
    b.draw.rectangle([x + 1, y - 3, x + 3, y + 3], fill=synth5.COLOURS["Level1"])
    x, y = (int(v) for v in synth5.centre(*parse_local("H5")))
    b.draw.rectangle([x - 3, y - 3, x, y + 3], fill=synth5.COLOURS["Level1"])
    b.render = lambda: b.image
    board, _ = vasl.import_board(b.write(tmp_path / "bd6", kind="png"))
    assert _at(board, "E4").level == 0
    assert _at(board, "H5").level == 1


def _drawn(name: str, kind: synth.Kind) -> synth.SynthBoard:
    """A board of ``kind`` with woods, a hill, a gully, a building of two hexes and a wall, in
    hexes at its corners as well as inside."""
    b = synth.SynthBoard(name, kind)
    last = synth.column_name(kind.size[0] - 1)
    b.area(f"A1 C2 {last}{kind.size[1]}", synth.WOODS, "woods")
    b.hill("E3 F3 F4", 1)
    b.depression("H2", synth.GULLY, "gully")
    b.building(["J3", "J4"], synth.STONE_2, 2)
    b.hexside("D2", "D3", synth.WALL)
    return b


def _round_trip(b: synth.SynthBoard, board) -> None:
    from engine.hexes import board_hexes
    assert board.size == b.kind.size
    wrong = {(c, n): (board.at(c, n), b.expected_at(c, n))
             for c, n in board_hexes(board.size) if board.at(c, n) != b.expected_at(c, n)}
    assert wrong == {}
    assert "wall" in set(board.hexsides.values())


@pytest.mark.parametrize("kind", [synth.HALF_A, synth.HALF_B, synth.DELUXE],
                         ids=["half-a", "half-b", "deluxe"])
def test_half_and_deluxe_boards_import_with_their_size_and_geometry(kind, tmp_path):
    b = _drawn("7a", kind)
    board, report = vasl.import_board(b.write(tmp_path / "bd7a"))
    _round_trip(b, board)
    image = board.extra["image"]
    assert image["hex_width"] == kind.hex_w and image["hex_height"] == kind.hex_h
    assert image["a1"] == [max(0.0, kind.a1[0]), kind.a1[1]]
    assert any('"b" half' in r for r in report) == (kind is synth.HALF_B)
