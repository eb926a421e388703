"""Maps of several boards (rules.md 1): joins, canonical names, rotation, sizes, lookups."""
from __future__ import annotations

import math

import numpy as np
import pytest

from engine.boards import Board, HexTerrain, bundled_board
from engine.errors import ScenarioError
from engine.hexes import (
    COLUMN_NAMES,
    DIRECTIONS,
    HexIdError,
    board_hexes,
    center,
    hex_range,
    parse_local,
    step,
)
from engine.maps import Map, Placement

B2, B34 = bundled_board("2"), bundled_board("34")
ONE_BOARD = 17 * 10 + 16 * 11          # A, C, ..., GG: rows 1..10; B, D, ..., FF: rows 0..10


def custom(board_id: str, hexes: dict | None = None) -> Board:
    return Board(board_id, "test", HexTerrain(), {parse_local(k): v for k, v in (hexes or {}).items()})


def side_by_side(rotated=False) -> Map:
    return Map([Placement(B2, (0, 0)), Placement(B34, (1, 0), rotated)])


def one_above_other() -> Map:
    return Map([Placement(B2, (0, 0)), Placement(B34, (0, 1))])


def centre_of(m: Map, hex_id: str) -> tuple[float, float]:
    i = m.index(hex_id)
    return float(m.x[i]), float(m.y[i])


# ------------------------------------------------------------------------------ sizes

def test_one_board_has_346_hexes_by_counting():
    assert len(set(board_hexes())) == ONE_BOARD == 346
    m = Map([Placement(B2, (0, 0))])
    assert m.size == 346
    assert len(set(m.names)) == 346
    assert sorted(m.names) == sorted(f"2{COLUMN_NAMES[c]}{n}" for c, n in board_hexes())


def test_two_boards_side_by_side_share_the_ten_half_hexes_of_the_short_edge():
    m = side_by_side()
    assert m.size == 2 * ONE_BOARD - 10
    # by geometry: count distinct centres
    pts = {(round(x, 6), round(y, 6)) for x, y in zip(m.x, m.y)}
    assert len(pts) == m.size


def test_two_boards_one_above_the_other_share_the_16_half_hexes_of_the_long_edge():
    m = one_above_other()
    assert m.size == 2 * ONE_BOARD - 16
    pts = {(round(x, 6), round(y, 6)) for x, y in zip(m.x, m.y)}
    assert len(pts) == m.size


def test_four_boards_in_a_square():
    m = Map([Placement(B2, (0, 0)), Placement(B34, (1, 0)), Placement(custom("t1"), (0, 1)),
             Placement(custom("t2"), (1, 1), rotated=True)])
    assert m.size == 4 * ONE_BOARD - 2 * 10 - 2 * 16


def test_boards_that_do_not_touch_share_nothing():
    m = Map([Placement(B2, (0, 0)), Placement(B34, (2, 0))])
    assert m.size == 2 * ONE_BOARD
    assert m.canonical("34A5") == "34A5" and m.canonical("2GG5") == "2GG5"
    assert m.index("2GG5") != m.index("34A5")


# ------------------------------------------------------------------------------ joins

def test_side_join_one_hex_two_names_canonical_north_east():
    m = side_by_side()
    assert m.index("2GG5") == m.index("34A5")
    assert m.canonical("2GG5") == "34A5"
    assert m.canonical("34A5") == "34A5"
    assert m.aliases(m.index("2GG5")) == ["2GG5", "34A5"]
    for n in range(1, 11):      # the whole short edge
        assert m.canonical(f"2GG{n}") == f"34A{n}"
    assert centre_of(m, "2GG5") == pytest.approx(centre_of(m, "34A5"))
    # the neighbours of the joined hex come from both boards
    nb = {m.names[j] for j in m.neighbours[m.index("34A5")] if j >= 0}
    assert nb == {"34A4", "34A6", "34B4", "34B5", "2FF4", "2FF5"}


