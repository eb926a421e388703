"""Board files (SPEC.md, ``format: "starshell-board"``, version 1): load, validate, save.

Extension key ``"raster": {"file": "bd02.raster.npz", "digest": "..."}`` (optional): the board's
terrain as drawn, per pixel, in a file beside the board file (its format: ``engine.raster_file``).
In memory the drawing travels one way, in one field: ``Board.raster`` (``with_raster`` sets it,
``board_raster`` reads it).  ``load_board`` reads the file the key names, once; ``save_board``
writes it beside the board file and names it in the key.  A drawing that no longer matches its
board (gone, damaged, another drawing, drawn for other hexes) is refused naming its file, never
judged on the hex model instead; a hand edit of a hex (``Board.with_hex``, ``with_hexside``) drops
the drawing, and the layout that takes the edited board says so (``night.layout.set_layout``)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .board_files import free_name, own_picture, write_picture
from .errors import ScenarioError, shown
from .hex_names import naming_from_json, naming_json
from .hexes import (
    BOARD_ID_RE,
    DEFAULT_SIZE,
    DIRECTIONS,
    MAX_BOARD_COLUMNS,
    MAX_BOARD_ROWS,
    PLAIN,
    HexIdError,
    Naming,
    from_axial,
    parse_local,
    rows_of_column,
    to_axial,
)
from .jsonio import atomic_write_bytes, atomic_write_json, check_format, is_int, read_json
from .raster_file import Raster, load_raster, raster_file_name
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
    half_level: bool = False     # obstacle top half a level above ground (rubble; rules.md 7)


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
    # the terrain as drawn (engine.raster_file), in memory: set by with_raster, read from the
    # file its "raster" key names by load_board, written beside the board file by save_board
    raster: Raster | None = field(default=None, compare=False, hash=False, repr=False)
    # how the board names its hexes (rules.md 11.6; the file's "hex_names"): a "b" half board
    # names its first column Q, as VASL does; positions stay counted from the first column
    naming: Naming = PLAIN

    def name(self, col: int, row: int) -> str:
        """Our (col, row)'s local name, as the board names it (``"Q5"`` on a "b" half)."""
        return self.naming.name(col, row)

    def at(self, col: int, row: int) -> HexTerrain:
        return self.hexes.get((col, row), self.default)

    @property
    def content_key(self) -> str:
        key = self.__dict__.get("_content_key")
        if key is None:
            text = json.dumps(board_to_json(self), sort_keys=True)
            drawn = self.raster.digest if self.raster is not None else ""   # two drawings: two maps
            key = hashlib.sha1((text + drawn).encode()).hexdigest()
            object.__setattr__(self, "_content_key", key)
        return key

    def with_hex(self, col: int, row: int, spec: HexTerrain) -> "Board":
        """This board with the hex set; a change drops the terrain as drawn (``raster``): the
        drawing no longer shows the board's hexes."""
        hexes = dict(self.hexes)
        if spec == self.default and not spec.extra:
            hexes.pop((col, row), None)
        else:
            hexes[(col, row)] = spec
        was, now = self.hexes.get((col, row)), hexes.get((col, row))
        if was == now and (was is None or was.extra == now.extra):
            return self
        return replace(self, hexes=hexes, raster=None)

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
        if sides == self.hexsides:
            return self
        return replace(self, hexsides=sides, raster=None)      # the drawing shows the old sides

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
def _local(key: str, size: tuple[int, int], naming: Naming = PLAIN) -> tuple[int, int]:
    """``parse_local`` of a board file's key (a string), kept: every board names the same hexes."""
    return parse_local(key, size, naming)


