"""Hexside terrain and half levels (rules.md 7; SPEC.md "Board file, version 1
extensions"): the board file keys, the worked cases H-01..H-05, and what the verdicts say."""
from __future__ import annotations

import json

import numpy as np
import pytest

from engine.boards import Board, HexTerrain, board_from_json, board_to_json, load_board, save_board
from engine.errors import ScenarioError
from engine.hex_lines import line_transits
from engine.hexes import parse_local
from engine.los import explain_block, los_table
from engine.maps import Map, Placement
from engine.night.los_thread import los_thread
from engine.night.scenario import MapEntry, Scenario, Unit


def board_json(hexsides=None, hexes=None, **extra) -> dict:
    return {"format": "starshell-board", "version": 1, "id": "t1", "title": "hexsides",
            "hexes": hexes or {}, "hexsides": hexsides or {}, **extra}


def hexside_map(hexsides: dict, hexes: dict | None = None) -> Map:
    return Map([Placement(board_from_json(board_json(hexsides, hexes)), (0, 0))])


def line(m: Map, a: str, a_level: int, b: str, b_level: int = 0):
    """The daytime line and its sentence, location to location."""
    day = los_table(m).line(m.index(a), a_level, m.index(b), b_level)
    return bool(day.clear[0]), explain_block(m, day, 0)


# --------------------------------------------------------------------------- board files

def test_old_board_files_load_unchanged():
    old = {"format": "starshell-board", "version": 1, "id": "t1", "title": "old",
           "hexes": {"K5": {"terrain": "woods"}}}
    b = board_from_json(old)
    assert b.hexsides == {} and b.size == (33, 10)
    assert board_to_json(b) == {**old, "default": {"terrain": "open", "level": 0}}


def test_hexsides_and_half_levels_round_trip(tmp_path):
    data = board_json({"F5/1": "wall", "F5/3": "hedge", "C3/4": "bocage", "K2/6": "cliff",
                       "E4/2": "cactus_hedge", "M7/5": "rowhouse_wall"},
                      {"G6": {"terrain": "rubble"}, "H6": {"terrain": "woods", "half_level": True}})
    b = board_from_json(data)
    save_board(b, tmp_path / "b.json")
    again = load_board(tmp_path / "b.json")
    assert again == b
    assert again.hexside(*parse_local("F5"), 1) == "wall"
    assert again.hexside(*parse_local("F4"), 4) == "wall"       # the same hexside, from F4
    assert again.at(*parse_local("H6")).half_level
    written = json.loads((tmp_path / "b.json").read_text())
    # one spelling per hexside: a south, south-west or north-west side is named from beyond it
    assert set(written["hexsides"]) == {"F5/1", "F5/3", "C4/1", "J1/3", "E4/2", "L7/2"}


def test_a_hexside_named_from_both_hexes_with_one_value_is_one_hexside():
    b = board_from_json(board_json({"F5/1": "wall", "F4/4": "wall"}))
    assert len(b.hexsides) == 1


def test_a_hexside_named_twice_with_two_values_is_refused_naming_the_place():
    with pytest.raises(ScenarioError) as e:
        board_from_json(board_json({"F5/1": "wall", "F4/4": "hedge"}), file="b.json")
    assert e.value.file == "b.json" and e.value.place == "hexsides.F4/4"
    assert "F5/1" in e.value.problem and "two values" in e.value.problem


@pytest.mark.parametrize("key, value, place", [
    ("F5", "wall", "hexsides.F5"), ("F5/7", "wall", "hexsides.F5/7"),
    ("F5/0", "wall", "hexsides.F5/0"), ("HH5/1", "wall", "hexsides.HH5/1"),
    ("F5/1", "fence", "hexsides.F5/1"), ("F5/1", 3, "hexsides.F5/1"),
])
def test_bad_hexsides_are_refused_naming_the_place(key, value, place):
    with pytest.raises(ScenarioError) as e:
        board_from_json(board_json({key: value}))
    assert e.value.place == place


def test_a_bad_half_level_is_refused():
    with pytest.raises(ScenarioError) as e:
        board_from_json(board_json(hexes={"G6": {"half_level": "yes"}}))
    assert e.value.place == "hexes.G6.half_level"


def test_a_turned_board_turns_its_hexsides():
    b = board_from_json(board_json({"F5/1": "wall"}))
    m = Map([Placement(b, (0, 0), rotated=True)])
    f5, f4 = m.index("t1F5"), m.index("t1F4")
    # turned half round, F5's north side faces south, towards F4 still
    assert m.hexside_name(f5, 3) == "wall" and m.hexside_name(f4, 0) == "wall"
    assert m.hexside_name(f5, 0) is None


# --------------------------------------------------------------------- worked cases

