"""B10.23 along a cliff and B10.2 EXC next to the higher end, as VASL judges them
(``Map.checkTerrainHeightRule``), on generated boards (test_raster_los's 9 x 5 drawing)."""
from __future__ import annotations

import math

from test_raster_los import CLIFF_CODE, GULLY, Drawing, centre, line, table
from test_raster_vasl_rules import hex_mask

from engine.boards import with_raster
from engine.hexes import parse_local
from engine.los import BLIND, EQUAL, RasterLosTable


def drawn_board(d: Drawing, cliff_sides=()):
    """The drawing's board with cliff hexsides (the hex model's directions) added."""
    b = d.board()
    drawn = b.raster
    for name, direction in cliff_sides:
        b = b.with_hexside(*parse_local(name, (9, 5)), direction, "cliff")
    m, t = table(with_raster(b, drawn))
    assert isinstance(t, RasterLosTable)
    return m, t


def test_a_60_degree_line_along_a_cliff_runs_at_its_foot_by_the_hexside_it_follows_B10_23():
    """E4 and E3 on a level-2 hill, F3 down at -1 across a cliff (E3's south-east hexside,
    drawn on E3's side at level 2), F2 at level 0.  The 60-degree line from E4 to F2 runs along
    that hexside: VASL asks the hexside parallel to the line nearer each point (here E3's
    south-east one, though the first points lie nearer E3's south hexside) and the line runs at
    the cliff's foot: clear both ways.  Without the cliff, the hill as high as E4 blocks (A6.2)."""
    d = Drawing()
    for name, level in (("E4", 2), ("E3", 2), ("F3", -1), ("F2", 0)):
        d.level[hex_mask(d, name)] = level
    d.segment((243.75, 193.5), (262.5, 161.25), 3, CLIFF_CODE)
    d.level[d.terrain == CLIFF_CODE] = 2
    m, t = drawn_board(d, [("E3", 3)])
    assert line(m, t, "E4", "F2").clear[0] and line(m, t, "F2", "E4").clear[0]
    m0, t0 = drawn_board(d)
    res = line(m0, t0, "E4", "F2")
    assert not res.clear[0] and int(res.kind[0]) == EQUAL


def test_the_slope_to_the_higher_end_near_a_hex_centre_B10_2():
    """B10.2 EXC (VASL measures each point's distance to the higher end's centre): F3 on a
    level-1 hill, a spot of level-1 ground in E3 (base level 0) just beside E3's centre.  On
    the line from C2 through D2 and E3's centre up to F3, the spot on the side of E3's centre
    facing F3 does not block; the same spot on the far side of the centre does."""
    def drawing(toward: float):
        d = Drawing()
        d.level[hex_mask(d, "F3")] = 1
        (ex, ey), (fx, fy) = centre("E3"), centre("F3")
        ux, uy = (fx - ex) / math.hypot(fx - ex, fy - ey), (fy - ey) / math.hypot(fx - ex, fy - ey)
        d.disc(ex + toward * ux, ey + toward * uy, 3, level=1)
        return table(d.board())
    m, t = drawing(8)
    assert line(m, t, "C2", "F3").clear[0]
    m2, t2 = drawing(-8)
    res = line(m2, t2, "C2", "F3")
    assert not res.clear[0] and int(res.kind[0]) == EQUAL


def test_a_cliff_at_the_lower_end_level_leaves_it_blind_B10_23():
    """VASL's cliff adjustment also when the cliff's pixels lie at the lower end's level: F1
    and F2 at level 1, F2's north hexside a cliff drawn on F2's side at level 1 (a level higher
    for the count), F4 at level 3.  From F4 the cliff, on the half of F2 facing F1, leaves F1
    blind (B10.23), both ways; with the same pixels but no cliff hexside F1 is seen."""
    d = Drawing()
    for name, level in (("F1", 1), ("F2", 1), ("F3", 1), ("F4", 3)):
        d.level[hex_mask(d, name)] = level
    d.terrain[98:103, 265:298] = CLIFF_CODE
    d.level[98:103, 265:298] = 1
    m, t = drawn_board(d, [("F2", 1)])
    assert bool(t.frame.cliff_side[m.index("t1F2"), 0])
    for a, b in (("F4", "F1"), ("F1", "F4")):
        res = line(m, t, a, b)
        assert not res.clear[0] and int(res.kind[0]) == BLIND, (a, b)
    m0, t0 = drawn_board(d)
    assert line(m0, t0, "F4", "F1").clear[0] and line(m0, t0, "F1", "F4").clear[0]


def test_a_crest_past_a_depression_hexside_counts_a_level_lower_A6_4():
    """VASL's isBlindHex: a bare crest counts a level lower where the first hexside of its hex
    the line crosses is a depression hexside.  F1 at level 3, F2 and F3 at 2, F4 at 0: F3's
    crest leaves F4 blind from F1 (A6.4); with gully drawn at F3's north hexside location (the
    first side the line down column F crosses there) F4 is seen."""
    def drawing(gully: bool):
        d = Drawing()
        for name, level in (("F1", 3), ("F2", 2), ("F3", 2), ("F4", 0)):
            d.level[hex_mask(d, name)] = level
        if gully:
            d.terrain[160:164, 278:285] = GULLY
        return table(d.board())
    m, t = drawing(False)
    res = line(m, t, "F1", "F4")
    assert not res.clear[0] and int(res.kind[0]) == BLIND
    m2, t2 = drawing(True)
    assert line(m2, t2, "F1", "F4").clear[0] and line(m2, t2, "F4", "F1").clear[0]