def test_top_bottom_join_one_hex_two_names_canonical_north():
    m = one_above_other()
    assert m.index("2B10") == m.index("34B0")
    assert m.canonical("34B0") == "2B10"
    assert m.canonical("2B10") == "2B10"
    for col in COLUMN_NAMES[1::2]:      # every B, D, ..., FF half hex
        assert m.canonical(f"34{col}0") == f"2{col}10"
    assert centre_of(m, "2B10") == pytest.approx(centre_of(m, "34B0"))
    # 2A10 and 34A1 are different, adjacent hexes
    assert m.index("2A10") != m.index("34A1")
    assert m.distance(m.index("2A10"), m.index("34A1")) == 1


def test_canonical_name_when_the_eastern_board_is_placed_first():
    m = Map([Placement(B34, (1, 0)), Placement(B2, (0, 0))])
    assert m.canonical("2GG5") == "34A5"
    m = Map([Placement(B34, (0, 1)), Placement(B2, (0, 0))])
    assert m.canonical("34B0") == "2B10"


def test_joined_terrain_is_the_canonical_halfs():
    west = custom("w", {"GG5": HexTerrain("woods")})
    east = custom("e", {"A5": HexTerrain("grain")})
    m = Map([Placement(west, (0, 0)), Placement(east, (1, 0))])
    assert m.canonical("wGG5") == "eA5"
    assert m.terrain_name(m.index("wGG5")) == "grain"


def test_ranges_across_joins():
    m = side_by_side()
    assert m.distance(m.index("2CC5"), m.index("34C5")) == 6
    assert m.distance(m.index("2GG5"), m.index("34A5")) == 0
    m = one_above_other()
    assert m.distance(m.index("2E5"), m.index("34E5")) == 10
    assert m.distance(m.index("2B10"), m.index("34B0")) == 0


# ------------------------------------------------------------------------------ rotation

def test_rotated_board_A1_sits_where_GG10_would():
    flat = Map([Placement(B34, (1, 0))])
    turned = Map([Placement(B34, (1, 0), rotated=True)])
    assert turned.pos(turned.index("34A1")) == flat.pos(flat.index("34GG10"))
    assert turned.pos(turned.index("34GG10")) == flat.pos(flat.index("34A1"))
    assert turned.pos(turned.index("34B0")) == flat.pos(flat.index("34FF10"))
    assert turned.size == flat.size == ONE_BOARD


def test_rotation_is_a_half_turn_about_the_board_centre():
    for slot in [(0, 0), (1, 0), (2, 3)]:
        flat = Map([Placement(B34, slot)])
        turned = Map([Placement(B34, slot, rotated=True)])
        # the board's centre: middle of its columns (A..GG) and of its rows
        cx = (flat.x.min() + flat.x.max()) / 2
        cy = (flat.y.min() + flat.y.max()) / 2
        for hid in flat.names:
            fx, fy = centre_of(flat, hid)
            tx, ty = centre_of(turned, hid)
            assert (tx, ty) == pytest.approx((2 * cx - fx, 2 * cy - fy))


def test_rotated_board_keeps_its_neighbours_and_reverses_directions():
    turned = Map([Placement(B34, (1, 0), rotated=True)])
    for c, n in board_hexes():
        i = turned.index(f"34{COLUMN_NAMES[c]}{n}")
        for d in range(1, 7):
            lc, ln = step((c, n), d)                         # the neighbour on the board itself
            opposite = (d + 2) % 6 + 1
            j = turned.neighbours[i][opposite - 1]           # on the map, the other way round
            local = f"34{COLUMN_NAMES[lc]}{ln}" if 0 <= lc <= 32 else None
            if local and turned.has(local):
                assert j == turned.index(local)
            else:
                assert j == -1
    # ranges measured on the board do not change
    for a, b in [("A1", "GG10"), ("T6", "BB5"), ("B0", "FF10"), ("CC8", "Z4")]:
        assert turned.distance(turned.index("34" + a), turned.index("34" + b)) == \
            hex_range(parse_local(a), parse_local(b))


