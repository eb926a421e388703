"""Every kind of VASL board (rules.md 11.6) read as VASL reads it: the hex's level and centre
terrain at VASL's centre sample point, half boards and Deluxe boards, and maps of one kind."""
from __future__ import annotations

from dataclasses import replace

import pytest
import vasl5_synth as synth5
import vasl_synth as synth

from engine.hexes import board_hexes, parse_local
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


def test_vasl6_a_building_that_misses_the_centre_dot_is_the_hex_centre_terrain(tmp_path):
    # Hex.resetTerrain: a centre that is no building takes the building lying at one of its
    # hexside location points (0..5 in turn; each side's middle a pixel in, truncated)
    b = synth.SynthBoard("97")
    x, y = (int(v) for v in synth.centre("K5"))
    b.terrain[x - 2:x + 3, int(y + 32.25 - 4):int(y + 32.25 - 1) + 1] = synth.STONE_1
    x, y = (int(v) for v in synth.centre("F5"))
    b.terrain[x - 2:x + 3, int(y + 32.25 - 4):int(y + 32.25 - 3) + 1] = synth.STONE_1
    board, _ = vasl.import_board(b.write(tmp_path / "bd97"))
    k5 = _at(board, "K5")           # the building reaches K5's S hexside location point
    assert (k5.terrain, k5.upper_levels) == ("building", 1)
    assert _at(board, "K6").terrain == "open"     # its N point lies two pixels further on
    assert _at(board, "F5").terrain == "open"     # stops two pixels short of F5's S point


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


def _expected(b: synth.SynthBoard, board, col: int, row: int):
    """The synth's hex, its building group named after its first hex as the board names it
    (rules.md 11.6: the synth counts from A)."""
    spec = b.expected_at(col, row)
    if spec.building:
        spec = replace(spec, building=board.name(*parse_local(spec.building, board.size)))
    return spec


def _round_trip_hexes(b: synth.SynthBoard, board) -> None:
    assert board.size == b.kind.size
    wrong = {(c, n): (board.at(c, n), _expected(b, board, c, n))
             for c, n in board_hexes(board.size) if board.at(c, n) != _expected(b, board, c, n)}
    assert wrong == {}


def _round_trip(b: synth.SynthBoard, board) -> None:
    _round_trip_hexes(b, board)
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
    # rules.md 11.6: a "b" half (A1CenterX=-901) names its columns Q..GG as VASL does
    assert (board.naming.first_column == 16) == (kind is synth.HALF_B)
    assert any("columns Q..GG" in r for r in report) == (kind is synth.HALF_B)


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    """Two half boards, a Deluxe board and a geomorphic board, imported."""
    folder = tmp_path_factory.mktemp("kinds")
    out = {}
    for name, kind in (("1a", synth.HALF_A), ("1b", synth.HALF_B), ("a", synth.DELUXE),
                       ("b", synth.DELUXE), ("98", synth.GEOMORPHIC)):
        out[name] = vasl.import_board(_drawn(name, kind).write(folder / f"bd{name}"))[0]
    return out


def test_boards_of_one_kind_join_as_geomorphic_boards_do(kinds):
    from engine.los import los_table
    from engine.maps import Map, Placement
    # rules.md 1 and 11.6: a half board's 17 columns end in a half hex the next board's A
    # column joins; two Deluxe boards likewise (15 columns)
    halves = Map([Placement(kinds["1a"], (0, 0)), Placement(kinds["1b"], (1, 0))])
    assert halves.index("bd1aQ5") == halves.index("bd1bQ5")     # VASL's names, one hex
    assert halves.canonical("bd1aQ5") == "bd1bQ5" and not halves.has("bd1bA5")
    assert halves.size == 2 * len(board_hexes((17, 20))) - 20     # column Q: rows 1..20
    deluxe = Map([Placement(kinds["a"], (0, 0)), Placement(kinds["b"], (0, 1))])
    assert deluxe.has("aO5") and deluxe.has("bA1") and not deluxe.has("aP1")
    # the joined map answers LOS as a geomorphic map does (A6.1): along row 2 the woods of
    # bd1bS2 block, the open bd1aO2 does not
    table = los_table(halves)
    seen = table.line(halves.index("bd1aM2"), 0, halves.index("bd1bQ2"), 0)
    blocked = table.line(halves.index("bd1bQ2"), 0, halves.index("bd1bU2"), 0)
    assert bool(seen.clear[0]) and not bool(blocked.clear[0])


@pytest.mark.parametrize("first, second, words", [
    ("1a", "98", "VASL joins only boards of one kind"),
    ("a", "1b", "VASL joins only boards of one kind"),
    ("98", "a", "VASL joins only boards of one kind"),
])
def test_a_map_of_kinds_vasl_cannot_join_is_refused(kinds, first, second, words):
    from engine.errors import ScenarioError
    from engine.maps import Map, Placement
    with pytest.raises(ScenarioError, match=words) as e:
        Map([Placement(kinds[first], (0, 0)), Placement(kinds[second], (1, 0))])
    assert "half board" in str(e.value) or "Deluxe" in str(e.value)


