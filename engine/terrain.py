"""The terrain table: one place for what each terrain does to LOS and to light.

Heights follow VASL's table (rules.md 2, A6.2): an obstacle's top is the hex's ground level
plus its height.  Hindrances (A6.1: grain, brush...) add +1 each and six block.  ``starlit`` says
whether starshells and Illuminating Rounds light the hex's ground location (E1.923, E1.933: not
jungle, bamboo or light jungle, except a unit bypassing light jungle; building interiors are
decided by the map, see ``maps``).  ``dense`` marks the terrain of G2.3 (no LOS at night between
adjacent dense jungle / bamboo locations).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Terrain:
    name: str
    label: str
    height: int = 0            # obstacle height above ground (0: not an obstacle)
    hindrance: bool = False    # A6.1 hindrance (+1 DRM each, six block)
    starlit: bool = True       # lit by starshells and IR (E1.923 / E1.933)
    dense: bool = False        # G2.3 dense jungle / bamboo (G3.1)
    bypassable: bool = False   # a unit may bypass it and then be lit by starshells (E1.923)
    half_level: bool = False   # obstacle top half a level above ground (rules.md 7, B24)
    rule: str = "A6.2"
    code: int = 0              # small integer used in the map's arrays


_TABLE = [
    Terrain("open", "open ground", rule="A6.2"),
    Terrain("woods", "woods", height=1, rule="B13 / A6.2"),
    Terrain("building", "building", height=1, rule="B23 / A6.2"),     # + upper levels per hex
    Terrain("grain", "grain", hindrance=True, rule="B12 / A6.1"),
    Terrain("brush", "brush", hindrance=True, rule="B12 / A6.1"),
    Terrain("orchard", "orchard", height=1, hindrance=True, rule="B14 / A6.1"),
    Terrain("dense_jungle", "dense jungle", height=2, starlit=False, dense=True, rule="G2 / E1.923"),
    Terrain("light_jungle", "light jungle", height=2, starlit=False, bypassable=True,
            rule="G2 / E1.923"),
    Terrain("bamboo", "bamboo", height=1, starlit=False, dense=True, rule="G3.1 / E1.923"),
    Terrain("forest", "forest", height=2, rule="B13 / A6.2"),
    Terrain("pine_woods", "pine woods", height=2, rule="B13 / A6.2"),
    Terrain("swamp", "swamp", height=2, rule="G8 / A6.2"),
    Terrain("kunai", "kunai", hindrance=True, rule="G4 / A6.1"),
    Terrain("marsh", "marsh", hindrance=True, rule="B16 / A6.1"),
    # Added for boards imported from VASL (engine/importers/vasl.py); heights follow VASL's terrain table.
    # No LOS effect: plowed fields are open ground; water, streams and gullies are no obstacle
    # (a stream's or gully's depression is the hex's ground level, -1 in VASL's data).
    Terrain("plowed", "plowed field", rule="B1 / A6.2"),
    Terrain("water", "water", rule="B21 / A6.2"),
    Terrain("stream", "stream", rule="B20 / A6.2"),
    Terrain("gully", "gully", rule="B19 / A6.2"),
    # Rubble is a half-level obstacle (VASL: obstacle, half level; rules.md 7): it blocks only a
    # line whose two ends are both at its ground level (VASL's checkHalfLevelTerrainRule).
    Terrain("rubble", "rubble", half_level=True, rule="B24.1 / A6.2"),
    # Huts and out-of-season orchards are hindrances, not obstacles (VASL's table).
    Terrain("huts", "huts", hindrance=True, rule="G5 / A6.1"),
    Terrain("orchard_out_of_season", "orchard (out of season)", hindrance=True,
            rule="B14 / A6.1"),
]

TERRAINS: dict[str, Terrain] = {}
for _i, _t in enumerate(_TABLE):
    TERRAINS[_t.name] = Terrain(**{**_t.__dict__, "code": _i})
BY_CODE: list[Terrain] = sorted(TERRAINS.values(), key=lambda t: t.code)

ORCHARD = TERRAINS["orchard"].code
BUILDING = TERRAINS["building"].code


def terrain(name: str) -> Terrain:
    return TERRAINS[name]


# ----------------------------------------------------------------------------- hexside terrain

@dataclass(frozen=True)
class Hexside:
    """Terrain lying on a hexside (rules.md 7; VASL's LOSCategory HEXSIDE)."""
    name: str
    label: str
    kind: str          # "wall" (blocks same-level lines, B9.2), "obstacle" (A6.2 height rules
    #                    with blind hexes), "cliff" (changes the blind-hex count only)
    height: int = 0    # obstacle height above the hexside's ground, in levels ("obstacle")
    ignorable: bool = True   # ignored on the viewer's / target's own hexside (B9.2, B9.52)
    spine_ignorable: bool = True   # ... and where met at a vertex of the viewer's / target's hex
    rule: str = "B9.2"
    code: int = 0


_HEXSIDE_TABLE = [
    Hexside("wall", "wall", "wall", rule="B9.2"),
    Hexside("hedge", "hedge", "wall", rule="B9.2"),
    Hexside("cactus_hedge", "cactus hedge", "wall", rule="F5.4 / B9.2"),
    # bocage: a one-level obstacle; not ignorable at a hexspine of the end hexes (rules.md 7)
    Hexside("bocage", "bocage", "obstacle", height=1, spine_ignorable=False, rule="B9.52 / A6.2"),
    Hexside("cliff", "cliff", "cliff", ignorable=False, spine_ignorable=False, rule="B11"),
    # rowhouse walls block by the height rules of the building they divide (B23.71)
    Hexside("rowhouse_wall", "rowhouse wall", "obstacle", height=1, ignorable=False,
            spine_ignorable=False, rule="B23.71 / A6.2"),
]

HEXSIDES: dict[str, Hexside] = {}
for _i, _h in enumerate(_HEXSIDE_TABLE, start=1):      # code 0: no hexside terrain
    HEXSIDES[_h.name] = Hexside(**{**_h.__dict__, "code": _i})
HEXSIDE_BY_CODE: list[Hexside | None] = [None] + sorted(HEXSIDES.values(), key=lambda h: h.code)