def board_from_json(data: Any, file: str | None = None) -> Board:
    """Validate a parsed board file; raise ScenarioError naming the place.  Its terrain as drawn
    (the ``raster`` key) is read from beside ``file`` (a board with one is read from its file)."""
    try:
        board = _board_from_json(data)
    except ScenarioError as e:
        raise e.at(file=file) from None
    if "raster" in data:
        if file is None:
            raise ScenarioError("a board drawn per pixel is read from its file, beside its "
                                "raster", place="raster")
        board = replace(board, raster=_read_raster(data["raster"], Path(file), board))
    return board


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
    naming = naming_from_json(data.get("hex_names"), size)
    default = _hex_terrain(data.get("default", {}), "default", None)
    hexes_obj = data.get("hexes", {})
    if not isinstance(hexes_obj, dict):
        raise ScenarioError("hexes must be an object mapping hex ids to terrain", place="hexes")
    hexes = {}
    base = HexTerrain(default.terrain, default.level)
    seen: dict = {}        # one HexTerrain per spelling of a hex's terrain (for speed)
    for key, val in hexes_obj.items():
        try:
            col, row = _local(key, size, naming)
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
    hexsides = _hexsides(data.get("hexsides", {}), size, naming)
    extra = {k: v for k, v in data.items()
             if k not in ("format", "version", "id", "title", "default", "hexes", "size",
                          "hexsides", "raster", "hex_names")}
    return Board(bid, title, default, hexes, extra, size=size, hexsides=hexsides, naming=naming)


def _size(obj: Any) -> tuple[int, int]:
    ok = (isinstance(obj, list) and len(obj) == 2 and all(is_int(v) for v in obj)
          and 2 <= obj[0] <= MAX_BOARD_COLUMNS and 1 <= obj[1] <= MAX_BOARD_ROWS)
    if not ok:
        raise ScenarioError(f"size must be [columns, rows] with 2..{MAX_BOARD_COLUMNS} columns "
                            f"and 1..{MAX_BOARD_ROWS} rows, not {obj!r}", place="size")
    return obj[0], obj[1]


def _hexsides(obj: Any, size: tuple[int, int], naming: Naming = PLAIN) -> dict:
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
            col, row = _local(hex_part, size, naming)
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
        hexes[board.name(c, n)] = _hex_terrain_json(board.hexes[(c, n)], board.default)
    out = {"format": BOARD_FORMAT, "version": 1, "id": board.id, "title": board.title}
    if tuple(board.size) != DEFAULT_SIZE:
        out["size"] = list(board.size)
    if not board.naming.plain:
        out["hex_names"] = naming_json(board.naming)
    out["default"] = _hex_terrain_json(board.default, None)
    out["hexes"] = hexes
    if board.hexsides:
        out["hexsides"] = {f"{board.name(c, n)}/{d}": board.hexsides[(c, n, d)]
                           for (c, n, d) in sorted(board.hexsides)}
    out.update(board.extra)
    return out


def load_board(path: str | Path) -> Board:
    """The board file at ``path``, with its terrain as drawn read once from the file its
    ``raster`` key names (refused naming that file when it does not serve: ``_read_raster``)."""
    path = Path(path)
    data = read_json(path)
    board = board_from_json(data, file=str(path))
    return replace(board, path=str(path))


def board_image_path(board: Board) -> Path | None:
    """The board's picture (SPEC.md "image": a file name beside the board file), when the board
    names one and has been read from or saved to a file."""
    image = board.extra.get("image")
    name = image.get("file") if isinstance(image, dict) else None
    if not isinstance(name, str) or not board.path or Path(name).name != name or name in ("", ".", ".."):
        return None
    return Path(board.path).parent / name


def save_board(board: Board, path: str | Path) -> Board:
    """Write the board file and return the board as written (its ``path`` set).  A board with
    a picture (SPEC.md "image") gets it beside the file, and one drawn per pixel its raster
    (``raster_file_name``), named in its ``raster`` key.  The picture copied is the board's own,
    in its folder (a link out of it is not followed); one already there under that name that
    is another file is kept as ``NAME.bak``.  Pictures and rasters are written through
    temporary files of names of their own, then renamed; one that would replace another
    board's (a file this board file does not name) is named after this board file instead
    (``free_name``)."""
    path = Path(path)
    image = board_image_path(replace(board, path=str(path)))
    data = board.image_data
    source = board_image_path(board)
    if data is None and image is not None and source is not None:
        data = own_picture(source, image)
    if image is not None and data is not None:
        name = free_name(path, image.name, "image", data)
        if name != image.name:
            board = replace(board, extra={**board.extra, "image": {**board.extra["image"],
                                                                   "file": name}})
        write_picture(image.with_name(name), data)
    out = board_to_json(board)
    drawn = board_raster(board)
    if drawn is not None:                   # the terrain as drawn, beside the file
        raw = drawn.to_bytes()
        name = free_name(path, raster_file_name(path), "raster", raw)
        atomic_write_bytes(path.with_name(name), raw, backup=False)
        out["raster"] = {"file": name, "digest": drawn.digest}
    atomic_write_json(path, out)
    return replace(board, path=str(path), image_data=None)


