"""Line geometry computed for many differences at once (``hex_lines.line_crossings`` and the shared
crossing arrays of engine/los/geometry.py) is exactly the one-line-at-a-time geometry
(``hex_lines.line_crossing``)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hex_lines import line_crossing, line_crossings
from engine.los.geometry import _canonical, _canonical_many, _Crossings


def _sector(reach: int):
    """Every difference of the sector -dq <= dr <= -dq / 2 up to range ``reach``."""
    dq, dr = np.meshgrid(np.arange(reach + 1), np.arange(-reach, 1), indexing="ij")
    dq, dr = dq.ravel(), dr.ravel()
    ok = (dr >= -dq) & (2 * dr <= -dq)
    return dq[ok], dr[ok]


def _assert_batch_is_line_crossing(dq, dr):
    got = line_crossings(dq, dr)
    start = np.cumsum(got.count) - got.count
    for k, (q, r) in enumerate(zip(dq.tolist(), dr.tolist())):
        one = line_crossing(q, r)
        assert bool(got.along[k]) == (len(one.sides_t) > 0), (q, r)
        part = slice(start[k], start[k] + got.count[k])
        if got.along[k]:
            assert got.count[k] == 0
            continue
        assert np.array_equal(np.stack([got.q[part], got.r[part]], axis=1).reshape(-1, 2),
                              one.interior), (q, r)
        assert np.array_equal(got.t[part], one.interior_t), (q, r)


def test_every_sector_line_up_to_range_40_is_the_single_line_answer():
    """Hexes entered, their order along the line, and which lines run along hexsides (left to
    line_crossing): the same for all 441 differences of the sector up to range 40."""
    _assert_batch_is_line_crossing(*_sector(40))


@settings(max_examples=25, deadline=None)
@given(d=st.lists(st.tuples(st.integers(0, 260), st.integers(0, 1000)), min_size=1,
                  max_size=30))
def test_long_lines_in_one_batch_are_the_single_line_answers(d):
    """Long lines (big common scales of the exact interval arithmetic) mixed in one batch."""
    dq = np.array([q for q, _ in d])
    dr = np.array([-((q + 1) // 2 + f * (q - (q + 1) // 2) // 1000) for q, f in d])
    _assert_batch_is_line_crossing(dq, dr)


def test_a_difference_outside_the_sector_is_refused():
    with pytest.raises(ValueError, match="sector"):
        line_crossings(np.array([3]), np.array([1]))


def test_symmetries_of_many_differences_are_those_of_one():
    """The canonical difference, permutation and sign of every difference up to range 14."""
    q, r = np.meshgrid(np.arange(-14, 15), np.arange(-14, 15), indexing="ij")
    q, r = q.ravel(), r.ravel()
    canon, inverse, sign = _canonical_many(q, r)
    for k in range(len(q)):
        c, inv, s = _canonical(int(q[k]), int(-q[k] - r[k]), int(r[k]))
        assert tuple(canon[k]) == c and list(inverse[k]) == inv and sign[k] == s


def test_shared_crossing_rows_are_each_line_crossing_in_any_batching():
    """Whatever batches the differences come in, every difference's row of interior hexes (and
    hexside runs, for lines along a hexspine) is line_crossing's, nearest first."""
    rng = np.random.default_rng(7)
    keys = rng.permutation(np.stack(np.meshgrid(np.arange(-16, 17), np.arange(-16, 17),
                                                indexing="ij"), axis=-1).reshape(-1, 2))
    table = _Crossings()
    for part in np.array_split(keys, [5, 90, 400]):
        table.ids(part[:, 0], part[:, 1])
    ids = table.ids(keys[:, 0], keys[:, 1])
    for (q, r), i in zip(keys.tolist(), ids.tolist()):
        one = line_crossing(q, r)
        a, n = table.istart[i], table.icount[i]
        assert np.array_equal(np.stack([table.iq[a:a + n], table.ir[a:a + n]], axis=1),
                              one.interior.reshape(-1, 2)), (q, r)
        assert np.array_equal(table.it[a:a + n], 2 * one.interior_t)
        a, n = table.sstart[i], table.scount[i]
        pairs = np.stack([table.sq1[a:a + n], table.sr1[a:a + n], table.sq2[a:a + n],
                          table.sr2[a:a + n]], axis=1).reshape(-1, 2, 2).tolist()
        assert [sorted(map(tuple, p)) for p in pairs] == [sorted(map(tuple, p))
                                                          for p in one.sides.tolist()], (q, r)
        assert np.array_equal(table.st[a:a + n], 2 * one.sides_t)
