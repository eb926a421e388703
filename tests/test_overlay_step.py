"""An overlay on a board whose picture was read at one pixel in two (a picture over 10 million
pixels, rules.md 11.6): its pixels are read the same way before they are pasted (rules.md
11.3), and its picture drawn where the board's picture is.  Boards and overlays generated."""
from __future__ import annotations

import math

import numpy as np
from overlay_synth import archive, data_file, filled, gif, hexagon_mask

from engine.boards import Board, HexTerrain, board_raster, with_raster
from engine.hexes import PLAIN, Naming
from engine.importers.overlays import archive_name, read_overlay
from engine.overlay_paste import (
    GEOMORPHIC,
    overlays_hook,
    paste_overlay,
    place_overlay,
    reading_step,
)
from engine.raster_file import Raster

WOODS = 60
SIZE = (9, 5)
SHAPE = (323, 450)                  # a 9 x 5 hex board's picture, hexes 56.25 x 64.5


def _overlay(tmp_path, name, colour, origin="B2"):
    """A one-hex overlay drawn on its origin hex (in the picture's own pixels)."""
    a1_x, a1_y, w, h = GEOMORPHIC
    cx, cy = a1_x + w, a1_y + h * 2 - h / 2              # B2's centre
    shape = (200, 120)
    mask = hexagon_mask(shape, (math.floor(cx + 0.5), math.floor(cy + 0.5)), scale=1.3)
    path = archive(tmp_path / archive_name(name), {f"ovr{name}a.gif": gif(filled(shape, colour,
                                                                                 mask))},
                   data_file({name: f"{origin.lower()}; ; ; ; ; "}))
    return read_overlay(path, name)[0]


def _board(every: int, naming: Naming = PLAIN) -> Board:
    """A board whose picture is SHAPE pixels, its terrain as drawn read at every ``every``-th
    pixel (the picture's grid divided by ``every``)."""
    rng = np.random.default_rng(5)
    terrain = rng.choice([0, 24, 25], size=SHAPE).astype(np.uint8)[::every, ::every].copy()
    level = np.zeros(terrain.shape, np.int8)
    a1_x, a1_y, w, h = GEOMORPHIC
    geometry = (a1_x / every, a1_y / every, w / every, h / every)
    image = {"file": "big.gif", "hex_width": w, "hex_height": h, "a1": [a1_x, a1_y],
             "pixels": [SHAPE[1], SHAPE[0]]}
    b = Board("t1", "a big board", HexTerrain(), {}, {"image": image}, size=SIZE, naming=naming)
    return with_raster(b, Raster(terrain, level, geometry, SIZE))


def test_an_overlay_on_a_board_read_at_one_pixel_in_two_is_read_so_too(tmp_path):
    woods = _overlay(tmp_path, "wd1", "WoodsGreen")
    hill = _overlay(tmp_path, "h9", "Level1")
    records = [(woods, "E3", "E3"), (hill, "G2", "G2")]
    full, half = _board(1), _board(2)
    assert reading_step(full, board_raster(full).geometry) == 1
    assert reading_step(half, board_raster(half).geometry) == 2
    whole_board, whole = overlays_hook(records)(full, board_raster(full))
    board, raster = overlays_hook(records)(half, board_raster(half))
    # rules.md 11.3 / 11.6: pixel i of the reduced terrain is the picture's pixel 2i, pasted
    # or not: the overlay lands on the same pixels, at the same size
    assert np.array_equal(raster.terrain, whole.terrain[::2, ::2])
    assert np.array_equal(raster.level, whole.level[::2, ::2])
    assert (raster.terrain == WOODS).sum() * 4 == \
        (whole.terrain[::2, ::2] == WOODS).sum() * 4 > 0.6 * (whole.terrain == WOODS).sum()
    assert board.at(4, 3).terrain == "woods" and board.at(6, 2).level == 1
    assert {k: v.terrain for k, v in board.hexes.items()} == \
        {k: v.terrain for k, v in whole_board.hexes.items()}


def test_unscaled_the_overlay_would_cover_far_more_pixels(tmp_path):
    # the defect this guards against: the picture's overlay pasted pixel for pixel on the
    # reduced terrain, placed by the reduced grid, covers about four times the pixels
    woods = _overlay(tmp_path, "wd1", "WoodsGreen")
    half = board_raster(_board(2))
    naive = paste_overlay(half.terrain, half.level, half.geometry, SIZE,
                          place_overlay(woods, "E3", "E3", half.geometry))
    _, raster = overlays_hook([(woods, "E3", "E3")])(_board(2), half)
    assert (naive.terrain == WOODS).sum() > 2.5 * (raster.terrain == WOODS).sum()


def test_an_overlays_hexes_are_the_boards_names(tmp_path):
    # rules.md 11.6: a "b" half's record names its hexes Q..GG; the third column is S
    woods = _overlay(tmp_path, "wd1", "WoodsGreen")
    board, _ = overlays_hook([(woods, "S3", "S3")])(_board(1, Naming(16)),
                                                   board_raster(_board(1, Naming(16))))
    assert board.at(2, 3).terrain == "woods"
