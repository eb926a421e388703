"""LOS over the terrain as drawn (engine.los.raster): VASL's point rules on synthetic rasters.

Every board here is 9 columns x 5 rows (A..I), its raster 450 x 323 pixels with VASL's geometry
(A1's centre at (0, 32.25), hexes 56.25 x 64.5 pixels apart).  The hex summaries are set to what
the raster draws at the centres, as an import does."""
from __future__ import annotations

import math

import numpy as np
import pytest
from support import position, unit

from engine.boards import Board, HexTerrain, with_raster
from engine.hexes import parse_local
from engine.los import (
    BLIND,
    BUILDING_EXIT,
    DEPRESSION,
    EQUAL,
    HALF,
    HIGHER,
    HILL,
    WALL,
    LosTable,
    RasterLosTable,
    explain_block,
    los_table,
)
from engine.maps import Map, Placement
from engine.night.los_thread import los_thread
from engine.night.verdicts import visibility_from
from engine.raster_file import Raster

SIZE = (9, 5)
W, H = 450, 323
GEO = (0.0, 32.25, 56.25, 64.5)
WOODS, ORCHARD, RUBBLE, WALL_CODE, GRAIN, GULLY = 60, 63, 90, 72, 24, 30


def centre(name: str) -> tuple[float, float]:
    col, row = parse_local(name, SIZE)
    odd = col % 2
    return 56.25 * col, 32.25 + 64.5 * (row - 1 + odd) - 32.25 * odd


class Drawing:
    def __init__(self):
        self.terrain = np.zeros((H, W), dtype=np.uint8)
        self.level = np.zeros((H, W), dtype=np.int8)
        self.ys, self.xs = np.mgrid[0:H, 0:W]

    def disc(self, x, y, r, code=None, level=None):
        inside = (self.xs - x) ** 2 + (self.ys - y) ** 2 <= r * r
        if code is not None:
            self.terrain[inside] = code
        if level is not None:
            self.level[inside] = level

    def band(self, x0, x1, level):
        self.level[:, x0:x1] = level

    def segment(self, a, b, half_width, code):
        """Pixels within ``half_width`` of the segment a-b."""
        (ax, ay), (bx, by) = a, b
        dx, dy = bx - ax, by - ay
        t = np.clip(((self.xs - ax) * dx + (self.ys - ay) * dy) / (dx * dx + dy * dy), 0, 1)
        d = np.hypot(self.xs - (ax + t * dx), self.ys - (ay + t * dy))
        self.terrain[d <= half_width] = code

    def board(self, hexes: dict | None = None, board_id: str = "t1") -> Board:
        """The board with hex summaries (levels at the centres; ``hexes`` adds terrain)."""
        specs = {}
        for col in range(SIZE[0]):
            for row in (range(1, SIZE[1] + 1) if col % 2 == 0 else range(0, SIZE[1] + 1)):
                name = f"{'ABCDEFGHI'[col]}{row}"
                x, y = centre(name)
                lv = int(self.level[min(int(y), H - 1), min(int(x), W - 1)])
                terrain = (hexes or {}).get(name, "open")
                if lv or terrain != "open":
                    specs[(col, row)] = HexTerrain(terrain, lv)
        b = Board(board_id, "raster test", HexTerrain(), specs, size=SIZE)
        return with_raster(b, Raster(self.terrain.copy(), self.level.copy(), GEO, SIZE))


def table(board: Board):
    m = Map([Placement(board, (0, 0))])
    return m, los_table(m)


def line(m, t, a: str, b: str, a_level: int = 0):
    va, vb = m.index("t1" + a), m.index("t1" + b)
    return t.lines(va, int(t.ground[va]) + a_level, np.array([vb]), np.array([t.ground[vb]]))


def seg_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    s = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - s * dx, py - ay - s * dy)


HEXES = [f"{'ABCDEFGHI'[c]}{r}" for c in range(9)
         for r in (range(1, 6) if c % 2 == 0 else range(0, 6))]


def test_a_raster_board_answers_from_the_drawing_and_a_plain_board_from_its_hexes():
    d = Drawing()
    m, t = table(d.board())
    assert isinstance(t, RasterLosTable)
    plain = Map([Placement(Board("t1", "plain", HexTerrain(), {}, size=SIZE), (0, 0))])
    assert type(los_table(plain)) is LosTable


