"""A6.3, B19.51 and B9.2 over the terrain as drawn, as VASL judges them
(``Map.checkDepressionRule``, ``isIgnorableHexsideTerrain``; a hex's centre and hexside
location points as ``Hex`` reads them), on generated boards (test_raster_los's 9 x 5 drawing,
VASL's geometry)."""
from __future__ import annotations

import numpy as np
from test_raster_los import GULLY, WALL_CODE, Drawing, centre, line, table

from engine.los import DEPRESSION, EQUAL, explain_block
from engine.los import WALL as WALL_BLOCK

STONE_BRIDGE, DIRT_ROAD = 82, 65


def hex_mask(d: Drawing, name: str) -> np.ndarray:
    """The pixels inside a hex's hexagon (corners +-37.5 px across, +-32.25 px up and down)."""
    x, y = centre(name)
    dx, dy = np.abs(d.xs - x), np.abs(d.ys - y)
    return (dy <= 32.25) & (dx <= 37.5 * (1 - dy / 64.5))


def gully_down_e() -> Drawing:
    d = Drawing()
    d.terrain[:, 200:251] = GULLY
    d.level[:, 200:251] = -1
    return d


GULLY_E = {f"E{r}": "gully" for r in range(1, 6)}


def test_a_bridge_hex_whose_centre_is_the_road_blocks_a_line_along_the_gully_A6_3():
    """VASL's depression rule: a single-hex stone bridge carries a road across E3 at level 0
    over a gully down column E.  From E2 in the gully to E4, the bridge and road pixels of E3
    (a hex that is no depression: its centre is the road) are above the viewer: the line leaves
    the depression there, blocked (A6.3), though B6 would let it pass under the span.  When
    the bridge is drawn over E3's centre (the road narrower, off it), the hex counts as the
    depression under the bridge, one level below it: the line follows it, clear."""
    def drawing(road_rows):
        d = gully_down_e()
        d.terrain[146:177, 200:251] = STONE_BRIDGE
        d.level[146:177, 200:251] = 0
        d.terrain[road_rows, 200:251] = DIRT_ROAD
        return d
    hexes = {**GULLY_E, "E3": "open"}
    m, t = table(drawing(slice(154, 169)).board(hexes))
    res = line(m, t, "E2", "E4")
    assert not res.clear[0] and int(res.kind[0]) == DEPRESSION
    assert "(A6.3)" in explain_block(m, res, 0)
    m2, t2 = table(drawing(slice(148, 152)).board(hexes))
    assert line(m2, t2, "E2", "E4").clear[0] and line(m2, t2, "E4", "E2").clear[0]


def test_next_to_each_other_across_a_depression_hexside_A6_3():
    """VASL: two hexes next to each other across a hexside whose middle is depression terrain
    are not held by the depression rule.  A bank pixel at level 0 on the line inside E3 (a
    gully hex at -1): E2 sees E3 across their gully hexside, while E1, two hexes up the gully,
    does not (the line enters E3 off the depression).  With the hexside's middle drawn as bank
    too, E2 no longer sees E3."""
    d = gully_down_e()
    d.disc(225, 141, 3, code=0, level=0)
    m, t = table(d.board(GULLY_E))
    assert line(m, t, "E2", "E3").clear[0]
    far = line(m, t, "E1", "E3")
    assert not far.clear[0] and int(far.kind[0]) == DEPRESSION
    d.disc(225, 129, 3, code=0, level=0)
    m2, t2 = table(d.board(GULLY_E))
    res = line(m2, t2, "E2", "E3")
    assert not res.clear[0] and int(res.kind[0]) == DEPRESSION


