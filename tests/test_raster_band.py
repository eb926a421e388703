"""A line's hexes before its pixels (engine.los.raster_band, RasterLosTable's spans): only the
stretches of a walk that can meet a hex holding more than plain ground at or below the line's
floor are read, and the answers are those of reading every point."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_raster_los import GRAIN, ORCHARD, RUBBLE, WALL_CODE, WOODS, Drawing, centre, table

from engine.los import RasterLosTable, los_table
from engine.los.raster_band import band_offsets
from engine.los.raster_walk import inside_frame, span_points, walk_lengths, walks_of_width
from engine.maps import Map, Placement

CODES = [WOODS, ORCHARD, RUBBLE, GRAIN, WALL_CODE]
feature = st.tuples(st.integers(0, 449), st.integers(0, 322), st.integers(3, 40),
                    st.sampled_from(CODES + [None]), st.sampled_from([None, -1, 1, 2]))


def drawn(features) -> Drawing:
    d = Drawing()
    for x, y, r, code, level in features:
        if code == WALL_CODE:
            d.segment((x, y), (x + r, y + r // 2), 1.5, WALL_CODE)
        else:
            d.disc(x, y, r, code=code, level=level)
    return d


def every_answer(t, v, floor_shift=0):
    targets = np.arange(t.qa.size - 1)
    return t.lines(v, int(t.ground[v]) + floor_shift, targets, t.ground[:-1])


@settings(max_examples=40, deadline=None)
@given(st.lists(feature, min_size=1, max_size=8), st.integers(0, 10_000), st.integers(0, 1))
def test_spans_hold_every_point_that_can_matter_and_answers_are_unchanged(
        features, pick, shift):
    """Every point of a walk whose pixel is not plain ground at or below the floor lies in one
    of the line's spans; every line's answer (clear, why, where, hindrances) is the one of
    reading all its points."""
    two = [drawn(features).board(board_id=f"t{i}") for i in (1, 2)]
    m = Map([Placement(two[0], (0, 0)), Placement(two[1], (1, 0))])
    t = los_table(m)
    assert isinstance(t, RasterLosTable)
    v = pick % m.size
    targets = np.flatnonzero(np.arange(m.size) != v)
    floor = np.minimum(int(t.ground[v]) + shift, t.ground[targets]).astype(np.int64)
    line_of, lo, hi = t._spans(v, targets, floor)
    keys = (t.cx[targets] - t.cx[v]) * 65536 + (t.cy[targets] - t.cy[v])
    base = int(t.cy[v]) * t.W + int(t.cx[v])
    for i, walk in enumerate(t._walks.offsets(keys.tolist())):
        flat = walk + base
        inside_frame(flat, np.array([len(flat)]))        # row -1: the previous point again
        need = np.flatnonzero(t.pix_low[flat] > floor[i])
        mine = line_of == i
        inside = ((need[:, None] >= lo[mine][None, :])
                  & (need[:, None] <= hi[mine][None, :])).any(axis=1)
        assert inside.all(), (m.names[v], m.names[targets[i]])
    fast = every_answer(t, v, shift)
    t._band_ok = False                    # every point of every line read
    slow = every_answer(t, v, shift)
    for name in ("clear", "kind", "block_h1", "block_h2", "hindrances", "block_side"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


def test_lines_over_plain_ground_read_no_pixel():
    """On open ground every line from a ground-level viewer is known clear from its hexes:
    no span read; woods on one hex give spans to the lines near it only."""
    d = Drawing()
    m, t = table(d.board())
    v = m.index("t1A1")
    targets = np.flatnonzero(np.arange(m.size) != v)
    floor = np.zeros(len(targets), dtype=np.int64)
    assert len(t._spans(v, targets, floor)[0]) == 0
    assert every_answer(t, v).clear.all()
    d.disc(*centre("E3"), 20, code=WOODS)
    m, t = table(d.board({"E3": "woods"}))
    line_of = t._spans(v, targets, floor)[0]
    assert 0 < len(np.unique(line_of)) < len(targets) // 2
    assert m.index("t1I5") in targets[line_of]            # A1 -> I5 passes E3


def test_band_offsets_hold_every_hex_near_the_segment():
    """The band of a difference: every hex whose centre is within the reach of the segment
    (checked against every hex of a wide box), and no other."""
    reach = 1.3
    for parity in (0, 1):
        for dc, dr in [(0, 0), (0, 5), (3, -2), (-7, 4), (12, 1), (-1, -9)]:
            got = band_offsets(np.array([parity]), np.array([dc]), np.array([dr]), reach)[0]
            cs, rs = np.meshgrid(np.arange(-20, 21), np.arange(-20, 21), indexing="ij")
            cs, rs = cs.ravel(), rs.ravel()
            u = 1.5 * cs
            v = np.sqrt(3) * (rs + (((parity + cs) % 2) - parity) / 2)
            U = 1.5 * dc
            V = np.sqrt(3) * (dr + (((parity + dc) % 2) - parity) / 2)
            n = U * U + V * V
            s = np.clip((u * U + v * V) / n, 0, 1) if n else np.zeros(len(u))
            near = (u - s * U) ** 2 + (v - s * V) ** 2 <= reach * reach
            want = {(int(c), int(r)) for c, r in zip(cs[near], rs[near])}
            assert {(int(c), int(r)) for c, r in got.T} == want, (parity, dc, dr)


@settings(max_examples=60, deadline=None)
@given(st.integers(-300, 300), st.integers(-300, 300), st.integers(0, 10_000),
       st.integers(0, 10_000), st.sampled_from([450, 1800]))
def test_a_walk_stretch_is_the_walk_sliced(dx, dy, a, b, width):
    """The points of a stretch of a walk, worked out alone (``span_points``), are that stretch
    of the whole walk (``_walk_offsets``, kept per difference), and its length is
    ``walk_lengths``'."""
    walk = walks_of_width(width).offsets([dx * 65536 + dy])[0]
    assert walk_lengths(np.array([dx]), np.array([dy]))[0] == len(walk)
    lo, hi = sorted((a % len(walk), b % len(walk)))
    got = span_points(np.array([dx, dx]), np.array([dy, dy]), np.array([lo, 0]),
                      np.array([hi, len(walk) - 1]), width)
    assert np.array_equal(got, np.concatenate([walk[lo:hi + 1], walk]))
