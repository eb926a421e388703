"""The raster file format: a board's terrain as drawn, per-pixel terrain and ground level (VASL's
``LOSData``), and the table of VASL's terrain codes.

A board imported from VASL keeps, beside its board file, the terrain of every pixel of the
board's picture: a terrain code (VASL's own codes, ``importers/data/vasl_terrain_types.csv``) and
a ground level.  The board file names it in the optional key ``"raster"`` (Board file, version 1
extension)::

    "raster": {"file": "bd02.raster.npz", "digest": "5f0c..."}

The file is a numpy ``.npz`` archive (no pickles) of:

- ``terrain``: uint8 (height, width) VASL terrain codes, row y then column x (image order);
- ``level``: int8 (height, width) ground levels (depressions below 0);
- ``geometry``: float64 [a1_x, a1_y, hex_width, hex_height]: A1's centre and the hex spacing in
  pixels (VASL: 0, 32.25, 56.25, 64.5 on a geomorphic board);
- ``size``: int64 [columns, rows] of the board;
- ``summary``: the board's hex summaries this raster was made with (a hash): a board file
  edited since no longer matches, and is refused naming the raster.

The key's ``digest`` (optional) is a SHA-1 of the drawing: a file that does not match it is
refused.  A raster that cannot be read (gone, damaged, another drawing) is refused naming the
file, never left for the hex model quietly.  Which board has which raster (``Board.raster``, the
``raster`` key read by ``load_board`` and written by ``save_board``): ``engine.boards``.

Bounds, checked before anything is decompressed: the file at most ``MAX_FILE_BYTES``, every
member at most ``MAX_PIXELS`` pixels of its type, only the members above.  A malformed or hostile
file is refused with one ScenarioError naming the file and the member.
"""
from __future__ import annotations

import csv
import hashlib
import io
import stat
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import ScenarioError, shown
from .zip_members import open_zip, read_member

MAX_PIXELS = 10_000_000                  # as a VASL LOSData grid
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_LEVEL = 10
MIN_HEX_PIXELS, MAX_HEX_PIXELS = 8.0, 400.0    # as the importer: Deluxe hexes ~169 x 194
_SHAPES = {"terrain": 2, "level": 2, "geometry": (4,), "size": (2,), "summary": 1}
RASTER_SUFFIX = ".raster.npz"
_MEMBERS = {"terrain.npy": ("terrain", np.uint8), "level.npy": ("level", np.int8),
            "geometry.npy": ("geometry", np.float64), "size.npy": ("size", np.int64),
            "summary.npy": ("summary", np.uint8)}


# ------------------------------------------------------------------------ the terrain table
@dataclass(frozen=True)
class RasterTerrain:
    """What a VASL terrain code does to LOS (VASL's ``Terrain``: SharedBoardMetadata.xml)."""
    code: int
    name: str
    obstacle: bool
    hindrance: bool
    half_level: bool
    inherent: bool
    split: bool
    lower_obstacle: bool
    lower_hindrance: bool
    height: int
    category: str


@lru_cache(maxsize=1)
def terrain_table() -> dict[int, RasterTerrain]:
    """VASL's terrain codes (the project's copy of its table, importers/data)."""
    text = (resources.files("engine.importers") / "data" / "vasl_terrain_types.csv").read_text(
        encoding="utf-8")
    out: dict[int, RasterTerrain] = {}
    yes = lambda s: s.strip().upper() == "TRUE"  # noqa: E731
    for row in csv.DictReader(io.StringIO(text)):
        code = int(row["typeCode"])
        if code in out:
            continue
        out[code] = RasterTerrain(code, row["name"], yes(row["isLOSObstacle"]),
                                  yes(row["isLOSHindrance"]), yes(row["isHalfLevelHeight"]),
                                  yes(row["isInherentTerrain"]),
                                  float(row["split"] or 0) != 0.0,
                                  yes(row["isLowerLOSObstacle"]), yes(row["isLowerLOSHindrance"]),
                                  int(float(row["height"] or 0)),
                                  (row.get("LOSCategory") or "").strip().upper())
    return out


def known_codes() -> np.ndarray:
    """bool[256]: the codes the table defines."""
    k = np.zeros(256, dtype=bool)
    k[list(terrain_table())] = True
    return k


