"""Board files (SPEC.md, ``format: "starshell-board"``, version 1): load, validate, save.

Extension key ``"raster": {"file": "bd02.raster.npz", "digest": "..."}`` (optional): the board's
terrain as drawn, per pixel, in a file beside the board file (its format: ``engine.raster_file``);
kept through ``extra`` and written by ``save_board``; which board has which raster, here
(``board_raster``, ``with_raster``, ``keep_raster``)."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ScenarioError, shown
from .hexes import (
    BOARD_ID_RE,
    DEFAULT_SIZE,
    DIRECTIONS,
    MAX_BOARD_COLUMNS,
    MAX_BOARD_ROWS,
    HexIdError,
    column_name,
    from_axial,
    parse_local,
    rows_of_column,
    to_axial,
)
from .jsonio import atomic_write_bytes, atomic_write_json, check_format, is_int, read_json, read_limited
from .raster_file import RASTER_SUFFIX, Raster, load_raster, raster_file_name
from .terrain import HEXSIDES, TERRAINS

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
    half_level: bool = False     # obstacle top half a level above ground (rubble; RULES.md 7)


@dataclass(frozen=True)
class Board:
    id: str
    title: str
    default: HexTerrain
    hexes: dict  # (col, row) -> HexTerrain, sparse
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    path: str | None = field(default=None, compare=False, hash=False)
    size: tuple[int, int] = DEFAULT_SIZE      # (columns, rows), SPEC.md "size"
    hexsides: dict = field(default_factory=dict)   # canonical (col, row, direction) -> name
    # the board's picture (SPEC.md "image") not yet written beside a board file: save_board does
    image_data: bytes | None = field(default=None, compare=False, hash=False, repr=False)
    # the terrain as drawn (engine.raster_file, "raster" key) not yet written beside a board file
    raster_data: object | None = field(default=None, compare=False, hash=False, repr=False)

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
        return replace(self, hexes=hexes)

    def hexside(self, col: int, row: int, direction: int) -> str | None:
        """The hexside terrain on that side of a hex of this board (B9), or None."""
        return self.hexsides.get(hexside_key(col, row, direction, self.size))

    def with_hexside(self, col: int, row: int, direction: int, name: str | None) -> "Board":
        """This board with the hexside set (``None`` clears it)."""
        if name is not None and name not in HEXSIDES:
            raise ValueError(f"unknown hexside terrain {name!r}")
        sides = dict(self.hexsides)
        key = hexside_key(col, row, direction, self.size)
        if name is None:
            sides.pop(key, None)
        else:
            sides[key] = name
        return replace(self, hexsides=sides)

    @property
    def hexes_all(self) -> list[tuple[int, int]]:
        """Every (col, row) printed on this board."""
        columns, rows = self.size
        return [(c, n) for c in range(columns) for n in rows_of_column(c, rows)]


def on_board(col: int, row: int, size: tuple[int, int]) -> bool:
    return 0 <= col < size[0] and row in rows_of_column(col, size[1])


def hexside_key(col: int, row: int, direction: int, size: tuple[int, int] = DEFAULT_SIZE
                ) -> tuple[int, int, int]:
    """The one name of a hexside (SPEC.md "hexsides"): a side 4..6 (S, SW, NW) is named from the
    neighbour beyond it as its side 1..3 when that neighbour is on the board."""
    if direction >= 4:
        dq, dr = DIRECTIONS[direction]
        q, r = to_axial(col, row)
        nc, nr = from_axial(q + dq, r + dr)
        if on_board(nc, nr, size):
            return nc, nr, direction - 3
    return col, row, direction


def _hex_terrain(obj: Any, place: str, base: HexTerrain | None) -> HexTerrain:
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {type(obj).__name__}", place=place)
    base = base or HexTerrain()
    terrain = obj.get("terrain", base.terrain if base is not None else "open")
    if not isinstance(terrain, str) or terrain not in TERRAINS:
        raise ScenarioError(f"unknown terrain {terrain!r} (known: {', '.join(TERRAINS)})",
                            place=f"{place}.terrain")
    level = obj.get("level", base.level)
    if not is_int(level) or not -MAX_LEVEL <= level <= MAX_LEVEL:
        raise ScenarioError(f"level must be a whole number from {-MAX_LEVEL} to {MAX_LEVEL}, "
                            f"not {level!r}", place=f"{place}.level")
    building = obj.get("building")
    if building is not None and (not isinstance(building, str) or not building):
        raise ScenarioError("building must be a non-empty string naming the building",
                            place=f"{place}.building")
    upper = obj.get("upper_levels", 0)
    if not is_int(upper) or not 0 <= upper <= MAX_UPPER_LEVELS:
        raise ScenarioError(f"upper_levels must be a whole number from 0 to {MAX_UPPER_LEVELS}, "
                            f"not {upper!r}", place=f"{place}.upper_levels")
    if terrain != "building" and (building is not None or upper):
        raise ScenarioError(f"building and upper_levels only go with terrain 'building', "
                            f"not {terrain!r}", place=place)
    half = obj.get("half_level", False)
    if not isinstance(half, bool):
        raise ScenarioError(f"half_level must be true or false, not {half!r}",
                            place=f"{place}.half_level")
    extra = {k: v for k, v in obj.items()
             if k not in ("terrain", "level", "building", "upper_levels", "half_level")}
    return HexTerrain(terrain, level, building, upper, extra, half)


@lru_cache(maxsize=1 << 14)
def _local(key: str, size: tuple[int, int]) -> tuple[int, int]:
    """``parse_local`` of a board file's key (a string), kept: every board names the same hexes."""
    return parse_local(key, size)