def test_vasl5_picture_geometry_comes_from_board_metadata(tmp_path):
    # rules.md 11.6: a Deluxe board's hexes are 168.79 x 194.2 with A1 at (0, 97.1) as its
    # BoardMetadata.xml says; its old data file rounds them (168.72 x 193.53, y0 97)
    hex_w, hex_h = 168.7857142857, 194.2
    b = synth5.SynthBoard(size=(15, 5), a1=(0, 97.1), hex_w=hex_w, hex_h=hex_h,
                          pixels=(2363, 971))
    b.hex_("C3", "woods", 1)
    b.hex_("N4", "grain", 0)
    b.hex_("O5", "woods", 0)
    meta = synth.metadata_xml("x", "6.2", 15, 5, hexWidth=str(hex_w), hexHeight=str(hex_h),
                              A1CenterX="0", A1CenterY="97.1")
    board, _ = vasl.import_board(b.write(tmp_path / "bdx", metadata=meta,
                                         data="dy 193.53\ndx 168.72\ny0 97\nversion 5.0\n"))
    assert board.size == (15, 5)
    image = board.extra["image"]
    assert (image["hex_width"], image["hex_height"]) == (hex_w, hex_h)
    for hex_id, (terrain, level) in b.hexes.items():
        assert (_at(board, hex_id).terrain, _at(board, hex_id).level) == (terrain, level)


def test_a_dw_b_half_reads_its_rows_from_the_top_of_its_picture(tmp_path):
    # Map.getHexCenterPoint: a negative A1CenterY puts A1 at half a hex height; VASL's names
    # then count on from the "a" half's rows (Map.getGEOHexName: 10 more), and so do ours
    from engine.maps import Map, Placement
    b = synth.SynthBoard("5", synth.GEOMORPHIC)
    b.area("A1 E5 GG10", synth.WOODS, "woods")
    meta = synth.metadata_xml("5", A1CenterX="0", A1CenterY="-612.75")
    board, report = vasl.import_board(b.write(tmp_path / "bd5", metadata=meta))
    _round_trip_hexes(b, board)
    assert any("first hex A11" in r for r in report)
    on_map = Map([Placement(board, (0, 0))])
    assert on_map.has("5A11") and on_map.has("5B10") and on_map.has("5GG20")
    assert not on_map.has("5A1") and on_map.terrain_name(on_map.index("5E15")) == "woods"


def test_a_vasl_map_of_another_size_imports_and_stays_alone(kinds, tmp_path):
    from engine.errors import ScenarioError
    from engine.maps import Map, Placement
    # rules.md 11.6: a LOSData map that is no board kind (a historical map...) imports at its
    # size, and VASL draws it alone
    kind = synth.Kind((21, 12), (1126, 774), (0.0, 32.25), 56.25, 64.5,
                      (("hexWidth", "56.25"), ("hexHeight", "64.5")))
    b = synth.SynthBoard("m", kind)
    b.area("A1 T12 U12", synth.WOODS, "woods")
    board, _ = vasl.import_board(b.write(tmp_path / "bdm"))
    _round_trip_hexes(b, board)
    assert Map([Placement(board, (0, 0))]).has("mU12")
    with pytest.raises(ScenarioError, match="VASL draws it alone"):
        Map([Placement(board, (0, 0)), Placement(kinds["98"], (1, 0))])


def test_the_programs_map_edit_refuses_a_kind_vasl_cannot_join(kinds, tmp_path):
    # what the app's "put the board on the map" asks (api.night.add_board): a half board
    # beside a geomorphic board is refused with the reason; beside a half board it joins
    from engine import api
    from engine.boards import save_board
    from engine.errors import ScenarioError
    save_board(kinds["1a"], tmp_path / "bd1a.json")
    position = api.night.board_position(tmp_path / "bd1a.json")
    with pytest.raises(ScenarioError, match="VASL joins only boards of one kind"):
        api.night.add_board(position, "bd98.json", kinds["98"], (1, 0))
    joined = api.night.add_board(position, "bd1b.json", kinds["1b"], (1, 0))
    assert joined.scenario.map.index("bd1aQ7") == joined.scenario.map.index("bd1bQ7")


def test_a_vasl5_b_half_with_a_negative_x0_reads_a1_at_the_left_edge(tmp_path):
    # BoardArchive reads the data file's x0 as A1CenterX; Map.getHexCenterPoint puts a negative
    # one at x = 0 (a "b" half cut from a 1802-pixel picture: x0 -900)
    b = synth5.SynthBoard(size=(17, 20), a1=(0, 32.25), hex_w=56.25, hex_h=64.5)
    b.hex_("A1", "woods", 0)
    b.hex_("Q20", "woods", 1)
    b.hex_("H9", "grain", 0)
    board, _ = vasl.import_board(b.write(tmp_path / "bd4b", data="version 1\nx0 -900\ny0 32\n"))
    assert board.size == (17, 20) and board.extra["image"]["a1"] == [0.0, 32.25]
    for hex_id, (terrain, level) in b.hexes.items():
        assert (_at(board, hex_id).terrain, _at(board, hex_id).level) == (terrain, level)
    # x0 -900 is 16 hex widths of 56.25: VASL's grid names the first column Q (rules.md 11.6)
    assert board.naming.first_column == 16 and board.name(16, 20) == "GG20"
