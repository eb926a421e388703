"""The engine's one front door: what the app, the command line and the benchmarks ask of it.

``app/`` imports the engine through this module only (import-linter contracts in
pyproject.toml, run by CI).  It groups:

- the core, by name: hex geometry (``hexes``), boards and their files (``boards``), the terrain
  tables (``terrain``), JSON files (``jsonio``), the error every bad input raises
  (``ScenarioError``), the cache by map content (``per_map``), and the whole-map LOS work
  (``prepare``, ``table_steps``);
- each room's own door, as a namespace: ``night`` (ASL chapter E1, ``engine.night.api``),
  ``napoleonic`` (rules.md 8), ``tabletop`` (rules.md 9), and ``vasl`` (VASL board archives and
  saved games, ``engine.importers.api``);
- ``ssr``: terrain SSRs in a player's words, VASL's season presets, recoloured pictures;
- ``file_format``: which room a file belongs to.

A room imports the core, never another room; this door sits over them all.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .boards import (
    BOARD_FORMAT,
    MAX_LEVEL,
    MAX_UPPER_LEVELS,
    Board,
    HexTerrain,
    assets_dir,
    board_raster,
    board_to_json,
    bundled_board,
    bundled_boards_dir,
    load_board,
    save_board,
    with_raster,
    without_raster,
)
from .cache import per_map
from .errors import ScenarioError
from .file_writes import hold_owner, own_folder, owner_held, release_owner
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
from .importers import api as vasl
from .jsonio import atomic_write_bytes, atomic_write_json, read_json
from .los import building, ground
from .napoleonic import api as napoleonic
from .night import api as night
from .overlay_file import load_overlay
from .overlay_paste import overlay_picture, place_overlay
from .ssr import api as ssr
from .tabletop import api as tabletop
from .terrain import HEXSIDE_BY_CODE, TERRAINS


def _judged_map(position: Any):
    """The map a position's LOS is judged on: a night position's with its rubble laid
    (rules.md 11.4, ``night.los_map``), any other position's own."""
    return night.los_map(position) if isinstance(position, night.Scenario) else position.map


def prepare(position: Any) -> dict:
    """Precompute the LOS of every pair of ground locations of a position's map (any room's
    position with a ``map``; ``engine.los.ground``) and return when done: benchmarks and scripts
    call it, the app drives ``table_steps`` instead.  Idempotent and safe from several threads;
    a map larger than ``engine.los.ground.MAX_TABLE_HEXES`` is left to its lazy rows at once."""
    return ground.prepare(_judged_map(position))


def table_steps(position: Any):
    """``prepare``'s work a step at a time: a generator yielding the share built after each
    step (nothing when the map is too large or its table is built).  The engine starts no
    thread: the caller drives it (the app's job runner, in the background) and may drop it
    between steps; driven again, it goes on where it stopped."""
    return ground.steps(_judged_map(position))


def table_progress(position: Any) -> dict | None:
    """How far the work of ``table_steps`` on a position's map has gone: {"done": share 0..1},
    or None when the map has no table under way.  Cheap: for a status bar."""
    return ground.progress(_judged_map(position))


def warm_up(position: Any, progress=None) -> None:
    """What the first field on a position's map needs, made now (its LOS table; on boards that
    are drawn the pixel frame and the compiled walk, loaded): the app runs it in the
    background while a window opens.  ``progress(fraction)``, called between the drawn
    frame's steps, may raise to stop it (nothing is kept); no bound on pixel classes."""
    with building(progress=progress):
        ground.warm_up(_judged_map(position))       # rules.md 11.4: rubble laid


def file_format(path: str | Path) -> str:
    """The ``format`` a JSON file declares (``starshell-scenario``, ``starshell-board``...), so
    a caller can pick the room that opens it.  Raises ScenarioError naming the file."""
    data = read_json(Path(path))
    declared = data.get("format") if isinstance(data, dict) else None
    if not isinstance(declared, str):
        raise ScenarioError("not a Starshell file: no \"format\" key", file=str(path))
    return declared


__all__ = [
    # the rooms
    "night", "napoleonic", "tabletop", "vasl",
    # terrain SSRs: words, presets, pictures (rules.md 11.2)
    "ssr",
    # boards and their files
    "BOARD_FORMAT", "MAX_LEVEL", "MAX_UPPER_LEVELS", "Board", "HexTerrain", "assets_dir", "board_to_json",
    "bundled_board", "bundled_boards_dir", "load_board", "save_board",
    "board_raster", "with_raster", "without_raster",
    "atomic_write_json", "atomic_write_bytes", "own_folder", "read_json", "file_format",
    "hold_owner", "owner_held", "release_owner",
    "ScenarioError", "per_map",
    # hex geometry
    "BOARD_ID_RE", "BOARD_ROWS", "COLUMN_NAMES", "COLUMN_STEP", "CORNER_OFFSETS", "SQRT3",
    "HexIdError", "center", "disc", "neighbours", "parse_hex_id", "parse_local", "pixel_to_hex",
    # terrain
    "HEXSIDE_BY_CODE", "TERRAINS",
    # overlays placed on a board and drawn (rules.md 11.3)
    "load_overlay", "place_overlay", "overlay_picture",
    # whole-map LOS work
    "prepare", "table_progress", "table_steps", "warm_up", "building",
]
