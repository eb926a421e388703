"""Read a VASL 5 board archive: its board image, its colours and its data file, and the
image's pixels decoded to VASL terrain codes and ground levels (``vasl5.py`` converts them).

The archive (VASL 5's ``ASLBoard``): a ZIP file without an extension (``bd02``) holding the board
image ``bd02.gif`` (or ``.png``; 1800 x 645 pixels for a geomorphic board, hexes 56.25 pixels
apart across and 64.5 down, A1's centre at (0, 32.25)), usually a ``colors`` file of
``Name R,G,B`` lines (or ``Name OtherName``, an alias) naming the image's colours, and a ``data``
file (``version 5.4``; optional ``x0``, ``y0``: A1's centre in pixels, ``dx``, ``dy``: the hex
spacing, ``alternate true``: hex grain the other way).  What each colour name stands for (a VASL
terrain, and the ground level it encodes or none) is the project's own copy of VASL's colour
table, ``data/vasl_colors.csv`` (written from VASL's ``SharedBoardMetadata.xml``); an archive
without a ``colors`` file is read with that table's own values.

Bounds, checked before decoding: the archive at most 256 MiB, the image entry 64 MiB, the picture
at most ``MAX_PICTURE_PIXELS`` (40 million) pixels from its header; ``colors`` and ``data`` text
files of at most 1 MiB.  A picture over ``MAX_IMAGE_PIXELS`` (10 million: VASL's LOS grid) is read
at every ``scale``-th pixel across and down (the smallest whole step that brings it within; a JPEG
decoded reduced by its own decoder), its hex grid divided by the same step: the decoded grid, and
so the board's terrain as drawn, stays within 10 million pixels, and the picture kept for the
art is the archive's own.  A JPEG picture's colours are not exact (VASL draws such a board with no
LOS: it cannot read terrain from it either): its pixels are read as open ground at level 0, said
in the import's report.
"""
from __future__ import annotations

import csv
import io
import math
import os
import re
import warnings
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..boards import MAX_LEVEL
from ..errors import ScenarioError, shown
from ..hexes import MAX_BOARD_COLUMNS, MAX_BOARD_ROWS, Naming
from ..jsonio import open_regular
from ..zip_members import ZIP_FAILURES, open_zip
from .archive import check_directory, find_entry, open_archive, read_entry
from .board_metadata import MAX_METADATA_BYTES, METADATA, metadata_geometry, metadata_number, parse_root
from .grid import MAX_HEX_PIXELS, MIN_HEX_PIXELS, Geometry, grid_naming
from .losdata import LOS_DATA, MAX_GRID_PIXELS
from .vasl_terrain import VASL_TERRAIN

COLORS = "colors"
DATA = "data"
MAX_IMAGE_ENTRY_BYTES = 64 * 1024 * 1024
MAX_TEXT_BYTES = 1024 * 1024
MAX_IMAGE_PIXELS = MAX_GRID_PIXELS        # the decoded grid (a larger picture is read reduced)
MAX_PICTURE_PIXELS = 40_000_000           # the picture: a GIF's 40 MB of palette indices at most
MAX_COLOR_LINES = 20_000
MIN_IMAGE_SIDE = 16
MAX_COLOURS = 100_000       # distinct colours of a board image (VASL's GIFs: at most 256)

NO_CODE = 255               # a pixel of no terrain (hex dots, numbers, black lines, unnamed)
NO_LEVEL = -128

_CODE_OF_NAME = {t.name: code for code, t in VASL_TERRAIN.items()}


# ----------------------------------------------------------------------------- colour table
@dataclass(frozen=True)
class ColourName:
    name: str
    rgb: tuple[int, int, int]
    terrain: str | None         # VASL's terrain name, None for lines, dots and numbers
    level: int | None           # the ground level the colour encodes, None if none