def test_H01_a_wall_midway_blocks_two_ground_level_ends():
    """H-01: a wall crossed midway between two ground-level ends four hexes apart blocks."""
    m = hexside_map({"F5/1": "wall"})                 # between F4 and F5, on the line F3-F7
    assert m.distance(m.index("t1F3"), m.index("t1F7")) == 4
    clear, why = line(m, "t1F3", 0, "t1F7")
    assert not clear
    assert why.startswith("the wall on the t1F4/t1F5 hexside blocks LOS from t1F3 to t1F7")
    assert why.endswith("(B9.2)")
    assert line(m, "t1F7", 0, "t1F3")[0] is False     # both ways


def test_H02_the_same_wall_on_the_viewers_own_hexside_does_not_block():
    """H-02: the same wall on the viewer's own hexside does not."""
    m = hexside_map({"F4/1": "wall"})                 # F3's south side
    assert line(m, "t1F3", 0, "t1F7") == (True, "daytime LOS from t1F3 to t1F7 is clear (A6.1)")
    assert line(m, "t1F7", 0, "t1F3")[0]              # ... nor on the target's own hexside


def test_H03_a_viewer_on_a_level_one_hill_sees_over_the_wall():
    """H-03: a viewer on a level-1 hill sees over it."""
    m = hexside_map({"F5/1": "wall"}, {"F3": {"level": 1}})
    assert line(m, "t1F3", 0, "t1F7")[0]
    flat = hexside_map({"F5/1": "wall"})
    assert line(flat, "t1F3", 1, "t1F7")[0]           # any higher viewer: a building's level 1


def test_H04_bocage_is_a_one_level_hexside_obstacle_with_blind_hexes():
    """H-04: bocage between two ground-level ends blocks; from a level-1 viewer it still blocks
    a ground-level target beyond it (its top equals the higher end, A6.2); a level-2 viewer
    sees over it, and a target whose own hexside it is, is not blind behind it."""
    flat = hexside_map({"F5/1": "bocage"})
    clear, why = line(flat, "t1F1", 0, "t1F7")
    assert not clear and "the bocage on the t1F4/t1F5 hexside" in why and "(B9.52 / A6.2)" in why
    m = hexside_map({"F5/1": "bocage"}, {"F3": {"level": 1}})
    clear, why = line(m, "t1F3", 0, "t1F7")           # level-1 viewer
    assert not clear and "no height advantage" in why
    level2 = hexside_map({"F5/1": "bocage"}, {"F3": {"level": 2}})
    assert line(level2, "t1F3", 0, "t1F7")[0]          # sees over it
    assert line(level2, "t1F3", 0, "t1F5")[0]          # its target's own hexside: not blind
    clear, why = line(level2, "t1F3", 0, "t1F6")       # one hex behind it is blind (A6.4)
    assert not clear and "blind hexes" in why and "A6.4" in why


def test_H05_rubble_blocks_only_two_ends_at_its_ground_level():
    """H-05: rubble between two ground-level ends blocks, between a level-1 end and a
    ground-level end it does not."""
    m = hexside_map({}, {"F5": {"terrain": "rubble"}, "F3": {"level": 1}, "F1": {"level": 0}})
    clear, why = line(m, "t1F7", 0, "t1F2")
    assert not clear and "t1F5 (rubble, ground level 0)" in why and "half-level" in why
    assert line(m, "t1F3", 0, "t1F7")[0]               # from level 1
    assert line(m, "t1F7", 0, "t1F3")[0]               # to level 1
    # a half level that is not rubble: the hex says so
    woods = hexside_map({}, {"F5": {"terrain": "woods", "half_level": True}, "F3": {"level": 1}})
    assert not line(woods, "t1F7", 0, "t1F2")[0]
    assert line(woods, "t1F3", 0, "t1F7")[0]


# ------------------------------------------------------------------------- more rules

def test_a_hedge_on_a_hexspine_of_the_viewer_is_ignored_but_bocage_is_not():
    """rules.md 7: a wall or hedge met at a vertex of the viewer's hex is ignored; bocage there
    is not.  F4 -> H4 runs along the G4/G5 hexside, which radiates from a vertex of F4 (and of
    H4)."""
    tr = line_transits(2, -1)                          # F4 -> H4 in axial offsets
    assert [[1, -1], [1, 0]] in tr.sides.tolist()      # the run along G4/G5
    for name, clear in (("hedge", True), ("wall", True), ("bocage", False)):
        m = hexside_map({"G5/1": name})
        assert line(m, "t1F4", 0, "t1H4")[0] is clear, name


def test_rowhouse_walls_block_even_between_neighbours():
    m = hexside_map({"F5/1": "rowhouse_wall"},
                    {"F4": {"terrain": "building", "building": "r"},
                     "F5": {"terrain": "building", "building": "r"}})
    clear, why = line(m, "t1F4", 0, "t1F5")
    assert not clear and "rowhouse wall on the t1F4/t1F5 hexside" in why and "B23.71" in why


