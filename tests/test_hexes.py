"""Hex geometry (rules.md 1): ids, range, stepping, rings, exact line crossing, centres.

Facts are checked against independent computations: breadth-first search over hexes whose centres
are sqrt(3) apart, and a brute force over exact rational points for the line crossing.
"""
from __future__ import annotations

import math
import random
from collections import deque
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.boards import bundled_board
from engine.hex_lines import crossed_hexes, line_crossing
from engine.hexes import (
    BOARD_ID_RE,
    COLUMN_NAMES,
    HexId,
    HexIdError,
    board_hexes,
    center,
    corners,
    disc,
    from_axial,
    hex_range,
    neighbours,
    parse_hex_id,
    parse_local,
    pixel_to_hex,
    ring,
    step,
    to_axial,
)
from engine.maps import Map, Placement

SQRT3 = math.sqrt(3.0)


def pos(hex_id: str) -> tuple[int, int]:
    """Board-local (col, row) of a board-2 style id (one board: local == global)."""
    h = parse_hex_id(hex_id)
    return h.col, h.row


def name(p: tuple[int, int], board: str = "2") -> str:
    return f"{board}{COLUMN_NAMES[p[0]]}{p[1]}"


# ------------------------------------------------------------------------------ hex ids

@pytest.mark.parametrize("text, board, col, row", [
    ("2CC6", "2", 28, 6),
    ("34V5", "34", 21, 5),
    ("t1A1", "t1", 0, 1),
    ("2B0", "2", 1, 0),
    ("2B10", "2", 1, 10),
    ("2GG10", "2", 32, 10),
    ("2Z4", "2", 25, 4),
    ("2AA6", "2", 26, 6),
    ("b12x3GG1", "b12x3", 32, 1),
])
def test_parse_and_print_hex_ids(text, board, col, row):
    h = parse_hex_id(text)
    assert (h.board, h.col, h.row) == (board, col, row)
    assert str(h) == text
    assert h.local == text[len(board):]
    assert parse_local(h.local) == (col, row)


@pytest.mark.parametrize("text", [
    "2A0",        # A holds rows 1..10
    "2CC11",      # no row 11
    "2GG0",       # GG is an A/C/E column
    "2B11",
    "2HH3",       # no column HH
    "2ab3",       # column letters are upper case
    "X5",         # no board
    "2",
    "2CC",
    "CC6",
    "2cc6",
    "T1A1",       # board ids are lower case
    "2CC6 ",
    "2CC6\n",     # `$` would have matched before a trailing newline
    " 2CC6",
    "2A01",       # one spelling per hex: no leading zero
    "2A100",
    "2AAA1",
    "2-A1",
    "",
])
def test_refuse_malformed_hex_ids(text):
    with pytest.raises(HexIdError):
        parse_hex_id(text)


@pytest.mark.parametrize("value", [None, 5, ["2CC6"], b"2CC6"])
def test_refuse_hex_ids_that_are_not_strings(value):
    with pytest.raises(HexIdError):
        parse_hex_id(value)
    with pytest.raises(HexIdError):
        parse_local(value)


@pytest.mark.parametrize("board_id, ok", [
    ("2", True), ("34", True), ("007", True), ("t1", True), ("a", True), ("abc9x", True),
    ("T1", False), ("1a", False), ("t-1", False), ("", False), ("t1\n", False), ("t 1", False),
    ("é", False),
])
def test_board_id_pattern(board_id, ok):
    assert bool(BOARD_ID_RE.match(board_id)) is ok


def test_every_board_hex_prints_and_parses_back():
    seen = set()
    for c, n in board_hexes():
        text = f"{COLUMN_NAMES[c]}{n}"
        assert parse_local(text) == (c, n)
        assert str(HexId("9", c, n)) == "9" + text
        seen.add(text)
    # 17 columns A, C, ..., GG with rows 1..10; 16 columns B, D, ..., FF with rows 0..10
    assert len(seen) == 17 * 10 + 16 * 11 == 346
    assert COLUMN_NAMES[0] == "A" and COLUMN_NAMES[25] == "Z" and COLUMN_NAMES[26] == "AA"
    assert COLUMN_NAMES[-1] == "GG" and len(COLUMN_NAMES) == 33