@lru_cache(maxsize=1)
def colour_table() -> dict[str, ColourName]:
    """The project's copy of VASL's colour names (``data/vasl_colors.csv``), by name."""
    text = resources.files(__package__).joinpath("data/vasl_colors.csv").read_text("utf-8")
    out: dict[str, ColourName] = {}
    for row in csv.DictReader(io.StringIO(text)):
        terrain = None if row["terrain"] == "UNKNOWN" else row["terrain"]
        level = None if row["elevation"] == "UNKNOWN" else int(row["elevation"])
        out.setdefault(row["name"], ColourName(
            row["name"], (int(row["red"]), int(row["green"]), int(row["blue"])), terrain, level))
    return out


_RGB_RE = re.compile(r"^(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})$")


def parse_colors(text: str) -> tuple[list[tuple[str, tuple[int, int, int]]], list[str]]:
    """The ``colors`` file: ``Name R,G,B`` or ``Name OtherName`` lines, ``//`` comments.
    Returns the colours and the lines left out (VASL's own files hold a few names without a
    value); a file with no colour at all is refused."""
    out: list[tuple[str, tuple[int, int, int]]] = []
    skipped: list[str] = []
    seen: dict[str, tuple[int, int, int]] = {}
    lines = text.splitlines()
    if len(lines) > MAX_COLOR_LINES:
        raise ScenarioError(f"more than {MAX_COLOR_LINES} lines", place=COLORS)
    for n, line in enumerate(lines, start=1):
        body = line.split("//", 1)[0].strip()
        if not body:
            continue
        parts = body.split(None, 1)
        value = parts[1].strip() if len(parts) == 2 else ""
        m = _RGB_RE.match(value)
        if m and max(int(v) for v in m.groups()) <= 255:
            rgb = tuple(int(v) for v in m.groups())
        elif value in seen:                 # an alias: "L0Winter White"
            rgb = seen[value]
        else:
            skipped.append(f"line {n} ({shown(body[:40])})")
            continue
        seen[parts[0]] = rgb
        out.append((parts[0], rgb))
    if not out:
        raise ScenarioError("names no colour ('Name R,G,B' lines)", place=COLORS)
    return out, skipped


# ---------------------------------------------------------------------------- the archive
@dataclass(frozen=True)
class Vasl5Archive:
    file: str
    image_name: str
    image_bytes: bytes
    index: np.ndarray               # (H, W) palette index of every pixel
    palette: np.ndarray             # (K, 3) uint8: the image's distinct colours
    colours: list                   # [(name, rgb)], the archive's own or our table's
    own_colors: bool
    data: dict                      # the data file's keys (lower case) -> value text
    version: str
    skipped_colors: tuple = ()      # colors file lines left out
    metadata: bytes | None = None   # the archive's BoardMetadata.xml, if it holds one
    scale: int = 1                  # picture pixels per decoded pixel, across and down
    picture: tuple = (0, 0)         # the picture's own width and height in pixels
    exact: bool = True              # the picture's colours are exact (not a JPEG)


def board_image_entry(archive: zipfile.ZipFile, stem: str) -> zipfile.ZipInfo | None:
    """The board image: ``bdNN.gif`` / ``.png`` named like the archive, else the only one."""
    images = [i for i in archive.infolist() if not i.is_dir() and re.match(
        r"(?i)^bd.*\.(gif|png)$", i.filename.rsplit("/", 1)[-1])]
    for info in images:
        if info.filename.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower() == stem.lower():
            return info
    return images[0] if len(images) == 1 else None


def is_vasl5(path: str | Path) -> bool:
    """A ZIP without ``LOSData`` but with a board image (anything else goes to vasl6.py, which
    refuses it with its own message)."""
    try:
        fd, _ = open_regular(Path(path), "")
    except (ScenarioError, OSError):
        return False
    with os.fdopen(fd, "rb") as handle:
        try:
            check_directory(handle)         # (a ScenarioError: vasl6.py refuses it, told)
            with open_zip(handle) as z:
                if find_entry(z, LOS_DATA) is not None:
                    return False
                return board_image_entry(z, Path(path).name) is not None
        except (ScenarioError, *ZIP_FAILURES):      # vasl6.py refuses it, told
            return False


