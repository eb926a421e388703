"""The engine's front door: everything the app, the command line and the benchmarks ask of it.

``app/`` imports the engine through this module only (an import-linter contract in
pyproject.toml, run by CI).  The rooms behind it:

- the core (``engine.hexes``, ``maps``, ``boards``, ``terrain``, ``los``, ``jsonio``): hex
  geometry, maps of boards, board files, daytime LOS;
- ``engine.night``: ASL chapter E1 (lights, night verdicts, starshells, drift, the LOS thread);
  its answers are typed: ``Sight`` and ``Fire`` (str enums), ``UnitVerdict``, ``NightField``,
  ``StarshellOptions``, ``LosThread``, ``Nvr``, the marker kinds with their facts
  (``MARKER_KINDS``: light, radius, side) and the placement methods (``METHODS``);
  ``check(scenario)`` holds every invariant of a legal position (the loader and every edit of
  the app call it); ``as_json()`` of an answer is what the command line prints;
- ``engine.importers``: VASL board archives and saved games.

Each game is a room of its own: it imports the core, never another room.
"""
from __future__ import annotations

from pathlib import Path

from .boards import (
    MAX_LEVEL,
    MAX_UPPER_LEVELS,
    Board,
    HexTerrain,
    assets_dir,
    board_to_json,
    bundled_board,
    bundled_boards_dir,
    hexside_key,
    load_board,
    save_board,
)
from .cache import per_map
from .errors import ScenarioError
from .hexes import (
    BOARD_ID_RE,
    BOARD_ROWS,
    COLUMN_NAMES,
    COLUMN_STEP,
    CORNER_OFFSETS,
    SQRT3,
    HexIdError,
    center,
    column_name,
    disc,
    neighbours,
    parse_hex_id,
    parse_local,
    pixel_to_hex,
)
from .importers.vasl import ImportCancelled, import_board
from .importers.vasl5 import image_placement as board_image_placement
from .importers.vsav import import_vsav, read_vsav, vsav_scenario
from .importers.vsav_boards import MissingBoards
from .jsonio import atomic_write_json, read_json
from .los.ground import MAX_TABLE_HEXES
from .los.ground import prepare as _prepare_map
from .los.ground import start as _start_map
from .napoleonic import api as napoleonic
from .night import drift
from .night.bounds import MAX_MAP_SLOT
from .night.checks import check
from .night.drift import FixedDice, RandomDice
from .night.files import load_scenario, save_scenario, scenario_from_json, scenario_to_json
from .night.kinds import (
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
from .night.layout import LayoutResult, add_board, move_board, remove_board, set_layout, with_board
from .night.light import illuminated_hexes, illumination
from .night.los_thread import LosThread, los_thread, seen_by_side
from .night.scenario import (
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
from .night.starshells import FireOptions, FireResult, fire, starshell_options
from .night.unit_verdicts import UnitVerdict, reveal, unit_verdict
from .night.verdicts import (
    NightField,
    all_fields,
    gunflash_mask,
    moving_vehicle_range,
    nvr_of,
    viewer_nvr,
    visibility_from,
)
from .tabletop import api as tabletop
from .terrain import HEXSIDE_BY_CODE, HEXSIDES, TERRAINS


def prepare(scenario: Scenario) -> dict:
    """Precompute the LOS of every pair of ground locations of the scenario's map
    (``engine.los.ground``) and return when done: benchmarks and scripts call it, the app never
    waits on it.  Idempotent and safe from several threads; a map larger than
    ``MAX_TABLE_HEXES`` is left to its lazy rows at once."""
    return _prepare_map(scenario.map)


def prepare_in_background(scenario: Scenario) -> None:
    """Start ``prepare``'s work on a background thread and return at once (the fields answer
    as before until each viewer's row is built)."""
    _start_map(scenario.map)


def file_format(path: str | Path) -> str:
    """The ``format`` a JSON file declares (``starshell-scenario``, ``starshell-board``...), so
    a caller can pick the room that opens it.  Raises ScenarioError naming the file."""
    data = read_json(Path(path))
    fmt = data.get("format") if isinstance(data, dict) else None
    if not isinstance(fmt, str):
        raise ScenarioError("not a Starshell file: no \"format\" key", file=str(path))
    return fmt


__all__ = [
    "MAX_LEVEL", "MAX_UPPER_LEVELS", "Board", "HexTerrain", "assets_dir", "board_to_json",
    "bundled_board", "bundled_boards_dir", "load_board", "save_board", "ScenarioError",
    "BOARD_ID_RE", "BOARD_ROWS", "COLUMN_NAMES", "COLUMN_STEP", "CORNER_OFFSETS", "SQRT3",
    "HexIdError", "center", "disc", "neighbours", "parse_hex_id", "parse_local", "pixel_to_hex",
    "import_vsav", "read_vsav", "vsav_scenario", "MissingBoards",
    "import_board", "board_image_placement", "ImportCancelled",
    "atomic_write_json", "read_json", "drift", "FixedDice", "RandomDice",
    "MAX_MAP_SLOT", "load_scenario", "save_scenario", "scenario_from_json", "scenario_to_json",
    "LayoutResult", "add_board", "move_board", "remove_board", "set_layout", "with_board",
    "illuminated_hexes", "illumination", "MARKER_TYPES", "MOVING", "PHASES", "RADIUS_MARKERS",
    "STARSHELLS_USED", "UNIT_TYPES", "Marker", "Scenario", "Unit", "fire", "starshell_options",
    "per_map", "check", "AUTO", "FLARE_OF", "MARKER_KINDS", "METHODS", "Fire", "Light",
    "MarkerKind", "Method", "Nvr",
    "Sight", "StarshellOptions", "FireOptions", "FireResult", "LosThread", "NightField",
    "UnitVerdict", "nvr_of",
    "unit_properties",
    "los_thread", "seen_by_side", "gunflash_mask", "moving_vehicle_range", "reveal",
    "unit_verdict", "viewer_nvr", "visibility_from", "TERRAINS", "file_format", "napoleonic", "tabletop",
    "HEXSIDES", "HEXSIDE_BY_CODE", "hexside_key", "column_name",
    "prepare", "prepare_in_background", "MAX_TABLE_HEXES", "all_fields",
]
