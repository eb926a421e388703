"""The night room's front door (ASL chapter E1; RULES.md): what ``engine.api`` offers of it.

Names as their modules define them: the position (``Scenario`` and its files), its invariants
(``check``), the typed answers (``Sight``, ``Fire``, ``UnitVerdict``, ``NightField``,
``StarshellOptions``, ``LosThread``), lights, starshells, drift and the board layout.
"""
from __future__ import annotations

# drift (E1.922, E1.932): where a starshell or IR ends up, exact distributions
from . import drift

# the scenario file: load, validate, save atomically
from .bounds import MAX_MAP_SLOT

# every invariant of a legal position
from .checks import check

# the dice the drift rolls with: fixed (tests, examples) or random
from .drift import FixedDice, RandomDice
from .files import load_scenario, save_scenario, scenario_from_json, scenario_to_json

# the vocabulary of answers: sights, fire kinds, marker kinds and placement methods
from .kinds import (
    AUTO,
    FLARE_OF,
    MARKER_KINDS,
    METHODS,
    Fire,
    Light,
    MarkerKind,
    Method,
    Nvr,
    Sight,
    StarshellOptions,
)

# boards on the map's slots: add, move, remove, relayout
from .layout import LayoutResult, add_board, move_board, remove_board, set_layout, with_board

# illumination (E1.9): which locations are lit, by what
from .light import illuminated_hexes, illumination

# the string between two hexes, and a whole side's sight at night
from .los_thread import LosThread, los_thread, seen_by_side

# the position: units, markers, phase and their edits
from .scenario import (
    MARKER_TYPES,
    MOVING,
    PHASES,
    RADIUS_MARKERS,
    STARSHELLS_USED,
    UNIT_TYPES,
    Marker,
    Scenario,
    Unit,
    unit_properties,
)

# starshells and IR (E1.91 - E1.93): who may fire, where, and the shot with its drift
from .starshells import FireOptions, FireResult, fire, starshell_options
from .unit_verdicts import UnitVerdict, reveal, unit_verdict

# night verdicts (E1): one viewer's field, one unit's sight of another
from .verdicts import (
    NightField,
    all_fields,
    gunflash_mask,
    moving_vehicle_range,
    nvr_of,
    viewer_nvr,
    visibility_from,
)

__all__ = [
    "drift", "FixedDice", "RandomDice",
    "check", "MAX_MAP_SLOT", "load_scenario", "save_scenario", "scenario_from_json",
    "scenario_to_json", "LayoutResult", "add_board", "move_board", "remove_board", "set_layout",
    "with_board", "MARKER_TYPES", "MOVING", "PHASES", "RADIUS_MARKERS", "STARSHELLS_USED",
    "UNIT_TYPES", "Marker", "Scenario", "Unit", "unit_properties",
    "AUTO", "FLARE_OF", "MARKER_KINDS", "METHODS", "Fire", "Light", "MarkerKind", "Method", "Nvr",
    "Sight", "StarshellOptions",
    "illuminated_hexes", "illumination",
    "LosThread", "los_thread", "seen_by_side",
    "FireOptions", "FireResult", "fire", "starshell_options",
    "NightField", "UnitVerdict", "all_fields", "gunflash_mask", "moving_vehicle_range", "nvr_of",
    "reveal", "unit_verdict", "viewer_nvr", "visibility_from",
]
