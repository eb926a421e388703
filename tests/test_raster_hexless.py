"""The line walk over the terrain as drawn where VASL's hex outlines leave pixels in no hex, and
where a hex's side lies off the map (engine.los.raster: ``hexless``, ``pixels``): generated
boards in VASL's format only (tests/vasl_synth.py)."""
from __future__ import annotations

import numpy as np
import pytest
import vasl_synth as synth

from engine.importers import vasl
from engine.los import los_table
from engine.los.ground import ground_row
from engine.los.ground import prepare as prepare_ground
from engine.los.raster.pixels import off_map_sides
from engine.maps import Map, Placement


def _table(tmp_path, name, kind, draw):
    b = synth.SynthBoard(name, kind)
    draw(b)
    board, _ = vasl.import_board(b.write(tmp_path / f"bd{name}"))
    m = Map([Placement(board, (0, 0))])
    return m, los_table(m)


def _line(m, table, board, a, b):
    res = table.line(m.index(board + a), 0, m.index(board + b), 0)
    return bool(res.clear[0])


def test_a_deluxe_board_has_pixels_in_no_hex_along_its_bottom_edge_only(tmp_path):
    # VASL's outlines (rounded, their bottom vertices moved a pixel up) leave pixels between
    # the bottom row's half hexes and their neighbours in no hex (Map.gridToHex)
    _, table = _table(tmp_path, "a", synth.DELUXE, lambda b: None)
    frame = table.frame
    assert len(frame.hexless)
    rows = frame.hexless // frame.width
    assert rows.min() > frame.height - synth.DELUXE.hex_h / 2 and rows.max() == frame.height - 1
    # each such pixel lies near a vertex of the bottom row: between two hex columns
    x = frame.hexless % frame.width
    third = (x / (synth.DELUXE.hex_w / 3)).astype(int) % 3
    assert (third == 1).all()


def test_a_line_meeting_a_pixel_in_no_hex_ends_there_clear(tmp_path):
    # B5 -> H5 runs along the bottom edge: VASL's walk meets a pixel in no hex (by C5/D5)
    # before the woods of F5 and ends clear; D5 -> H5 meets the woods first: blocked (A6.2)
    m, table = _table(tmp_path, "a", synth.DELUXE,
                      lambda b: b.area("F5", synth.WOODS, "woods"))
    assert _line(m, table, "a", "B5", "H5")
    assert not _line(m, table, "a", "D5", "H5")
    assert not _line(m, table, "a", "H5", "B5")          # the woods before any such pixel
    # the prepared ground field reads each line as walked, not mirrored across such pixels
    prepare_ground(m)
    b5, h5 = m.index("aB5"), m.index("aH5")
    assert bool(ground_row(m, b5)[0][h5]) and not bool(ground_row(m, h5)[0][b5])


def test_a_geomorphic_board_has_no_pixel_in_no_hex_and_its_lines_stay(tmp_path):
    m, table = _table(tmp_path, "98", synth.GEOMORPHIC,
                      lambda b: b.area("F10", synth.WOODS, "woods"))
    assert len(table.frame.hexless) == 0
    # the same line along the bottom edge meets the woods: blocked both ways (A6.2)
    assert not _line(m, table, "98", "B10", "H10")
    assert not _line(m, table, "98", "H10", "B10")


@pytest.mark.parametrize("kind, name", [(synth.DELUXE, "a"), (synth.GEOMORPHIC, "98")],
                         ids=["deluxe", "geomorphic"])
def test_a_wall_met_at_a_vertex_on_the_top_edge_counts_on_its_side_on_the_map(kind, name,
                                                                               tmp_path):
    # B9.2: the wall H0/I1 ends at H0's east vertex on the top edge, where F0 -> J0 runs; VASL
    # never takes a side off the map as a pixel's nearest location (Hex.getNearestLocation),
    # so the wall's pixels there are H0's south-east side: the line is blocked, both ways
    m, table = _table(tmp_path, name, kind,
                      lambda b: b.hexside("H0", "I1", synth.WALL))
    assert not _line(m, table, name, "F0", "J0")
    assert not _line(m, table, name, "J0", "F0")
    # a unit beside the wall sees past it (its own hexside: B9.2)
    assert _line(m, table, name, "G1", "I1")


def test_the_sides_vasl_counts_off_the_map(tmp_path):
    m, _ = _table(tmp_path, "a", synth.DELUXE, lambda b: None)
    off = off_map_sides(m)
    side = {k: off[m.index("a" + k)] for k in ("A1", "O1", "H0", "H5", "G5", "G1")}
    assert np.flatnonzero(side["A1"]).tolist() == [4, 5]        # the first column: west
    assert np.flatnonzero(side["O1"]).tolist() == [1, 2]        # the last column: east
    assert np.flatnonzero(side["H0"]).tolist() == [0, 1, 5]     # an odd column's top half hex
    assert np.flatnonzero(side["H5"]).tolist() == [2, 3, 4]     # ... and its bottom one
    assert not side["G5"].any() and not side["G1"].any()       # even columns' edge sides stay


def _walled_g5(b):
    """Walls on four sides of G5 (drawn along them), and a wall drawn 3 pixels off the G4/G5
    hexside, into G5: the import's stations read it as that hexside's, VASL's location points
    (the sides' middles, a pixel in) do not."""
    for other in ("H4", "H5", "F5", "F4"):
        b.hexside("G5", other, synth.WALL)
    xa, ya = b.centre("G4")
    y, half = (ya + b.centre("G5")[1]) / 2, b.kind.hex_w / 3
    b.paint(b.segment((xa - half - 5, y + 3), (xa + half * 0.8, y + 3), 3), synth.WALL)


def test_a_hexs_hexside_terrain_is_what_is_drawn_at_its_sides_location(tmp_path):
    # B9.2 as VASL reads hexside terrain (Hex.resetTerrain): drawn at the side's location point
    # or at the hex across's, not the imported hex model's; B9.2's table of lines along a
    # hexspine (isIgnorableHexsideTerrain) reads it
    m, table = _table(tmp_path, "j", synth.DELUXE, _walled_g5)
    frame = table.frame
    g4, g5 = m.index("jG4"), m.index("jG5")
    assert m.hexside[g4, 3] != 0                      # the import reads the wall off its side
    assert not frame.side_terrain[g4, 3] and not frame.side_terrain[g5, 0]
    assert frame.side_terrain[g5, 5] and frame.side_terrain[m.index("jF4"), 2]
    # B4 -> H4 runs along G4/G5 and meets the G5/F4 wall at F4's vertex: no wall on G4/G5 for
    # the table, so the one met is not ignored from H4: blocked, both ways
    assert not _line(m, table, "j", "B4", "H4")
    assert not _line(m, table, "j", "H4", "B4")
