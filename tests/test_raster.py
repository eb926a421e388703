"""The terrain as drawn (engine.raster_file, engine.boards): storage beside the board file, hostile raster
files, and imported VASL boards keeping it."""
from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest
import vasl_synth as synth

from engine.boards import Board, HexTerrain, board_raster, load_board, save_board, with_raster
from engine.errors import ScenarioError
from engine.importers import vasl
from engine.los import LosTable, RasterLosTable, los_table
from engine.maps import Map, Placement
from engine.raster_file import MAX_PIXELS, Raster, load_raster

SIZE = (9, 5)
GEO = (0.0, 32.25, 56.25, 64.5)


def small_raster(seed: int = 1) -> Raster:
    rng = np.random.default_rng(seed)
    terrain = rng.choice(np.array([0, 24, 60, 63, 72], dtype=np.uint8), size=(323, 450))
    level = rng.integers(-1, 3, size=(323, 450)).astype(np.int8)
    return Raster(terrain, level, GEO, SIZE)


def small_board() -> Board:
    return Board("t1", "raster board", HexTerrain(), {(4, 3): HexTerrain("woods", 1)}, size=SIZE)


def test_a_raster_round_trips_through_its_file(tmp_path):
    r = small_raster()
    (tmp_path / "x.raster.npz").write_bytes(r.to_bytes())
    back = load_raster(tmp_path / "x.raster.npz")
    assert np.array_equal(back.terrain, r.terrain) and np.array_equal(back.level, r.level)
    assert back.geometry == GEO and back.size == SIZE and back.digest == r.digest
    assert (tmp_path / "x.raster.npz").stat().st_size < r.terrain.nbytes  # compressed


