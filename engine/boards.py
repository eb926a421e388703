"""Board files (SPEC.md, ``format: "starshell-board"``, version 1): load, validate, save."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ScenarioError
from .hexes import BOARD_ID_RE, COLUMN_NAMES, HexIdError, parse_local
from .jsonio import atomic_write_json, read_json
from .terrain import TERRAINS

BOARD_FORMAT = "starshell-board"
MAX_LEVEL = 10
MAX_UPPER_LEVELS = 6


@dataclass(frozen=True)
class HexTerrain:
    terrain: str = "open"
    level: int = 0
    building: str | None = None
    upper_levels: int = 0
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Board:
    id: str
    title: str
    default: HexTerrain
    hexes: dict  # (col, row) -> HexTerrain, sparse
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    path: str | None = field(default=None, compare=False, hash=False)

    def at(self, col: int, row: int) -> HexTerrain:
        return self.hexes.get((col, row), self.default)

    @property
    def content_key(self) -> str:
        key = self.__dict__.get("_content_key")
        if key is None:
            key = hashlib.sha1(json.dumps(board_to_json(self), sort_keys=True).encode()).hexdigest()
            object.__setattr__(self, "_content_key", key)
        return key

    def with_hex(self, col: int, row: int, spec: HexTerrain) -> "Board":
        hexes = dict(self.hexes)
        if spec == self.default and not spec.extra:
            hexes.pop((col, row), None)
        else:
            hexes[(col, row)] = spec
        return Board(self.id, self.title, self.default, hexes, self.extra, self.path)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _hex_terrain(obj: Any, place: str, base: HexTerrain | None) -> HexTerrain:
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {type(obj).__name__}", place=place)
    base = base or HexTerrain()
    terrain = obj.get("terrain", base.terrain if base is not None else "open")
    if not isinstance(terrain, str) or terrain not in TERRAINS:
        raise ScenarioError(f"unknown terrain {terrain!r} (known: {', '.join(TERRAINS)})",
                            place=f"{place}.terrain")
    level = obj.get("level", base.level)
    if not _is_int(level) or not -MAX_LEVEL <= level <= MAX_LEVEL:
        raise ScenarioError(f"level must be a whole number from {-MAX_LEVEL} to {MAX_LEVEL}, "
                            f"not {level!r}", place=f"{place}.level")
    building = obj.get("building")
    if building is not None and (not isinstance(building, str) or not building):
        raise ScenarioError("building must be a non-empty string naming the building",
                            place=f"{place}.building")
    upper = obj.get("upper_levels", 0)
    if not _is_int(upper) or not 0 <= upper <= MAX_UPPER_LEVELS:
        raise ScenarioError(f"upper_levels must be a whole number from 0 to {MAX_UPPER_LEVELS}, "
                            f"not {upper!r}", place=f"{place}.upper_levels")
    if terrain != "building" and (building is not None or upper):
        raise ScenarioError(f"building and upper_levels only go with terrain 'building', "
                            f"not {terrain!r}", place=place)
    extra = {k: v for k, v in obj.items() if k not in ("terrain", "level", "building", "upper_levels")}
    return HexTerrain(terrain, level, building, upper, extra)


def board_from_json(data: Any, file: str | None = None) -> Board:
    """Validate a parsed board file; raise ScenarioError naming the place."""
    try:
        return _board_from_json(data)
    except ScenarioError as e:
        raise e.at(file=file) from None


def _board_from_json(data: Any) -> Board:
    if not isinstance(data, dict):
        raise ScenarioError(f"a board file must hold a JSON object, not {type(data).__name__}")
    if data.get("format") != BOARD_FORMAT:
        raise ScenarioError(f"format must be {BOARD_FORMAT!r}, not {data.get('format')!r}",
                            place="format")
    if not _is_int(data.get("version")) or data["version"] != 1:
        raise ScenarioError(f"unsupported version {data.get('version')!r} (this program reads 1)",
                            place="version")
    bid = data.get("id")
    if not isinstance(bid, str) or not BOARD_ID_RE.match(bid):
        raise ScenarioError(f"board id {bid!r} must be digits, or a lower-case letter followed by "
                            "lower-case letters and digits", place="id")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise ScenarioError("title must be a string", place="title")
    default = _hex_terrain(data.get("default", {}), "default", None)
    hexes_obj = data.get("hexes", {})
    if not isinstance(hexes_obj, dict):
        raise ScenarioError("hexes must be an object mapping hex ids to terrain", place="hexes")
    hexes = {}
    for key, val in hexes_obj.items():
        try:
            col, row = parse_local(key)
        except HexIdError as e:
            raise ScenarioError(str(e), place=f"hexes.{key}") from None
        spec = _hex_terrain(val, f"hexes.{key}", HexTerrain(default.terrain, default.level))
        hexes[(col, row)] = spec
    extra = {k: v for k, v in data.items()
             if k not in ("format", "version", "id", "title", "default", "hexes")}
    return Board(bid, title, default, hexes, extra)


def _hex_terrain_json(spec: HexTerrain, default: HexTerrain | None) -> dict:
    out: dict = {}
    if default is None or spec.terrain != default.terrain:
        out["terrain"] = spec.terrain
    if default is None or spec.level != default.level:
        out["level"] = spec.level
    if spec.building is not None:
        out["building"] = spec.building
    if spec.upper_levels:
        out["upper_levels"] = spec.upper_levels
    out.update(spec.extra)
    return out


def board_to_json(board: Board) -> dict:
    hexes = {}
    for (c, n) in sorted(board.hexes):
        hexes[f"{COLUMN_NAMES[c]}{n}"] = _hex_terrain_json(board.hexes[(c, n)], board.default)
    out = {"format": BOARD_FORMAT, "version": 1, "id": board.id, "title": board.title,
           "default": _hex_terrain_json(board.default, None), "hexes": hexes}
    out.update(board.extra)
    return out


def load_board(path: str | Path) -> Board:
    path = Path(path)
    data = read_json(path)
    board = board_from_json(data, file=str(path))
    return Board(board.id, board.title, board.default, board.hexes, board.extra, str(path))


def save_board(board: Board, path: str | Path) -> None:
    atomic_write_json(Path(path), board_to_json(board))


def assets_dir() -> Path:
    """The bundled assets: installed as the package ``starshell_assets`` (pyproject.toml maps the
    repository's ``assets/`` folder to it); from a source checkout, the folder itself."""
    try:
        return Path(str(resources.files("starshell_assets")))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "assets"


def bundled_boards_dir() -> Path:
    return assets_dir() / "boards"


@lru_cache(maxsize=None)
def bundled_board(board_id: str) -> Board:
    # only a board id names a bundled board: "../scenarios/x" must not reach files outside it
    valid = isinstance(board_id, str) and BOARD_ID_RE.match(board_id)
    path = bundled_boards_dir() / f"{board_id}.json"
    if not valid or not path.is_file():
        known = sorted(p.stem for p in bundled_boards_dir().glob("*.json"))
        raise ScenarioError(f"no bundled board {board_id!r} (bundled: {', '.join(known)}; "
                            "or give a path ending in .json)")
    return load_board(path)