def test_woods_drawn_in_part_of_a_hex_block_only_the_lines_through_the_drawing():
    """A6.2: woods drawn as a disc in the upper part of E3 (whose summary says woods) block
    the ground-level lines that cross the disc; lines through the rest of E3 stay clear, where
    the hex model blocks every line through E3."""
    d = Drawing()
    ex, ey = centre("E3")
    spot = (ex, ey - 20)
    d.disc(*spot, 12, code=WOODS)
    d.disc(ex, ey, 3, code=WOODS)            # the centre is woods: the summary says so too
    board = d.board({"E3": "woods"})
    m, t = table(board)
    hexes_model = LosTable(m)
    through, missing = 0, 0
    for a in [h for h in HEXES if h[0] in "ABC"]:
        for b in [h for h in HEXES if h[0] in "GHI"]:
            pa, pb = centre(a), centre(b)
            dist = seg_distance(spot, pa, pb)
            dc = seg_distance((ex, ey), pa, pb)
            res = line(m, t, a, b)
            if dist < 9:
                through += 1
                assert not res.clear[0], (a, b)
                assert m.names[int(res.block_h1[0])] == "t1E3"
                assert int(res.kind[0]) == HIGHER
                assert "t1E3 (woods, ground level 0, woods top level 1) blocks" in explain_block(m, res, 0)
            elif dist > 16 and 6 < dc < 25:
                missing += 1
                assert res.clear[0], (a, b)
                hx = hexes_model.lines(m.index("t1" + a), 0, np.array([m.index("t1" + b)]),
                                       np.array([0]))
                assert not hx.clear[0]          # the whole-hex model blocks it
    assert through and missing


def test_ground_higher_than_both_ends_blocks():
    """A6.2: a level-1 knoll drawn inside E3 blocks level-0 lines crossing it (HILL), not a line
    from a level-1 viewer's location to a level-0 target... which then meets it as high as the
    higher end (no height advantage)."""
    d = Drawing()
    ex, ey = centre("E3")
    d.disc(ex, ey, 12, level=1)
    m, t = table(d.board())
    res = line(m, t, "A2", "I4")             # through E3's centre
    assert not res.clear[0] and int(res.kind[0]) == HILL
    assert "higher than both ends" in explain_block(m, res, 0)
    res = line(m, t, "A1", "I1")             # far from the knoll
    assert res.clear[0]
    res = line(m, t, "A2", "I4", a_level=1)
    assert not res.clear[0] and int(res.kind[0]) == EQUAL
    res = line(m, t, "A2", "I4", a_level=2)  # above it: the knoll is lower than the viewer
    assert res.clear[0] or int(res.kind[0]) == BLIND


def test_crest_makes_blind_hexes_B10_23():
    """A6.4 / B10.23: from level 3 (columns A, B) over a level-2 plateau (C, D) down to level 0:
    the plateau's crest leaves E3 (one hex beyond it) blind; H3 (four beyond) is seen."""
    d = Drawing()
    d.band(0, 90, 3)
    d.band(90, 197, 2)
    m, t = table(d.board())
    near = line(m, t, "B3", "E3")
    assert not near.clear[0] and int(near.kind[0]) == BLIND
    assert "blind hexes" in explain_block(m, near, 0)
    assert line(m, t, "B3", "H3").clear[0]


def test_woods_on_a_crest_make_more_blind_hexes_than_the_bare_crest():
    """A6.4: woods (one level) on the level-2 plateau: the obstacle count (+1) reaches further
    (H3 is now blind too), where the bare crest left it seen."""
    d = Drawing()
    d.band(0, 90, 3)
    d.band(90, 197, 2)
    d.terrain[:, 150:190] = WOODS
    m, t = table(d.board())
    res = line(m, t, "B3", "H3")
    assert not res.clear[0]


def test_half_level_rubble_blocks_ends_at_its_ground_level_only():
    """B24.1 / VASL's half-level rule: rubble drawn over E3 blocks two level-0 ends; from a
    level-1 location to level 0 it is no obstacle."""
    d = Drawing()
    d.disc(*centre("E3"), 22, code=RUBBLE)
    m, t = table(d.board({"E3": "rubble"}))
    res = line(m, t, "A2", "I4")
    assert not res.clear[0] and int(res.kind[0]) == HALF
    assert line(m, t, "A2", "I4", a_level=1).clear[0]


def test_inherent_terrain_drawn_over_into_another_hex_is_ignored():
    """VASL: inherent terrain (rubble) counts only in the hex whose centre it covers."""
    d = Drawing()
    ex, ey = centre("E3")
    d.disc(ex, ey - 22, 8, code=RUBBLE)      # in E3, away from its (open) centre
    m, t = table(d.board())
    for a, b in (("A2", "I2"), ("A1", "I3"), ("A3", "I1")):
        assert line(m, t, a, b).clear[0]