# ---------------------------------------------------------------------------- the raster
@dataclass(frozen=True, eq=False)
class Raster:
    terrain: np.ndarray        # uint8 (H, W)
    level: np.ndarray          # int8 (H, W)
    geometry: tuple[float, float, float, float]    # a1_x, a1_y, hex_width, hex_height
    size: tuple[int, int]      # board columns, rows
    summary: str = ""          # hash of the board's hex summaries it was made with

    @property
    def shape(self) -> tuple[int, int]:
        return self.terrain.shape

    @property
    def digest(self) -> str:
        """A hash of the drawing (terrain, levels, geometry): named in the board's ``raster``
        key, so that boards drawn differently are different maps to every per-map cache."""
        d = self.__dict__.get("_digest")
        if d is None:
            h = hashlib.sha1()
            h.update(repr((self.terrain.shape, self.geometry, self.size)).encode())
            h.update(np.ascontiguousarray(self.terrain).tobytes())
            h.update(np.ascontiguousarray(self.level).tobytes())
            d = h.hexdigest()
            object.__setattr__(self, "_digest", d)
        return d

    def rotated(self) -> "Raster":
        """The raster of the board turned half round (pixel (x, y) -> (W-1-x, H-1-y))."""
        return Raster(self.terrain[::-1, ::-1].copy(), self.level[::-1, ::-1].copy(),
                      self.geometry, self.size, self.summary)

    def to_bytes(self) -> bytes:
        """The raster file's bytes (see the module's docstring); ``engine.boards`` writes them
        beside the board file (``jsonio.atomic_write_bytes``)."""
        buf = io.BytesIO()
        np.savez_compressed(buf, terrain=self.terrain.astype(np.uint8),
                            level=self.level.astype(np.int8),
                            geometry=np.array(self.geometry, dtype=np.float64),
                            size=np.array(self.size, dtype=np.int64),
                            summary=np.frombuffer(self.summary.encode("ascii"), dtype=np.uint8))
        return buf.getvalue()


def validate(terrain: np.ndarray, level: np.ndarray, geometry, size, file: str | None = None
             ) -> None:
    """ScenarioError unless the arrays make a raster (shapes, codes, levels, geometry)."""
    if terrain.ndim != 2 or terrain.shape != level.shape or terrain.size == 0:
        raise ScenarioError(f"terrain {terrain.shape} and level {level.shape} must be two "
                            "equal, non-empty pixel grids", file=file, place="terrain")
    if terrain.size > MAX_PIXELS:
        raise ScenarioError(f"{terrain.size} pixels: a raster holds at most {MAX_PIXELS}",
                            file=file, place="terrain")
    bad = ~known_codes()[terrain]
    if bad.any():
        y, x = (int(v[0]) for v in np.nonzero(bad))
        raise ScenarioError(f"unknown terrain code {int(terrain[y, x])} at pixel x={x}, y={y}",
                            file=file, place="terrain")
    if np.abs(level.astype(np.int64)).max() > MAX_LEVEL:
        raise ScenarioError(f"ground levels run from {-MAX_LEVEL} to {MAX_LEVEL}", file=file,
                            place="level")
    check_grid(geometry, size, file)
    check_covers(terrain.shape, geometry, size, file)


def check_grid(geometry, size, file: str | None = None) -> None:
    """ScenarioError unless ``geometry`` is a hex grid and ``size`` a board's columns, rows."""
    g = np.asarray(geometry, dtype=np.float64)
    if g.shape != (4,) or not np.isfinite(g).all() or g[0] < 0 or g[1] < 0 \
            or not (MIN_HEX_PIXELS <= g[2] <= MAX_HEX_PIXELS
                    and MIN_HEX_PIXELS <= g[3] <= MAX_HEX_PIXELS):
        raise ScenarioError(f"{shown(g.tolist())} is not [a1_x, a1_y, hex_width, hex_height] "
                            f"(hexes {MIN_HEX_PIXELS:g} to {MAX_HEX_PIXELS:g} pixels)", file=file,
                            place="geometry")
    s = np.asarray(size)
    if s.shape != (2,) or not (2 <= s[0] <= 104 and 1 <= s[1] <= 99):
        raise ScenarioError(f"{shown(s.tolist())} is not [columns, rows]", file=file,
                            place="size")


def check_covers(shape, geometry, size, file: str | None = None) -> None:
    """ScenarioError unless a (height, width) pixel grid is the picture of ``size`` hexes on
    ``geometry``: A1's centre its margin on each side, the hexes between (within a hex)."""
    a1_x, a1_y, dx, dy = (float(v) for v in geometry)
    columns, rows = (int(v) for v in size)
    want_w, want_h = 2 * a1_x + (columns - 1) * dx, 2 * a1_y + (rows - 1) * dy
    h, w = (int(v) for v in shape)
    if abs(w - want_w) > 1.5 * dx or abs(h - want_h) > 1.5 * dy:
        raise ScenarioError(f"{w} x {h} pixels do not draw a board of {columns} x {rows} hexes "
                            f"of {dx:g} x {dy:g} pixels (about {want_w:.0f} x {want_h:.0f})",
                            file=file, place="terrain")


