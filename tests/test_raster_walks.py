"""VASL's walks of lines over a pixel frame (engine.los.raster_walk): built once per pixel
difference, a leftward walk as the rightward one mirrored, equal to the walk built directly."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.los.raster_walk import mirrored, walks_of_width


def direct(dx: int, dy: int, width: int) -> np.ndarray:
    """The walk as VASL's Map.LOS steps it: column by column, every row between the line's
    entry into the column and its exit (y * width + x)."""
    n = abs(dx) + 1
    out = []
    for c in range(n):
        x = c if dx >= 0 else -c
        enter = int(np.floor(c * (dy / n)))
        leave = int(np.floor((c + 1) * (dy / n)))
        step = 1 if leave >= enter else -1
        out += [y * width + x for y in range(enter, leave + step, step)]
    return np.array(out, dtype=np.int64)


@settings(max_examples=60, deadline=None)
@given(st.integers(-699, 699), st.integers(-700, 700), st.sampled_from([1801, 1800, 3600, 701]))
def test_every_walk_is_vasl_walk_leftward_ones_mirrored(dx, dy, width):
    walks = walks_of_width(width)
    key = dx * 65536 + dy
    (got,) = walks.offsets([key])
    assert np.array_equal(got.astype(np.int64), direct(dx, dy, width))
    # both ways asked at once: one built, the other its mirror
    there, back = walks.offsets([(dx + 1) * 65536 + dy, -(dx + 1) * 65536 + dy])
    assert np.array_equal(there.astype(np.int64), direct(dx + 1, dy, width))
    assert np.array_equal(back.astype(np.int64), direct(-dx - 1, dy, width))
    if dx >= 0:
        assert np.array_equal(mirrored(got, width).astype(np.int64), direct(-dx, dy, width))
