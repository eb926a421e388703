"""VASL 5 pictures made into VASL's LOS grid as VASL's own image-to-LOS pipeline does it
(``engine/importers/vasl5_grid.py``: ``LOSDataEditor.createLOSData``), ``BoardMetadata.xml``'s
building types and ``hasHills``, and bridges (B6) on both kinds of archive.  Synthetic archives
only (tests/vasl5_synth.py, tests/vasl_synth.py)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
import vasl5_synth as synth
import vasl_synth
from hypothesis import given, settings
from hypothesis import strategies as st
from support import refused

from engine.boards import hexside_key, save_board
from engine.errors import ScenarioError
from engine.hexes import parse_local
from engine.importers import vasl
from engine.importers.vasl5_grid import nearest_fill, vasl_grid
from engine.importers.vasl5_image import NO_CODE

WOODS, CLIFF, GULLY, STREAM, WATER = 60, 75, 30, 32, 8
SUNKEN, ELEVATED, BRIDGE = 68, 67, 82


def pixel(raster, x: float, y: float):
    """(terrain code, level) of the raster's pixel at (x, y)."""
    x, y = int(x), int(y)
    return int(raster.terrain[y, x]), int(raster.level[y, x])


def hexagon(hex_id: str, scale: float) -> list[tuple[float, float]]:
    x, y = synth.centre(*parse_local(hex_id))
    return [(x + (cx - x) * scale, y + (cy - y) * scale)
            for cx, cy in synth.corners(*parse_local(hex_id))]


# ------------------------------------------------------------------- nearest terrain, level
def test_nearest_ring_is_scanned_column_by_column():
    """VASL's ring r holds the pixels at a distance in (r - 1, r], scanned x then y: at (2, 2)
    a pixel 2 away on the left (x = 0) comes before one sqrt(2) away up and left (x = 1)."""
    values = np.zeros((5, 5), dtype=np.int16)
    known = np.zeros((5, 5), dtype=bool)
    values[1, 1], known[1, 1] = 7, True         # (x=1, y=1): distance sqrt(2)
    values[2, 0], known[2, 0] = 9, True         # (x=0, y=2): distance 2
    out = nearest_fill(values, known, np.ones((5, 5), dtype=bool), 5, -1)
    assert out[2, 2] == 9
    assert out[1, 2] == 7                       # (x=2, y=1): x=1 is 1 away, in ring 1
    near = nearest_fill(values, known, np.ones((5, 5), dtype=bool), 1, -1)
    assert near[2, 2] == -1 and near[4, 4] == -1     # nothing within one pixel: the default


def vasl_nearest(values, source, x: int, y: int, rings: int, default: int):
    """VASL's getNearestElevation / getNearestTerrain loop, as written in LOSDataEditor."""
    h, w = values.shape
    low, high = 0, 1
    while high <= rings:
        for i in range(x - high, x + high + 1):
            for j in range(y - high, y + high + 1):
                d = math.hypot(x - i, y - j)
                if 0 <= i < w and 0 <= j < h and low < d <= high and source[j, i]:
                    return values[j, i]
        low += 1
        high += 1
    return default


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), density=st.sampled_from([0.002, 0.02, 0.2]),
       rings=st.integers(1, 7))
def test_nearest_fill_is_vasls_loop(seed, density, rings):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 9, size=(17, 23)).astype(np.int16)
    known = rng.random((17, 23)) < density
    usable = rng.random((17, 23)) < 0.8
    out = nearest_fill(values, known, usable, rings, -1)
    for y in range(17):
        for x in range(23):
            want = values[y, x] if known[y, x] else vasl_nearest(values, known & usable, x, y,
                                                                 rings, -1)
            assert out[y, x] == want, (x, y)