# ------------------------------------------------------------------------------ range

@pytest.mark.parametrize("a, b, expected", [
    ("2Y4", "2V5", 3),
    ("2CC8", "2Z4", 5),
    ("2CC8", "2Y4", 6),
    ("2U4", "2BB5", 7),
    ("2U4", "2AA6", 6),
    ("2T6", "2BB5", 8),
    ("2S7", "2BB5", 9),
    ("2T6", "2T6", 0),
    ("2A1", "2A10", 9),       # straight down a column
])
def test_range_facts(a, b, expected):
    assert hex_range(pos(a), pos(b)) == expected
    assert hex_range(pos(b), pos(a)) == expected


def _centre_graph(xs: np.ndarray, ys: np.ndarray) -> list[list[int]]:
    """Adjacency from geometry alone: two hexes are neighbours when their centres are sqrt(3)
    apart (circumradius 1)."""
    d = np.hypot(xs[:, None] - xs[None, :], ys[:, None] - ys[None, :])
    close = np.abs(d - SQRT3) < 1e-9
    return [list(np.nonzero(row)[0]) for row in close]


def _bfs(adj: list[list[int]], start: int) -> list[int]:
    dist = [-1] * len(adj)
    dist[start] = 0
    todo = deque([start])
    while todo:
        i = todo.popleft()
        for j in adj[i]:
            if dist[j] < 0:
                dist[j] = dist[i] + 1
                todo.append(j)
    return dist


def _check_bfs_agrees(m: Map, starts: list[int]):
    adj = _centre_graph(np.asarray(m.x), np.asarray(m.y))
    # the map's own neighbour table says the same as the geometry
    for i in range(m.size):
        assert sorted(int(j) for j in m.neighbours[i] if j >= 0) == sorted(adj[i])
    for s in starts:
        dist = _bfs(adj, s)
        assert min(dist) == 0                         # the map is connected
        assert list(m.distances_from(s)) == dist
        ps = m.pos(s)
        assert [hex_range(ps, m.pos(j)) for j in range(m.size)] == dist


def _starts(m: Map, k: int = 25) -> list[int]:
    rng = random.Random(m.size)
    corners_ = [0, m.size - 1, int(np.argmin(m.row - m.col)), int(np.argmax(m.row - m.col))]
    return corners_ + rng.sample(range(m.size), k)


def test_bfs_agrees_with_range_on_a_whole_board():
    m = Map([Placement(bundled_board("2"), (0, 0))])
    assert m.size == 346
    _check_bfs_agrees(m, list(range(m.size)))       # every start hex
    # and the board-local ids: hex_range of parsed ids is the BFS distance too
    adj = _centre_graph(np.asarray(m.x), np.asarray(m.y))
    d = _bfs(adj, m.index("2T6"))
    assert d[m.index("2BB5")] == hex_range(pos("2T6"), pos("2BB5")) == 8


def test_bfs_agrees_with_range_across_a_side_join():
    m = Map([Placement(bundled_board("2"), (0, 0)), Placement(bundled_board("34"), (1, 0))])
    _check_bfs_agrees(m, _starts(m))
    adj = _centre_graph(np.asarray(m.x), np.asarray(m.y))
    d = _bfs(adj, m.index("2CC5"))
    assert d[m.index("34C5")] == m.distance(m.index("2CC5"), m.index("34C5")) == 6


def test_bfs_agrees_with_range_across_a_top_bottom_join():
    m = Map([Placement(bundled_board("2"), (0, 0)), Placement(bundled_board("34"), (0, 1))])
    _check_bfs_agrees(m, _starts(m))
    adj = _centre_graph(np.asarray(m.x), np.asarray(m.y))
    d = _bfs(adj, m.index("2E5"))
    assert d[m.index("34E5")] == 10