def test_a_crest_line_at_the_vertex_a_line_leaves_by_B19_51():
    """VASL's crest line at a vertex: C3, D2 and E3 in a gully at level -1; the level line from
    C3 to E3 runs along the D2/D3 hexside.  With D3 a hollow at level -2 (no depression, lower
    than both ends: nothing on the line is above them) one hex beside the hexspine the line
    leaves C3 (and enters E3) by has another base level: blocked, both ways.  With D3 in the
    gully as well the line is clear."""
    def drawing(d3_level, d3_code):
        d = Drawing()
        for name in ("C3", "D2", "E3"):
            d.terrain[hex_mask(d, name)] = GULLY
            d.level[hex_mask(d, name)] = -1
        d.terrain[hex_mask(d, "D3")] = d3_code
        d.level[hex_mask(d, "D3")] = d3_level
        hexes = {"C3": "gully", "D2": "gully", "E3": "gully"}
        if d3_code == GULLY:
            hexes["D3"] = "gully"
        return table(d.board(hexes))
    m, t = drawing(-2, 0)
    for a, b in (("C3", "E3"), ("E3", "C3")):
        res = line(m, t, a, b)
        assert not res.clear[0] and int(res.kind[0]) == DEPRESSION, (a, b)
    m2, t2 = drawing(-1, GULLY)
    assert line(m2, t2, "C3", "E3").clear[0] and line(m2, t2, "E3", "C3").clear[0]


def test_a_hex_centre_terrain_is_read_at_its_truncated_centre_point_A6_3():
    """VASL's Hex.resetTerrain reads a hex's centre terrain (and base level) at the truncated
    centre point: a gully pixel just beside E3's centre does not make E3 a depression hex (A6.3
    judges no line from it), one on the point does."""
    x, y = (int(v) for v in centre("E3"))
    for px, py, depression in ((x + 1, y - 1, False), (x, y, True)):
        d = Drawing()
        d.terrain[py, px] = GULLY
        m, t = table(d.board())
        assert bool(t.frame.depression[m.index("t1E3")]) is depression, (px, py)


def test_a_wall_drawn_over_the_hexside_location_point_blocks_B9_2():
    """VASL reads a hexside location's terrain a pixel in from the hexside's middle, toward
    the centre (Hex.initHexNew, truncated): a wall drawn inside E3 over that point (251, 176),
    short of the middle itself, is E3's south-east hexside terrain, and the line from D3 (next
    to E3) to G3 over it is blocked (B9.2); drawn a few pixels farther in, it spills from a
    location that holds no hexside terrain and D3 ignores it."""
    for x0, blocked in ((247, True), (240, False)):
        d = Drawing()
        d.terrain[173:181, x0:x0 + 5] = WALL_CODE
        m, t = table(d.board())
        res = line(m, t, "D3", "G3")
        assert bool(res.clear[0]) is not blocked, x0
        if blocked:
            assert int(res.kind[0]) == WALL_BLOCK


def test_a_hexside_location_takes_the_wall_the_hex_across_reads_there_B9_2():
    """VASL: a hexside location whose own point is no hexside terrain takes the terrain the hex
    across reads at its point of the same hexside when that is a wall.  A wall drawn inside E3
    on the line from D3 to G3, E3's own point of its south-east hexside (251, 176) left open,
    F3's point of it (254, 178) a wall pixel off the line: the wall is E3's hexside terrain
    and blocks (B9.2); with F3's point open too it spills and D3, next to E3, ignores it."""
    for across, blocked in ((True, True), (False, False)):
        d = Drawing()
        d.terrain[176:180, 250:253] = WALL_CODE
        d.terrain[176, 251] = 0
        if across:
            d.terrain[178, 254] = WALL_CODE
        m, t = table(d.board())
        assert bool(line(m, t, "D3", "G3").clear[0]) is not blocked, across