def test_inherent_terrain_is_skipped_and_open_ground_is_the_last_resort():
    code = np.full((9, 9), NO_CODE, dtype=np.uint8)
    code[4, 5] = 63                             # orchard trees (inherent) right beside
    code[4, 7] = WOODS                          # woods 3 pixels away
    level = np.zeros((9, 9), dtype=np.int8)
    got, _ = vasl_grid(code, level, synth_geometry(), (2, 1), has_hills=False)
    assert got[4, 4] == WOODS and got[4, 5] == 63
    lone = np.full((20, 20), NO_CODE, dtype=np.uint8)
    lone[0, 0] = WOODS
    got, _ = vasl_grid(lone, level.repeat(3, 0).repeat(3, 1)[:20, :20], synth_geometry(),
                       (2, 1), has_hills=False)
    assert got[3, 3] == WOODS and got[19, 19] == 0      # 5 pixels at most, then open ground


def synth_geometry():
    from engine.importers.grid import Geometry
    return Geometry(0.0, 32.25, 56.25, 64.5)


def test_frame_and_marking_pixels_take_the_nearest_terrain_and_level(tmp_path):
    """The black frame and the hex dots are no terrain: they read as the terrain beside them
    and the level of the hill under it, not as open ground."""
    b = synth.SynthBoard()
    b.hex_("E1", "open", 1)
    b.hex_("K5", "woods", 2)
    b.frame = True
    x, _ = synth.centre(*parse_local("E1"))
    b.extra.append(("WoodsGreen", (x - 8, 0, x + 8, 16)))
    board, _ = vasl.import_board(b.write(tmp_path / "bd77"))
    raster = board.raster
    assert raster.terrain[0, int(x) - 5:int(x) + 5].tolist() == [WOODS] * 10
    assert pixel(raster, x, 0) == (WOODS, 1)
    assert pixel(raster, x + 14, 0) == (0, 1)           # the frame over the hill: open, level 1
    cx, cy = synth.centre(*parse_local("K5"))
    assert pixel(raster, cx, cy) == (WOODS, 2)          # the centre dot inside the woods
    assert board.at(*parse_local("K5")).level == 2


def test_cliff_pixels_take_the_lower_hex_level(tmp_path):
    """B10: VASL's cliff pass gives each cliff pixel the lower of its two hexes' levels."""
    b = synth.SynthBoard()
    b.hex_("F5", "open", 2)
    b.side("F5", 4, "cliff")                # F5's south side, F6 below at level 0
    board, _ = vasl.import_board(b.write(tmp_path / "bd77"))
    raster = board.raster
    cliff = raster.terrain == CLIFF
    assert cliff.sum() > 40
    assert set(raster.level[cliff].tolist()) == {0}
    assert board.at(*parse_local("F5")).level == 2 and board.at(*parse_local("F6")).level == 0


# ------------------------------------------------------------------- BoardMetadata.xml
def building_board() -> synth.SynthBoard:
    b = synth.SynthBoard()
    b.hex_("E4", "building", 0)             # WoodBldg3: VASL's colours say a wooden building
    b.hex_("H3", "building", 0)
    return b


def test_building_types_from_the_archive_metadata(tmp_path):
    b = building_board()
    meta = synth.board_metadata([("E4", "Wooden Building, 1 Level")])
    board, report = vasl.import_board(b.write(tmp_path / "bd77", metadata=meta))
    e4, h3 = board.at(*parse_local("E4")), board.at(*parse_local("H3"))
    assert (e4.terrain, e4.upper_levels) == ("building", 1)
    assert (h3.terrain, h3.upper_levels) == ("building", 0)
    x, y = synth.centre(*parse_local("E4"))
    assert pixel(board.raster, x + 5, y)[0] == 51         # Wooden Building, 1 Level
    assert any("BoardMetadata.xml (the archive)" in r for r in report)


def test_building_types_from_a_metadata_file_the_user_names(tmp_path):
    b = building_board()
    archive = b.write(tmp_path / "bd77")
    plain, _ = vasl.import_board(archive)
    assert plain.at(*parse_local("H3")).upper_levels == 0
    meta = tmp_path / "BoardMetadata.xml"
    meta.write_bytes(synth.board_metadata([("H3", "Wooden Building, 2 Level")]))
    board, report = vasl.import_board(archive, metadata=meta)
    assert board.at(*parse_local("H3")).upper_levels == 2
    assert board.at(*parse_local("E4")).upper_levels == 0
    assert any("BoardMetadata.xml (BoardMetadata.xml)" in r for r in report)