def test_a_cliff_makes_the_crest_count_as_an_obstacle():
    """VASL's nearestHexsideIsCliff: behind a cliff, the blind hexes are counted as behind an
    obstacle (+1, at least 1), not as behind a bare crest."""
    hexes = {"F2": {"level": 3}, "F3": {"level": 1}}
    crest = hexside_map({}, hexes)
    cliff = hexside_map({"F4/1": "cliff"}, hexes)      # the drop from F3 down to F4
    # from level 3 down over the level-1 crest F3 to the hex below it: bare crest -> seen
    assert line(crest, "t1F2", 0, "t1F4")[0]
    clear, why = line(cliff, "t1F2", 0, "t1F4")
    assert not clear and "cliff on the t1F3/t1F4 hexside" in why and "blind" in why


def test_a_line_along_a_walled_hexside_crosses_it():
    """rules.md 7: terrain lying on a hexside is crossed by a line running along it (VASL)."""
    tr = line_transits(6, -3)                          # F5 -> L5 in axial offsets
    assert [[3, -2], [3, -1]] in tr.sides.tolist()     # its middle run: along I5/I6
    m = hexside_map({"I6/1": "wall"})
    clear, why = line(m, "t1F5", 0, "t1L5")
    assert not clear and "the wall on the t1I5/t1I6 hexside" in why


def test_hexsides_on_a_map_without_any_cost_nothing(tmp_path):
    m = hexside_map({})
    assert not m.any_hexsides
    day = los_table(m).from_location(m.index("t1F3"), 0)
    assert np.all(day.block_side == 0)


def test_the_thread_lists_the_hexsides_with_terrain_it_crosses():
    b = board_from_json(board_json({"F5/1": "wall", "F6/1": "hedge", "F4/1": "bocage"}))
    m = Map([Placement(b, (0, 0))])
    s = Scenario((MapEntry("t1", (0, 0)),), m, units=(Unit("A", "allied", "squad", "t1F3"),))
    t = los_thread(s, "t1F3", "t1F7")
    assert [(h["hexes"], h["terrain"], h["ignored"]) for h in t.hexside_terrain] == [
        (("t1F3", "t1F4"), "bocage", True), (("t1F4", "t1F5"), "wall", False),
        (("t1F5", "t1F6"), "hedge", False)]
    assert t.blocking == ["t1F4", "t1F5"] and "wall" in t.day_reason


def test_a_board_without_hexsides_gives_the_same_field_as_before():
    plain = Board("t1", "x", HexTerrain(), {parse_local("K5"): HexTerrain("woods")})
    m = Map([Placement(plain, (0, 0))])
    day = los_table(m).from_location(m.index("t1F3"), 0)
    assert day.block_side is not None and not day.block_side.any()


# ------------------------------------------------------------------------ VASL import

def test_vasl_import_brings_hexside_terrain_and_rubble_as_a_half_level(tmp_path):
    """engine/importers/vasl.py: walls, hedges, bocage, cliffs, cactus hedges and rowhouse walls
    (codes 72-80, 116) land on their hexsides; rubble is a half level; none is listed as left
    out."""
    import vasl_synth

    from engine.importers import vasl
    b = vasl_synth.SynthBoard("98")
    b.hexside("F4", "F5", vasl_synth.WALL)            # a north-south neighbour pair
    b.hexside("K4", "L4", vasl_synth.HEDGE)           # K4's south-east side (K even, L odd)
    b.hexside("P6", "Q6", vasl_synth.BOCAGE)          # P6's north-east side
    b.hexside("T3", "T4", vasl_synth.CLIFF)
    b.hexside("X7", "Y7", 116)                        # cactus hedge
    b.area("W2", vasl_synth.STONE_RUBBLE, "rubble")
    board, report = vasl.import_board(b.write(tmp_path / "bd98"))
    side = lambda h, d: board.hexside(*parse_local(h), d)   # noqa: E731
    assert side("F5", 1) == "wall" and side("F4", 4) == "wall"
    assert side("K4", 3) == "hedge"
    assert side("P6", 2) == "bocage"
    assert side("T4", 1) == "cliff"
    assert side("X7", 2) == "cactus_hedge"            # X odd, Y even: Y7 is north-east
    assert len(board.hexsides) == 5                   # nothing spilled onto neighbouring sides
    assert board.at(*parse_local("W2")).terrain == "rubble"
    m = Map([Placement(board, (0, 0))])
    assert m.half_level[m.index("98W2")] and m.obstacle_height[m.index("98W2")] == 0
    text = "\n".join(report)
    assert "1 hexside of bocage imported (98P6/2)" in text
    assert "not imported" not in text and "follow-up" not in text