def load_raster(path: str | Path) -> Raster:
    """Read a raster file (see the module doc); ScenarioError naming the file otherwise."""
    path = Path(path)
    name = str(path)
    try:
        st = path.stat()
        inside = path.resolve().parent == path.parent.resolve()
    except (OSError, ValueError, RuntimeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        if isinstance(e, ValueError):
            why = "no file has this name: it holds a NUL character"
        raise ScenarioError(f"cannot be read ({why})", file=name) from None
    if not inside:                  # a link out of the board's folder is not followed
        raise ScenarioError("links outside its folder: not read", file=name)
    if not stat.S_ISREG(st.st_mode):
        raise ScenarioError("is not a regular file", file=name)
    if st.st_size > MAX_FILE_BYTES:
        raise ScenarioError(f"{st.st_size} bytes: a raster file holds at most {MAX_FILE_BYTES}",
                            file=name)
    try:
        raw = path.read_bytes()
        with open_zip(io.BytesIO(raw), "a raster archive") as z:
            infos = z.infolist()
            names = [i.filename for i in infos]
            if sorted(names) != sorted(_MEMBERS) or len(set(names)) != len(names):
                raise ScenarioError(f"members {shown(names)}; expected {shown(sorted(_MEMBERS))}",
                                    file=name)
            arrays = {}
            order = ("geometry", "size", "summary", "terrain", "level")     # the grid first
            infos.sort(key=lambda i: order.index(_MEMBERS[i.filename][0]))
            for info in infos:
                key, dtype = _MEMBERS[info.filename]
                limit = MAX_PIXELS * np.dtype(dtype).itemsize + 4096
                if info.file_size > limit:
                    raise ScenarioError(f"{info.file_size} bytes once decompressed (at most "
                                        f"{limit})", file=name, place=key)
                data = read_member(z, info, limit, place=key)
                _check_header(data, key, arrays, name)
                try:
                    arr = np.load(io.BytesIO(data), allow_pickle=False)
                except (ValueError, OSError, EOFError) as e:
                    raise ScenarioError(f"not a numpy array ({e})", file=name,
                                        place=key) from None
                if arr.dtype != np.dtype(dtype):
                    raise ScenarioError(f"dtype {arr.dtype}, expected {np.dtype(dtype)}",
                                        file=name, place=key)
                arrays[key] = arr
    except ScenarioError as e:
        raise e.at(file=name) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
            NotImplementedError, RuntimeError) as e:
        raise ScenarioError(f"not a raster archive ({e})", file=name) from None
    summary = arrays["summary"]
    if summary.ndim != 1 or summary.size > 128 or (summary.size and summary.max() > 127):
        raise ScenarioError("not an ASCII hash", file=name, place="summary")
    validate(arrays["terrain"], arrays["level"], arrays["geometry"], arrays["size"], name)
    g = arrays["geometry"]
    s = arrays["size"]
    return Raster(arrays["terrain"], arrays["level"], (float(g[0]), float(g[1]), float(g[2]),
                                                      float(g[3])),
                  (int(s[0]), int(s[1])), summary.tobytes().decode("ascii"))


def _check_header(data: bytes, key: str, arrays: dict, file: str) -> None:
    """Refuse a member whose ``.npy`` header is malformed or declares a shape it may not have
    (terrain and level: the picture of the board's geometry and size, read before them), before
    numpy allocates anything for it."""
    try:
        f = io.BytesIO(data)
        version = np.lib.format.read_magic(f)
        read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                else np.lib.format.read_array_header_2_0)
        shape, _, _ = read(f)
    except Exception as e:          # numpy's header parser raises many kinds (TokenError...)
        raise ScenarioError(f"not a numpy array header ({type(e).__name__}: {e})"[:300],
                            file=file, place=key) from None
    want = _SHAPES[key]
    if not isinstance(shape, tuple) or not all(isinstance(n, int) and n >= 0 for n in shape) \
            or (len(shape) != want if isinstance(want, int) else shape != want):
        raise ScenarioError(f"shape {shown(shape)} is not a {key} array", file=file, place=key)
    if len(shape) == 2:
        terrain = arrays.get("terrain")
        if key == "level" and terrain is not None and terrain.shape != shape:
            raise ScenarioError(f"terrain {terrain.shape} and level {shape} must be two equal, "
                                "non-empty pixel grids", file=file, place=key)
        if shape[0] * shape[1] > MAX_PIXELS:
            raise ScenarioError(f"{shape[0]} x {shape[1]} pixels: a raster holds at most "
                                f"{MAX_PIXELS}", file=file, place=key)
        if "geometry" in arrays and "size" in arrays:
            check_grid(arrays["geometry"], arrays["size"], file)
            check_covers(shape, arrays["geometry"], arrays["size"], file)
    elif key == "summary" and shape[0] > 128:
        raise ScenarioError("not an ASCII hash", file=file, place=key)


def raster_file_name(board_path: str | Path) -> str:
    """``bd02.json`` -> ``bd02.raster.npz``."""
    return Path(board_path).stem + RASTER_SUFFIX


__all__ = ["MAX_PIXELS", "RASTER_SUFFIX", "Raster", "RasterTerrain", "known_codes", "load_raster",
           "raster_file_name", "terrain_table", "validate"]