def test_wall_on_a_hexside_blocks_ends_at_its_level_but_not_on_an_end_own_hexside():
    """B9.2: a wall drawn on the E3/F3 hexside blocks A2-I4 (both ends at level 0), names the
    hexside; from E3 itself (its own hexside) the same wall is ignored."""
    d = Drawing()
    e, f = centre("E3"), centre("F3")
    mx, my = (e[0] + f[0]) / 2, (e[1] + f[1]) / 2
    ux, uy = f[1] - e[1], -(f[0] - e[0])       # along the hexside
    k = 18 / math.hypot(ux, uy)
    d.segment((mx - ux * k, my - uy * k), (mx + ux * k, my + uy * k), 1.5, WALL_CODE)
    m, t = table(d.board())
    res = line(m, t, "A2", "I4")
    assert not res.clear[0] and int(res.kind[0]) == WALL
    text = explain_block(m, res, 0)
    assert "wall" in text and "t1E3/t1F3" in text and "B9.2" in text
    assert line(m, t, "E3", "I4").clear[0]
    assert line(m, t, "A2", "I4", a_level=1).clear[0]     # not both at its level


def test_orchard_is_a_hindrance_at_ground_level_and_an_obstacle_from_above():
    """A6.1 split terrain (VASL's orchard): between two ground-level ends a hindrance (+1);
    from level 1 down to level 0 it is as high as the higher end: blocked."""
    d = Drawing()
    d.disc(*centre("E3"), 24, code=ORCHARD)
    m, t = table(d.board({"E3": "orchard"}))
    res = line(m, t, "A2", "I4")
    assert res.clear[0] and int(res.hindrances[0]) == 1
    assert "1 hindrance" in explain_block(m, res, 0)
    res = line(m, t, "A2", "I4", a_level=1)
    assert not res.clear[0] and int(res.kind[0]) == EQUAL


def test_six_hindrances_block_A6_1():
    """A6.1: grain drawn along the whole row between A3 and I3's neighbours counts once per
    range: six or more block; a short line through fewer is clear with its count."""
    d = Drawing()
    d.terrain[150:175, 40:420] = GRAIN
    m, t = table(d.board())
    far = line(m, t, "A3", "I3")
    assert not far.clear[0]
    assert "six or more hindrances" in explain_block(m, far, 0)
    near = line(m, t, "C3", "E3")
    assert near.clear[0] and int(near.hindrances[0]) == 1


LIGHT_WOODS, BRUSH = 175, 25          # VASL's codes (terrain_types.csv)


@pytest.mark.parametrize("code, hindrances, clear", [(BRUSH, 3, True), (LIGHT_WOODS, 6, False)])
def test_a_light_woods_hex_hinders_as_two_RULES_11_2(code, hindrances, clear):
    """rules.md 11.2 (the LightWoods SSR, as VASL's Map.addHindranceHex counts it): three hexes
    of light woods on the line A3-I3 count two hindrances each, six, and block (A6.1); three of
    brush count one each and leave it clear."""
    d = Drawing()
    for name in ("C3", "E3", "G3"):
        d.disc(*centre(name), 20, code=code)
    m, t = table(d.board())
    res = line(m, t, "A3", "I3")
    assert bool(res.clear[0]) is clear and int(res.hindrances[0]) == hindrances


def test_the_night_layer_and_the_thread_read_raster_lines_unchanged():
    """The night field and the LOS thread on a raster board: the woods spot blocks by day, so
    the night verdict there is 'nothing', with the same daytime reason."""
    d = Drawing()
    d.disc(*centre("E3"), 24, code=WOODS)
    board = d.board({"E3": "woods"})
    s = position(board, units=[unit("A", "t1A2")])
    field = visibility_from(s, "A")
    assert field["t1I4"].sight == "none"
    assert any("t1E3" in r for r in field["t1I4"].reasons)
    th = los_thread(s, "t1A2", "t1I4")
    assert not th.day_clear and th.blocking == ["t1E3"]
    assert field["t1A3"].sight != "none"


