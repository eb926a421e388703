"""VASL gives no vehicle hindrance up a slope nor from hillock to hillock (rules.md 11.4; its
``checkVehicleHindranceRule``): slopes read from a board archive's metadata and kept in the board
file, hillocks on the terrain as drawn."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import vasl_synth as synth
from support import board, position, unit

from engine.boards import Board, HexTerrain, with_raster
from engine.errors import ScenarioError
from engine.importers import vasl
from engine.los.vehicle_rules import exit_sides, map_slopes
from engine.maps import Map, Placement
from engine.night.counters import line_counters
from engine.raster_file import Raster

HILLOCK = 105


def hindrance(s, viewer: str, target: str) -> int:
    m = s.map
    return int(line_counters(s, m.index(viewer), 0, m.index(target), 0).extra[0])


def sloped(slopes: dict):
    return dataclasses.replace(board("t1"), extra={"slopes": slopes})


@pytest.mark.parametrize("slopes, amount", [
    ({}, 1),
    ({"Q9": [0]}, 0),             # the line leaves Q9 by its top side, a slope
    ({"Q5": [3]}, 0),             # ... enters Q5 by its bottom side, a slope
    ({"Q9": [3], "Q5": [0]}, 1),  # slopes on the sides the line does not cross
])
def test_no_vehicle_hindrance_up_a_slope(slopes, amount):
    s = position(sloped(slopes), units=[unit("T", "t1Q7", type="vehicle")])
    assert hindrance(s, "t1Q9", "t1Q5") == amount


def test_a_turned_board_turns_its_slopes():
    b = sloped({"Q9": [0]})
    m = Map([Placement(b, (0, 0), rotated=True)])
    assert map_slopes(m)[m.index("t1Q9")].tolist() == [False, False, False, True, False, False]


def test_a_line_through_a_vertex_leaves_by_both_sides():
    m = Map([Placement(board("t1"), (0, 0))])
    got = exit_sides(m, m.index("t1Q5"), np.array([m.index("t1U5"), m.index("t1Q2")]))
    assert got[0].tolist() == [False, True, True, False, False, False]     # due east
    assert got[1].tolist() == [True, False, False, False, False, False]    # due north


def test_a_bad_slopes_key_is_named_with_its_board():
    s = position(sloped({"Q9": [7]}), units=[unit("T", "t1Q7", type="vehicle")])
    with pytest.raises(ScenarioError, match="slopes.Q9"):
        hindrance(s, "t1Q9", "t1Q5")


def test_slopes_come_from_the_boards_metadata(tmp_path):
    drawn = synth.standard_board("98")
    meta = synth.metadata_xml("98").replace(
        b"</boardMetadata>", b'<slopes><slope hex="G5" hexsides="01"/></slopes></boardMetadata>')
    board_, _ = vasl.import_board(drawn.write(tmp_path / "bd98", metadata=meta))
    assert board_.extra["slopes"] == {"G5": [0, 1]}
    bad = synth.metadata_xml("98").replace(
        b"</boardMetadata>", b'<slopes><slope hex="G5" hexsides="9"/></slopes></boardMetadata>')
    with pytest.raises(ScenarioError, match="slope 1"):
        vasl.import_board(drawn.write(tmp_path / "bd98", metadata=bad))


# ------------------------------------------------------------------- hillocks, as drawn
SIZE, W, H, GEO = (9, 5), 450, 323, (0.0, 32.25, 56.25, 64.5)


def centre(col: int, row: int):
    return 56.25 * col, 32.25 + 64.5 * (row - 1 + col % 2) - 32.25 * (col % 2)


def hillock_board(*hexes) -> Board:
    terrain = np.zeros((H, W), np.uint8)
    ys, xs = np.mgrid[0:H, 0:W]
    for col, row in hexes:
        x, y = centre(col, row)
        terrain[(xs - x) ** 2 + (ys - y) ** 2 <= 20 ** 2] = HILLOCK
    raster = Raster(terrain, np.zeros((H, W), np.int8), GEO, SIZE)
    specs = {h: HexTerrain("rubble") for h in hexes}      # VASL's hillock: imported as rubble
    return with_raster(Board("t1", "hillocks", HexTerrain(), specs, size=SIZE), raster)


def test_no_vehicle_hindrance_from_hillock_to_hillock_unless_the_vehicle_is_on_one():
    ends = [(0, 3), (8, 3)]                     # A3 and I3, a level line along row 3
    s = position(hillock_board(*ends), units=[unit("T", "t1E3", type="vehicle")])
    assert hindrance(s, "t1A3", "t1I3") == 0
    plain = position(hillock_board(), units=[unit("T", "t1E3", type="vehicle")])
    assert hindrance(plain, "t1A3", "t1I3") == 1
    on_one = position(hillock_board(*ends, (4, 3)), units=[unit("T", "t1E3", type="vehicle")])
    assert hindrance(on_one, "t1A3", "t1I3") == 1
