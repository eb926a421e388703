"""The engine's front door: everything the app, the command line and the benchmarks ask of it.

``app/`` imports the engine through this module only (an import-linter contract in
pyproject.toml, run by CI).  The rooms behind it:

- the core (``engine.hexes``, ``maps``, ``boards``, ``terrain``, ``los``, ``jsonio``): hex
  geometry, maps of boards, board files, daytime LOS;
- ``engine.night``: ASL chapter E1 (lights, night verdicts, starshells, drift, the LOS thread);
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
    load_board,
    save_board,
)
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
    disc,
    neighbours,
    parse_hex_id,
    parse_local,
    pixel_to_hex,
)
from .importers.vasl import import_board
from .jsonio import atomic_write_json, read_json
from .night import drift
from .night.drift import FixedDice, RandomDice
from .night.files import MAX_MAP_SLOT, load_scenario, save_scenario, scenario_from_json, scenario_to_json
from .night.layout import LayoutResult, add_board, move_board, remove_board, set_layout, with_board
from .night.light import illuminated_hexes, illumination
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
)
from .night.starshells import fire, starshell_options
from .night.thread import los_thread, seen_by_side
from .night.verdicts import (
    gunflash_mask,
    moving_vehicle_range,
    reveal,
    unit_verdict,
    viewer_nvr,
    visibility_from,
)
from .terrain import TERRAINS


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
    "import_board", "atomic_write_json", "read_json", "drift", "FixedDice", "RandomDice",
    "MAX_MAP_SLOT", "load_scenario", "save_scenario", "scenario_from_json", "scenario_to_json",
    "LayoutResult", "add_board", "move_board", "remove_board", "set_layout", "with_board",
    "illuminated_hexes", "illumination", "MARKER_TYPES", "MOVING", "PHASES", "RADIUS_MARKERS",
    "STARSHELLS_USED", "UNIT_TYPES", "Marker", "Scenario", "Unit", "fire", "starshell_options",
    "los_thread", "seen_by_side", "gunflash_mask", "moving_vehicle_range", "reveal",
    "unit_verdict", "viewer_nvr", "visibility_from", "TERRAINS", "file_format",
]
