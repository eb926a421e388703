"""The night room's front door (ASL chapter E1; docs/rules.md): ``engine.api.night``.

Names as their modules define them, grouped by job: the position and its files, its invariants,
the typed answers, lights, verdicts, starshells and drift, the LOS thread, the board layout and
the planner.
"""
from __future__ import annotations

from . import drift  # E1.922, E1.932: where a flare ends up
from .board_rules import board_for_slot  # a map slot's board with its terrain SSRs (rules.md 11.2)
from .bounds import MAX_MAP_SLOT  # the bounds of a night position
from .checks import check  # every invariant of a legal position
from .counter_terrain import los_map  # the map LOS is judged on: rubble laid (rules.md 11.4)
from .counters import (  # counters in LOS (rules.md 11.4): names, words, a new one's keys
    DEFAULT_SMOKE,
    SMOKE_KINDS,
    marker_defaults,
    marker_label,
    marker_words,
)
from .drift import FixedDice, RandomDice  # the dice the drift rolls with
from .files import (
    SCENARIO_FORMAT,
    load_scenario,
    missing_overlays,
    save_scenario,
    scenario_from_json,
    scenario_to_json,
)
from .kinds import (  # the vocabulary of the answers
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
from .layout import LayoutResult, add_board, move_board, remove_board, set_layout, with_board
from .light import illuminated_hexes, illumination  # E1.9: which locations are lit, by what
from .los_thread import LosThread, los_thread, seen_by_side
from .new_position import board_position, game_sides, retitled  # new positions, their titles
from .planner import LIT_ENEMIES, Advice, StarshellOption, advise, advise_steps  # rules.md 10
from .planner_cli import read_costs  # a route's movement-cost table file
from .planner_route import Route, route, route_steps
from .planner_threat import Threat, threat, threat_steps
from .scenario import (  # the position: units, markers, phase
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
from .slot_edits import (  # a slot's SSRs and overlays changed; overlays drawn (rules.md 11.2-11.3)
    board_without_rules,
    overlay_pictures,
    slot_overlay,
    slot_overlays,
    with_overlays,
    with_ssr,
)
from .starshells import FireOptions, FireResult, fire, starshell_options  # E1.91 - E1.93
from .unit_verdicts import UnitVerdict, reveal, unit_verdict  # one unit's sight of another
from .verdicts import (  # E1: one viewer's field, all of them
    NightField,
    all_fields,
    gunflash_mask,
    moving_vehicle_range,
    nvr_of,
    visibility_from,
)

__all__ = [
    # the position and its files
    "los_map", "Scenario", "Unit", "Marker", "unit_properties", "MARKER_TYPES", "MOVING", "PHASES",
    "RADIUS_MARKERS", "STARSHELLS_USED", "UNIT_TYPES", "MAX_MAP_SLOT", "check",
    "board_for_slot", "missing_overlays", "SCENARIO_FORMAT", "load_scenario", "save_scenario",
    "scenario_from_json",
    "scenario_to_json",
    "board_position", "game_sides", "retitled",
    # the vocabulary of the answers
    "AUTO", "FLARE_OF", "MARKER_KINDS", "METHODS", "Fire", "Light", "MarkerKind", "Method", "Nvr",
    "Sight", "StarshellOptions",
    # counters in LOS
    "DEFAULT_SMOKE", "SMOKE_KINDS", "marker_defaults", "marker_label", "marker_words",
    # lights and verdicts
    "illuminated_hexes", "illumination", "NightField", "UnitVerdict", "all_fields",
    "gunflash_mask", "moving_vehicle_range", "nvr_of", "reveal", "unit_verdict",
    "visibility_from",
    # starshells and drift
    "drift", "FixedDice", "RandomDice", "FireOptions", "FireResult", "fire", "starshell_options",
    # the LOS thread
    "LosThread", "los_thread", "seen_by_side",
    # the board layout
    "LayoutResult", "add_board", "move_board", "remove_board", "set_layout", "with_board",
    "with_ssr", "with_overlays", "board_without_rules", "slot_overlays", "slot_overlay",
    "overlay_pictures",
    # the planner
    "LIT_ENEMIES", "Advice", "StarshellOption", "advise", "Route", "route", "Threat", "threat", "read_costs",
    "advise_steps", "route_steps", "threat_steps",
]