def board_from_json(data: Any, file: str | None = None) -> Board:
    """Validate a parsed board file; raise ScenarioError naming the place."""
    try:
        return _board_from_json(data)
    except ScenarioError as e:
        raise e.at(file=file) from None


def _board_from_json(data: Any) -> Board:
    check_format(data, BOARD_FORMAT, (1,), kind="a board file")
    bid = data.get("id")
    if not isinstance(bid, str) or not BOARD_ID_RE.match(bid):
        raise ScenarioError(f"board id {bid!r} must be digits, or a lower-case letter followed by "
                            "lower-case letters and digits", place="id")
    title = data.get("title", "")
    if not isinstance(title, str):
        raise ScenarioError("title must be a string", place="title")
    size = _size(data.get("size", list(DEFAULT_SIZE)))
    default = _hex_terrain(data.get("default", {}), "default", None)
    hexes_obj = data.get("hexes", {})
    if not isinstance(hexes_obj, dict):
        raise ScenarioError("hexes must be an object mapping hex ids to terrain", place="hexes")
    hexes = {}
    base = HexTerrain(default.terrain, default.level)
    seen: dict = {}        # one HexTerrain per spelling of a hex's terrain (for speed)
    for key, val in hexes_obj.items():
        try:
            col, row = _local(key, size)
        except HexIdError as e:
            raise ScenarioError(str(e), place=f"hexes.{key}") from None
        try:
            spelling = (tuple(val.items()), tuple(map(type, val.values()))) \
                if type(val) is dict else None          # true is no 1 here
            spec = seen.get(spelling) if spelling is not None else None
        except TypeError:           # a value that is a list or an object: no shortcut
            spelling = spec = None
        if spec is None:
            spec = _hex_terrain(val, f"hexes.{key}", base)
            if spelling is not None and not spec.extra:
                seen[spelling] = spec
        hexes[(col, row)] = spec
    hexsides = _hexsides(data.get("hexsides", {}), size)
    extra = {k: v for k, v in data.items()
             if k not in ("format", "version", "id", "title", "default", "hexes", "size",
                          "hexsides")}
    return Board(bid, title, default, hexes, extra, size=size, hexsides=hexsides)


def _size(obj: Any) -> tuple[int, int]:
    ok = (isinstance(obj, list) and len(obj) == 2 and all(is_int(v) for v in obj)
          and 2 <= obj[0] <= MAX_BOARD_COLUMNS and 1 <= obj[1] <= MAX_BOARD_ROWS)
    if not ok:
        raise ScenarioError(f"size must be [columns, rows] with 2..{MAX_BOARD_COLUMNS} columns "
                            f"and 1..{MAX_BOARD_ROWS} rows, not {obj!r}", place="size")
    return obj[0], obj[1]


def _hexsides(obj: Any, size: tuple[int, int]) -> dict:
    """SPEC.md "hexsides": ``"HEX/DIR": name``; a hexside named twice must agree."""
    if not isinstance(obj, dict):
        raise ScenarioError("hexsides must be an object mapping 'HEX/DIR' to a hexside terrain",
                            place="hexsides")
    out: dict = {}
    spelled: dict = {}
    for key, name in obj.items():
        place = f"hexsides.{key}"
        hex_part, slash, dir_part = key.partition("/")
        if not slash or dir_part not in ("1", "2", "3", "4", "5", "6"):
            raise ScenarioError(f"a hexside is a hex and a direction 1..6, like 'C8/1', "
                                f"not {key!r}", place=place)
        try:
            col, row = _local(hex_part, size)
        except HexIdError as e:
            raise ScenarioError(str(e), place=place) from None
        if not isinstance(name, str) or name not in HEXSIDES:
            raise ScenarioError(f"unknown hexside terrain {name!r} (known: {', '.join(HEXSIDES)})",
                                place=place)
        canon = hexside_key(col, row, int(dir_part), size)
        if canon in out and out[canon] != name:
            raise ScenarioError(f"the hexside is also named {spelled[canon]!r} with "
                                f"{out[canon]!r}: one hexside, two values", place=place)
        out[canon] = name
        spelled[canon] = key
    return out


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
    if spec.half_level:
        out["half_level"] = True
    out.update(spec.extra)
    return out