def test_rotated_board_joined_to_an_unrotated_one():
    m = side_by_side(rotated=True)
    # a half turn brings 34's GG column to the west edge of its slot: 2GG5 meets 34GG6
    assert m.index("2GG5") == m.index("34GG6")
    assert m.canonical("2GG5") == "34GG6"
    assert m.index("34A5") != m.index("2GG5")
    assert m.size == 2 * ONE_BOARD - 10
    assert centre_of(m, "2GG5") == pytest.approx(centre_of(m, "34GG6"))
    # the rotated A1 is the far south-east corner
    i = m.index("34A1")
    assert m.x[i] == pytest.approx(m.x.max())
    assert m.y[i] == pytest.approx(max(m.y[j] for j in range(m.size) if m.x[j] == m.x[i]))


# ------------------------------------------------------------------------------ lookups

def test_unknown_hex_ids_name_the_boards():
    m = Map([Placement(B2, (0, 0))])
    with pytest.raises(HexIdError) as e:
        m.index("34A1")
    assert "34A1" in str(e.value) and "2" in str(e.value)
    m = side_by_side()
    with pytest.raises(HexIdError) as e:
        m.index("1A1")
    assert "2, 34" in str(e.value)
    for bad in ["2CC11", "2A0", "X5", "2HH3", "2CC6\n"]:
        with pytest.raises(HexIdError):
            m.index(bad)
        assert not m.has(bad)


def test_every_name_and_alias_looks_up_its_own_hex():
    m = side_by_side()
    for i, nm in enumerate(m.names):
        assert m.index(nm) == i
        for alias in m.aliases(i):
            assert m.canonical(alias) == nm
    aliased = [i for i in range(m.size) if len(m.aliases(i)) == 2]
    assert len(aliased) == 10


def test_neighbour_table_matches_centres():
    m = one_above_other()
    for i in range(m.size):
        for k, d in enumerate(range(1, 7)):
            j = m.neighbours[i][k]
            if j < 0:
                continue
            dist = math.hypot(m.x[j] - m.x[i], m.y[j] - m.y[i])
            assert dist == pytest.approx(math.sqrt(3))
            dq, dr = DIRECTIONS[d]
            assert (m.q[j] - m.q[i], m.r[j] - m.r[i]) == (dq, dr)
    # interior hexes have six neighbours, the corner hex 2A1 three (A is a half hex column)
    assert int(np.sum(m.neighbours[m.index("2T6")] >= 0)) == 6
    assert int(np.sum(m.neighbours[m.index("2A1")] >= 0)) == 3


def test_centres_of_the_map_are_those_of_hexes():
    m = side_by_side()
    for i in range(0, m.size, 17):
        assert (m.x[i], m.y[i]) == pytest.approx(center(*m.pos(i)))


def test_two_boards_in_one_slot_are_refused():
    with pytest.raises(ScenarioError) as e:
        Map([Placement(B2, (0, 0)), Placement(B34, (0, 0))])
    assert e.value.place == "map[1].at"
    with pytest.raises(ScenarioError):
        Map([])


def test_a_building_across_a_board_join_is_one_building():
    """A multi-hex building drawn across the join of two boards: its interior hex next to the
    join has no hexside outside the building (E1.923 interiors)."""
    from engine.boards import Board, HexTerrain
    from engine.hexes import neighbours, parse_local
    from engine.maps import Map, Placement
    ff5 = parse_local("FF5")
    ring = [ff5] + neighbours(ff5)
    b1 = Board("t1", "", HexTerrain(), {p: HexTerrain("building", 0, "b1", 1) for p in ring
                                        if p[0] <= 32})
    halves = {(c - 32, r): HexTerrain("building", 0, "z", 1) for c, r in ring if c == 32}
    b2 = Board("t2", "", HexTerrain(), halves)
    m = Map([Placement(b1, (0, 0)), Placement(b2, (1, 0))])
    i = m.index("t1FF5")
    assert m.building_interior[i]
    assert len({m.building[j] for j in m.neighbours[i]}) == 1
    alone = Map([Placement(b1, (0, 0)), Placement(Board("t2", "", HexTerrain(), {}), (1, 0))])
    assert not alone.building_interior[alone.index("t1FF5")]
