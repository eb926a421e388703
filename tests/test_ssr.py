"""A scenario's terrain SSRs applied as VASL applies them (rules.md 11.2), each rule type and each
of VASL's hand-coded rules, on the drawn terrain (a raster made here) and on the hex model."""
from __future__ import annotations

import numpy as np
import pytest
from test_raster_los import SIZE, Drawing, centre, line, table

from engine.boards import Board, HexTerrain, board_raster
from engine.hexes import parse_local
from engine.ssr.apply import board_with_rules
from engine.ssr.hexmodel import apply_to_hexes
from engine.ssr.pixels import apply_to_raster, codes

C = codes()


def applied(board: Board, *names: str):
    res = board_with_rules(board, names)
    return res.board, res.outcome


def plain(hexes: dict, sides: dict | None = None) -> Board:
    """A board of the hex model alone (no drawing)."""
    specs = {parse_local(k, SIZE): v for k, v in hexes.items()}
    return Board("t1", "hex model", HexTerrain(), specs, size=SIZE, hexsides=sides or {})


def terrain_at(board: Board, name: str) -> HexTerrain:
    return board.at(*parse_local(name, SIZE))


def pixel(board: Board, name: str, dx: int = 0, dy: int = 0) -> tuple[int, int]:
    r = board_raster(board)
    x, y = centre(name)
    return int(r.terrain[int(y) + dy, int(x) + dx]), int(r.level[int(y) + dy, int(x) + dx])


# ------------------------------------------------------------------------ terrainMap
def test_orchard_out_of_season_is_no_longer_an_obstacle_from_above_B14():
    """OrchardOutOfSeason (terrainMap Orchard -> Orchard, Out of Season): the line from level 1
    over the orchard, blocked in season, is clear with one hindrance."""
    d = Drawing()
    d.disc(*centre("E3"), 24, code=C["Orchard"])
    before = d.board({"E3": "orchard"})
    after, outcome = applied(before, "OrchardOutOfSeason")
    assert outcome.applied == ["OrchardOutOfSeason"] and not outcome.not_applied
    m, t = table(before)
    assert not line(m, t, "A2", "I4", a_level=1).clear[0]
    m, t = table(after)
    res = line(m, t, "A2", "I4", a_level=1)
    assert res.clear[0] and int(res.hindrances[0]) == 1
    assert pixel(after, "E3")[0] == C["Orchard, Out of Season"]
    assert terrain_at(after, "E3").terrain == "orchard_out_of_season"
    assert board_raster(after) is not None         # the changed drawing is the board's


def test_woods_to_brush_clears_a_line_on_the_hex_model_too_B13():
    """WoodsToBrush on a board without a drawing: the hex model's woods become brush."""
    before = plain({"E3": HexTerrain("woods")})
    after, outcome = applied(before, "WoodsToBrush")
    m, t = table(before)
    assert not line(m, t, "A2", "I4").clear[0]
    m, t = table(after)
    res = line(m, t, "A2", "I4")
    assert res.clear[0] and int(res.hindrances[0]) == 1
    assert outcome.applied == ["WoodsToBrush"]


def test_hexside_rules_clear_or_change_hedges_and_walls_B9():
    key = next(iter(plain({}).with_hexside(4, 2, 1, "wall").hexsides))
    b = plain({}, {key: "wall"})
    assert apply_to_hexes(b, ["NoWalls"]).hexsides == {}
    assert apply_to_hexes(b, ["WallsToBocage"]).hexsides == {key: "bocage"}
    assert apply_to_hexes(b, ["NoHedges"]).hexsides == {key: "wall"}


# ------------------------------------------------------------------ elevationMap
def test_level_rule_lowers_a_hill_drawn_and_in_the_hex_model():
    """Level1ToLevel0 (elevationMap 1 -> 0): the hill between two ground-level ends no longer
    blocks; every level-1 pixel and hex is level 0."""
    d = Drawing()
    d.disc(*centre("E3"), 40, level=1)
    before = d.board()
    after, _ = applied(before, "Level1ToLevel0")
    m, t = table(before)
    assert not line(m, t, "A2", "I4").clear[0]
    m, t = table(after)
    assert line(m, t, "A2", "I4").clear[0]
    assert int(board_raster(after).level.max()) == 0
    assert terrain_at(before, "E3").level == 1 and terrain_at(after, "E3").level == 0


