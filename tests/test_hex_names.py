"""Hexes named as VASL names them on every kind of board (rules.md 11.6): a "b" half board's
columns Q..GG (``A1CenterX="-901"``), a BFP "DW b" half's rows on from the "a" half's, VASL's
``alternate`` numbering; in the hex model, the board file (``hex_names``), the map, a saved
game's units and the metadata's hex names.  Old board files without the key read as before."""
from __future__ import annotations

import json

import pytest
import vasl_synth as synth
import vsav_synth as vs

from engine.boards import board_from_json, board_to_json, load_board, save_board
from engine.errors import ScenarioError
from engine.hexes import PLAIN, HexIdError, Naming, board_hexes, parse_hex_id, parse_local
from engine.importers import vasl, vsav
from engine.importers.board_metadata import read_board_metadata
from engine.importers.grid import grid_naming
from engine.maps import Map, Placement
from engine.night.files import load_scenario


def _b_half(name: str = "1b") -> synth.SynthBoard:
    """A generated "b" half board (metadata A1CenterX=-901): woods in its third column's second
    hex, a hill in its fifth column's fourth."""
    b = synth.SynthBoard(name, synth.HALF_B)
    b.area("C2", synth.WOODS, "woods")          # the synth counts its columns from A
    b.hill("E4", 1)
    return b


