"""The lines meeting a counter hex read from the per-map table by hex offset (rules.md 11.4),
against shapely's clip of each line with the hex, and the ground table's hindrance counts (A6.1)
against the lines' own."""
import random

import numpy as np
import shapely
import vasl_synth
from support import board, marker, position, unit

from engine.hexes import SQRT3
from engine.importers.vasl import import_board
from engine.los import counter_lines, los_table
from engine.los import ground as los_ground
from engine.los.counter_lines import CORNER, hits, offset_lines
from engine.los.raster.kernel import walk_offsets
from engine.maps import Map, Placement
from engine.night.counters import field_rows, night_clear


def _centre(m: Map, i) -> np.ndarray:
    q, r = np.asarray(m.q[i], dtype=float), np.asarray(m.r[i], dtype=float)
    return np.stack([1.5 * q, SQRT3 * (r + q / 2)], axis=-1)


def _hex_polygon(centre, margin: float = 1e-9) -> shapely.Polygon:
    angles = np.arange(6) * np.pi / 3          # flat-topped, circumradius 1 (engine.hexes)
    hexagon = shapely.Polygon(np.stack([centre[0] + np.cos(angles),
                                        centre[1] + np.sin(angles)], 1))
    return hexagon.buffer(margin)           # a line along a hexside: inside, whatever rounding


def test_lines_meeting_a_hex_are_the_lines_running_a_length_in_it():
    """Two boards side by side (one turned): for random viewers and hexes, a line meets a hex
    exactly when shapely finds a positive length of it in the hex (interior or hexside)."""
    m = Map([Placement(board("t1"), (0, 0)), Placement(board("t2"), (1, 0), True)])
    rng = random.Random(5)
    points = _centre(m, np.arange(m.size))
    checked = near = 0
    for viewer in rng.sample(range(m.size), 8):
        hexes = np.array(rng.sample(range(m.size), 12) + [viewer])
        got = hits(m, viewer, hexes)
        lines = shapely.linestrings(np.stack([np.broadcast_to(points[viewer], points.shape),
                                              points], axis=1))
        for row, h in enumerate(hexes.tolist()):
            length = shapely.length(shapely.intersection(lines, _hex_polygon(points[h])))
            length[viewer] = 0.0            # the line to the viewer's own hex: no length
            want = length > 1e-6
            assert np.array_equal(got[row], want), (m.names[viewer], m.names[h])
            checked += int(want.sum())
            near += int(((length > 0) & (length < CORNER)).sum())
    assert checked > 500


def test_the_table_covers_every_difference_of_the_map():
    """Every hex offset's slice names targets whose offset from the origin occurs on the map."""
    m = Map([Placement(board("t1"), (0, 0))])
    table = offset_lines(m)
    assert table.start[-1] == len(table.tq) and np.all(np.diff(table.start) >= 0)
    assert np.abs(table.tq).max() <= table.sq and np.abs(table.tr).max() <= table.sr


def test_ground_hindrances_are_each_clear_lines_own():
    """After ``prepare`` the ground table's hindrance count of every clear line is the one
    ``LosTable.lines`` counts (A6.1), so counters in LOS add to the right number."""
    b = board("t1", {f"{c}{n}": {"terrain": "grain"} for c in "DEFGHIJ" for n in range(2, 9)})
    m = Map([Placement(b, (0, 0))])
    assert los_ground.prepare(m)["complete"]
    table = los_table(m)
    ground = table.ground[:-1]
    some = 0
    for v in range(0, m.size, 5):
        clear, _ = los_ground.ground_row(m, v)
        day = table.lines(v, int(ground[v]), np.arange(m.size), ground)
        got = los_ground.ground_hindrances(m, v)
        assert np.array_equal(got[clear], day.hindrances[clear]), m.names[v]
        some += int((day.hindrances[clear] > 0).sum())
    assert some > 100