def test_bfs_agrees_with_range_with_a_rotated_board():
    m = Map([Placement(bundled_board("2"), (0, 0)),
             Placement(bundled_board("34"), (1, 0), rotated=True)])
    _check_bfs_agrees(m, _starts(m))


# ------------------------------------------------------------------------------ stepping

def test_stepping_facts():
    assert name(step(pos("2T6"), 5)) == "2S7"
    assert name(step(pos("2W6"), 2, 3)) == "2Z4"
    assert name(step(pos("2W6"), 2, 5)) == "2BB3"


def test_directions_point_the_way_their_names_say():
    """1 = N, 2 = NE, 3 = SE, 4 = S, 5 = SW, 6 = NW (clockwise from map north, y grows south)."""
    expected_angles = {1: -90, 2: -30, 3: 30, 4: 90, 5: 150, 6: -150}
    for start in [(10, 5), (11, 5), (0, 1), (1, 0)]:
        x0, y0 = center(*start)
        for d, angle in expected_angles.items():
            x1, y1 = center(*step(start, d))
            assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(SQRT3)
            got = math.degrees(math.atan2(y1 - y0, x1 - x0))
            assert got == pytest.approx(angle)


@pytest.mark.parametrize("start", [(10, 5), (11, 5), (0, 0), (33, 12)])
def test_step_n_is_n_single_steps_and_opposites_cancel(start):
    for d in range(1, 7):
        p = start
        for k in range(1, 6):
            p = step(p, d)
            assert step(start, d, k) == p
            assert hex_range(start, p) == k
        opposite = (d + 2) % 6 + 1
        assert step(step(start, d, 4), opposite, 4) == start
    assert len(set(neighbours(start))) == 6
    assert all(hex_range(start, n) == 1 for n in neighbours(start))


@pytest.mark.parametrize("centre", [(10, 5), (11, 5), (0, 1)])
@pytest.mark.parametrize("k", range(0, 7))
def test_rings_and_discs(centre, k):
    r = ring(centre, k)
    assert len(r) == (6 * k if k else 1)
    assert len(set(r)) == len(r)
    assert all(hex_range(centre, h) == k for h in r)
    dsk = disc(centre, k)
    assert len(dsk) == 1 + 3 * k * (k + 1)
    # brute force: every hex of a large box within k
    box = {(c, n) for c in range(centre[0] - 10, centre[0] + 11)
           for n in range(centre[1] - 10, centre[1] + 11)}
    assert set(dsk) == {h for h in box if hex_range(centre, h) <= k}


# ------------------------------------------------------------------------------ line crossing

def _names(hexes) -> list[str]:
    return [name(h) for h in hexes]


def test_line_2T6_to_2BB5():
    inter, sides = crossed_hexes(pos("2T6"), pos("2BB5"))
    assert sorted(_names(inter)) == sorted(["2U6", "2V6", "2W6", "2X5", "2X6", "2Y6", "2Z5",
                                            "2AA6"])
    assert sides == []
    # nearest first
    got = _names(inter)
    assert got.index("2U6") < got.index("2W6") < got.index("2Y6") < got.index("2AA6")


def test_line_2G8_to_2I8_runs_along_a_hexside():
    inter, sides = crossed_hexes(pos("2G8"), pos("2I8"))
    assert inter == []
    assert len(sides) == 1
    assert sorted(_names(sides[0])) == ["2H7", "2H8"]


def test_line_2CC6_to_2Y4():
    inter, _ = crossed_hexes(pos("2CC6"), pos("2Y4"))
    assert _names(inter) == ["2BB5", "2AA5", "2Z4"]


def test_adjacent_and_same_hex_cross_nothing():
    for a, b in [("2T6", "2T6"), ("2T6", "2U6"), ("2T6", "2T5")]:
        inter, sides = crossed_hexes(pos(a), pos(b))
        assert inter == [] and sides == []


def test_line_along_a_column_crosses_its_hexes():
    inter, sides = crossed_hexes(pos("2C2"), pos("2C7"))
    assert _names(inter) == ["2C3", "2C4", "2C5", "2C6"]
    assert sides == []


