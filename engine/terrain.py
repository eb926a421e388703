"""The terrain table: one place for what each terrain does to LOS and to light.

Heights follow VASL's table (RULES.md section 2, A6.2): an obstacle's top is the hex's ground level
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
    # Rubble is a half-level obstacle (VASL: obstacle, half level).  Our levels are whole
    # numbers, so it is rounded up to one level: it blocks a line between two ground-level
    # locations, as it should, and may block a line from one level up to ground level that
    # clears in ASL.
    Terrain("rubble", "rubble", height=1, rule="B24 / A6.2"),
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
