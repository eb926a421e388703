"""The dark way in ASL's movement costs (the B Terrain Chart, Infantry MF), built in; a cost table
file still replaces it."""
import numpy as np
import pytest
from support import board, position, unit

from engine.boards import with_raster
from engine.errors import ScenarioError
from engine.night.planner_costs import ASL, asl_step_costs, road_hexes
from engine.night.planner_route import route
from engine.raster_file import Raster, terrain_table
from engine.raster_hexes import pixel_centres
from engine.terrain import HEXSIDES


def walk(hexes, start, goal):
    s = position(board("t1", hexes), units=[unit("A0", "t1" + start, "allied")])
    return s, route(s, "A0", "t1" + goal)


def test_each_terrain_costs_its_chart_mf():
    """B1 open 1, B15 grain 1.5, B13 woods 2, B12 brush 2, B23 building 2, B24 rubble 3,
    B16 marsh ALL (4); every hex of a row of one terrain, the way along it costs that."""
    for terrain, mf in [("open", 1), ("grain", 1.5), ("woods", 2), ("brush", 2),
                        ("building", 2), ("rubble", 3), ("marsh", 4)]:
        row = {f"{c}5": {"terrain": terrain} for c in "BCDEFGHIJK"}
        walls = {f"{c}{r}": {"terrain": "water"} for c in "ABCDEFGHIJKL" for r in (4, 6)}
        walls.update({f"{c}5": {"terrain": "water"} for c in "AL"})
        if "building" == terrain:
            row = {k: dict(v, building="b") for k, v in row.items()}
        s, r = walk({**walls, **row, "B5": {"terrain": "open"}}, "B5", "K5")
        assert r.hexes == 9, terrain
        assert r.cost == pytest.approx(mf * 9), terrain


def test_water_is_not_entered_and_the_way_goes_round():
    wet = {f"F{r}": {"terrain": "water"} for r in range(1, 10)}
    s, r = walk(wet, "C5", "I5")
    assert r.path and all(s.map.terrain_name(s.map.index(h)) != "water" for h in r.path)
    assert r.hexes > 6


def test_uphill_costs_double_the_cot():
    """B.2, B10.4: Infantry pays twice the COT to enter a higher elevation hex."""
    s = position(board("t1", {"E5": {"level": 1}, "E4": {"level": 1}, "E6": {"level": 1}}),
                 units=[unit("A0", "t1D5", "allied")])
    costs = asl_step_costs(s.map)
    m = s.map
    d5, e5 = m.index("t1D5"), m.index("t1E5")
    k = list(m.neighbours[d5]).index(e5)
    back = list(m.neighbours[e5]).index(d5)
    assert costs[d5, k] == 2 and costs[e5, back] == 1      # up 2, down 1


def test_hexside_terrain_adds_its_cost_or_bars_the_way():
    """B9.4: +1 MF to cross a wall or hedge; B9.54 bocage +2; B11 a cliff is not a way."""
    m = position(board("t1"), units=[unit("A0", "t1D5", "allied")]).map
    for name, extra in [("wall", 1), ("hedge", 1), ("bocage", 2), ("cliff", None)]:
        hexside = np.zeros_like(m.hexside)
        i = m.index("t1D5")
        hexside[i, 0] = HEXSIDES[name].code
        m.hexside = hexside
        costs = asl_step_costs(m)
        if extra is None:
            assert np.isnan(costs[i, 0])
        else:
            assert costs[i, 0] == 1 + extra and costs[i, 1] == 1


def test_a_road_through_the_woods_is_taken_at_one_mf():
    """B3.4: a road hex entered from a road hex costs 1 MF whatever else is there (the road read
    from the board's drawn terrain: a road through the hex centre)."""
    woods = {f"{c}{r}": {"terrain": "woods"} for c in "BCDEFGHIJKLM" for r in range(1, 11)}
    b = board("t1", woods)
    geometry = (0.0, 32.25, 56.25, 64.5)
    shape = (int(64.5 * 11), int(56.25 * 34))
    road = next(c for c, t in terrain_table().items() if t.name == "Dirt Road")
    terrain = np.zeros(shape, np.uint8)
    cols = np.arange(1, 13)
    x, y = pixel_centres(geometry, cols, np.full(12, 5))
    for cx, cy in zip(x.astype(int), y.astype(int)):
        terrain[cy - 2:cy + 3, cx - 2:cx + 3] = road
    drawn = with_raster(b, Raster(terrain, np.zeros(shape, np.int8), geometry, b.size))
    s = position(drawn, units=[unit("A0", "t1A5", "allied")])
    assert {s.map.names[i] for i in np.flatnonzero(road_hexes(s.map))} == {
        f"t1{c}5" for c in "BCDEFGHIJKLM"}
    r = route(s, "A0", "t1M5")
    assert r.path == tuple(f"t1{c}5" for c in "ABCDEFGHIJKLM")
    assert r.cost == 2 + 11          # the first woods-road hex from off the road, then the road


def test_a_cost_table_file_replaces_the_chart_and_asl_is_the_default():
    woods = {f"{c}{r}": {"terrain": "woods"} for c in "EFG" for r in range(2, 9)}
    s, chart = walk(woods, "C5", "I5")
    _, same = walk(woods, "C5", "I5")
    assert chart.cost == route(s, "A0", "t1I5", ASL).cost == same.cost
    flat = route(s, "A0", "t1I5", {"open": 1, "woods": 1})
    assert flat.cost == flat.hexes == 6
    with pytest.raises(ScenarioError, match="unknown cost table"):
        route(s, "A0", "t1I5", "gurps")


def test_a_table_in_any_fraction_of_mf_finds_the_same_cheapest_way():
    """Whole and half MF are packed into one number for the search; other fractions are not:
    both searches find a way of the least cost (woods at 2.1 MF against 2)."""
    woods = {f"{c}{r}": {"terrain": "woods"} for c in "EFG" for r in range(2, 9)}
    s, _ = walk(woods, "C5", "I5")
    whole = route(s, "A0", "t1I5", {"woods": 2})
    odd = route(s, "A0", "t1I5", {"woods": 2.1, "open": 1.05})
    assert whole.cost == 9 and whole.hexes == 6
    assert odd.hexes == 6 and odd.cost == pytest.approx(3 * 2.1 + 3 * 1.05)