# ------------------------------------------------------------ the terrain as drawn (raster)
MAX_RASTER_FILES = 8           # raster files kept read (engine.cache: least recent out)


def board_summary(board: Board) -> str:
    """A hash of what the hex model of a board says (size, hexes, hexsides): a raster is
    stamped with it, and serves only the board of the same summary."""
    key = board.__dict__.get("_summary")
    if key is None:
        data = board_to_json(board)
        keep = {k: data.get(k) for k in ("size", "default", "hexes", "hexsides")}
        key = hashlib.sha1(json.dumps(keep, sort_keys=True).encode()).hexdigest()
        object.__setattr__(board, "_summary", key)
    return key


def with_raster(board: Board, raster: Raster) -> Board:
    """The board carrying ``raster``, its terrain as drawn (in memory, in ``Board.raster``),
    stamped with the board's hex summary; ``save_board`` writes it beside the board file."""
    if tuple(raster.size) != tuple(board.size):
        raise ScenarioError(f"a drawing of a {raster.size[0]} x {raster.size[1]} hex board "
                            f"cannot be board {board.id}'s ({board.size[0]} x {board.size[1]})",
                            file=board.path)
    stamped = Raster(raster.terrain, raster.level, raster.geometry, raster.size,
                     board_summary(board))
    return replace(board, raster=stamped)


def without_raster(board: Board) -> Board:
    """The board judged on its hexes alone (its terrain as drawn dropped)."""
    return replace(board, raster=None)


def board_raster(board: Board) -> Raster | None:
    """The board's terrain as drawn (``Board.raster``), or None when it has none.  A drawing
    made for other hexes than the board's (changed without ``with_hex``, which drops it) is
    refused with a ScenarioError naming the board, never left for the hex model quietly."""
    r = board.raster
    if r is not None and r.summary and r.summary != board_summary(board):
        raise ScenarioError(f"board {board.id}'s terrain as drawn was made for other hexes than "
                            "it holds now: drop it (judged on the hexes) or import the board "
                            "again", file=board.path)
    return r


@lru_cache(maxsize=MAX_RASTER_FILES)
def _raster_file(key: tuple[str, int, int], path: str) -> Raster:
    """The raster file at ``path`` (``key``: its resolved path, mtime and size), kept read
    (engine.cache: a pure function of small hashable arguments)."""
    return load_raster(path)


def _read_raster(spec: Any, board_path: Path, board: Board) -> Raster:
    """The raster the ``raster`` key of the board file at ``board_path`` names, read once; a
    ScenarioError naming the raster file when it is gone, damaged, another drawing (its digest
    differs) or drawn for other hexes than the file holds (edited since)."""
    name = spec.get("file") if isinstance(spec, dict) else None
    if not isinstance(name, str) or Path(name).name != name or name in ("", ".", ".."):
        raise ScenarioError(f"must name a raster file beside the board file, like {{\"file\": "
                            f"\"bd02.raster.npz\"}}, not {shown(spec)}", file=str(board_path),
                            place="raster")
    path = board_path.parent / name
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    except (OSError, ValueError, RuntimeError):     # (gone, a NUL, a link loop): told below
        key = (str(path), 0, 0)
    r = _raster_file(key, str(path))
    again = "import the VASL board again, or remove the board file's \"raster\" key to judge " \
            "it on its hexes"
    want = spec.get("digest")
    if want is not None and want != r.digest:
        raise ScenarioError(f"is not the drawing this board was saved with (its digest "
                            f"differs): {again}", file=str(path))
    if tuple(r.size) != tuple(board.size) or (r.summary and r.summary != board_summary(board)):
        raise ScenarioError(f"was drawn for other hexes than {board_path.name} holds now (the "
                            f"board file was edited since): {again}", file=str(path))
    return r


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