def test_rules_apply_in_the_order_given():
    """Level2ToLevel1 then Level1ToLevel0 takes level 2 to 0; the other order leaves it at 1."""
    d = Drawing()
    d.disc(*centre("E3"), 40, level=2)
    b = d.board()
    down, _ = applied(b, "Level2ToLevel1", "Level1ToLevel0")
    kept, _ = applied(b, "Level1ToLevel0", "Level2ToLevel1")
    assert pixel(down, "E3")[1] == 0 and terrain_at(down, "E3").level == 0
    assert pixel(kept, "E3")[1] == 1 and terrain_at(kept, "E3").level == 1


# ------------------------------------------------- terrain to level, level to terrain
def test_terrain_to_level_makes_grain_a_hill_of_open_ground():
    """GrainToLevel1 (terrainToElevationMap): grain's pixels take level 1 and become open ground:
    a line clear over grain (one hindrance) is blocked by the new hill."""
    d = Drawing()
    d.disc(*centre("E3"), 40, code=C["Grain"])
    before = d.board({"E3": "grain"})
    after, _ = applied(before, "GrainToLevel1")
    m, t = table(before)
    assert line(m, t, "A2", "I4").clear[0]
    m, t = table(after)
    assert not line(m, t, "A2", "I4").clear[0]
    assert pixel(after, "E3") == (C["Open Ground"], 1)
    assert terrain_at(after, "E3") == HexTerrain("open", 1)


def test_level_to_terrain_makes_a_hill_woods_at_level_0():
    """Level1ToWoods (elevationToTerrainMap): level-1 pixels become woods at level 0."""
    d = Drawing()
    d.disc(*centre("E3"), 40, level=1)
    after, _ = applied(d.board(), "Level1ToWoods")
    assert pixel(after, "E3") == (C["Woods"], 0)
    assert terrain_at(after, "E3") == HexTerrain("woods", 0)
    m, t = table(after)
    assert not line(m, t, "A2", "I4").clear[0]        # woods block a ground-level line


# ---------------------------------------------------------- no effect, unknown names
def test_rules_with_no_los_effect_are_named_and_unknown_ones_never_dropped():
    d = Drawing()
    d.disc(*centre("E3"), 24, code=C["Woods"])
    b = d.board({"E3": "woods"})
    after, outcome = applied(b, "Winter", "NoStairwells", "NoSuchRule", "Level1ToLevel_1",
                             "StoneToGutted1")
    assert outcome.no_effect == ["Winter", "NoStairwells", "StoneToGutted1"]
    assert outcome.not_applied == ["NoSuchRule", "Level1ToLevel_1"]
    r0, r1 = board_raster(b), board_raster(after)
    assert np.array_equal(r0.terrain, r1.terrain) and np.array_equal(r0.level, r1.level)


# ------------------------------------------------------------- VASL's hand-coded rules
def test_rowhouse_bars_to_open_ground_removes_the_walls_B23_71():
    d = Drawing()
    d.segment(centre("E2"), centre("E4"), 2, C["Rowhouse Wall, 1 Level"])
    key = next(iter(plain({}).with_hexside(4, 2, 3, "rowhouse_wall").hexsides))
    b = Board("t1", "rowhouse", HexTerrain(), {}, size=SIZE, hexsides={key: "rowhouse_wall"})
    out = apply_to_raster(board_raster(d.board()), ["RowhouseBarsToOpenGround"]).raster
    assert not np.isin(out.terrain, [76, 77, 78, 79, 80]).any()
    built = apply_to_raster(board_raster(d.board()), ["RowhouseBarsToBuildings"]).raster
    assert (built.terrain == C["Stone Building, 1 Level"]).sum() == \
        (board_raster(d.board()).terrain == C["Rowhouse Wall, 1 Level"]).sum()
    assert apply_to_hexes(b, ["RowhouseBarsToOpenGround"]).hexsides == {}


def test_no_bridge_makes_the_bridge_a_gully_and_lowers_the_hex_centre():
    """NoBridge / BridgeToFord: bridge pixels become gully; a disc of radius hexHeight/3 at the
    bridge hex's centre goes one level below the hex's base."""
    d = Drawing()
    d.segment(centre("E2"), centre("E4"), 3, C["Stone Bridge"])
    r = board_raster(d.board())
    for name in ("NoBridge", "BridgeToFord"):
        out = apply_to_raster(r, [name]).raster
        assert not (out.terrain == C["Stone Bridge"]).any()
        assert (out.terrain == C["Gully"]).sum() == (r.terrain == C["Stone Bridge"]).sum()
        x, y = (int(v) for v in centre("E3"))
        assert out.level[y, x] == -1 and out.level[y, x + 20] == -1
        assert out.level[y, x + 22] == 0                  # outside 64.5 / 3
        assert out.level[int(centre("A2")[1]), 0] == 0