@pytest.mark.parametrize("types, words", [
    ([("ZZ9", "Wooden Building, 1 Level")], ['hexName "ZZ9" is no hex', "buildingType 1"]),
    ([("E4", "Wooden Building, 1 Level"), ("E5", "Palace, 9 Level")],
     ['buildingTypeName "Palace, 9 Level" names no VASL terrain', "buildingType 2"]),
])
def test_bad_building_types_are_refused_naming_the_place(types, words, tmp_path):
    archive = building_board().write(tmp_path / "bd77", metadata=synth.board_metadata(types))
    refused(archive, "BoardMetadata.xml", *words)
    meta = tmp_path / "meta.xml"
    meta.write_bytes(synth.board_metadata(types))
    with pytest.raises(ScenarioError) as info:
        vasl.import_board(building_board().write(tmp_path / "bd78"), metadata=meta)
    assert str(info.value).startswith(str(meta) + ": ") and words[0] in str(info.value)


def test_board_without_hills_is_level_zero_under_its_ponds(tmp_path):
    """hasHills FALSE: VASL leaves every pixel at level 0 (a pond's colour says -1)."""
    b = synth.SynthBoard()
    b.hex_("M4", "open", 1)
    b.extra.append(("Water", hexagon("H5", 0.8)))
    flat, _ = vasl.import_board(b.write(tmp_path / "bd77",
                                        metadata=synth.board_metadata(has_hills=False)))
    hilly, _ = vasl.import_board(b.write(tmp_path / "bd78"))
    h5 = parse_local("H5")
    assert (flat.at(*h5).terrain, flat.at(*h5).level) == ("water", 0)
    assert hilly.at(*h5).level == -1
    assert flat.at(*parse_local("M4")).level == 0 and hilly.at(*parse_local("M4")).level == 1
    x, y = synth.centre(*h5)
    assert pixel(flat.raster, x, y) == (WATER, 0)


# ------------------------------------------------------------ depressions, roads, bridges
def test_depressions_one_level_below_what_they_are_drawn_on(tmp_path):
    """A6.3: gully and stream pixels one level down (VASL's depression pass)."""
    b = synth.SynthBoard()
    b.hex_("L4", "open", 1)
    b.extra.append(("GullyBrown1", hexagon("J5", 0.8)))
    b.extra.append(("StreamWater", hexagon("L4", 0.8)))
    board, _ = vasl.import_board(b.write(tmp_path / "bd77"))
    j5, l4 = board.at(*parse_local("J5")), board.at(*parse_local("L4"))
    assert (j5.terrain, j5.level) == ("gully", -1)
    assert (l4.terrain, l4.level) == ("stream", 0)
    assert pixel(board.raster, *synth.centre(*parse_local("J5"))) == (GULLY, -1)
    assert pixel(board.raster, *synth.centre(*parse_local("L4"))) == (STREAM, 0)


def test_sunken_roads_on_a_level_one_hex_are_elevated_roads(tmp_path):
    """VASL's sunken and elevated roads share their colours: on a hex of base level 1 the road
    is elevated (level 1), elsewhere sunken (level -1)."""
    b = synth.SynthBoard()
    b.hex_("L5", "open", 1)
    for h in ("L5", "N5"):
        x, y = synth.centre(*parse_local(h))
        b.extra.append(("SunkRoad1", (x - 25, y + 6, x + 25, y + 14)))
    board, _ = vasl.import_board(b.write(tmp_path / "bd77"))
    x, y = synth.centre(*parse_local("L5"))
    assert pixel(board.raster, x, y + 10) == (ELEVATED, 1)
    x, y = synth.centre(*parse_local("N5"))
    assert pixel(board.raster, x, y + 10) == (SUNKEN, -1)


def test_factory_rim_is_its_wall():
    """B23.71/O5.31: a factory's outermost pixels are its exterior wall."""
    code = np.zeros((30, 30), dtype=np.uint8)
    code[10:20, 10:20] = 47                     # Stone Factory, 1.5 Level
    level = np.zeros((30, 30), dtype=np.int8)
    got, _ = vasl_grid(code, level, synth_geometry(), (2, 1))
    assert got[10, 15] == 45 and got[15, 19] == 45 and got[15, 15] == 47
    assert (got == 45).sum() == 36


