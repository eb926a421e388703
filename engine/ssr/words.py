"""VASL's terrain SSR names in a player's words, and the season presets VASL's scenario controls
offer (rules.md 11.2).  A plain table for the window and the command line alike: the common
rules have words; every other rule of VASL's list is shown by its VASL name (``in_words``), and a
name that is not in VASL's list is shown as it is (it is named as not applied, never dropped)."""
from __future__ import annotations

from . import table as T

# VASL rule name -> a player's words (rules.md 11.2; the ASL rule each stands for in brackets
# where it has one)
WORDS: dict[str, str] = {
    "OrchardOutOfSeason": "Orchards out of season",            # B14.3
    "NoGrain": "No grain (grain is open ground)",               # B18.1
    "PlowedFields": "Grain is plowed fields",                   # B18.1
    "BrushToOpenGround": "Brush is open ground",                # B15
    "WoodsToBrush": "All woods are brush",                      # B13, B15
    "LightWoods": "Light woods",                                # B13.3
    "MarshToOpenGround": "Marsh is open ground",                # B16
    "SwampToMarsh": "Swamp is marsh",                           # G8
    "NoStairwells": "No stairwells",                            # B23.22
    "NoHedges": "No hedges",                                    # B9.3
    "HedgesToOG": "Hedges are open ground",                     # B9.3
    "NoWalls": "No walls",                                      # B9.2
    "WallsToOG": "Walls are open ground",                       # B9.2
    "WallsToBocage": "Walls are bocage",                        # B9.5
    "HedgesToBocage": "Hedges are bocage",                      # B9.5
    "FloodedStreams": "Streams are flooded",                    # B20.7
    "DryStreams": "Streams are dry",                            # B20.2
    "NoBridge": "No bridges",                                   # B6
    "BridgeToFord": "Bridges are fords",                        # B6
    "RoadsToPaths": "Woods roads are paths",                    # B13.6
    "NoWoodsRoads": "No woods roads",                           # B13.6
    "RowhouseBarsToBuildings": "Rowhouse walls are buildings",  # B23.71
    "RowhouseBarsToOpenGround": "No rowhouse walls",            # B23.71
    "StoneToGutted": "Stone buildings are gutted",
    "NoCliffs": "No cliffs",                                    # B11
    "RiverToValley": "Rivers are dry valleys",
    "PondToValley": "Ponds are dry valleys",
    "Winter": "Winter colours (no LOS effect)",                 # E3.7
    "Mud": "Mud (no LOS effect)",                               # E3.6
    "NoRoads": "No roads (no LOS effect)",
    "Bamboo": "Brush is bamboo (PTO)",                          # G3
    "PalmTrees": "Orchards are palm trees (PTO)",               # G4
    "DenseJungle": "Woods are dense jungle (PTO)",              # G2
    "SwampToSwampPattern": "Marsh by woods is swamp (PTO)",     # G8
    "Level1ToLevel0": "Level 1 hills are level 0",              # B10
    "Level2ToLevel1": "Level 2 hills are level 1",
    "Level2ToLevel0": "Level 2 hills are level 0",
    "Level3ToLevel2": "Level 3 hills are level 2",
    "Level3ToLevel1": "Level 3 hills are level 1",
    "Level3ToLevel0": "Level 3 hills are level 0",
    "Level4ToLevel3": "Level 4 hills are level 3",
    "Level_1ToLevel0": "Depressions (level -1) are level 0",    # A6.3
}

# (name, months, ground) of VASL's presets (its SSRControls; rules.md 11.2): months 1-12
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
GROUND = ("", "snow", "deep snow")      # E3.7: ground snow, deep snow
_OUT_OF_SEASON = {11, 12, 1, 2, 3}      # rules.md 11.2: November to March, orchards bare
_NO_GRAIN = {10, 11, 12, 1, 2, 3}       # October to March, no grain
_PLOWED = {4, 5}                        # April and May, plowed fields


def preset(month: int, ground: str = "") -> tuple[str, ...]:
    """VASL's rule names for a scenario in ``month`` (1-12) on ``ground`` ("", "snow" or "deep
    snow"), in the order VASL applies them (rules.md 11.2)."""
    if not 1 <= month <= 12:
        raise ValueError(f"month must be 1 to 12, not {month!r}")
    if ground not in GROUND:
        raise ValueError(f"ground must be one of {', '.join(map(repr, GROUND))}, not {ground!r}")
    out = []
    if month in _OUT_OF_SEASON:
        out.append("OrchardOutOfSeason")
    if month in _NO_GRAIN or ground:
        out.append("NoGrain")
    elif month in _PLOWED:
        out.append("PlowedFields")
    if ground:                          # snow: marsh is frozen ground; deep snow: brush too
        out.append("MarshToOpenGround")
    if ground == "deep snow":
        out.append("BrushToOpenGround")
    return tuple(out)


def in_words(name: str) -> str:
    """A rule in a player's words; a rule without words keeps its VASL name."""
    return WORDS.get(name, name)


def describe(name: str) -> str:
    """What a rule does, from VASL's table (a tooltip): "Woods -> Grain", "level 2 -> 1"..."""
    rule = T.rules().get(name)
    if rule is None:
        return f"{name}: not a VASL terrain rule Starshell knows (not applied)"
    how = {T.TERRAIN_MAP: f"{rule.source} becomes {rule.target}",
           T.ELEVATION_MAP: f"level {rule.source} becomes level {rule.target}",
           T.TERRAIN_TO_ELEVATION: f"{rule.source} becomes open ground at level {rule.target}",
           T.ELEVATION_TO_TERRAIN: f"level {rule.source} becomes {rule.target} at level 0",
           T.IGNORE: "no LOS effect", T.CUSTOM: "coded by hand in VASL"}.get(rule.type, "")
    return f"{name}: {how}" if how else name


def choices() -> list[tuple[str, str]]:
    """(VASL name, words) of every rule a player may choose: the ones with words first, in this
    table's order, then every other rule of VASL's list by its VASL name."""
    known = T.rules()
    out = [(n, w) for n, w in WORDS.items() if n in known]
    out += [(n, n) for n in known if n not in WORDS]
    return out