# Brute force.  The centre of axial (q, r) is (1.5 q, sqrt3 (r + q/2) + const) in map units (see
# test_cell_forms_match_the_drawn_hexagons), so a point at axial offset (a, b) from a hex centre is
# inside that regular hexagon (circumradius 1, flat top) exactly when the distances to its three
# pairs of sides are below sqrt3/2, i.e. |2a + b| < 1, |a + 2b| < 1 and |b - a| < 1.

def _inside(a, b) -> bool:
    return abs(2 * a + b) < 1 and abs(a + 2 * b) < 1 and abs(b - a) < 1


def _interval(dq: int, dr: int, hq: int, hr: int, strict: bool):
    """The t-interval (within [0, 1]) on which the point t*(dq, dr) lies in hex (hq, hr), as
    Fractions; open cell when ``strict``, closed otherwise.  None when empty."""
    lo, hi = Fraction(0), Fraction(1)
    for slope, offset in ((2 * dq + dr, 2 * hq + hr), (dq + 2 * dr, hq + 2 * hr),
                          (dr - dq, hr - hq)):
        # -1 < slope * t - offset < 1
        if slope == 0:
            if abs(offset) > 1 or (strict and abs(offset) == 1):
                return None
            continue
        a, b = Fraction(offset - 1, slope), Fraction(offset + 1, slope)
        lo, hi = max(lo, min(a, b)), min(hi, max(a, b))
    return (lo, hi) if lo < hi else None


def _box(dq: int, dr: int):
    for hq in range(min(0, dq) - 2, max(0, dq) + 3):
        for hr in range(min(0, dr) - 2, max(0, dr) + 3):
            yield hq, hr


def _offsets(cr):
    return [tuple(int(v) for v in o) for o in cr.interior]


deltas = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


@settings(max_examples=300, deadline=None)
@given(deltas, st.integers(7, 60))
def test_line_crossing_contains_every_sampled_interior(d, samples):
    dq, dr = d
    cr = line_crossing(dq, dr)
    got = set(_offsets(cr))
    for k in range(samples + 1):
        t = Fraction(k, samples)
        pq, pr = t * dq, t * dr
        for hq in range(math.floor(pq) - 2, math.ceil(pq) + 3):
            for hr in range(math.floor(pr) - 2, math.ceil(pr) + 3):
                if (hq, hr) in ((0, 0), (dq, dr)):
                    continue
                if _inside(pq - hq, pr - hr):
                    assert (hq, hr) in got, (d, t, (hq, hr))


@settings(max_examples=300, deadline=None)
@given(deltas)
def test_line_crossing_matches_exact_intervals(d):
    """Every hex the result names is really entered, the order is nearest first, and the hexside
    runs are exactly the hexes touched along a positive length without being entered."""
    dq, dr = d
    cr = line_crossing(dq, dr)
    entered, along = {}, set()
    for h in _box(dq, dr):
        if h in ((0, 0), (dq, dr)):
            continue
        iv = _interval(dq, dr, *h, strict=True)
        if iv:
            entered[h] = iv
        elif _interval(dq, dr, *h, strict=False):
            along.add(h)
    got = _offsets(cr)
    assert len(got) == len(set(got))
    assert set(got) == set(entered)
    starts = [entered[h][0] + entered[h][1] for h in got]
    assert starts == sorted(starts)
    side_hexes = [tuple(int(v) for v in h) for pair in cr.sides for h in pair]
    assert set(side_hexes) == along
    assert len(side_hexes) == len(along)
    for pair in cr.sides:    # the two hexes of a hexside are neighbours
        (aq, ar), (bq, br) = pair
        assert (abs(aq - bq) + abs(ar - br) + abs(aq - bq + ar - br)) // 2 == 1


