"""Rubble counters change their hex's terrain (B24; rules.md 11.4: VASL gives every point of the
hex the counter's terrain): on the hex model and on the terrain as drawn, in every field, one
unit's verdict, the LOS thread, the threat map and the per-pair reference."""
from __future__ import annotations

import numpy as np
from support import board, marker, position, unit

from engine.boards import Board, HexTerrain, with_raster
from engine.los import HALF, RasterLosTable, los_table
from engine.maps import Map, Placement
from engine.night import reference
from engine.night.counter_terrain import los_map
from engine.night.los_thread import los_thread
from engine.night.planner_threat import threat
from engine.night.unit_verdicts import unit_verdict
from engine.night.verdicts import all_fields, visibility_from
from engine.raster_file import Raster
from engine.ssr.pixels import codes


def rubble(hex_id: str, material: str = "stone", **extra):
    return marker("rubble", hex_id, extra={"material": material, **extra})


def two_units(b, markers=()):
    return position(b, units=[unit("A", "t1Q9"), unit("B", "t1Q5", side="axis")],
                    markers=markers, nvr=6)


def test_a_rubble_counter_between_two_ground_units_blocks_their_line_B24_1():
    open_field = two_units(board("t1"))
    assert visibility_from(open_field, "A")["t1Q5"].sight == "nvr"
    s = two_units(board("t1"), [rubble("t1Q7")])
    field = visibility_from(s, "A")
    assert field["t1Q5"].sight == "none"
    reasons = field["t1Q5"].reasons
    assert any("t1Q7 (rubble" in r and "B24.1" in r for r in reasons)
    assert any("t1Q7 is rubble: a Stone Rubble counter" in r for r in reasons)
    assert unit_verdict(s, "A", "B").sight == "none"
    assert reference.sight(s, "A", "t1Q5") == "none"
    assert all_fields(s, ["A"])[0][s.map.index("t1Q5")] == 0
    thread = los_thread(s, "t1Q9", "t1Q5")
    assert not thread.day_clear and "rubble" in thread.day_reason
    assert any("Stone Rubble counter" in r for r in thread.counter_reasons)
    # the threat map: B does not see an allied unit standing in Q9 past the rubble
    seen = threat(s, "allied")
    assert seen.codes[0][s.map.index("t1Q9")] == 0
    # the position's own map keeps the board's terrain (what is drawn, edited and saved)
    assert s.map.terrain_name(s.map.index("t1Q7")) == "open"
    assert los_map(s).terrain_name(s.map.index("t1Q7")) == "rubble"


def test_rubble_from_above_is_no_obstacle_and_wood_rubble_alike():
    s = position(board("t1", {"Q9": {"level": 1}}), units=[unit("A", "t1Q9"),
                 unit("B", "t1Q5", side="axis")], markers=[rubble("t1Q7", "wood")], nvr=6)
    assert visibility_from(s, "A")["t1Q5"].sight == "nvr"


def test_the_counter_moved_away_frees_the_line_and_units_moving_keep_the_map():
    s = two_units(board("t1"), [rubble("t1Q7")])
    assert los_map(s) is not s.map
    moved = s.moved("B", "t1Q4")
    assert los_map(moved) is los_map(s)            # kept while only units change
    away = s.replace(markers=(rubble("t1S7"),))
    assert visibility_from(away, "A")["t1Q5"].sight == "nvr"


# ------------------------------------------------------------------------- the terrain as drawn
SIZE, W, H, GEO = (9, 5), 450, 323, (0.0, 32.25, 56.25, 64.5)


def drawn_board() -> Board:
    """An open 9 x 5 board drawn in VASL's geometry (its hexes open ground at level 0)."""
    raster = Raster(np.zeros((H, W), np.uint8), np.zeros((H, W), np.int8), GEO, SIZE)
    return with_raster(Board("t1", "drawn", HexTerrain(), {}, size=SIZE), raster)


def test_rubble_on_a_drawn_board_makes_every_pixel_of_its_hex_rubble():
    b = drawn_board()
    plain = position(b, units=[unit("A", "t1A2"), unit("B", "t1I4", side="axis")], nvr=9)
    assert isinstance(los_table(plain.map), RasterLosTable)
    assert visibility_from(plain, "A")["t1I4"].sight == "nvr"
    s = plain.replace(markers=(rubble("t1E3"),))
    m = los_map(s)
    table = los_table(m)
    assert isinstance(table, RasterLosTable)
    a, t = m.index("t1A2"), m.index("t1I4")
    line = table.lines(a, 0, np.array([t]), np.array([0]))
    assert not line.clear[0] and int(line.kind[0]) == HALF
    assert visibility_from(s, "A")["t1I4"].sight == "none"
    drawn = m.placements[0].board.raster.terrain
    cx, cy = int(56.25 * 4), int(32.25 + 64.5 * 2)      # E3's centre
    assert drawn[cy, cx] == codes()["Stone Rubble"]
    assert drawn[cy, cx + 40] == 0                        # F's side of the hexside: open
    # the level forms keep VASL's own terrain (its table's height)
    level = los_map(plain.replace(markers=(rubble("t1E3", "wood", level=2),)))
    assert level.placements[0].board.raster.terrain[cy, cx] == codes()["Wooden Rubble Level 2"]


def test_a_rubble_counter_on_a_joined_hex_lays_rubble_on_both_boards():
    b1, b2 = board("t1"), board("t2")
    m = Map([Placement(b1, (0, 0)), Placement(b2, (1, 0))])
    joined = m.index("t1GG5")
    assert len(m.aliases(joined)) == 2
    s = position([(b1, (0, 0)), (b2, (1, 0))], markers=[rubble("t2A5")])
    laid = los_map(s)
    assert laid.terrain_name(joined) == "rubble"
    for p in laid.placements:
        local = (32, 5) if p.board.id == "t1" else (0, 5)
        assert p.board.at(*local).terrain == "rubble"


def test_a_line_along_a_rubble_hexs_side_meets_its_rubble_as_vasl_does():
    """VASL judges a line along a hexside in both hexes, the counter's terrain in its hex
    (checkLOSOnHexsideRule, applyLOSRules): Stone Rubble Level 3 in C4 (three levels high)
    blocks B3 -> D3, which runs along the C3/C4 hexside (seen on real boards, bd02)."""
    plain = position(drawn_board(), units=[unit("A", "t1B3"), unit("B", "t1D3", side="axis")])
    assert visibility_from(plain, "A")["t1D3"].sight == "nvr"
    s = plain.replace(markers=(rubble("t1C4", level=3),))
    m = los_map(s)
    line = los_table(m).lines(m.index("t1B3"), 0, np.array([m.index("t1D3")]), np.array([0]))
    assert not line.clear[0]
    assert visibility_from(s, "A")["t1D3"].sight == "none"


def test_rubble_on_a_board_named_as_a_b_half_lands_on_its_own_hex():
    """rules.md 11.6: a "b" half board names its first column Q; the counter in its S5 is the
    board's third column."""
    from engine.hexes import Naming
    b = Board("h1", "b half", HexTerrain(), {}, size=(17, 20), naming=Naming(first_column=16))
    s = position(b, markers=[rubble("h1S5")])
    laid = los_map(s)
    assert laid.terrain_name(laid.index("h1S5")) == "rubble"
    assert laid.placements[0].board.at(2, 5).terrain == "rubble"