def read_archive(path: str | Path, data: bytes | None = None) -> Vasl5Archive:
    """Open and read a VASL 5 board archive (``data``: its bytes, already read; ``path`` then
    only names it); ScenarioError naming the file on any problem."""
    path = Path(path)
    try:
        return _read_archive(path, data)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None


def _read_archive(path: Path, data: bytes | None = None) -> Vasl5Archive:
    with open_archive(path if data is None else data) as archive:
        info = board_image_entry(archive, path.name)
        if info is None:
            raise ScenarioError("no board image (bdNN.gif or .png) in the archive")
        image_bytes = read_entry(archive, info, MAX_IMAGE_ENTRY_BYTES)
        colors_info = find_entry(archive, COLORS)
        data_info = find_entry(archive, DATA)
        colors_text = None if colors_info is None else _text(
            read_entry(archive, colors_info, MAX_TEXT_BYTES))
        data_text = "" if data_info is None else _text(
            read_entry(archive, data_info, MAX_TEXT_BYTES))
        meta_info = find_entry(archive, METADATA)
        metadata = None if meta_info is None else read_entry(archive, meta_info,
                                                             MAX_METADATA_BYTES)
    name = info.filename.rsplit("/", 1)[-1]
    picture = decode_image(image_bytes, name)
    index, palette = picture.index, picture.palette
    skipped: list[str] = []
    if colors_text is None:
        colours = [(c.name, c.rgb) for c in colour_table().values()]
    else:
        colours, skipped = parse_colors(colors_text)
        # VASL's board colours: the shared table, the colors file's names replacing its own
        named = {n for n, _ in colours}
        colours += [(c.name, c.rgb) for c in colour_table().values() if c.name not in named]
    data, version = parse_data(data_text)
    return Vasl5Archive(str(path), name, image_bytes, index, palette, colours, colors_text is not None,
                        data, version, tuple(skipped), metadata, picture.scale,
                        picture.size, picture.exact)


def _text(raw: bytes) -> str:
    return raw.decode("latin-1")


def parse_data(text: str) -> tuple[dict, str]:
    """The ``data`` file: ``version 5.4``, ``x0 70``, ``alternate true``... (other lines are
    notes)."""
    keys: dict[str, str] = {}
    version = ""
    for line in text.splitlines():
        parts = line.strip().split(None, 1)
        if len(parts) == 2 and parts[0].lower() in ("x0", "y0", "dx", "dy", "alternate"):
            keys[parts[0].lower()] = parts[1].strip()
        elif len(parts) == 2 and parts[0].lower() == "version" and not version:
            version = parts[1].strip()
    return keys, version


@dataclass(frozen=True)
class Picture:
    """A board picture as decoded: palette index per decoded pixel (H, W), the palette (K, 3)
    uint8, the step it was read at, the picture's own (width, height), exact colours or not."""
    index: np.ndarray
    palette: np.ndarray
    scale: int
    size: tuple
    exact: bool


