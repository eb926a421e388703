"""Terrain SSRs over the hex model (``Board``: per-hex terrain and level, hexside terrain), the
same rules as ``pixels`` in the same order (rules.md 11.2).

VASL's terrain names become ours as the importer makes them (``importers/vasl_terrain.py``);
a rule whose terrain has no exact counterpart in the hex model (crags, rivers, buildings made
gutted...) changes the hex model nothing and only the drawn terrain.
"""
from __future__ import annotations

from dataclasses import replace

from ..boards import Board, HexTerrain
from . import table as T

# VASL area terrain named by the rules -> ours, where the counterpart is exact
AREA = {"Open Ground": "open", "Plowed Field": "plowed", "Marsh": "marsh", "Swamp": "swamp",
        "Grain": "grain", "Brush": "brush", "Woods": "woods", "Orchard": "orchard",
        "Orchard, Out of Season": "orchard_out_of_season", "Water": "water",
        "Shallow Stream": "stream", "Bamboo": "bamboo", "Dense Jungle": "dense_jungle",
        "Light Jungle": "light_jungle"}
# targets only (several VASL terrains share ours, so they are never a rule's source here)
AREA_TARGET = AREA | {"Flooded Stream": "water", "Dry Stream": "stream", "Light Woods": "orchard",
                      "Palm Trees": "orchard", "Crags": "brush", "Shellholes": "open"}
# VASL hexside terrain -> ours; "Open Ground" as a target clears the hexside
HEXSIDE = {"Hedge": "hedge", "Wall": "wall", "Bocage": "bocage", "Cliff": "cliff"}


def apply_to_hexes(board: Board, names, woods_hexes=()) -> Board:
    """The board with the rules ``names`` applied to its hex model in order; ``woods_hexes``:
    the hexes given a disc of woods by a woods-roads rule on the drawn terrain (``pixels``).
    Unknown names change nothing (``pixels.apply_to_raster`` names them)."""
    hexes = {pos: board.at(*pos) for pos in board.hexes_all}
    sides = dict(board.hexsides)
    pto = False
    for name in T.unique(names):
        rule = T.rules().get(name)
        if rule is None:
            continue
        _apply(rule, hexes, sides, woods_hexes)
        pto = pto or name in T.PTO_RULES
    if pto:          # rules.md 11.2 (G2.1: in the PTO, woods are light jungle)
        _terrain(hexes, "woods", "light_jungle")
    changed = {p: h for p, h in hexes.items() if h != board.at(*p) or h.extra}
    if not changed and sides == board.hexsides:
        return board
    new = dict(board.hexes)
    for pos, h in changed.items():
        if h == board.default and not h.extra:
            new.pop(pos, None)
        else:
            new[pos] = h
    return replace(board, hexes=new, hexsides=sides)


def has_hex_effect(rule: T.SsrRule) -> bool:
    """Whether the rule can change a hex model (a board without its drawing): its terrain has
    an exact counterpart here, or it is a level rule, or a hand-coded rule on hexes."""
    if rule.type == T.TERRAIN_MAP:
        return (rule.source in AREA and rule.target in AREA_TARGET) or rule.source in HEXSIDE
    if rule.type == T.TERRAIN_TO_ELEVATION:
        return rule.source in AREA
    if rule.type == T.ELEVATION_TO_TERRAIN:
        return rule.target in AREA_TARGET
    if rule.type == T.CUSTOM:
        return rule.name not in ("NoStairwells", "NoBridge", "BridgeToFord") and \
            rule.name not in T.WOODS_ROADS
    return rule.type == T.ELEVATION_MAP


def _terrain(hexes: dict, a: str, b: str, **more) -> None:
    for pos, h in hexes.items():
        if h.terrain == a:
            hexes[pos] = _as(h, b, **more)


def _as(h: HexTerrain, terrain: str, **more) -> HexTerrain:
    if terrain != "building":
        more = {"building": None, "upper_levels": 0} | more
    return replace(h, terrain=terrain, **more)


def _apply(rule: T.SsrRule, hexes: dict, sides: dict, woods_hexes) -> None:
    if rule.type == T.TERRAIN_MAP:
        if rule.source in AREA and rule.target in AREA_TARGET:
            _terrain(hexes, AREA[rule.source], AREA_TARGET[rule.target])
        elif rule.source in HEXSIDE:         # hexside terrain (B9)
            to = HEXSIDE.get(rule.target)
            for key, name in list(sides.items()):
                if name == HEXSIDE[rule.source]:
                    if to is None:
                        del sides[key]
                    else:
                        sides[key] = to
    elif rule.type == T.ELEVATION_MAP:
        n, m = T.level_of(rule.source), T.level_of(rule.target)
        if n is not None and m is not None:
            for pos, h in hexes.items():
                if h.level == n:
                    hexes[pos] = replace(h, level=m)
    elif rule.type == T.TERRAIN_TO_ELEVATION:
        v = T.level_of(rule.target)
        if rule.source in AREA and v is not None:
            _terrain(hexes, AREA[rule.source], "open", level=v)
    elif rule.type == T.ELEVATION_TO_TERRAIN:
        n = T.level_of(rule.source)
        if n is not None and rule.target in AREA_TARGET:
            for pos, h in hexes.items():
                if h.level == n:
                    hexes[pos] = _as(h, AREA_TARGET[rule.target], level=0)
    elif rule.type == T.CUSTOM:
        _custom(rule.name, hexes, sides, woods_hexes)


def _custom(name: str, hexes: dict, sides: dict, woods_hexes) -> None:
    if name in ("RowhouseBarsToBuildings", "RowhouseBarsToOpenGround"):
        # rowhouse walls become building or open ground: no wall left between the hexes (B23.71)
        for key, side in list(sides.items()):
            if side == "rowhouse_wall":
                del sides[key]
    elif name in T.WOODS_ROADS:        # woods at the centre of woods-road hexes (B13.6)
        for pos in woods_hexes:
            if pos in hexes and hexes[pos].terrain == "open":
                hexes[pos] = _as(hexes[pos], "woods")
    elif name == "Bamboo":             # brush is bamboo (G3.1)
        _terrain(hexes, "brush", "bamboo")
    elif name == "PalmTrees":          # orchards are palm trees, an orchard's LOS in VASL
        _terrain(hexes, "orchard_out_of_season", "orchard")
    elif name == "DenseJungle":        # woods are dense jungle (G2.1)
        _terrain(hexes, "woods", "dense_jungle")
    elif name == "SwampToSwampPattern":     # marsh next to woods or jungle is swamp (G8)
        near = {"woods", "light_jungle", "dense_jungle"}
        swamp = [pos for pos, h in hexes.items() if h.terrain == "marsh" and any(
            hexes.get(p) is not None and hexes[p].terrain in near for p in T.around(*pos))]
        for pos in swamp:
            hexes[pos] = _as(hexes[pos], "swamp")
    # NoStairwells, NoBridge, BridgeToFord: the hex model has no stairways and no bridges