def test_bridge_over_a_stream_is_imported(tmp_path):
    """B6: a hex with bridge pixels has a bridge; the bridge is not lowered with the stream."""
    b = synth.SynthBoard()
    b.extra.append(("StreamWater", hexagon("P5", 0.8)))
    x, y = synth.centre(*parse_local("P5"))
    b.extra.append(("BridgeGrey1", (x - 6, y - 30, x + 6, y + 30)))
    board, report = vasl.import_board(b.write(tmp_path / "bd77"))
    p5 = board.at(*parse_local("P5"))
    assert p5.terrain == "stream" and p5.extra == {"bridge": "single_hex_stone"}
    assert pixel(board.raster, x, y) == (BRIDGE, 0)
    assert pixel(board.raster, x + 15, y) == (STREAM, -1)
    assert any("1 hex with a bridge (B6) imported (77P5)" in r for r in report)
    assert not any("bridge" in r and "not imported" in r for r in report)
    save_board(board, tmp_path / "bd77.json")
    saved = json.loads((tmp_path / "bd77.json").read_text())
    assert saved["hexes"]["P5"]["bridge"] == "single_hex_stone"


def test_bridge_of_a_vasl6_archive_is_imported(tmp_path):
    d = vasl_synth.SynthBoard()
    d.depression("G5", STREAM, "stream")
    x, y = vasl_synth.centre("G5")
    d.paint(d.rect(x, y, 10, 50), 84)                   # Stone Bridge
    board, report = vasl.import_board(d.write(tmp_path / "bd99"))
    assert board.at(*parse_local("G5")).extra == {"bridge": "stone"}
    assert any("with a bridge (B6) imported (99G5)" in r for r in report)
    assert not any("bridges" in r and "not imported" in r for r in report)


def test_cli_reads_a_named_metadata_file(tmp_path, capsys):
    from engine.cli import main
    archive = building_board().write(tmp_path / "bd77")
    meta = tmp_path / "BoardMetadata.xml"
    meta.write_bytes(synth.board_metadata([("E4", "Wooden Building, 2 Level")]))
    out = tmp_path / "bd77.json"
    assert main(["import-vasl", str(archive), "-o", str(out), "--metadata", str(meta),
                 "--json"]) == 0
    assert json.loads(out.read_text())["hexes"]["E4"]["upper_levels"] == 2
    assert main(["import-vasl", str(archive), "-o", str(out), "--metadata",
                 str(tmp_path / "none.xml")]) == 2
    assert "none.xml" in capsys.readouterr().err


def test_thick_hexside_terrain_is_on_its_own_side_only(tmp_path):
    """A thick hedge along one hexside spills over the vertices into the hexes beside it; those
    hexes' sides get no hedge (stations along each side's middle, ``hexside_stations``)."""
    d = vasl_synth.SynthBoard()
    d.hexside("H5", "H6", 73, width=9)          # Hedge between H5 and H6
    d.hexside("P3", "Q3", 72, width=9)          # Wall between P3 and Q3 (P3's NE side)
    board, _ = vasl.import_board(d.write(tmp_path / "bd99"))
    want = {hexside_key(*parse_local("H5"), 4): "hedge", hexside_key(*parse_local("P3"), 2): "wall"}
    assert dict(board.hexsides) == want


def test_building_type_of_a_building_that_misses_the_centre_dot(tmp_path):
    """VASL's centre location is the building at a hexside location point when the building
    misses the centre dot: that building takes the type, the open ground around stays open."""
    b = synth.SynthBoard()
    x, y = synth.centre(*parse_local("E4"))
    b.extra.append(("WoodBldg3", (x - 10, y - 31, x + 10, y - 12)))     # over E4's north side
    meta = synth.board_metadata([("E4", "Wooden Building, 1 Level")])
    board, _ = vasl.import_board(b.write(tmp_path / "bd77", metadata=meta))
    raster = board.raster
    assert pixel(raster, x, y - 20)[0] == 51                # the building: 1 Level
    assert pixel(raster, x, y + 15)[0] == 0                 # open ground stays open
