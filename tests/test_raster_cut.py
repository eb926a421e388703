"""The walk's first cut over the terrain as drawn (engine.los.raster_frame): a pixel's class
number alone says whether it can matter above a line's floor (A6.2, A6.4, A6.1: plain terrain
not above the lower end neither blocks nor hinders; hexside, half-level and split terrain
always counts)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_raster_los import (
    GRAIN,
    GULLY,
    ORCHARD,
    RUBBLE,
    WALL_CODE,
    WOODS,
    Drawing,
    centre,
    table,
)

from engine.los import RasterLosTable, los_table
from engine.los.raster_frame import HALF_LEVEL, HEIGHT, HEXSIDE_T, SPLIT
from engine.maps import Map, Placement


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
    code = t.cls_code
    special = HEXSIDE_T[code] | HALF_LEVEL[code] | SPLIT[code]
    top = t.cls_lev + HEIGHT[code]
    assert len(np.unique(top)) >= 3 and special.any()
    number = np.arange(len(code))
    for floor in range(-3, 4):
        counts = special | (top > floor)
        assert np.array_equal(number >= t.cls_from[floor + 128], counts), floor
    # every pixel's class is the one of its terrain, level and hex
    flat = np.flatnonzero(t.terr == WOODS)
    assert (t.cls_code[t.pix_cls[flat]] == WOODS).all()


feature = st.tuples(st.integers(0, 449), st.integers(0, 322), st.integers(3, 40),
                    st.sampled_from([WOODS, ORCHARD, RUBBLE, GRAIN, WALL_CODE, GULLY, None]),
                    st.sampled_from([None, -1, 1, 2]))


@settings(max_examples=40, deadline=None)
@given(st.lists(feature, min_size=1, max_size=10), st.integers(0, 10_000), st.integers(0, 1))
def test_lines_walked_first_points_first_answer_as_walked_whole(features, pick, up):
    """A line blocked within its first points is answered from them (``_judge_staged``): every
    line's answer (clear, why, where, hexside, hindrances) is the one of its whole walk, on two
    boards of random drawings (woods, orchards, rubble, grain, walls, gullies, hills)."""
    boards = []
    for i in (1, 2):
        d = Drawing()
        for x, y, r, code, level in features:
            if code == WALL_CODE:
                d.segment((x, y), (x + r, y + r // 2), 1.5, WALL_CODE)
            else:
                d.disc(x, y, r, code=code, level=level)
        boards.append(d.board(board_id=f"t{i}"))
    m = Map([Placement(boards[0], (0, 0)), Placement(boards[1], (1, 0))])
    t = los_table(m)
    assert isinstance(t, RasterLosTable)
    v = pick % m.size
    targets = np.flatnonzero(np.arange(m.size) != v)
    S, te = int(t.ground[v]) + up, t.ground[targets]
    staged = t._judge_staged(v, S, targets, te)
    whole = t._judge(v, S, targets, te)
    for name, a, b in zip(("clear", "kind", "hex", "across", "hexside", "hindrances"),
                          staged, whole):
        assert np.array_equal(a, b), name
