"""Editing a scenario's map (the engine's side): units keep their hexes or are reported."""
import pytest
from support import example

from engine import ScenarioError, visibility_from
from engine.boards import HexTerrain, bundled_board
from engine.hexes import parse_local
from engine.night.files import load_scenario, save_scenario
from engine.night.layout import add_board, move_board, remove_board, set_layout, with_board
from engine.night.scenario import MapEntry


def test_adding_a_board_keeps_every_unit_and_joins_the_edge():
    s = example("W-12")
    r = add_board(s, "34", bundled_board("34"), (1, 0))
    assert r.report == []
    assert r.scenario.map.size == 2 * 346 - 10
    assert r.scenario.map.canonical("2GG5") == "34A5"
    assert [u.hex for u in r.scenario.units] == [u.hex for u in s.units]


def test_removing_a_board_reports_the_units_and_markers_that_leave():
    s = add_board(example("W-12"), "34", bundled_board("34"), (1, 0)).scenario
    s = s.with_unit(s.units[0].replace(id="Z", hex="34E5"))
    r = remove_board(s, 1)
    assert [u.id for u in r.scenario.units] == ["A", "B"]
    assert r.report == ["unit Z in 34E5 was removed: its board left the map"]
    r = remove_board(s, 0)
    assert {u.id for u in r.scenario.units} == {"Z"}
    assert any("starshell" in line for line in r.report)
    with pytest.raises(ScenarioError):
        remove_board(example("W-12"), 0)


def test_a_joined_hex_keeps_its_unit_under_its_other_name():
    s = add_board(example("W-12"), "34", bundled_board("34"), (1, 0)).scenario
    s = s.with_unit(s.units[0].replace(id="J", hex="34A5"))     # also 2GG5
    r = remove_board(s, 1)
    assert r.scenario.unit("J").hex == "2GG5" and r.report == []


def test_rotating_a_board_moves_what_stands_on_it():
    s = example("W-12")
    r = move_board(s, 0, rotated=True)
    m = r.scenario.map
    a = m.index(r.scenario.unit("A").hex)
    assert r.scenario.unit("A").hex == "2CC6"
    assert m.pos(a) == (32 - 28, 11 - 6)                # CC6 turned half round
    assert visibility_from(r.scenario, "A")["2Y4"].sight == "nvr"   # lit, so still seen


def test_painting_a_board_changes_LOS_and_can_ground_a_unit(tmp_path):
    s = example("W-12")
    board = bundled_board("2")
    c, n = parse_local("AA5")
    woods = board.with_hex(c, n, HexTerrain("woods"))
    assert visibility_from(s, "A")["2Y4"].sight == "nvr"
    r = with_board(s, woods)
    assert visibility_from(r.scenario, "A")["2Y4"].sight == "none"     # 2AA5 now blocks
    # a unit upstairs in a building that is painted away comes down, reported
    c2, n2 = parse_local("Y4")
    house = board.with_hex(c2, n2, HexTerrain("building", 0, "h", 1))
    s2 = with_board(s, house).scenario
    s2 = s2.with_unit(s2.unit("B").replace(level=1))
    r2 = with_board(s2, board)
    assert r2.scenario.unit("B").level == 0 and "came down" in r2.report[0]


def test_an_edited_board_saved_by_path_reloads(tmp_path):
    from engine.boards import save_board
    s = example("W-12")
    board = bundled_board("2")
    c, n = parse_local("AA5")
    edited = board.with_hex(c, n, HexTerrain("woods"))
    save_board(edited, tmp_path / "my2.json")
    r = with_board(s, edited, ref=str(tmp_path / "my2.json"))
    saved = save_scenario(r.scenario, tmp_path / "pos.json")
    again = load_scenario(tmp_path / "pos.json")
    assert again.map_entries[0].board == "my2.json"
    assert visibility_from(again, "A")["2Y4"].sight == "none"
    assert saved.map.content_key == again.map.content_key


def test_the_same_board_twice_is_refused():
    s = example("W-12")
    with pytest.raises(ScenarioError, match="twice"):
        set_layout(s, list(s.map_entries) + [MapEntry("2", (1, 0))])


def test_renaming_a_board_renames_the_hexes_of_its_units():
    s = example("W-12")
    board = bundled_board("2")
    renamed = board.__class__("b7", board.title, board.default, board.hexes)
    r = with_board(s, renamed, ref="b7.json", replacing="2")
    assert [u.hex for u in r.scenario.units] == ["b7CC6", "b7Y4"]
    assert r.scenario.markers[0].hex == "b7Y4" and r.report == []
    assert visibility_from(r.scenario, "A")["b7Y4"].sight == "nvr"


def test_a_new_position_on_a_bundled_board_names_it_by_its_id(tmp_path):
    """File > New on assets/boards/34.json, saved elsewhere: the file names board "34", as the
    bundled positions do, never a path back into the program's folders."""
    import json

    from engine.boards import assets_dir
    from engine.night.new_position import board_position
    s = board_position(assets_dir() / "boards" / "34.json")
    save_scenario(s, tmp_path / "mine.json")
    saved = json.loads((tmp_path / "mine.json").read_text())
    assert [e["board"] for e in saved["map"]] == ["34"]
    own = tmp_path / "b.json"                       # a board file of the player's: its name
    own.write_text((assets_dir() / "boards" / "34.json").read_text())
    assert board_position(own).map_entries[0].board == "b.json"