def test_a_prepared_field_with_smoke_is_the_lines_own_count():
    """With the table's hindrances, smoke added to grain blocks the same lines as when the
    lines are counted one by one (A6.1 six block, rules.md 11.4)."""
    b = board("t1", {f"{c}{n}": {"terrain": "grain"} for c in "DEFGHI" for n in range(3, 9)})
    s = position(b, units=[unit("A", "t1C5")],
                 markers=[marker("smoke", "t1K5"), marker("smoke", "t1G6")])
    m = s.map
    v = m.index(s.units[0].hex)
    table = los_table(m)
    day = table.from_location(v, 0).clear
    everyone = np.arange(m.size)
    assert los_ground.ground_hindrances(m, v) is None        # no table yet: lines counted
    lazy = night_clear(s, v, 0, everyone, np.zeros(m.size, dtype=np.int64), day)
    los_ground.prepare(m)
    field_rows.cache_clear()
    kept = night_clear(s.replace(nvr=s.nvr), v, 0, everyone, np.zeros(m.size, dtype=np.int64),
                       day)
    assert los_ground.ground_hindrances(m, v) is not None
    assert np.array_equal(lazy, kept)
    assert (day & ~kept).sum() > 0


def _walk_meets(frame, viewer: int, target: int, hex_index: int) -> bool:
    """VASL's walk of one line, centre point to centre point, meets a pixel of the hex."""
    x0, y0 = int(frame.centre_x[viewer]), int(frame.centre_y[viewer])
    flat = walk_offsets(int(frame.centre_x[target]) - x0, int(frame.centre_y[target]) - y0,
                        frame.width) + (y0 * frame.width + x0)
    flat = flat[(flat >= 0) & (flat < len(frame.pix_cls))]
    return bool(np.any(frame.cls_hex[frame.pix_cls[flat]] == hex_index))


def test_on_a_drawn_board_lines_near_a_corner_are_the_pixels_walk(tmp_path):
    """A drawn board: a line running at least CORNER in a hex meets it, one passing a tenth of
    a radius or more from it does not, and one touching it (through a corner, or less than
    CORNER in it) meets it exactly when VASL's walk of its pixels does (rules.md 11.4): some
    do, some do not."""
    drawn, _ = import_board(vasl_synth.standard_board("97").write(tmp_path / "bd97"))
    m = Map([Placement(drawn, (0, 0))])
    frame = los_table(m).frame
    rng = random.Random(3)
    points = _centre(m, np.arange(m.size))
    walked = []
    for viewer in rng.sample(range(m.size), 8):
        hexes = np.array(rng.sample(range(m.size), 15))
        got = hits(m, viewer, hexes, frame)
        lines = shapely.linestrings(np.stack([np.broadcast_to(points[viewer], points.shape),
                                              points], axis=1))
        for row, h in enumerate(hexes.tolist()):
            polygon = _hex_polygon(points[h])
            length = shapely.length(shapely.intersection(lines, polygon))
            far = shapely.distance(lines, polygon) >= 0.1
            long = length >= CORNER + 1e-6
            assert got[row][long].all() and not got[row][far].any(), m.names[h]
            # touching the hex (a corner, or a short cut across one): the pixels decide
            touch = (shapely.distance(lines, _hex_polygon(points[h], 0.0)) < 1e-6) & ~long
            for t in np.flatnonzero(touch).tolist():
                assert got[row, t] == _walk_meets(frame, viewer, t, h), (m.names[h], m.names[t])
                walked.append(bool(got[row, t]))
    assert any(walked) and not all(walked)


def test_a_map_beyond_the_table_limit_clips_its_lines_per_viewer(tmp_path, monkeypatch):
    """Past MAX_OFFSET_HEXES no table is built: each viewer's lines are clipped when asked,
    with the same answers (drawn and hex model alike, rules.md 11.4)."""
    drawn, _ = import_board(vasl_synth.standard_board("96").write(tmp_path / "bd96"))
    m = Map([Placement(drawn, (0, 0))])
    frame = los_table(m).frame
    rng = random.Random(4)
    cases = [(v, np.array(rng.sample(range(m.size), 12) + [v]))
             for v in rng.sample(range(m.size), 6)]
    kept = [(hits(m, v, h, frame), hits(m, v, h)) for v, h in cases]
    monkeypatch.setattr(counter_lines, "MAX_OFFSET_HEXES", m.size - 1)
    assert offset_lines(m) is None
    for (v, h), (with_pixels, model) in zip(cases, kept):
        assert np.array_equal(hits(m, v, h, frame), with_pixels), m.names[v]
        assert np.array_equal(hits(m, v, h), model), m.names[v]