@pytest.mark.parametrize("viewer", ["A2", "E3", "H0"])
def test_every_line_from_a_viewer_matches_one_line_at_a_time(viewer):
    """A viewer's lines to all hexes are the lines asked one by one (the vectorized walk keeps
    every line apart)."""
    d = Drawing()
    d.disc(*centre("E3"), 20, code=WOODS)
    d.disc(*centre("G2"), 25, level=1)
    d.disc(*centre("C4"), 15, code=ORCHARD)
    m, t = table(d.board({"E3": "woods", "C4": "orchard", "G2": "open"}))
    v = m.index("t1" + viewer)
    allv = t.lines(v, int(t.ground[v]), np.arange(m.size), t.ground[:-1])
    for k in range(m.size):
        one = t.lines(v, int(t.ground[v]), np.array([k]), np.array([t.ground[k]]))
        assert one.clear[0] == allv.clear[k]
        assert one.hindrances[0] == allv.hindrances[k]


def test_boards_side_by_side_and_turned_join_their_drawings():
    """Two raster boards side by side (the second turned half round): woods drawn on the second
    block a line from the first across the join; a map with one plain board uses the hex
    model."""
    a = Drawing()
    b = Drawing()
    b.disc(*centre("E3"), 24, code=WOODS)        # the turned board's centre hex stays E3
    ba, bb = a.board(board_id="t1"), b.board({"E3": "woods"}, board_id="t2")
    m = Map([Placement(ba, (0, 0)), Placement(bb, (1, 0), rotated=True)])
    t = los_table(m)
    assert isinstance(t, RasterLosTable)
    v, far = m.index("t1E3"), m.index("t2A3")
    res = t.lines(v, 0, np.array([far]), np.array([0]))
    assert not res.clear[0] and m.names[int(res.block_h1[0])] == "t2E3"
    assert t.lines(v, 0, np.array([m.index("t1I1")]), np.array([0])).clear[0]
    plain = Board("t3", "plain", HexTerrain(), {}, size=SIZE)
    mixed = Map([Placement(ba, (0, 0)), Placement(plain, (1, 0))])
    assert type(los_table(mixed)) is LosTable


def test_a_line_along_hexsides_is_judged_in_both_hexes_with_their_inherent_terrain():
    """VASL: a level line (A3-I3 runs along the hexsides of the odd columns) is judged, where
    it lies between two hexes, as in both; a hex whose centre holds inherent terrain (orchard
    trees, drawn round D2's centre only) counts as that terrain there.  From level 1 the orchard
    is as high as the higher end: blocked by D2; at ground level it hinders (A6.1)."""
    d = Drawing()
    dx, dy = centre("D2")
    d.disc(dx, dy, 10, code=ORCHARD)
    m, t = table(d.board({"D2": "orchard"}))
    res = line(m, t, "A3", "I3", a_level=1)
    assert not res.clear[0] and m.names[int(res.block_h1[0])] == "t1D2"
    ground = line(m, t, "A3", "I3")
    assert ground.clear[0] and int(ground.hindrances[0]) == 1
    # a line through the same hexside but not along hexsides: the trees are not on it
    assert line(m, t, "A3", "H3", a_level=1).clear[0]


def test_depressions_A6_3():
    """A6.3: a gully (level -1) drawn down column E.  From E3 in the gully, A3 (level 0, range
    4: higher by less than the range) is out of sight (the line leaves the gully); E1, along the
    gully at its own level, is seen.  From A3 into the gully at E3 blocked (already by the
    level ground next to A3, as VASL); from five levels up (more than the range) seen."""
    d = Drawing()
    d.terrain[:, 200:251] = GULLY
    d.level[:, 200:251] = -1
    m, t = table(d.board({f"E{r}": "gully" for r in range(1, 6)}))
    out = line(m, t, "E3", "A3")
    assert not out.clear[0] and int(out.kind[0]) == DEPRESSION
    assert "(A6.3)" in explain_block(m, out, 0)
    assert line(m, t, "E3", "E1").clear[0]
    assert not line(m, t, "A3", "E3").clear[0]
    assert line(m, t, "A3", "E3", a_level=5).clear[0]



