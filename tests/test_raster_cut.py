"""The walk's first cut over the terrain as drawn (engine.los.raster.frame): a pixel's class
number alone says whether it can matter above a line's floor (A6.2, A6.4, A6.1: plain terrain
not above the lower end neither blocks nor hinders; hexside, half-level and split terrain
always counts)."""
from __future__ import annotations

import numpy as np
from test_raster_los import (
    GRAIN,
    ORCHARD,
    RUBBLE,
    WALL_CODE,
    WOODS,
    Drawing,
    centre,
    table,
)

from engine.los.raster.terrain import HALF_LEVEL, HEIGHT, HEXSIDE_T, SPLIT


def test_a_class_number_says_above_which_floors_its_pixels_count():
    d = Drawing()
    d.disc(*centre("E3"), 20, code=WOODS)
    d.disc(*centre("G2"), 25, level=1)
    d.disc(*centre("G2"), 8, code=WOODS)
    d.disc(*centre("C4"), 15, code=ORCHARD)
    d.disc(*centre("B2"), 12, code=RUBBLE)
    d.disc(*centre("H4"), 14, code=GRAIN, level=-1)
    d.segment(centre("B3"), centre("C3"), 2, WALL_CODE)
    _, t = table(d.board({"E3": "woods", "C4": "orchard"}))
    code = t.frame.cls_code
    special = HEXSIDE_T[code] | HALF_LEVEL[code] | SPLIT[code]
    top = t.frame.cls_level + HEIGHT[code]
    assert len(np.unique(top)) >= 3 and special.any()
    number = np.arange(len(code))
    for floor in range(-3, 4):
        counts = special | (top > floor)
        assert np.array_equal(number >= t.frame.cls_from[floor + 128], counts), floor
    # every pixel's class is the one of its terrain, level and hex
    flat = np.flatnonzero(t.frame.terrain == WOODS)
    assert (t.frame.cls_code[t.frame.pix_cls[flat]] == WOODS).all()
