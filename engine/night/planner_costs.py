"""ASL's movement costs for Infantry, built in for the dark way (the B Terrain Chart; rules.md 10).

The cost of a step is the cost of terrain (COT) of the hex entered, in MF:
- open ground, plowed fields, orchards, huts 1 (B1, B14, G5); grain and kunai 1.5 (B15, G4);
  woods, forest, pine woods, brush, buildings, light jungle, gully and stream 2 (B13, B12, B23,
  G2, B19, B20: a shallow stream, our reading); rubble 3 (B24); marsh, swamp, dense jungle and
  bamboo cost ALL a unit's MF: 4, a squad's whole allowance (B16, G8, G2, G3; A4.1); water is
  not entered (B21);
- a road (drawn terrain only: a road through the hex's centre, the board's picture as VASL reads
  it; the hex model has no roads) entered from a road hex costs 1 whatever else is there (B3.4:
  the road rate, our reading for any road-to-road step);
- B.2, B10.4: Infantry pays double the COT to enter a higher elevation hex;
- a wall, hedge or cactus hedge hexside crossed adds 1 MF (B9.4, F5.4), bocage 2 (B9.54); a
  cliff (B11: climbing is not a way) and a rowhouse wall (B23.71) are not crossed.
A cost table file (``{terrain: MF}``, null impassable) replaces the chart: terrain not in it
costs 1, no hexside or elevation cost (as before the chart was built in).
"""
from __future__ import annotations

from functools import lru_cache
from numbers import Real

import numpy as np

from ..errors import ScenarioError, shown
from ..maps import Map
from ..raster_file import terrain_table
from ..raster_hexes import pixel_centres
from ..terrain import BY_CODE, HEXSIDE_BY_CODE

ALL_MF = 4.0                      # A4.1: a squad's MF; "ALL" terrain takes them all
INFANTRY_COT = {                  # B Terrain Chart, Infantry column
    "open": 1, "plowed": 1, "orchard": 1, "orchard_out_of_season": 1, "huts": 1,
    "grain": 1.5, "kunai": 1.5,
    "woods": 2, "forest": 2, "pine_woods": 2, "brush": 2, "building": 2, "light_jungle": 2,
    "gully": 2, "stream": 2,
    "rubble": 3,
    "marsh": ALL_MF, "swamp": ALL_MF, "dense_jungle": ALL_MF, "bamboo": ALL_MF,
    "water": None,
}
HEXSIDE_MF = {"wall": 1, "hedge": 1, "cactus_hedge": 1, "bocage": 2,      # B9.4, B9.54
              "cliff": None, "rowhouse_wall": None}                       # B11, B23.71
ROAD_NAMES = ("Dirt Road", "Paved Road", "Elevated Road", "Sunken Road")   # B3, B4
ASL = "asl"


@lru_cache(maxsize=1)
def _road_codes() -> np.ndarray:
    codes = [c for c, t in terrain_table().items() if t.name in ROAD_NAMES]
    out = np.zeros(256, dtype=bool)
    out[codes] = True
    return out


def road_hexes(game_map: Map) -> np.ndarray:
    """Hexes with a road through their centre, read from the boards' drawn terrain (none on a
    board without it)."""
    out = np.zeros(game_map.size, dtype=bool)
    rasters = {p.board.id: p.board.raster for p in game_map.placements
               if p.board.raster is not None}
    if not rasters:
        return out
    roads = _road_codes()
    for i, h in enumerate(game_map.board_of):
        r = rasters.get(h.board)
        if r is None:
            continue
        x, y = pixel_centres(r.geometry, h.col, h.row)
        height, width = r.terrain.shape
        if 0 <= int(y) < height and 0 <= int(x) < width:
            out[i] = roads[int(r.terrain[int(y), int(x)])]
    return out


def asl_step_costs(game_map: Map) -> np.ndarray:
    """(hexes, 6): the MF to step from each hex into its neighbour in each direction (NaN: not
    entered, off the map too)."""
    m = game_map
    cot = np.array([np.nan if INFANTRY_COT.get(t.name, 1) is None else INFANTRY_COT.get(t.name, 1)
                    for t in BY_CODE])[m.terrain]
    nb = m.neighbours
    on = nb >= 0
    j = np.where(on, nb, 0)
    step = np.where(on, cot[j], np.nan)
    road = road_hexes(m)
    step = np.where(road[:, None] & road[j] & on, 1.0, step)                  # B3.4
    step = np.where(m.level[j] > m.level[:, None], 2 * step, step)            # B.2, B10.4
    side = np.array([0.0] + [np.nan if HEXSIDE_MF.get(h.name, 0) is None
                             else HEXSIDE_MF.get(h.name, 0) for h in HEXSIDE_BY_CODE[1:]])
    return step + side[m.hexside]


# a hex's movement points, bounded: every sum along a route is then exact enough to rank and
# finite (values near 1e308 summed to infinity and tied routes by their hex count)
MIN_STEP_COST, MAX_STEP_COST = 0.001, 1000


def table_step_costs(game_map: Map, costs: dict) -> np.ndarray:
    """(hexes, 6) as ``asl_step_costs``, from a user's table ``{terrain: MF}`` alone."""
    m = game_map
    out = np.ones(m.size, dtype=float)
    names = np.array([m.terrain_name(i) for i in range(m.size)])
    for terrain, cost in costs.items():
        if cost is None:
            out[names == terrain] = np.nan
        elif isinstance(cost, bool) or not isinstance(cost, Real) \
                or not MIN_STEP_COST <= cost <= MAX_STEP_COST:
            raise ScenarioError(f"the cost of {terrain!r} must be a number from "
                                f"{MIN_STEP_COST:g} to {MAX_STEP_COST:g} or null (impassable), "
                                f"not {shown(cost)}", place=f"costs.{terrain}")
        else:
            out[names == terrain] = float(cost)
    nb = m.neighbours
    return np.where(nb >= 0, out[np.where(nb >= 0, nb, 0)], np.nan)


def step_costs(game_map: Map, costs: dict | str | None) -> np.ndarray:
    """The MF of every step: ASL's chart (``None`` or ``"asl"``) or the user's table."""
    if costs is None or costs == ASL:
        return asl_step_costs(game_map)
    if isinstance(costs, str):
        raise ScenarioError(f"unknown cost table {costs!r}: {ASL} or a cost table file")
    return table_step_costs(game_map, costs)


__all__ = ["ASL", "HEXSIDE_MF", "INFANTRY_COT", "MAX_STEP_COST", "MIN_STEP_COST",
           "asl_step_costs", "road_hexes", "step_costs", "table_step_costs"]