@settings(max_examples=300, deadline=None)
@given(deltas, st.integers(0, 40), st.integers(0, 20))
def test_line_crossing_is_symmetric(d, c0, n0):
    a = (c0, n0)
    qa, ra = to_axial(*a)
    b = from_axial(qa + d[0], ra + d[1])
    fwd_i, fwd_s = crossed_hexes(a, b)
    back_i, back_s = crossed_hexes(b, a)
    assert sorted(fwd_i) == sorted(back_i)
    assert fwd_i == back_i[::-1]          # nearest first from either end
    assert {frozenset(p) for p in fwd_s} == {frozenset(p) for p in back_s}
    assert a not in fwd_i and b not in fwd_i


def test_line_crossing_length_is_at_least_range_minus_one():
    for dq in range(-8, 9):
        for dr in range(-8, 9):
            n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            cr = line_crossing(dq, dr)
            # a path from start to end: each hexside run lets the line skip one hex
            assert len(cr.interior) + len(cr.sides) >= n - 1


# ------------------------------------------------------------------------------ centres, corners

@pytest.mark.parametrize("p", [(0, 1), (1, 0), (16, 5), (17, 10), (32, 10), (33, 11), (64, 20)])
def test_neighbouring_centres_are_sqrt3_apart(p):
    x, y = center(*p)
    for nb in neighbours(p):
        nx, ny = center(*nb)
        assert math.hypot(nx - x, ny - y) == pytest.approx(SQRT3)
    # a hex two steps away is farther
    for far in ring(p, 2):
        fx, fy = center(*far)
        assert math.hypot(fx - x, fy - y) > SQRT3 + 0.5


def test_column_geometry_of_the_rules():
    """Even columns (A, C, ...) sit half a hex higher than odd ones for the same row number."""
    ax, ay = center(*parse_local("A5"))
    bx, by = center(*parse_local("B5"))
    assert bx - ax == pytest.approx(1.5)
    assert by - ay == pytest.approx(SQRT3 / 2)      # y grows south: B5 is lower
    _, a6 = center(*parse_local("A6"))
    assert a6 - ay == pytest.approx(SQRT3)


def test_pixel_to_hex_of_centres_and_near_centres():
    rng = random.Random(7)
    for c in range(0, 66):
        for n in range(0, 21):
            x, y = center(c, n)
            assert pixel_to_hex(x, y) == (c, n)
            for _ in range(3):    # anywhere inside the inscribed circle (radius sqrt3/2)
                rho, phi = 0.85 * rng.random(), rng.random() * 2 * math.pi
                assert pixel_to_hex(x + rho * math.cos(phi), y + rho * math.sin(phi)) == (c, n)


def test_corners():
    for p in [(4, 4), (5, 4), (0, 1)]:
        cs = corners(*p)
        x, y = center(*p)
        assert cs.shape == (6, 2)
        assert np.allclose(np.hypot(cs[:, 0] - x, cs[:, 1] - y), 1.0)
        for nb in neighbours(p):   # neighbours share exactly one side: two corners
            other = corners(*nb)
            shared = sum(bool(np.any(np.all(np.isclose(other, c), axis=1))) for c in cs)
            assert shared == 2


def test_cell_forms_match_the_drawn_hexagons():
    """The integer cell test used by the brute force above is the real hexagon: for random
    points, the hex pixel_to_hex finds is the one whose forms say 'inside'."""
    rng = random.Random(11)
    for _ in range(3000):
        x, y = rng.uniform(-5, 60), rng.uniform(-5, 40)
        c, n = pixel_to_hex(x, y)
        cx, cy = center(c, n)
        # axial offsets from the centre: x = 1.5 q, y = sqrt3 (r + q/2)
        a = (x - cx) / 1.5
        b = (y - cy) / SQRT3 - a / 2
        forms = (abs(2 * a + b), abs(a + 2 * b), abs(b - a))
        assert max(forms) <= 1 + 1e-9
        # and inside the polygon drawn from corners (convex, corners clockwise)
        cs = corners(c, n)
        for k in range(6):
            (x1, y1), (x2, y2) = cs[k], cs[(k + 1) % 6]
            assert (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) >= -1e-9