@pytest.fixture(scope="module")
def b_half(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bhalf")
    return vasl.import_board(_b_half().write(folder / "bd1b"))


def test_a_b_half_names_its_first_column_q_as_vasl_does(b_half):
    board, report = b_half
    # Map.getGEOHexName: A1CenterX=-901 (16 hex widths of 56.3125) names the first column Q
    assert board.naming == Naming(16, 1, False)
    on_map = Map([Placement(board, (0, 0))])
    assert on_map.has("bd1bQ1") and on_map.has("bd1bR0") and on_map.has("bd1bGG20")
    assert not on_map.has("bd1bA1") and not on_map.has("bd1bP1")
    assert on_map.terrain_name(on_map.index("bd1bS2")) == "woods"
    assert int(on_map.level[on_map.index("bd1bU4")]) == 1
    assert on_map.names[0] == "bd1bQ1" and str(on_map.board_of[0]) == "bd1bQ1"
    assert any("columns Q..GG" in line for line in report)
    with pytest.raises(HexIdError, match="Q..GG"):
        on_map.index("bd1bA1")


def test_a_b_half_board_file_keeps_vasls_names(b_half, tmp_path):
    board, _ = b_half
    saved = save_board(board, tmp_path / "bd1b.json")
    data = json.loads((tmp_path / "bd1b.json").read_text())
    assert data["hex_names"] == {"first_column": "Q"}
    assert data["hexes"]["S2"]["terrain"] == "woods" and "C2" not in data["hexes"]
    again = load_board(tmp_path / "bd1b.json")
    assert again.naming == board.naming and again.hexes == board.hexes
    assert again.content_key == saved.content_key
    assert again.raster is not None             # the drawing serves the board as read


def test_two_halves_join_with_vasls_names(b_half, tmp_path):
    a = synth.SynthBoard("1a", synth.HALF_A)
    a.area("Q5", synth.WOODS, "woods")
    board_a, _ = vasl.import_board(a.write(tmp_path / "bd1a"))
    joined = Map([Placement(board_a, (0, 0)), Placement(b_half[0], (1, 0))])
    # the a half's last column and the b half's first are one column, Q, on both boards
    assert joined.index("bd1aQ5") == joined.index("bd1bQ5")
    assert joined.aliases(joined.index("bd1bQ5")) == ["bd1aQ5", "bd1bQ5"]
    assert joined.has("bd1aA1") and joined.has("bd1bGG20") and not joined.has("bd1bA1")


def test_old_board_files_without_hex_names_read_as_before(tmp_path):
    old = {"format": "starshell-board", "version": 1, "id": "hb", "title": "a b half, named "
           "from A", "size": [17, 20], "hexes": {"A1": {"terrain": "woods"},
                                                   "Q20": {"level": 1}},
           "hexsides": {"C3/1": "wall"}}
    board = board_from_json(old)
    assert board.naming == PLAIN
    assert board.at(0, 1).terrain == "woods" and board.at(16, 20).level == 1
    assert board_to_json(board) == {**old, "default": {"terrain": "open", "level": 0}}
    on_map = Map([Placement(board, (0, 0))])
    assert on_map.has("hbA1") and on_map.has("hbQ20") and not on_map.has("hbGG20")


@pytest.mark.parametrize("names, place", [
    ({"first_column": "B"}, "hex_names"),               # odd: the columns' parity would turn
    ({"first_column": "q"}, "hex_names.first_column"),
    ({"first_row": 95}, "hex_names"),                    # rows past 99
    ({"first_row": "11"}, "hex_names.first_row"),
    ({"alternate": 1}, "hex_names.alternate"),
    ({"first_col": "Q"}, "hex_names"),
    ("Q", "hex_names"),
])
def test_a_bad_hex_names_key_is_refused_naming_its_place(names, place):
    data = {"format": "starshell-board", "version": 1, "id": "x", "size": [17, 20],
            "hex_names": names}
    with pytest.raises(ScenarioError) as e:
        board_from_json(data)
    assert e.value.place == place


def test_a_hex_key_the_naming_does_not_have_is_refused():
    data = {"format": "starshell-board", "version": 1, "id": "x", "size": [17, 20],
            "hex_names": {"first_column": "Q"}, "hexes": {"A1": {"terrain": "woods"}}}
    with pytest.raises(ScenarioError, match="columns run Q..GG") as e:
        board_from_json(data)
    assert e.value.place == "hexes.A1"


@pytest.mark.parametrize("naming", [Naming(16), Naming(0, 11), Naming(0, 1, True),
                                    Naming(0, 0, True), Naming(26, 3, True)])
def test_every_name_reads_back_to_its_hex(naming):
    size = (17, 20)
    names = {naming.name(c, n): (c, n) for c, n in board_hexes(size)}
    assert len(names) == len(board_hexes(size))                  # one name a hex
    for text, pos in names.items():
        assert parse_local(text, size, naming) == pos
        assert parse_hex_id("7" + text, size, naming) == (("7",) + pos + (naming,))


@pytest.mark.parametrize("a1, naming", [
    ((-901.0, 32.25), Naming(16, 1)),           # the "b" half boards
    ((0.0, -612.75), Naming(0, 11)),            # the BFP "DW b" halves: VASL's rowOffset 10
    ((0.0, 32.25), PLAIN),
    ((-1499.0, 33.0), PLAIN),                   # no whole count of columns: VASL's LOS: A
])
def test_the_naming_is_decoded_from_a1s_centre(a1, naming):
    assert grid_naming(a1[0], a1[1], 56.3125, 64.5, (17, 20))[0] == naming


def test_the_metadatas_hex_names_are_vasls_on_a_b_half():
    raw = synth.metadata_xml("1b", "1.0", 17, 20).replace(
        b"</boardMetadata>", b'<buildingTypes><buildingType hexName="AA9" buildingTypeName='
        b'"Stone Building, 1 Level"/></buildingTypes></boardMetadata>')
    meta = read_board_metadata(raw, (17, 20), Naming(16))
    assert list(meta.building_types) == [(10, 9)]
    with pytest.raises(ScenarioError, match="no hex"):
        read_board_metadata(raw, (17, 20))          # AA9 is on no board named from A


def test_a_saved_games_unit_in_a_b_half_hex_lands_there_by_vasls_name(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    _b_half().write(folder / "bd1b")
    x, y = synth.HALF_B.centre("D5")            # VASL's T5: the fourth column, row 5
    save = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "1b")],
                         [vs.squad("4-6-7 1sq", (round(vs.EDGE + x), round(vs.EDGE + y)))])
    out = tmp_path / "pos" / "pos.json"
    out.parent.mkdir()
    vsav.import_vsav(save, out, boards_dir=folder)
    s = load_scenario(out)
    assert s.unit("ge1").hex == "bd1bT5"
    hex_id = s.map.board_of[s.map.index("bd1bT5")]
    assert (hex_id.col, hex_id.row) == (3, 5)                    # the board's fourth column
    assert json.loads((out.parent / "bd1b.json").read_text())["hex_names"] == \
        {"first_column": "Q"}