def test_save_board_writes_the_raster_beside_and_names_it(tmp_path):
    board = with_raster(small_board(), small_raster())
    save_board(board, tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["raster"]["file"] == "b.raster.npz"
    assert (tmp_path / "b.raster.npz").is_file()
    loaded = load_board(tmp_path / "b.json")
    r = board_raster(loaded)
    assert r is not None and r.digest == small_raster().digest
    m = Map([Placement(loaded, (0, 0))])
    assert isinstance(los_table(m), RasterLosTable)
    # saved again elsewhere ("Save board as"): the raster follows
    (tmp_path / "other").mkdir()
    save_board(loaded, tmp_path / "other" / "copy.json")
    copied = board_raster(load_board(tmp_path / "other" / "copy.json"))
    assert copied is not None and copied.digest == small_raster().digest
    # written beside the copy, named after it
    assert json.loads((tmp_path / "other" / "copy.json").read_text())["raster"]["file"] == \
        "copy.raster.npz"
    assert (tmp_path / "other" / "copy.raster.npz").is_file()


def test_a_board_edited_by_hand_drops_its_raster(tmp_path):
    board = with_raster(small_board(), small_raster())
    edited = board.with_hex(2, 2, HexTerrain("woods", 0))
    assert edited.raster is None and board_raster(edited) is None
    assert type(los_table(Map([Placement(edited, (0, 0))]))) is LosTable
    save_board(edited, tmp_path / "e.json")
    assert "raster" not in json.loads((tmp_path / "e.json").read_text())


def test_two_drawings_with_the_same_hexes_are_two_maps():
    a = with_raster(small_board(), small_raster(1))
    b = with_raster(small_board(), small_raster(2))
    ma, mb = Map([Placement(a, (0, 0))]), Map([Placement(b, (0, 0))])
    assert ma.content_key != mb.content_key
    assert los_table(ma) is not los_table(mb)


def test_a_missing_or_foreign_raster_file_is_refused_naming_it(tmp_path):
    board = with_raster(small_board(), small_raster(1))
    save_board(board, tmp_path / "b.json")
    (tmp_path / "b.raster.npz").write_bytes(small_raster(2).to_bytes())   # another drawing, its name
    with pytest.raises(ScenarioError, match="b.raster.npz.*digest"):
        load_board(tmp_path / "b.json")                 # never the hex model quietly
    (tmp_path / "b.raster.npz").unlink()
    with pytest.raises(ScenarioError, match="b.raster.npz.*cannot be read"):
        load_board(tmp_path / "b.json")


def _npz(tmp_path, members: dict, name="h.raster.npz", raw: dict | None = None):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for key, arr in members.items():
            b = io.BytesIO()
            np.save(b, arr, allow_pickle=True)
            z.writestr(key + ".npy", b.getvalue())
        for key, data in (raw or {}).items():
            z.writestr(key, data)
    path = tmp_path / name
    path.write_bytes(buf.getvalue())
    return path


def _good():
    r = small_raster()
    return {"terrain": r.terrain, "level": r.level, "geometry": np.array(GEO),
            "size": np.array(SIZE, dtype=np.int64),
            "summary": np.frombuffer(b"abc", dtype=np.uint8)}


@pytest.mark.parametrize("change, words", [
    (lambda m: m.pop("level"), "members"),
    (lambda m: m.update(extra=np.zeros(3)), "members"),
    (lambda m: m.update(terrain=np.array([object()] * 4, dtype=object)), "terrain"),
    (lambda m: m.update(level=m["level"].astype(np.int16)), "dtype"),
    (lambda m: m.update(level=m["level"][:10]), "equal"),
    (lambda m: m["terrain"].__setitem__((5, 7), 250), "unknown terrain code 250 at pixel x=7, y=5"),
    (lambda m: m["level"].__setitem__((1, 1), 99), "ground levels"),
    (lambda m: m.update(geometry=np.array([0.0, 32.25, np.nan, 64.5])), "geometry"),
    (lambda m: m.update(size=np.array([500, 5])), "size"),
    (lambda m: m.update(summary=np.array([200, 1], dtype=np.uint8)), "summary"),
])
def test_hostile_raster_files_are_refused_with_the_file_and_the_member(tmp_path, change, words):
    members = _good()
    change(members)
    path = _npz(tmp_path, members)
    with pytest.raises(ScenarioError) as e:
        load_raster(path)
    assert str(path) in str(e.value) and words in str(e.value)


def test_a_raster_member_that_would_decompress_past_the_bound_is_refused_unread(tmp_path):
    members = _good()
    members.pop("terrain")
    big = b"\x93NUMPY" + b"\0" * (MAX_PIXELS + 10_000)       # compresses to almost nothing
    path = _npz(tmp_path, members, raw={"terrain.npy": big})
    with pytest.raises(ScenarioError, match="terrain.*once decompressed"):
        load_raster(path)


def test_a_file_that_is_no_archive_is_refused(tmp_path):
    path = tmp_path / "junk.raster.npz"
    path.write_bytes(b"not a zip at all")
    with pytest.raises(ScenarioError, match="junk.raster.npz: not a raster archive"):
        load_raster(path)


def test_an_imported_vasl_board_keeps_its_drawing_and_answers_from_it(tmp_path):
    drawn = synth.standard_board("99")
    path = drawn.write(tmp_path / "bd99")
    board, _ = vasl.import_board(path)
    r = board_raster(board)
    assert r is not None and r.shape == (drawn.terrain.shape[1], drawn.terrain.shape[0])
    assert np.array_equal(r.terrain, drawn.terrain.T)
    save_board(board, tmp_path / "bd99.json")
    loaded = load_board(tmp_path / "bd99.json")
    m = Map([Placement(loaded, (0, 0))])
    t = los_table(m)
    assert isinstance(t, RasterLosTable)
    v = m.index("99K3")                      # the level-2 hilltop sees far
    lines = t.from_location(v)
    assert lines.clear.sum() > 20 and not lines.clear.all()


def test_the_benchmark_board_table_is_the_direct_computation_on_every_pair(tmp_path):
    """bench/real_boards.py's board (the synthetic VASL board: hills, woods, buildings, a gully
    and a stream, walls and a hedge, drawn at real size): after ``prepare`` every ground-level
    pair's clear and blind bits are the direct computation's, every line of every row."""
    from engine.los import BLIND
    from engine.los import ground as los_ground
    path = synth.standard_board("98").write(tmp_path / "bd98")
    board, _ = vasl.import_board(path)
    m = Map([Placement(board, (0, 0))])
    assert los_ground.prepare(m)["complete"]
    t = los_table(m)
    assert isinstance(t, RasterLosTable)
    g = t.ground[:-1]
    every = np.arange(m.size)
    for v in range(m.size):
        direct = t.lines(v, int(g[v]), every, g)
        clear, blind = los_ground.ground_row(m, v)
        assert np.array_equal(clear, direct.clear), m.names[v]
        assert np.array_equal(blind, direct.kind == BLIND), m.names[v]
        # A6.1: the hindrances kept beside the clear bits (rules.md 11.4 adds counters to them)
        hindrances = los_ground.ground_hindrances(m, v)
        assert np.array_equal(hindrances[clear], direct.hindrances[clear]), m.names[v]