def board_to_json(board: Board) -> dict:
    hexes = {}
    for (c, n) in sorted(board.hexes):
        hexes[f"{column_name(c)}{n}"] = _hex_terrain_json(board.hexes[(c, n)], board.default)
    out = {"format": BOARD_FORMAT, "version": 1, "id": board.id, "title": board.title}
    if tuple(board.size) != DEFAULT_SIZE:
        out["size"] = list(board.size)
    out["default"] = _hex_terrain_json(board.default, None)
    out["hexes"] = hexes
    if board.hexsides:
        out["hexsides"] = {f"{column_name(c)}{n}/{d}": board.hexsides[(c, n, d)]
                           for (c, n, d) in sorted(board.hexsides)}
    out.update(board.extra)
    return out


def load_board(path: str | Path) -> Board:
    path = Path(path)
    data = read_json(path)
    board = board_from_json(data, file=str(path))
    return replace(board, path=str(path))


MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024


def board_image_path(board: Board) -> Path | None:
    """The board's picture (SPEC.md "image": a file name beside the board file), when the board
    names one and has been read from or saved to a file."""
    image = board.extra.get("image")
    name = image.get("file") if isinstance(image, dict) else None
    if not isinstance(name, str) or not board.path or Path(name).name != name or name in ("", ".", ".."):
        return None
    return Path(board.path).parent / name


def save_board(board: Board, path: str | Path) -> None:
    """Write the board file; a board with a picture (SPEC.md "image") gets it beside the file.
    The picture copied is the board's own, in its folder (a link out of it is not followed);
    one already there under that name that is another file is kept as ``NAME.bak``.  Pictures
    and rasters are written through temporary files of names of their own, then renamed; one
    that would replace another board's (a file this board file does not name) is named after
    this board file instead (``free_name``)."""
    path = Path(path)
    image = board_image_path(replace(board, path=str(path)))
    data = board.image_data
    source = board_image_path(board)
    if data is None and image is not None and source is not None:
        data = _own_picture(source, image)
    if image is not None and data is not None:
        name = free_name(path, image.name, "image", data)
        if name != image.name:
            board = replace(board, extra={**board.extra, "image": {**board.extra["image"],
                                                                   "file": name}})
        _write_picture(image.with_name(name), data)
    board = keep_raster(board, path)        # the terrain as drawn, beside the file
    atomic_write_json(path, board_to_json(board))


def free_name(board_path: Path, wanted: str, key: str, data: bytes) -> str:
    """``wanted``, unless a file of that name beside ``board_path`` holds other bytes and the
    board file there now does not name it under ``key`` (it is another board's): then the board
    file's own stem with ``wanted``'s suffix, numbered until free."""
    folder, suffix = board_path.parent, wanted[len(wanted.split(".")[0]):]
    try:
        named = read_json(board_path).get(key, {}).get("file") if board_path.is_file() else None
    except (ScenarioError, AttributeError):
        named = None
    for n in range(0, 1000):
        name = wanted if n == 0 else f"{board_path.stem}{'' if n == 1 else f'-{n}'}{suffix}"
        there = folder / name
        try:
            if not os.path.lexists(there) or name == named or (
                    there.is_file() and there.stat().st_size == len(data)
                    and read_limited(there, len(data)) == data):
                return name
        except (OSError, ScenarioError):
            continue
    raise ScenarioError(f"no free name for {wanted} beside the board file", file=str(board_path))


def _own_picture(source: Path, image: Path) -> bytes | None:
    """The bytes of the board's picture ``source`` to copy to ``image``: None when it is the
    same file, gone or too large; refused when it links out of the board's folder."""
    try:
        if not source.is_file() or source.resolve() == image.resolve():
            return None
        if source.resolve().parent != source.parent.resolve():
            raise ScenarioError("links outside the board's folder: not copied", file=str(source))
        if source.stat().st_size > MAX_IMAGE_FILE_BYTES:
            return None
        return read_limited(source, MAX_IMAGE_FILE_BYTES)
    except (OSError, ValueError, RuntimeError) as e:
        if isinstance(e, ScenarioError):
            raise
        return None


