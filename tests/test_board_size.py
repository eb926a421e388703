"""Boards of another size than 33 x 10 (SPEC.md "size"; rules.md 1's parity rule holds)."""
from __future__ import annotations

import json

import pytest

from engine.boards import Board, HexTerrain, board_from_json, board_to_json, load_board
from engine.errors import ScenarioError
from engine.hexes import HexIdError, board_hexes, column_index, column_name, hex_range, parse_local
from engine.los import los_table
from engine.maps import Map, Placement
from engine.night.files import load_scenario


def small_board_json(board_id: str = "s1", size=(12, 8), **hexes) -> dict:
    return {"format": "starshell-board", "version": 1, "id": board_id, "title": "small",
            "size": list(size) if isinstance(size, tuple) else size, "hexes": hexes}


def test_columns_are_named_as_vasl_names_them():
    assert [column_name(i) for i in (0, 25, 26, 32, 51, 52, 77)] == \
        ["A", "Z", "AA", "GG", "ZZ", "AAA", "ZZZ"]
    for i in range(104):
        assert column_index(column_name(i)) == i
    with pytest.raises(HexIdError):
        column_index("AB")


def test_a_12_by_8_board_has_its_own_hexes():
    # 6 columns A, C, ..., K with rows 1..8; 6 columns B, D, ..., L with rows 0..8
    assert len(board_hexes((12, 8))) == 6 * 8 + 6 * 9
    assert parse_local("L8", (12, 8)) == (11, 8)
    for bad in ("M1", "A9", "A0", "L9"):
        with pytest.raises(HexIdError):
            parse_local(bad, (12, 8))
    with pytest.raises(HexIdError, match="A..L"):
        parse_local("M1", (12, 8))


def test_a_wide_board_names_triple_letter_columns():
    b = board_from_json(small_board_json(size=(60, 4), AAA3={"terrain": "woods"}))
    assert b.at(*parse_local("AAA3", (60, 4))).terrain == "woods"
    m = Map([Placement(b, (0, 0))])
    assert m.has("s1AAA3") and m.has("s1HHH4")
    assert not m.has("s1III1")
    with pytest.raises(HexIdError, match="not on a board"):
        m.index("s1III1")


def test_the_size_round_trips_and_the_default_is_not_written(tmp_path):
    b = board_from_json(small_board_json(L8={"terrain": "woods"}))
    assert b.size == (12, 8)
    data = board_to_json(b)
    assert data["size"] == [12, 8]
    assert board_from_json(json.loads(json.dumps(data))) == b
    old = {"format": "starshell-board", "version": 1, "id": "g", "hexes": {}}
    assert "size" not in board_to_json(board_from_json(old))
    assert board_from_json(old).size == (33, 10)


@pytest.mark.parametrize("size", [[12], [1, 8], [12, 0], [12, 100], [105, 8], ["12", 8], [12.0, 8],
                                  [True, 8], "12x8", None])
def test_a_bad_size_is_refused_with_its_place(size):
    with pytest.raises(ScenarioError) as e:
        board_from_json(small_board_json(size=size), file="s1.json")
    assert e.value.place == "size" and e.value.file == "s1.json"


def test_a_hex_off_a_small_board_is_refused_with_its_place():
    with pytest.raises(ScenarioError) as e:
        board_from_json(small_board_json(M3={"terrain": "woods"}))
    assert e.value.place == "hexes.M3"


def test_a_small_board_next_to_a_geomorphic_one_keeps_column_parity():
    small = board_from_json(small_board_json())
    geo = Board("g", "geo", HexTerrain(), {})
    m = Map([Placement(small, (0, 0)), Placement(geo, (1, 0))])
    # an even column count ends in a whole hex: the next board starts one column further on
    assert m.origins == [(0, 0), (12, 0)]
    assert m.size == len(board_hexes((12, 8))) + len(board_hexes())
    assert hex_range(m.pos(m.index("s1L4")), m.pos(m.index("gA4"))) == 1
    # board frames touch without a gap
    x0, _, w0, _ = m.board_frame(0)
    x1, _, _, _ = m.board_frame(1)
    assert x0 + w0 == x1


def test_an_odd_sized_board_joins_its_half_hexes_and_turns():
    b = board_from_json(small_board_json("s3", size=(13, 6), M2={"terrain": "woods"}))
    m = Map([Placement(b, (0, 0)), Placement(Board("g", "geo", HexTerrain(), {}), (1, 0))])
    assert m.origins[1] == (12, 0)
    assert m.index("s3M3") == m.index("gA3")          # the half hexes of the join are one hex
    turned = Map([Placement(b, (0, 0), rotated=True)])
    assert turned.terrain_name(turned.index("s3A5")) == "open"
    i = turned.index("s3M2")
    assert turned.terrain_name(i) == "woods" and turned.pos(i) == (0, 5)    # A5's place


def test_an_even_sized_board_cannot_be_turned():
    b = board_from_json(small_board_json())
    with pytest.raises(ScenarioError, match="cannot be turned") as e:
        Map([Placement(b, (0, 0), rotated=True)])
    assert e.value.place == "map[0].rotated"


def test_a_small_board_loads_from_a_file_and_answers_los(tmp_path):
    board = small_board_json(F4={"terrain": "woods"})
    (tmp_path / "s1.json").write_text(json.dumps(board))
    scen = {"format": "starshell-scenario", "version": 1, "map": [{"board": "s1.json", "at": [0, 0]}],
            "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "s1D4"},
                      {"id": "B", "side": "axis", "type": "squad", "hex": "s1H4"},
                      {"id": "C", "side": "axis", "type": "squad", "hex": "s1L1"}]}
    (tmp_path / "s.json").write_text(json.dumps(scen))
    s = load_scenario(tmp_path / "s.json")
    assert load_board(tmp_path / "s1.json").size == (12, 8)
    m = s.map
    table = los_table(m)
    blocked = table.line(m.index("s1D4"), 0, m.index("s1H4"), 0)      # through the woods of F4
    assert not blocked.clear[0] and int(blocked.block_h1[0]) == m.index("s1F4")
    assert table.line(m.index("s1D4"), 0, m.index("s1L1"), 0).clear[0]