def reading_step(width: int, height: int) -> int:
    """The smallest whole step s such that every s-th pixel across and down of a ``width`` x
    ``height`` picture is at most ``MAX_IMAGE_PIXELS`` pixels (1 for a picture within)."""
    s = max(1, math.isqrt(max(0, width * height - 1) // MAX_IMAGE_PIXELS))
    while -(-width // s) * -(-height // s) > MAX_IMAGE_PIXELS:
        s += 1
    return s


def decode_image(raw: bytes, name: str) -> Picture:
    """The picture's pixels (module doc: a large one read at every ``scale``-th pixel, a JPEG's
    colours not read); the size is checked from the header before any pixel is decoded.  A GIF's
    own palette is used as it is."""
    from PIL import Image, UnidentifiedImageError
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            im = Image.open(io.BytesIO(raw))
            w, h = im.size
            if w * h > MAX_PICTURE_PIXELS:
                raise ScenarioError(f"{w} x {h} pixels: a board picture holds at most "
                                    f"{MAX_PICTURE_PIXELS} pixels", place=name)
            if w < MIN_IMAGE_SIDE or h < MIN_IMAGE_SIDE:
                raise ScenarioError(f"{w} x {h} pixels is too small for a board image (and the "
                                    "archive has no LOSData either)", place=name)
            if im.format not in ("GIF", "PNG", "JPEG"):
                raise ScenarioError(f"a {im.format} image, not GIF, PNG or JPEG", place=name)
            k = reading_step(w, h)
            shape = (-(-h // k), -(-w // k))
            if im.format == "JPEG":             # decoded (reduced: bounded) to be sure it is one
                im.draft("RGB", (max(1, w // 8), max(1, h // 8)))
                im.load()
                return Picture(np.zeros(shape, np.uint8), np.zeros((1, 3), np.uint8), k,
                               (w, h), False)
            if im.mode == "P":
                idx = np.asarray(im)[::k, ::k].copy()
                pal = np.array(im.getpalette("RGB") or [0, 0, 0], dtype=np.uint8).reshape(-1, 3)
                pal = np.vstack([pal, np.zeros((max(0, 256 - len(pal)), 3), np.uint8)])
                return Picture(idx, pal, k, (w, h), True)
            im = im.convert("RGB")
            counted = im.getcolors(MAX_COLOURS)     # None: more (counted before any array)
            if counted is None:         # each colour is named, counted and reported
                raise ScenarioError(f"more than {MAX_COLOURS} distinct colours: a board image "
                                    f"has at most {MAX_COLOURS}", place=name)
            rgb = np.asarray(im)[::k, ::k]
    except ScenarioError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError,
            Image.DecompressionBombError) as e:
        raise ScenarioError(f"cannot be decoded as an image ({e})", place=name) from None
    packed = (rgb[..., 0].astype(np.uint32) << 16) | (rgb[..., 1].astype(np.uint32) << 8) \
        | rgb[..., 2].astype(np.uint32)
    values = np.array(sorted((r << 16) | (g << 8) | b for _, (r, g, b) in counted), np.uint32)
    inverse = np.searchsorted(values, packed)
    palette = np.stack([values >> 16, (values >> 8) & 255, values & 255], axis=1).astype(np.uint8)
    return Picture(inverse.reshape(packed.shape).astype(np.int32), palette, k, (w, h), True)


# ------------------------------------------------------------------------------- geometry
GEOMETRY_KEYS = ("A1CenterX", "A1CenterY", "hexWidth", "hexHeight")


def _metadata_attributes(raw: bytes | None) -> dict:
    return {} if not raw else dict(parse_root(raw).attrib)


def is_alternate(archive: Vasl5Archive) -> bool:
    """VASL's ``alternate`` numbering (the data file's ``alternate true``, read as VASL reads it:
    ``Boolean.parseBoolean`` of the word after the key): the same hex grid, its odd columns
    numbered from half a hex above A1 (VASL's ``ASLHexGrid``: B1 above A1, A0 at the top)."""
    return (archive.data.get("alternate", "").split() or [""])[0].lower() == "true"


def board_geometry(archive: Vasl5Archive) -> tuple[Geometry, tuple[int, int]]:
    """The hex grid in the decoded pixels (the picture's divided by ``archive.scale``) and the
    board's size (columns, rows)."""
    geo, size, _ = _picture_geometry(archive)
    k = archive.scale
    geo = Geometry(geo.a1_x / k, geo.a1_y / k, geo.hex_width / k, geo.hex_height / k)
    if min(geo.hex_width, geo.hex_height) < MIN_HEX_PIXELS:
        raise ScenarioError(f"hexes {geo.hex_width:g} x {geo.hex_height:g} pixels read at every "
                            f"{k}th pixel: a hex is {MIN_HEX_PIXELS:g} pixels at least",
                            place=archive.image_name)
    return geo, size


def picture_geometry(archive: Vasl5Archive) -> Geometry:
    """The hex grid in the picture's own pixels (the ``image`` key's)."""
    return _picture_geometry(archive)[0]


def _picture_geometry(archive: Vasl5Archive) -> tuple[Geometry, tuple[int, int], bool | None]:
    """(the grid in the picture's pixels, the size, on an ``alternate`` map whether our A1 is
    VASL's A0 (``alternate_shift``), else None)."""
    d = archive.data
    w, h = archive.picture if archive.picture != (0, 0) else archive.index.shape[::-1]
    meta = _metadata_attributes(archive.metadata)
    meta_geo = None
    if any(k in meta for k in GEOMETRY_KEYS):
        # rules.md 11.6: BoardMetadata.xml's geometry where it is there (VASL 6 reads it, not
        # the data file: half boards' hexes are 56.3125 across, Deluxe hexes 168.79 x 194.2)
        geo = meta_geo = metadata_geometry(meta)
        columns, rows = (metadata_number(meta, "width", int), metadata_number(meta, "height", int))
        if columns is not None and rows is not None:
            if not (2 <= columns <= MAX_BOARD_COLUMNS and 1 <= rows <= MAX_BOARD_ROWS):
                raise ScenarioError(f"width={columns}, height={rows}: boards run "
                                    f"2..{MAX_BOARD_COLUMNS} columns and 1..{MAX_BOARD_ROWS} rows",
                                    place=METADATA)
            return geo, (columns, rows), None
    vals = {}
    for key, default in (("x0", 0.0), ("y0", 32.25), ("dx", 56.25), ("dy", 64.5)):
        text = d.get(key)
        try:
            v = default if text is None else float(text)
        except ValueError:
            raise ScenarioError(f"{key} {shown(text)} is not a number", place=DATA) from None
        if not math.isfinite(v):
            raise ScenarioError(f"{key} {shown(text)} is not a finite number", place=DATA)
        vals[key] = v
    if vals["y0"] == 32:            # VASL's data files round A1's centre (32.25)
        vals["y0"] = 32.25
    for key in ("dx", "dy"):
        if not MIN_HEX_PIXELS <= vals[key] <= MAX_HEX_PIXELS:
            raise ScenarioError(f"{key} {vals[key]:g}: a hex is {MIN_HEX_PIXELS:g} to "
                                f"{MAX_HEX_PIXELS:g} pixels across", place=DATA)
    # rules.md 11.6: VASL reads x0, y0 as A1CenterX, A1CenterY (BoardArchive); a negative one
    # (a "b" half, x0 -900) puts A1 at x = 0, or at half a hex height (Map.getHexCenterPoint)
    if vals["x0"] < 0:
        vals["x0"] = 0.0
    if vals["y0"] < 0:
        vals["y0"] = vals["dy"] / 2
    shifted = None
    if meta_geo is None and is_alternate(archive):
        shifted = alternate_shift(vals["y0"], vals["dy"])
        if shifted:
            vals["y0"] -= vals["dy"]    # rules.md 11.6: our first A is VASL's A0 (board_naming)
    geo = meta_geo or Geometry(vals["x0"], vals["y0"], vals["dx"], vals["dy"])
    if vals["x0"] > w or vals["y0"] > h:
        raise ScenarioError(f"x0 {vals['x0']:g}, y0 {vals['y0']:g}: A1's centre lies outside the "
                            f"{w} x {h} pixel image", place=DATA)
    # the hexes inside equal margins (a geomorphic board has none: A1's centre on the edge)
    columns = int(math.floor((w - 2 * geo.a1_x) / geo.hex_width + 0.5)) + 1
    rows = int(math.floor((h - 2 * geo.a1_y + geo.hex_height) / geo.hex_height + 0.5))
    if not (2 <= columns <= MAX_BOARD_COLUMNS and 1 <= rows <= MAX_BOARD_ROWS):
        raise ScenarioError(f"a {w} x {h} pixel image holds {columns} x {rows} hexes: boards run "
                            f"2..{MAX_BOARD_COLUMNS} columns and 1..{MAX_BOARD_ROWS} rows",
                            place=archive.image_name)
    return geo, (columns, rows), shifted


def alternate_shift(y0: float, dy: float) -> bool:
    """On an ``alternate`` map, whether VASL's A0 (a hex above A1) lies wholly on the picture,
    its centre at least half a hex height (less a pixel) below the top edge: it is then our A1
    and VASL's B0 (at the top edge) our B0; else our A1 is VASL's A1 and our B0 VASL's B1."""
    return y0 - dy >= dy / 2 - 1


def board_naming(archive: Vasl5Archive) -> tuple[Naming, list[str]]:
    """rules.md 11.6: how VASL names the board's hexes, with the report's words: from the raw
    A1 centre (the metadata's ``A1CenterX``, ``A1CenterY`` where it gives them, else the data
    file's ``x0``, ``y0``: ``grid.grid_naming``) and VASL's ``alternate`` numbering (its odd
    columns numbered one more, ``ASLHexGrid``; where VASL's A0 lies wholly on the picture our
    first hex of column A is VASL's A0)."""
    geo, size, shifted = _picture_geometry(archive)
    meta = _metadata_attributes(archive.metadata)
    if any(k in meta for k in GEOMETRY_KEYS):
        a1_x, a1_y = metadata_number(meta, "A1CenterX"), metadata_number(meta, "A1CenterY")
    else:       # read as _picture_geometry read them (checked there)
        a1_x, a1_y = (float(archive.data[k]) if archive.data.get(k) is not None else None
                      for k in ("x0", "y0"))
    naming, notes = grid_naming(a1_x, a1_y, geo.hex_width, geo.hex_height, size)
    if shifted is None:
        return naming, notes
    alternate = naming._replace(first_row=naming.first_row - (1 if shifted else 0),
                                alternate=True)
    if alternate.check(size) is not None:
        return naming, notes
    first_odd = alternate.row_name(1, 0)
    notes = [f"VASL numbers this map's hexes the 'alternate' way (data file: alternate true): "
             f"named as VASL names them, columns A, C... from {alternate.name(0, 1)}, B, D... "
             f"from B{first_odd} (half a hex above {alternate.name(0, 1)})"
             + ("" if shifted else "; VASL's half hexes A0, C0... along the top edge are not "
                                   "on this board")]
    return alternate, notes


# ------------------------------------------------------------------------------- decoding
@dataclass(frozen=True)
class Decoded:
    code: np.ndarray            # (H, W) uint8 VASL terrain code, NO_CODE for none
    level: np.ndarray           # (H, W) int8 ground level, NO_LEVEL for none
    pixels: dict                # colour name -> pixel count (named colours in the image)
    nameless: dict              # colour name -> pixels: a name our table does not know
    unnamed: dict               # (r, g, b) -> pixels: a colour the colors file does not name


def open_ground(shape) -> Decoded:
    """The pixels of a picture whose colours are not read (a JPEG's): open ground at level 0."""
    return Decoded(np.full(shape, _CODE_OF_NAME["Open Ground"], np.uint8),
                   np.zeros(shape, np.int8), {}, {}, {})


def decode_pixels(index: np.ndarray, palette: np.ndarray, colours: list) -> Decoded:
    table = colour_table()
    pal = palette.astype(np.int64)
    values = (pal[:, 0] << 16) | (pal[:, 1] << 8) | pal[:, 2]
    counts = np.bincount(index.ravel(), minlength=len(values))
    by_rgb: dict[int, str] = {}
    for name, (r, g, b) in colours:
        by_rgb.setdefault((r << 16) | (g << 8) | b, name)
    code_lut = np.full(len(values), NO_CODE, dtype=np.uint8)
    level_lut = np.full(len(values), NO_LEVEL, dtype=np.int8)
    pixels: dict = {}
    nameless: dict = {}
    unnamed: dict = {}
    for i, v in enumerate(values.tolist()):
        name = by_rgb.get(v)
        n = int(counts[i])
        if n == 0:
            continue
        if name is None:
            unnamed[(v >> 16, (v >> 8) & 255, v & 255)] = n
            continue
        pixels[name] = n
        entry = table.get(name)
        if entry is None:
            nameless[name] = n
            continue
        if entry.terrain is not None and entry.terrain in _CODE_OF_NAME:
            code_lut[i] = _CODE_OF_NAME[entry.terrain]
        if entry.level is not None and abs(entry.level) <= MAX_LEVEL:
            level_lut[i] = entry.level
    return Decoded(code_lut[index], level_lut[index], pixels, nameless, unnamed)