def _write_picture(image: Path, data: bytes) -> None:
    """``data`` at ``image``, atomically; another file already there is kept as ``NAME.bak``,
    and a link there is not written through."""
    try:
        if image.is_symlink():
            raise ScenarioError("is a link: the board's picture is not written through it",
                                file=str(image))
        same = image.is_file() and image.stat().st_size == len(data) \
            and read_limited(image, MAX_IMAGE_FILE_BYTES) == data
        other = image.exists() and not same
    except (OSError, ValueError) as e:
        if isinstance(e, ScenarioError):
            raise
        raise ScenarioError(f"cannot be written ({e})", file=str(image)) from None
    if not same:
        atomic_write_bytes(image, data, backup=other)


# ------------------------------------------------------------ the terrain as drawn (raster)
MAX_RASTER_FILES = 8           # raster files kept read (engine.cache: least recent out)


def board_summary(board: Board) -> str:
    """A hash of what the hex model of a board says (size, hexes, hexsides): a raster made with
    other summaries (the board edited since) is not used."""
    data = board_to_json(board)
    keep = {k: data.get(k) for k in ("size", "default", "hexes", "hexsides")}
    return hashlib.sha1(json.dumps(keep, sort_keys=True).encode()).hexdigest()


def with_raster(board: Board, raster: Raster, file_name: str | None = None) -> Board:
    """The board carrying its raster, to be written beside the board file as ``file_name``
    (default: named after the board file) by ``save_board``."""
    raster = Raster(raster.terrain, raster.level, raster.geometry, raster.size,
                    board_summary(board))
    extra = dict(board.extra)
    extra["raster"] = ({"file": file_name} if file_name else {}) | {"digest": raster.digest}
    return replace(board, raster_data=raster, extra=extra)


@lru_cache(maxsize=MAX_RASTER_FILES)
def _raster_file(key: tuple[str, int, int], path: str) -> Raster:
    """The raster file at ``path`` (``key``: its resolved path, mtime and size), kept read
    (engine.cache: a pure function of small hashable arguments)."""
    return load_raster(path)


def board_raster(board: Board) -> Raster | None:
    """The raster of a board: carried (just imported) or named by its ``raster`` key beside its
    file; None when it has none, or its hex summaries were edited since (then its LOS is the hex
    model's).  A named file that cannot be read raises ScenarioError."""
    r = getattr(board, "raster_data", None)
    if r is None:
        spec = board.extra.get("raster")
        name = spec.get("file") if isinstance(spec, dict) else None
        if not isinstance(name, str) or not board.path or Path(name).name != name \
                or name in ("", ".", ".."):
            return None
        path = Path(board.path).parent / name
        try:
            st = path.stat()
            key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
        except (OSError, ValueError, RuntimeError):     # (gone, a NUL, a link loop): told below
            key = (str(path), 0, 0)
        r = _raster_file(key, str(path))
        want = spec.get("digest")
        if want is not None and want != r.digest:
            raise ScenarioError("is not the drawing this board was saved with (its digest "
                                "differs)", file=str(path))
    if tuple(r.size) != tuple(board.size) or (r.summary and r.summary != board_summary(board)):
        return None
    return r


def keep_raster(board: Board, board_path: str | Path) -> Board:
    """The board as ``save_board`` writes it to ``board_path``: its raster (carried, or named
    beside its old file) written beside the new file and named in its ``raster`` key; a board
    whose raster no longer matches its hexes (edited by hand) loses the key."""
    if getattr(board, "raster_data", None) is None and "raster" not in board.extra:
        return board
    try:
        r = board_raster(board)
    except ScenarioError:
        r = None
    extra = dict(board.extra)
    extra.pop("raster", None)
    if r is not None:
        spec = board.extra.get("raster")
        name = spec.get("file") if isinstance(spec, dict) else None
        if not isinstance(name, str) or Path(name).name != name or not name.endswith(
                RASTER_SUFFIX):
            name = raster_file_name(board_path)
        target = Path(board_path).parent / name
        old = Path(board.path).parent / str(board.extra.get("raster", {}).get("file", "")) \
            if board.path and isinstance(board.extra.get("raster"), dict) else None
        if old is None or not old.is_file() or old.resolve() != target.resolve():
            raw = r.to_bytes()
            name = free_name(Path(board_path), name, "raster", raw)
            atomic_write_bytes(target.with_name(name), raw, backup=False)
        extra["raster"] = {"file": name, "digest": r.digest}
    return replace(board, extra=extra)


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
    valid = isinstance(board_id, str) and len(board_id) <= 40 and BOARD_ID_RE.match(board_id)
    path = bundled_boards_dir() / f"{board_id}.json"
    if not valid or not path.is_file():
        known = sorted(p.stem for p in bundled_boards_dir().glob("*.json"))
        raise ScenarioError(f"no bundled board {shown(board_id)} (bundled: {', '.join(known)}; "
                            "or give a path ending in .json)")
    return load_board(path)

