"""What each VASL terrain code is to the rules over the terrain as drawn (VASL's terrain
table, ``engine.raster_file.terrain_table``): one array of 256 entries per property, indexed by
a pixel's terrain code."""
from __future__ import annotations

import numpy as np

from ...raster_file import terrain_table
from ...terrain import HEXSIDES

_TABLE = terrain_table()


def _prop(test) -> np.ndarray:
    out = np.zeros(256, dtype=bool)
    for code, terrain in _TABLE.items():
        out[code] = bool(test(terrain))
    return out


OBSTACLE = _prop(lambda t: t.obstacle)
HALF_LEVEL = _prop(lambda t: t.half_level)
# rules.md 11.4: the level forms of rubble ("Stone Rubble Level 1"...) are a counter's terrain,
# never drawn: VASL gives every point of the counter's hex that terrain, a point judged in that
# hex along a hexside too (``checkLOSOnHexsideRule`` then ``applyLOSRules``), as inherent terrain
INHERENT = _prop(lambda t: t.inherent or (t.name.endswith(("Level 1", "Level 2", "Level 3"))
                                          and "Rubble" in t.name))
SPLIT = _prop(lambda t: t.split)
LOWER_OBSTACLE = _prop(lambda t: t.lower_obstacle)
LOWER_HINDRANCE = _prop(lambda t: t.lower_hindrance)
HEXSIDE_T = _prop(lambda t: t.category == "HEXSIDE")
CLIFF_T = _prop(lambda t: t.name == "Cliff")
BOCAGE_T = _prop(lambda t: t.name == "Bocage")
BRIDGE_T = _prop(lambda t: t.category == "BRIDGE")         # B6: VASL's isBridge
# B23.71 / O5.31: VASL's isRowhouseFactoryWall
ROWHOUSE_T = _prop(lambda t: t.name.startswith(("Rowhouse Wall", "Interior Factory Wall")))
BUILDING_T = _prop(lambda t: t.category == "BUILDING" and "Rowhouse" not in t.name)
# A6.8: VASL's isBuilding (a line still in the building) and isBuildingTerrain (what blocks)
IN_BUILDING_T = _prop(lambda t: t.category in ("BUILDING", "FACTORY", "MARKETPLACE"))
BUILDING_TERRAIN_T = _prop(lambda t: t.category in ("BUILDING", "MARKETPLACE"))
OUT_OF_SEASON = _prop(lambda t: t.name == "Orchard, Out of Season")
# rules.md 11.2 (VASL's Map.addHindranceHex): a Light Woods hex hinders as two
LIGHT_WOODS_T = _prop(lambda t: "Light Woods" in t.name)
WATER_T = _prop(lambda t: t.category == "WATER")
DEPRESSION_T = _prop(lambda t: t.category == "DEPRESSION")
ROAD_T = _prop(lambda t: t.category == "ROAD")           # VASL's isRoad (A6.3, B6)
# VASL's hexside terrain as ours (terrain.HEXSIDES), for the explanation of a block
OUR_HEXSIDE = np.zeros(256, dtype=np.int8)
for _code, _terrain in _TABLE.items():
    if _terrain.category == "HEXSIDE" and _terrain.name != "Cliff":
        _name = {"Hedge": "hedge", "Bocage": "bocage", "Cactus Hedge": "cactus_hedge"}.get(
            _terrain.name, "wall")
        if _name in HEXSIDES:
            OUR_HEXSIDE[_code] = HEXSIDES[_name].code
OUR_HEXSIDE[_prop(lambda t: t.name.startswith("Rowhouse Wall"))] = HEXSIDES["rowhouse_wall"].code
_DENSE_JUNGLE = next(c for c, t in _TABLE.items() if t.name == "Dense Jungle")
_BAMBOO = next(c for c, t in _TABLE.items() if t.name == "Bamboo")
HEIGHT = np.zeros(256, dtype=np.int64)
for _code, _terrain in _TABLE.items():
    HEIGHT[_code] = _terrain.height


def inherent_instead(centre: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """What a point between two hexes counts as in one of them (VASL's checkLOSOnHexsideRule):
    the hex's inherent centre terrain, except jungle or bamboo over water drawn there."""
    jungle = (centre == _DENSE_JUNGLE) | (centre == _BAMBOO)
    return np.where(INHERENT[centre] & ~(jungle & WATER_T[drawn]), centre, drawn)