def test_a_walk_near_the_top_edge_never_reads_the_bottom_row():
    """The walk's last step can land one pixel row past its target (the rise per column times
    the columns falls just short of the target's row): a line to a hex whose centre lies on the
    frame's top row must not step to row -1, which numpy would read as the bottom row.  Woods
    drawn along the bottom row only change nothing for lines among the upper hexes (hexes 50 x
    67 pixels apart: several such lines)."""
    geo, w, h = (0.0, 33.5, 50.0, 67.0), 400, 335

    def raster_map(bottom_code: int):
        terrain = np.zeros((h, w), dtype=np.uint8)
        terrain[h - 1, :] = bottom_code
        b = Board("t1", "edge", HexTerrain(), {}, size=SIZE)
        b = with_raster(b, Raster(terrain, np.zeros((h, w), dtype=np.int8), geo, SIZE))
        return table(b)

    (mb, tb), (_, tw) = raster_map(0), raster_map(WOODS)
    ids = np.array([i for i in range(mb.size) if int(tb.frame.centre_y[i]) < 3 * 67])
    top = ids[tb.frame.centre_y[ids] == 0]
    assert len(top)                                     # odd columns' row 0: pixel row 0
    for v in ids.tolist():
        a = tb.lines(v, 0, top, np.zeros(len(top), dtype=np.int64))
        b = tw.lines(v, 0, top, np.zeros(len(top), dtype=np.int64))
        assert np.array_equal(a.clear, b.clear), mb.names[v]
        assert np.array_equal(a.kind, b.kind), mb.names[v]


def test_the_ground_table_is_the_direct_computation_on_every_pair():
    """VASL's walk goes from the viewer (one pixel column at a time), and A6.3 judges leaving a
    depression and entering one apart: over the terrain as drawn a line can be clear one way
    and blocked the other (the edge of a hill, a gully).  The precomputed table of every
    ground-level pair (engine.los.ground) is each viewer's own row all the same, though it
    reads most lines back from the other end (where the walk back visits the same pixels).
    Water under a bridge down column F: B6 is judged from the viewer (VASL)."""
    from engine.los import ground as los_ground
    d = Drawing()
    d.band(115, 233, 1)                     # a hill whose west edge passes by C's centres
    d.terrain[:, 353:406] = GULLY
    d.level[:, 353:406] = -1
    d.terrain[0:206, 256:307] = 8           # water, a stone bridge and its road across F4
    d.level[0:206, 256:307] = -1
    d.terrain[206:237, 256:307] = 82
    d.terrain[216:231, 256:307] = 66
    d.segment(centre("B2"), centre("B3"), 2, WALL_CODE)
    d.disc(*centre("H3"), 20, code=WOODS)
    gully = {h: "gully" for h in HEXES if 353 <= int(centre(h)[0]) < 406}
    gully.update({f"F{r}": "water" for r in (1, 2, 3)})
    m, t = table(d.board(gully))
    rows = [t.from_location(v, 0) for v in range(m.size)]
    clear = np.array([r.clear for r in rows])
    assert (clear != clear.T).any()                   # not symmetric over the drawing
    assert los_ground.prepare(m)["complete"]
    assert los_ground.ground_table(m).mirror.any()    # yet most lines are read back
    for v, day in enumerate(rows):
        got_clear, got_blind = los_ground.ground_row(m, v)
        assert np.array_equal(got_clear, day.clear), m.names[v]
        assert np.array_equal(got_blind, day.kind == BLIND), m.names[v]