def test_the_top_pixel_row_belongs_to_the_hexes_of_row_one_A6_2():
    """VASL's Map.gridToHex puts a pixel row halfway between two hexes of a column in the lower
    one: the top edge's row over C is C1's.  C1 and D0 at level 1, B0 at level 0: the level line
    from B0 to D0 along the top edge runs over C1's top row of pixels, as high as D0 and above
    B0: blocked (A6.2, no height advantage), both ways."""
    d = Drawing()
    for name in ("C1", "D0"):
        d.level[hex_mask(d, name)] = 1
    m, t = table(d.board())
    for a, b in (("B0", "D0"), ("D0", "B0")):
        res = line(m, t, a, b)
        assert not res.clear[0] and int(res.kind[0]) == EQUAL, (a, b)


def test_a_line_following_the_stream_under_a_bridge_ignores_the_banks_A6_3():
    """VASL's ignoreGroundLevelHex: a gully down column E at level -1, E4's centre a stone
    bridge at level 0 with a bank of open ground at level 0 between it and E5.  From E5 (open,
    level 0) into the gully at E2, the line enters the target's depression from above and
    leaves E4 by a hexside whose middle is gully: it follows the depression through E4, whose
    bank is no obstacle of "no height advantage" (A6.2) any more (back from E2 the line meets
    the span first: B6 under the bridge).  With open ground at level -1 drawn at the middle of
    E4's hexside to E3 (the line passing the same pixels' levels), the bank blocks again."""
    def drawing(open_side: bool) -> Drawing:
        d = gully_down_e()
        d.terrain[258:323, 200:251] = 0            # E5: open ground at level 0
        d.level[258:323, 200:251] = 0
        d.terrain[215:237, 200:251] = STONE_BRIDGE  # the span over E4's centre
        d.level[215:237, 200:251] = 0
        d.terrain[240:258, 200:251] = 0             # the bank between the span and E5
        d.level[240:258, 200:251] = 0
        if open_side:
            d.terrain[192:197, 215:236] = 0         # E4's N hexside point (225, 194): open
        return d
    hexes = {**GULLY_E, "E4": "gully", "E5": "open"}
    m, t = table(drawing(False).board(hexes))
    assert line(m, t, "E5", "E2").clear[0]
    assert line(m, t, "E2", "E5").clear[0]
    m2, t2 = table(drawing(True).board(hexes))
    res = line(m2, t2, "E5", "E2")
    assert not res.clear[0] and int(res.kind[0]) == EQUAL


BOCAGE = 74


def _vertex(name: str, dx: float, dy: float) -> tuple[float, float]:
    x, y = centre(name)
    return x + dx, y + dy


def test_bocage_blocks_by_its_hexside_rule_alone_B9_52():
    """VASL's height and blind-hex rules leave bocage alone (B9.52 is its hexside rule): bocage
    on the hexside between D3 and E3, both ends at level 0.  From C4 to E3 (through D3's centre)
    it is the target's own hexside, ignored (B9.2); from C4 on to F2 it is not: blocked."""
    d = Drawing()
    d.segment(_vertex("D3", 18.75, -32.25), _vertex("D3", 37.5, 0), 2, BOCAGE)
    m, t = table(d.board())
    assert line(m, t, "C4", "E3").clear[0] and line(m, t, "E3", "C4").clear[0]
    res = line(m, t, "C4", "F2")
    assert not res.clear[0] and "B9.52" in explain_block(m, res, 0)


def test_bocage_on_a_hexspine_of_an_end_blocks_B9_52():
    """VASL ignores hexside terrain on a hexspine of an end's hex, but bocage: bocage on the
    hexside between A5 and B4 (a hexspine of A4 and of B5), both ends at level 0: the line from
    A4 to B5 along it is blocked (a wall there would not block)."""
    def drawing(code):
        d = Drawing()
        d.segment(_vertex("A5", 18.75, -32.25), _vertex("A5", 37.5, 0), 2, code)
        return d
    m, t = table(drawing(BOCAGE).board())
    assert not line(m, t, "A4", "B5").clear[0]
    m2, t2 = table(drawing(WALL_CODE).board())
    assert line(m2, t2, "A4", "B5").clear[0]