def test_woods_roads_get_woods_at_their_centre_and_block_B13_6():
    """RoadsToPaths: a road through woods (woods on the hexsides) gets a disc of woods at the
    hex centre: the line along the road is blocked."""
    d = Drawing()
    d.disc(*centre("E3"), 40, code=C["Woods"])
    d.segment(centre("A3"), centre("I3"), 6, C["Dirt Road"])
    before = d.board({"E3": "open"})
    after, _ = applied(before, "RoadsToPaths")
    assert pixel(before, "E3")[0] == C["Dirt Road"] and pixel(after, "E3")[0] == C["Woods"]
    assert terrain_at(after, "E3").terrain == "woods"
    m, t = table(before)
    assert line(m, t, "A3", "I3").clear[0]
    m, t = table(after)
    assert not line(m, t, "A3", "I3").clear[0]


def test_pto_rules_make_woods_light_jungle_G2():
    """Bamboo: brush is bamboo; PalmTrees: orchards are palm trees; either (a PTO rule) turns
    all woods into light jungle."""
    d = Drawing()
    d.disc(*centre("C3"), 20, code=C["Brush"])
    d.disc(*centre("E3"), 20, code=C["Orchard"])
    d.disc(*centre("G3"), 20, code=C["Woods"])
    b = d.board({"C3": "brush", "E3": "orchard", "G3": "woods"})
    bam, _ = applied(b, "Bamboo")
    assert [pixel(bam, h)[0] for h in ("C3", "E3", "G3")] == \
        [C["Bamboo"], C["Orchard"], C["Light Jungle"]]
    assert [terrain_at(bam, h).terrain for h in ("C3", "E3", "G3")] == \
        ["bamboo", "orchard", "light_jungle"]
    palm, _ = applied(b, "PalmTrees")
    assert [pixel(palm, h)[0] for h in ("C3", "E3", "G3")] == \
        [C["Brush"], C["Palm Trees"], C["Light Jungle"]]


def test_dense_jungle_fills_woods_hexes_but_keeps_water():
    d = Drawing()
    d.disc(*centre("E3"), 10, code=C["Woods"])
    x, y = centre("E3")
    d.disc(x + 20, y, 4, code=C["Water"])
    after, _ = applied(d.board({"E3": "woods"}), "DenseJungle")
    assert pixel(after, "E3", dx=-25)[0] == C["Dense Jungle"]      # the whole hex
    assert pixel(after, "E3", dx=20)[0] == C["Water"]
    assert pixel(after, "C3")[0] == C["Open Ground"]
    assert terrain_at(after, "E3").terrain == "dense_jungle"


def test_marsh_next_to_woods_becomes_swamp_G8():
    d = Drawing()
    d.disc(*centre("E3"), 20, code=C["Woods"])
    for h in ("E2", "A2"):
        d.disc(*centre(h), 20, code=C["Marsh"])
    b = d.board({"E3": "woods", "E2": "marsh", "A2": "marsh"})
    after, _ = applied(b, "SwampToSwampPattern")
    assert pixel(after, "E2")[0] == C["Swamp"] and pixel(after, "A2")[0] == C["Marsh"]
    assert terrain_at(after, "E2").terrain == "swamp"
    assert terrain_at(after, "A2").terrain == "marsh"
    assert terrain_at(after, "E3").terrain == "light_jungle"        # a PTO rule


@pytest.mark.parametrize("names", [("NoGrain",), ("NoGrain", "Winter"), ()])
def test_the_same_board_and_rules_give_the_same_board(names):
    d = Drawing()
    d.disc(*centre("E3"), 20, code=C["Grain"])
    b = d.board({"E3": "grain"})
    one, two = board_with_rules(b, names).board, board_with_rules(b, names).board
    assert one.content_key == two.content_key
    assert (one.content_key == b.content_key) == (not names)


def test_on_the_hex_model_alone_rules_it_cannot_show_are_named_without_effect():
    b = plain({"E3": HexTerrain("woods")})
    _, outcome = applied(b, "WoodsToBrush", "NoBridge", "CragsToOrchard", "Level1ToLevel_1",
                         "Level2ToLevel1", "Nope")
    assert outcome.applied == ["WoodsToBrush", "Level2ToLevel1"]
    assert outcome.no_effect == ["NoBridge", "CragsToOrchard"]
    assert outcome.not_applied == ["Level1ToLevel_1", "Nope"]
