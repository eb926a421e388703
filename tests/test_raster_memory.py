"""The raster LOS in bounded memory whatever the drawing: a map of noisy drawn terrain (every
pixel its own run, hundreds of thousands of pixel classes) is classed a chunk of pixels at a
time and a viewer's lines judged a run of lines at a time, with the same answers as all at
once; the sixth hindrance (A6.1) found in one pass over the points, as line by line."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from engine.boards import Board, HexTerrain, with_raster
from engine.los import los_table
from engine.los.raster import frame as frame_module
from engine.los.raster import table as table_module
from engine.los.raster.frame import build_frame, map_rasters
from engine.maps import Map, Placement
from engine.raster_file import Raster

SIZE, GEO = (33, 10), (0.0, 32.25, 56.25, 64.5)
W, H = 1801, 645
OPEN, GRAIN, ORCHARD, WOODS = 0, 24, 63, 60


def noisy_map(codes, levels: int = 1, boards: int = 2) -> Map:
    """Boards side by side whose every pixel is drawn at random (fixed seed)."""
    rng = np.random.default_rng(7)
    placed = []
    for k in range(boards):
        terrain = np.array(codes, np.uint8)[rng.integers(0, len(codes), (H, W))]
        level = rng.integers(0, levels, (H, W)).astype(np.int8)
        board = with_raster(Board(f"n{k}", "noisy", HexTerrain(), {}, size=SIZE),
                            Raster(terrain, level, GEO, SIZE))
        placed.append(Placement(board, (k, 0)))
    return Map(placed)


def peak_mb(work):
    tracemalloc.start()
    try:
        out = work()
        return out, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_pixel_classes_are_made_a_chunk_at_a_time_alike(monkeypatch):
    m = noisy_map([OPEN, GRAIN, ORCHARD, WOODS], levels=3)
    rasters = map_rasters(m)
    monkeypatch.setattr(frame_module, "CLASS_CHUNK", 10**9)
    whole = build_frame(m, rasters)
    monkeypatch.setattr(frame_module, "CLASS_CHUNK", 50_000)
    chunked, peak = peak_mb(lambda: build_frame(m, rasters))
    assert len(chunked.cls_level) > 100_000                 # classes by the hundred thousand
    for key in ("pix_cls", "cls_from", "cls_level", "cls_code", "cls_hex", "cls_edge",
                "cls_side", "cls_centre", "cls_flags", "cls_top", "cls_low", "cls_nbr"):
        assert np.array_equal(getattr(whole, key), getattr(chunked, key)), key
    assert peak < 100, peak          # all at once: the keys, their sort and inverse, 2.3 M pixels


@pytest.fixture(scope="module")
def hindered():
    """Orchards and grain everywhere at level 0: most lines end at their sixth hindrance."""
    m = noisy_map([OPEN, GRAIN, ORCHARD])
    return m, los_table(m)


def test_a_viewers_lines_are_judged_a_run_at_a_time_alike(hindered, monkeypatch):
    m, t = hindered
    targets = np.arange(m.size)
    ground = t.ground[targets].astype(np.int64)
    monkeypatch.setattr(table_module, "POINT_BUDGET", 10**9)
    whole = t.lines(0, int(t.ground[0]), targets, ground)
    monkeypatch.setattr(table_module, "POINT_BUDGET", 200_000)
    runs, peak = peak_mb(lambda: t.lines(0, int(t.ground[0]), targets, ground))
    for key in ("clear", "kind", "block_h1", "block_h2", "hindrances", "block_side"):
        assert np.array_equal(getattr(whole, key), getattr(runs, key)), key
    assert peak < 50, peak           # all at once: every point of every line, over 100 MB


def test_the_sixth_hindrance_is_found_as_line_by_line(hindered):
    m, t = hindered
    targets = np.arange(0, m.size, 7)
    ground = t.ground[targets].astype(np.int64)
    field = t.lines(3, int(t.ground[3]), targets, ground)
    sixth = np.flatnonzero(field.kind == table_module.HINDRANCES)
    assert len(sixth) > 20
    for k in sixth[:40].tolist() + np.flatnonzero(field.clear)[:10].tolist():
        one = t.lines(3, int(t.ground[3]), targets[k:k + 1], ground[k:k + 1])
        assert (one.clear[0], one.kind[0], one.block_h1[0], one.hindrances[0]) == (
            field.clear[k], field.kind[k], field.block_h1[k], field.hindrances[k])