def test_boards_of_one_size_share_their_pixel_hexes_exactly():
    """Boards of one size tiling the frame have their pixels' hexes, sides and extended-border
    candidates computed once per parity of their hex column and row and placed at each slot:
    the same arrays as computed pixel by pixel over the whole frame (2 x 2 boards, five rows
    each: an odd row offset; hexes 64 pixels high: rows exactly half way round to even)."""
    from engine.los.raster import pixels

    geo, w, h = (0.0, 32.0, 56.25, 64.0), 450, 320
    boards = []
    for k in range(4):
        rng = np.random.default_rng(k)
        terrain = np.where(rng.random((h, w)) < 0.02, WOODS, 0).astype(np.uint8)
        b = Board(f"t{k + 1}", "tile", HexTerrain(), {}, size=SIZE)
        boards.append(with_raster(b, Raster(terrain, np.zeros((h, w), np.int8), geo, SIZE)))
    m = Map([Placement(b, (k % 2, k // 2), rotated=k == 3) for k, b in enumerate(boards)])
    t = los_table(m)
    assert isinstance(t, RasterLosTable) and (t.frame.width, t.frame.height) == (2 * w, 2 * h)
    offsets = [(int(ox * geo[2]), int(oy * geo[3])) for ox, oy in m.origins]
    width, height = t.frame.width, t.frame.height
    slots = pixels.shared_slots(m, geo, offsets, [(h, w)] * 4, width, height)
    assert slots is not None and {oy % 2 for _, _, _, oy in slots} == {0, 1}
    shared = pixels.pixel_hexes(m, width, height, geo, slots, (h, w))
    whole = pixels.pixel_hexes(m, width, height, geo)
    for name in ("hexi", "side", "at_centre"):
        assert np.array_equal(getattr(shared, name), getattr(whole, name)), name
    for k in range(6):
        assert np.array_equal(np.sort(np.concatenate(shared.near[k])),
                              np.sort(np.concatenate(whole.near[k]))), k


def test_prepare_keeps_every_upper_level_row_as_computed():
    """After ``prepare`` a viewer on a building's upper level reads its row (kept by the map's
    LOS table), the same as the direct computation."""
    from engine.los import ground as los_ground
    d = Drawing()
    d.disc(*centre("E3"), 24, code=WOODS)
    b = d.board({"C2": "building"})
    b = b.with_hex(*parse_local("C2", SIZE), HexTerrain("building", 0, "b1", 2))
    b = with_raster(b, Raster(d.terrain.copy(), d.level.copy(), GEO, SIZE))
    m, t = table(b)
    v = m.index("t1C2")
    assert isinstance(t, RasterLosTable) and int(m.upper_levels[v]) == 2
    assert los_ground.prepare(m)["complete"]
    every = np.arange(m.size)
    for level in (1, 2):
        assert (v, level) in t._cache
        kept = t.from_location(v, level)
        direct = t.lines(v, int(t.ground[v]) + level, every, t.ground[:-1])
        assert np.array_equal(kept.clear, direct.clear) and np.array_equal(kept.kind, direct.kind)


ROWHOUSE_1, STONE_1 = 77, 41          # VASL: "Rowhouse Wall, 1 Level", "Stone Building, 1 Level"


def _rowhouse_drawing(with_wall: bool = True) -> Drawing:
    """Two stone rowhouses in E3 and F3 (one level up), the rowhouse bar drawn on their
    hexside when ``with_wall``."""
    d = Drawing()
    for name in ("E3", "F3"):
        x, y = centre(name)
        d.terrain[int(y) - 15:int(y) + 16, int(x) - 15:int(x) + 16] = STONE_1
    e, f = centre("E3"), centre("F3")
    d.segment(e, f, 12, STONE_1)                              # one building shape...
    if with_wall:                                             # ...split by the bar
        mx, my = (e[0] + f[0]) / 2, (e[1] + f[1]) / 2
        ux, uy = f[1] - e[1], -(f[0] - e[0])
        k = 16 / math.hypot(ux, uy)
        d.segment((mx - ux * k, my - uy * k), (mx + ux * k, my + uy * k), 1.5, ROWHOUSE_1)
    return d


def test_rowhouse_walls_B23_71_block_even_from_the_hexes_beside_them():
    """B23.71: the bar between the rowhouses E3 and F3 blocks at ground level between the two
    hexes it divides (no end's own hexside spares it, unlike B9.2), from the first level of
    one (as high as the higher end: A6.2) and between the two first levels (half-level height
    at both ends' elevation); from two levels up it leaves the ground beside it blind (A6.4,
    VASL's count: the bar's hex is the first blind hex) but is seen over to the hexes beyond.
    Without the bar the same lines are clear (one building)."""
    hexes = {"E3": "building", "F3": "building"}
    m, t = table(_rowhouse_drawing().board(hexes))
    res = line(m, t, "E3", "F3")
    assert not res.clear[0] and int(res.kind[0]) == HIGHER
    text = explain_block(m, res, 0)
    assert "rowhouse wall" in text and "t1E3/t1F3" in text and "B23.71" in text
    assert not line(m, t, "F3", "E3").clear[0]
    up = line(m, t, "E3", "F3", a_level=1)
    assert not up.clear[0] and int(up.kind[0]) == EQUAL
    e3, f3 = m.index("t1E3"), m.index("t1F3")
    both = t.lines(e3, 1, np.array([f3]), np.array([1]))
    assert not both.clear[0] and int(both.kind[0]) == HALF
    high = line(m, t, "E3", "F3", a_level=2)
    assert not high.clear[0] and int(high.kind[0]) == BLIND
    assert line(m, t, "E3", "H3", a_level=2).clear[0]
    assert not line(m, t, "E3", "H3").clear[0]
    m2, t2 = table(_rowhouse_drawing(with_wall=False).board(hexes))
    assert line(m2, t2, "E3", "F3").clear[0]
    assert t2.lines(m2.index("t1E3"), 1, np.array([m2.index("t1F3")]), np.array([1])).clear[0]


CLIFF_CODE = 75


def _hex_pixels(d: Drawing, name: str) -> np.ndarray:
    """The pixels inside a hex's hexagon (corners +-37.5 px across, +-32.25 px up and down)."""
    x, y = centre(name)
    dx, dy = np.abs(d.xs - x), np.abs(d.ys - y)
    return (dy <= 32.25) & (dx <= 37.5 * (1 - dy / 64.5))


def _drawn_board(d: Drawing, cliff_sides=()) -> tuple:
    b = d.board()
    drawn = b.raster                # a hexside edit drops it: given back, for the new hexes
    for name, direction in cliff_sides:
        b = b.with_hexside(*parse_local(name, SIZE), direction, "cliff")
    m, t = table(with_raster(b, drawn))
    assert isinstance(t, RasterLosTable)
    return m, t


def _cliff_under_f2(target_level: int) -> Drawing:
    """F2 a level up (away from its vertices), its south side a cliff drawn just inside F3 at
    level 0, I3 at ``target_level``: the level line along row 3 runs on that hexside."""
    d = Drawing()
    d.level[_hex_pixels(d, "F2") & (d.xs >= 266) & (d.xs <= 296)] = 1
    d.level[_hex_pixels(d, "I3")] = target_level
    d.terrain[162:165, 263:300] = CLIFF_CODE
    return d


def test_a_line_along_a_cliff_hexside_runs_at_its_foot_B10_23():
    """A level line along the F2/F3 hexside, a cliff down from F2 (level 1) to F3 (level 0):
    at an odd range from the viewer it runs at the foot of the cliff, so F2's ground, as high
    as the level-1 target, does not block it (VASL's cliff hexside test of A6.2); without the
    cliff it does.  Up to a level-2 target F2 is a bare crest, not a cliff (VASL counts no
    cliff hexside on a line along hexsides): E3, next to it, is not blind."""
    cliff = [("F2", 4)]
    m, t = _drawn_board(_cliff_under_f2(1), cliff)
    for a, b in (("A3", "I3"), ("C3", "I3"), ("E3", "I3"), ("I3", "E3")):
        assert line(m, t, a, b).clear[0], (a, b)
    m0, t0 = _drawn_board(_cliff_under_f2(1))
    res = line(m0, t0, "A3", "I3")
    assert not res.clear[0] and int(res.kind[0]) == EQUAL
    m2, t2 = _drawn_board(_cliff_under_f2(2), cliff)
    assert line(m2, t2, "E3", "I3").clear[0] and line(m2, t2, "I3", "E3").clear[0]


def test_cliff_pixels_count_a_level_higher_for_blind_hexes_B10_23():
    """VASL's cliff adjustment: drawn cliff pixels count a level higher when deciding whether
    they lie between the ends' elevations.  A band of cliff at level 2 across F3 (ground 1),
    seen from F1 at level 3 down to F4: as high as the viewer, it makes no blind hex; the same
    band drawn as open ground at level 2 is a crest that leaves F4 blind (A6.4)."""
    def drawing(code):
        d = Drawing()
        d.level[_hex_pixels(d, "F1")] = 3
        d.level[_hex_pixels(d, "F3")] = 1
        d.terrain[190:197, 265:298] = code
        d.level[190:197, 265:298] = 2
        return d
    m, t = _drawn_board(drawing(CLIFF_CODE))
    assert line(m, t, "F1", "F4").clear[0]
    m2, t2 = _drawn_board(drawing(0))
    crest = line(m2, t2, "F1", "F4")
    assert not crest.clear[0] and int(crest.kind[0]) == BLIND


def test_the_slope_up_to_the_higher_end_does_not_block_B10_2():
    """B10.2 EXC (VASL's test in A6.2): F3 on a level-1 hill whose slope spills into E3 (base
    level 0) along their hexside.  From A3 up to F3 (and back) that ground, as high as F3 but
    on E3's side facing it, does not block; the same ground across E3's far side (facing D3,
    not an end) still does."""
    def drawing(facing):
        d = Drawing()
        d.level[_hex_pixels(d, "F3")] = 1
        (ex, ey), (fx, fy) = centre("E3"), centre(facing)
        nx, ny = (fx - ex) / math.hypot(fx - ex, fy - ey), (fy - ey) / math.hypot(fx - ex, fy - ey)
        along = (d.xs - (ex + fx) / 2) * nx + (d.ys - (ey + fy) / 2) * ny
        d.level[_hex_pixels(d, "E3") & (along > -8) & (along <= 0)] = 1
        return d
    m, t = _drawn_board(drawing("F3"))
    assert line(m, t, "A3", "F3").clear[0] and line(m, t, "F3", "A3").clear[0]
    m2, t2 = _drawn_board(drawing("D3"))
    res = line(m2, t2, "A3", "F3")
    assert not res.clear[0] and int(res.kind[0]) == EQUAL


def test_a_line_must_leave_the_building_before_leaving_the_viewer_hex_A6_8():
    """A6.8 Example 2 (VASL's building restriction, whatever the target): from the first level
    of E3, in a stone building that goes on into F3, to I4 on a level-2 hill, the line is still
    in the building when it leaves E3: blocked there, in words; with the building in E3 alone
    it is clear."""
    def drawing(hexes, hill):
        d = Drawing()
        for name in hexes:
            x, y = centre(name)
            d.terrain[int(y) - 15:int(y) + 16, int(x) - 15:int(x) + 16] = STONE_1
        if len(hexes) > 1:
            d.segment(centre(hexes[0]), centre(hexes[1]), 12, STONE_1)
        d.level[_hex_pixels(d, "I4")] = hill
        return _drawn_board(d)
    m, t = drawing(["E3", "F3"], 2)
    res = line(m, t, "E3", "I4", a_level=1)
    assert not res.clear[0] and int(res.kind[0]) == BUILDING_EXIT
    text = explain_block(m, res, 0)
    assert "t1F3" in text and "leave the building" in text and "A6.8" in text
    m2, t2 = drawing(["E3"], 2)
    assert line(m2, t2, "E3", "I4", a_level=1).clear[0]


WATER_CODE, PAVED_ROAD, STONE_BRIDGE = 8, 66, 82     # VASL: water, paved road, single-hex bridge


def test_a_line_along_the_water_passes_under_a_bridge_B6():
    """B6 (VASL's ground level hex under a bridge): water (level -1) down column E to E4, where
    a stone bridge and its road cross at level 0, open ground beyond to E5.  From E2 in the
    water the line meets the bridge before E4's ground: the rest of E4 is the span it passes
    under, so E5 is seen; without the bridge drawn (road only) E4's ground as high as E5
    blocks (A6.2).  VASL judges it from the viewer: from E5 the line meets E4's ground before
    the bridge and is blocked; the prepared ground table still equals every direct row."""
    from engine.los import ground as los_tables

    def drawing(bridge):
        d = Drawing()
        d.terrain[0:206, 200:251] = WATER_CODE
        d.level[0:206, 200:251] = -1
        d.terrain[206:237, 200:251] = bridge
        d.terrain[216:231, 200:251] = PAVED_ROAD
        return d
    water = {f"E{r}": "water" for r in (1, 2, 3)}
    m, t = table(drawing(STONE_BRIDGE).board(water))
    assert line(m, t, "E2", "E5").clear[0]
    back = line(m, t, "E5", "E2")
    assert not back.clear[0] and int(back.kind[0]) == EQUAL
    m0, t0 = table(drawing(PAVED_ROAD).board(water))
    res = line(m0, t0, "E2", "E5")
    assert not res.clear[0] and int(res.kind[0]) == EQUAL
    assert los_tables.prepare(m)["complete"]
    for v in range(m.size):
        day = t.from_location(v, 0)
        assert np.array_equal(los_tables.ground_row(m, v)[0], day.clear), m.names[v]


def test_a_cliff_beside_the_higher_end_makes_no_blind_hex_B10_23():
    """B10.23 next to an end (VASL's isBlindHex): F1 (level 3), F2 (level 2), F3 (level 1) down
    column F.  A cliff from F1 down to F2 lies on F2's half facing the higher end: F1's view
    down it is its own, so F3 beyond the crest is seen.  A cliff from F2 down to F3, on the
    half facing the lower end, still leaves F3 blind (the obstacle count of a cliff)."""
    def drawing(rows):
        d = Drawing()
        for name, level in (("F1", 3), ("F2", 2), ("F3", 1)):
            d.level[_hex_pixels(d, name)] = level
        d.terrain[rows, 265:298] = CLIFF_CODE
        return d
    m, t = _drawn_board(drawing(slice(95, 99)), [("F1", 4)])
    assert line(m, t, "F1", "F3").clear[0] and line(m, t, "F3", "F1").clear[0]
    m2, t2 = _drawn_board(drawing(slice(159, 163)), [("F2", 4)])
    res = line(m2, t2, "F1", "F3")
    assert not res.clear[0] and int(res.kind[0]) == BLIND
