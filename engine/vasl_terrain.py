"""VASL's terrain codes (``SharedBoardMetadata.xml``) and what each becomes in Starshell (the
importers and the overlay paste, ``overlay_paste``, read it).

Terrain without an exact counterpart is imported as the nearest one (the ``VASL_TERRAIN`` table
says which and why); hexside terrain of ``HEXSIDE_IMPORT`` becomes ours (rules.md 7), the other
hexside features and bridges are reported, not imported.

Long: ``_table`` is kept whole (over 80 lines): it is the table itself, one line a group of codes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class VaslTerrain:
    name: str               # VASL's name (SharedBoardMetadata.xml)
    kind: str               # "area": decides a hex; "minor": ignored; "hexside", "bridge": reported
    terrain: str = "open"   # ours, for an area code
    upper_levels: int = 0
    note: str = ""          # why an area code is only approximated ("" = exact)
    inherent: bool = False  # VASL's inherent terrain: a few pixels near the centre make the hex


def _table() -> dict[int, VaslTerrain]:
    t: dict[int, VaslTerrain] = {}
    # isInherentTerrain in VASL's table: orchard trees, jungle... drawn as patches or dots
    inherent = {26, 27, 28, 63, 64, 90, 91, 105, 106, 114, 115, 117, 118, 119, 127, 128, 129,
                137, 190, 194}

    def area(codes, names, terrain, note="", upper=None):
        for i, (code, name) in enumerate(zip(codes, names)):
            up = upper[i] if upper is not None else 0
            t[code] = VaslTerrain(name, "area", terrain, up, note, code in inherent)

    def kind(codes, names, k):
        for code, name in zip(codes, names):
            t[code] = VaslTerrain(name, k)

    no_los = "no effect on LOS"
    area([0], ["Open Ground"], "open")
    area([1], ["Plowed Field"], "plowed")
    area([2, 3, 4, 5, 6, 7], ["Rooftop", "Snow", "Deep Snow", "Ice", "Mud", "Mudflats"], "open",
         no_los)
    area(range(8, 14), ["Water", "Shallow Water", "River", "Shallow River", "Ford", "Canal"],
         "water")
    area([14], ["Marsh"], "marsh")
    area([15], ["Shellholes"], "open", no_los)
    area([20, 21, 22, 23], ["Foxholes", "Trench", "Antitank Trench", "Pillbox"], "open",
         "fortifications are not imported; " + no_los)
    area([24], ["Grain"], "grain")
    area([25], ["Brush"], "brush")
    area([26, 27, 28], ["Crags", "Debris", "Graveyard"], "brush", "a hindrance, like brush")
    area([29], ["Lumberyard"], "woods", "a one-level obstacle, like woods")
    area([30], ["Gully"], "gully")
    area([31, 32, 33], ["Dry Stream", "Shallow Stream", "Deep Stream"], "stream")
    area([34], ["Flooded Stream"], "water")
    area([35], ["Irrigation Ditch"], "open", no_los)
    area([40, 41, 42, 43, 44], ["Stone Building"] +
         [f"Stone Building, {n} Level" for n in (1, 2, 3, 4)], "building", upper=[0, 1, 2, 3, 4])
    area([50, 51, 52, 53, 54], ["Wooden Building"] +
         [f"Wooden Building, {n} Level" for n in (1, 2, 3, 4)], "building", upper=[0, 1, 2, 3, 4])
    factory = "a factory, as a building (factory rules are a follow-up)"
    area([47, 48, 57, 58, 198], ["Stone Factory, 1.5 Level", "Stone Factory, 2.5 Level",
                                 "Wooden Factory, 1.5 Level", "Wooden Factory, 2.5 Level",
                                 "Wooden Factory, 1 Level"], "building", factory,
         upper=[1, 2, 1, 2, 1])
    area([49, 59], ["Stone Market Place", "Wooden Market Place"], "open",
         "a market place is open ground at ground level")
    area([60], ["Woods"], "woods")
    area([61], ["Forest"], "forest")
    area([62], ["Pine Woods"], "pine_woods")
    area([63], ["Orchard"], "orchard")
    area([64], ["Orchard, Out of Season"], "orchard_out_of_season")
    area([90, 91, 190, 194], ["Stone Rubble", "Wooden Rubble", "Stone Rubble Ground Level",
                              "Wooden Rubble Ground Level"], "rubble")
    area([191, 192, 193, 195, 196, 197],
         [f"{k} Rubble Level {n}" for k in ("Stone", "Wooden") for n in (1, 2, 3)], "rubble",
         "rubble above ground level, as ground-level rubble")
    area([95, 96, 97, 100, 101, 102, 106, 107, 111, 120, 139, 143, 144, 145, 146, 147, 148, 201],
         ["Sewer", "Tunnel", "Cave", "Scrub", "Hammada", "Dier", "Hillock Summit", "Sand",
          "Sangar", "Broken Ground", "Panji", "Soft Sand", "Beach, Slight Slope",
          "Beach, Moderate Slope", "Beach, Steep Slope", "Exposed Reef", "Submerged Reef",
          "OffBObserver"], "open", no_los)
    area([104], ["Wadi"], "gully", "a depression, like a gully")
    area([105, 108, 117], ["Hillock", "Sand Dune, Low", "Cactus Patch"], "rubble",
         "a low obstacle, like rubble")
    area([113, 115, 125, 166, 174, 182, 203],
         ["Mausoleum", "Building Cluster", "Temple", "Storage Tank", "Cellar",
          "Gutted Stone Building", "MultipleWooden"], "building", "as a single-story building")
    area([163, 164, 165, 167, 168, 169, 183, 184, 185, 186],
         ["Tower Obstacle", "Tower, 2 Level Obstacle", "Tower, 3 Level Obstacle",
          "Storage Tank, 2 Level", "BFP Tower, 1 Level", "BFP Tower, 2 Level"] +
         [f"Gutted Stone Building, {n} Level" for n in (1, 2, 3, 4)], "building",
         "as a building of as many levels", upper=[0, 1, 2, 1, 1, 2, 1, 2, 3, 4])
    area([114, 131], ["Bedouin Camp", "Collapsed Huts"], "huts", "a hindrance, like huts")
    area([118, 129, 175], ["Olive Grove", "Palm Trees", "Light Woods"], "orchard",
         "VASL gives it an orchard's LOS (a hindrance between ground-level ends, "
         "a one-level obstacle otherwise)")
    area([119, 160, 161, 162, 170, 171, 180, 181, 204],
         ["Vineyard", "Tower Hindrance", "Tower, 2 Level Hindrance", "Tower, 3 Level Hindrance",
          "Roofless Stone Factory, 1.5 Level", "Roofless Stone Factory, 2.5 Level",
          "Gutted Stone Factory, 1.5 Level", "Gutted Stone Factory, 2.5 Level", "Monument"],
         "brush", "a hindrance, like brush")
    area([126], ["Light Jungle"], "light_jungle")
    area([127], ["Dense Jungle"], "dense_jungle")
    area([128], ["Bamboo"], "bamboo")
    area([130], ["Huts"], "huts")
    area([132], ["Kunai"], "kunai")
    area([133], ["Swamp"], "swamp")
    area([135, 136, 137], ["Rice Paddy, Drained", "Rice Paddy, Irrigated",
                           "Rice Paddy, In Season"], "open", no_los + " (VASL)")
    area([140, 141, 142], ["Ocean", "Shallow Ocean", "Effluent"], "water", "as water")
    kind([65, 66, 67, 68, 69, 70, 112, 138, 153, 154, 155, 156, 202],
         ["Dirt Road", "Paved Road", "Elevated Road", "Sunken Road", "Runway", "Path", "Track",
          "Rice Paddy Bank", "Railroad, Ground Level", "Railroad, Embankment",
          "Railroad, Elevated", "Railroad, Sunken", "Crest"], "minor")
    kind([72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 45, 46, 55, 56, 172, 173, 199, 103, 109, 110,
          116, 152, 157, 200],
         ["Wall", "Hedge", "Bocage", "Cliff", "Rowhouse Wall"] +
         [f"Rowhouse Wall, {n} Level" for n in (1, 2, 3, 4)] +
         ["Road Block", "Stone Factory Wall, 1.5 Level", "Stone Factory Wall, 2.5 Level",
          "Wooden Factory Wall, 1.5 Level", "Wooden Factory Wall, 2.5 Level",
          "Interior Factory Wall, 1 Level", "Interior Factory Wall, 2 Level",
          "Wooden Factory Wall, 1 Level", "Dier Lip", "Dune, Crest Low", "Dune, Crest High",
          "Cactus Hedge", "Railway Embankment", "Rrembankment", "PartialOrchard"], "hexside")
    kind(range(82, 88), ["Single Hex Stone Bridge", "Single Hex Wooden Bridge", "Stone Bridge",
                         "Wooden Bridge", "Pontoon Bridge", "Foot Bridge"], "bridge")
    return t


VASL_TERRAIN: dict[int, VaslTerrain] = _table()

# hexside terrain imported as ours (rules.md 7): VASL code -> our hexside terrain name
HEXSIDE_IMPORT = {72: "wall", 73: "hedge", 74: "bocage", 75: "cliff", 76: "rowhouse_wall",
                  77: "rowhouse_wall", 78: "rowhouse_wall", 79: "rowhouse_wall",
                  80: "rowhouse_wall", 116: "cactus_hedge"}

# what each hexside feature is called in the report
HEXSIDE_GROUPS = {
    "walls": (72,), "hedges": (73,), "bocage": (74,), "cliffs": (75,),
    "rowhouse walls": (76, 77, 78, 79, 80), "road blocks": (81,),
    "factory walls": (45, 46, 55, 56, 172, 173, 199), "dier lips": (103,),
    "dune crests": (109, 110), "cactus hedges": (116,),
    "railway embankments": (152, 157), "partial orchards": (200,),
}

# code -> it votes for what a hex is / VASL's inherent terrain / a building
VOTES = np.zeros(256, dtype=bool)
INHERENT = np.zeros(256, dtype=bool)
BUILDING = np.zeros(256, dtype=bool)
for _code, _t in VASL_TERRAIN.items():
    VOTES[_code] = _t.kind == "area"
    INHERENT[_code] = _t.inherent
    BUILDING[_code] = _t.kind == "area" and _t.terrain == "building"
