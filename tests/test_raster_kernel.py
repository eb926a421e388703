"""The compiled walk of lines over the pixel frame (engine.los.raster.kernel): VASL's walk point
for point, and a viewer's lines answered from the points it keeps exactly as from every point
of every line judged by the rules."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_raster_los import (
    CLIFF_CODE,
    GRAIN,
    GULLY,
    ORCHARD,
    ROWHOUSE_1,
    RUBBLE,
    SIZE,
    STONE_1,
    WALL_CODE,
    WOODS,
    Drawing,
    centre,
    table,
)

from engine.boards import with_raster
from engine.hexes import parse_local
from engine.los import RasterLosTable, los_table, map_rasters
from engine.los.raster.frame import along_hexsides
from engine.los.raster.kernel import reversible, walk_offsets
from engine.los.raster.walk import line_modes
from engine.maps import Map, Placement

STONE_BRIDGE, WATER, BOCAGE = 82, 8, 74


def vasl_walk(dx: int, dy: int, width: int) -> np.ndarray:
    """The walk as VASL's Map.LOS steps it: column by column, every row between the line's
    entry into the column and its exit (y * width + x), in plain Python."""
    n = abs(dx) + 1
    out = []
    for c in range(n):
        x = c if dx >= 0 else -c
        enter = int(np.floor(c * (dy / n)))
        leave = int(np.floor((c + 1) * (dy / n)))
        step = 1 if leave >= enter else -1
        out += [y * width + x for y in range(enter, leave + step, step)]
    return np.array(out, dtype=np.int64)


@settings(max_examples=80, deadline=None)
@given(st.integers(-699, 699), st.integers(-700, 700), st.sampled_from([1801, 1800, 3600, 701]))
def test_every_walk_is_vasl_walk_and_reversible_says_when_the_walk_back_is_the_same(
        dx, dy, width):
    there = vasl_walk(dx, dy, width)
    assert np.array_equal(walk_offsets(dx, dy, width), there)
    back = vasl_walk(-dx, -dy, width)
    same = len(back) == len(there) and np.array_equal(there, (back + dy * width + dx)[::-1])
    (got,) = reversible(np.array([dx], dtype=np.int64), np.array([dy], dtype=np.int64), width)
    assert bool(got) == same


def test_some_walks_back_differ_from_the_walk_there():
    """The walk's floors meet an exact row boundary differently each way on some differences:
    ``reversible`` finds both kinds among short lines."""
    dx, dy = np.meshgrid(np.arange(-40, 41), np.arange(-40, 41))
    got = reversible(dx.ravel().astype(np.int64), dy.ravel().astype(np.int64), 1800)
    assert got.any() and not got.all()


def every_point(m: Map) -> RasterLosTable:
    """A table of its own for ``m`` (not the shared one) whose walk keeps every point of every
    line (consecutive points of one class once), none answered by the walk itself: the rules
    then judge every point."""
    t = RasterLosTable(m, map_rasters(m))

    def walk(viewer, S, targets, te, threshold, mode):
        frame = t.frame
        sx, sy = int(frame.centre_x[viewer]), int(frame.centre_y[viewer])
        cls_parts, line_parts = [], []
        for i, target in enumerate(targets.tolist()):
            # (the walk itself checked against ``vasl_walk`` above)
            flat = walk_offsets(int(frame.centre_x[target]) - sx,
                                int(frame.centre_y[target]) - sy, frame.width)
            flat = flat + sy * frame.width + sx
            met = frame.pix_cls[flat[flat >= 0]].astype(np.int64)
            met = met[np.append(True, met[1:] != met[:-1])]
            cls_parts.append(met)
            line_parts.append(np.full(len(met), i, dtype=np.int64))
        n = len(targets)
        return (np.concatenate(cls_parts), np.concatenate(line_parts),
                np.full(n, -1, dtype=np.int64), np.zeros(n, dtype=np.int8))
    t._walk = walk
    return t


feature = st.tuples(
    st.integers(0, 449), st.integers(0, 322), st.integers(3, 40),
    st.sampled_from([WOODS, ORCHARD, RUBBLE, GRAIN, WALL_CODE, GULLY, STONE_1, ROWHOUSE_1,
                     CLIFF_CODE, STONE_BRIDGE, WATER, None]),
    st.sampled_from([None, -1, 1, 2]))


def _drawn_map(features) -> Map:
    boards = []
    for i in (1, 2):
        d = Drawing()
        for x, y, r, code, level in features:
            if code in (WALL_CODE, ROWHOUSE_1, CLIFF_CODE):
                d.segment((x, y), (x + r, y + r // 2), 1.5, code)
            else:
                d.disc(x, y, r, code=code, level=level)
        boards.append(d.board(board_id=f"t{i}"))
    return Map([Placement(boards[0], (0, 0)), Placement(boards[1], (1, 0))])


@settings(max_examples=60, deadline=None)
@given(st.lists(feature, min_size=1, max_size=12), st.integers(0, 10_000), st.integers(0, 2))
def test_the_points_the_walk_keeps_answer_as_every_point_judged(features, pick, up):
    """Every line's answer (clear, why, where, hexside, hindrances) from the points the compiled
    walk keeps, with the lines it answers itself, is the answer of every point of the line
    judged, on two boards of random drawings (woods, orchards, rubble, grain, walls, gullies,
    buildings, rowhouse walls, cliffs, bridges, water, hills and depressions), the viewer on
    the ground or one or two levels up."""
    m = _drawn_map(features)
    t = los_table(m)
    assert isinstance(t, RasterLosTable)
    v = pick % m.size
    targets = np.flatnonzero(np.arange(m.size) != v)
    S, te = int(t.ground[v]) + up, t.ground[targets]
    kept = t._judge(v, S, targets, te)
    whole = every_point(m)._judge(v, S, targets, te)
    for name, a, b in zip(("clear", "kind", "hex", "across", "hexside", "hindrances"),
                          kept, whole):
        assert np.array_equal(a, b), name


def test_the_walk_answers_lines_blocked_by_higher_ground_itself():
    """A hill (level 2) across the middle of the board between ground-level hexes: the lines
    over it are answered by the walk (A6.2: ground higher than both ends, at its first point
    between the ends), keeping none of their points (but those along hexsides: a hex's
    inherent terrain may stand for what is drawn on their way), and the rules answer the
    rest."""
    d = Drawing()
    d.band(200, 260, 2)
    m, t = table(d.board())
    v = m.index("t1A3")
    targets = np.flatnonzero(np.arange(m.size) != v)
    te = t.ground[targets]
    centre_x = t.frame.centre_x
    along = along_hexsides(t.frame, v, targets)
    threshold, mode = line_modes(t.frame, v, 0, targets, te, along)
    cls, line, answer_hex, answer = t._walk(v, 0, targets, te, threshold, mode)
    beyond = np.flatnonzero((centre_x[targets] > 262) & ~along)
    assert len(beyond) > 10 and (answer[beyond] != 0).all()
    assert (answer[(centre_x[targets] > 262) & along] == 0).all()
    assert not np.isin(beyond, line).any()
    day = t.lines(v, 0, targets, te)
    assert not day.clear[beyond].any()
    assert ((centre_x[answer_hex[beyond]] > 160) & (centre_x[answer_hex[beyond]] < 290)).all()  # D-F
    near = np.flatnonzero(centre_x[targets] < 190)
    assert day.clear[near].all()


def _building_gully_bridge() -> Map:
    """One board: a stone building over E3 and F3 (A6.8), a gully down column B at level -1
    with a bank (A6.3), water and a stone bridge in column G (B6), woods on a level-1 hill
    around H2, a wall, bocage and a rowhouse wall (B9.2, B9.52, B23.71), F2 a level up with a
    cliff on its south side (B10.23) and a cliff drawn between H4 and I4."""
    d = Drawing()
    for name in ("E3", "F3"):
        x, y = centre(name)
        d.terrain[int(y) - 15:int(y) + 16, int(x) - 15:int(x) + 16] = STONE_1
    d.segment(centre("E3"), centre("F3"), 12, STONE_1)
    d.terrain[:, 40:80] = GULLY
    d.level[:, 40:80] = -1
    d.level[:, 80:86] = 0
    d.terrain[0:200, 320:350] = WATER
    d.level[0:200, 320:350] = -1
    d.terrain[200:230, 320:350] = STONE_BRIDGE
    d.disc(*centre("H2"), 40, level=1)
    d.disc(*centre("H2"), 18, code=WOODS)
    d.segment(centre("C4"), centre("D4"), 1.5, WALL_CODE)
    d.segment(centre("E1"), centre("E2"), 1.5, ROWHOUSE_1)
    d.segment(centre("C2"), centre("D2"), 2, BOCAGE)
    # F2 a level up, its south side a cliff (drawn, and in the hex summary)
    f2 = (abs(d.xs - 281.25) <= 15) & (abs(d.ys - 129) <= 30)
    d.level[f2] = 1
    d.terrain[162:165, 263:300] = CLIFF_CODE
    board = d.board({"E3": "building", "F3": "building"})
    drawn = board.raster            # the hexside edit drops it: given back, for the new hexes
    board = board.with_hexside(*parse_local("F2", SIZE), 3, "cliff")
    return Map([Placement(with_raster(board, drawn), (0, 0))])


def test_every_viewer_of_a_drawn_board_answers_as_every_point_judged():
    """Every viewer of a board drawn with a building, a gully, a bridge, a hill with woods, a
    wall, a rowhouse wall and a cliff, on the ground and one and two levels up, to every
    other hex: the answers from the points the walk keeps are those of every point judged."""
    m = _building_gully_bridge()
    t = los_table(m)
    whole = every_point(m)
    answered = 0
    for v in range(m.size):
        targets = np.flatnonzero(np.arange(m.size) != v)
        te = t.ground[targets]
        for up in (0, 1, 2):
            S = int(t.ground[v]) + up
            kept, every = t._judge(v, S, targets, te), whole._judge(v, S, targets, te)
            for name, a, b in zip(("clear", "kind", "hex", "across", "hexside",
                                   "hindrances"), kept, every):
                assert np.array_equal(a, b), (m.names[v], up, name)
            answered += int((~kept[0]).sum())
    assert answered > 1000
