"""Import a VASL board archive: its per-pixel LOS data becomes a Starshell board file.

The archive (VASL's ``BoardArchive``): a ZIP file without an extension (``bd02``, ``bd34``...)
holding ``BoardMetadata.xml`` (root ``boardMetadata``: ``name``, ``version``, ``width`` and
``height`` in hexes, optional geometry ``A1CenterX``, ``A1CenterY``, ``hexWidth``, ``hexHeight``;
absent geometry means a standard geomorphic board) and ``LOSData``: gzip around a Java object
stream (``AC ED 00 05``, then block-data records ``0x77`` + 1 length byte or ``0x7A`` + a 4-byte
length, Java flushing every 1024 bytes).  The records' payload, big-endian: width, height (hexes),
gridWidth, gridHeight (pixels) as int32; then for each pixel column x, for each pixel row y, one
signed elevation byte (levels) and one terrain code byte; then one stairway byte per hex.

Conversion, per hex (VASL centre: x = A1CenterX + hexWidth * col, y = A1CenterY + hexHeight * row
- hexHeight / 2 for odd columns; a standard board is 1800 x 645 pixels, hexes 56.25 x 64.5):

- terrain: the most common terrain code in a disc of radius 0.2 hex heights around the centre,
  not counting minor features (roads, paths, bridges, railroads) and hexside terrain (walls,
  hedges, bocage, cliffs...), which do not say what the hex is.  A building at VASL's own centre
  sample point (``Hex.resetTerrain``) wins, and VASL's inherent terrain (orchard trees, dense
  jungle, bamboo, rubble... drawn as dots or patches) wins over both when any of it lies within
  a quarter hex height of the centre (VASL: nearer the centre than any hexside location).
  Only minor features there: open ground.
- level: the elevation at VASL's centre sample point (VASL's data has depressions baked in:
  a gully or stream centre reads -1).
- buildings: building pixels that touch (4-connected) form one building; building hexes of one
  building share a ``building`` group named after its first hex (column by column, e.g. ``E4``).
  A single-hex building gets no group.
- upper_levels: "Stone/Wooden Building, N Level" (codes 41-44, 51-54) has N levels above ground,
  so upper_levels N; a plain "Stone/Wooden Building" (40, 50) is single-story, upper_levels 0
  (VASL's ``Hex.addBuildingLevels`` adds locations 1..N except to 40 and 50).  VASL makes such a
  building an obstacle of N + 1/2 levels; ours is 1 + N (whole levels, terrain.py).

- hexsides (RULES.md 7): pixels of walls, hedges, cactus hedges, bocage, cliffs and rowhouse
  walls (codes 72-80, 116; ``LOSCategory`` HEXSIDE) vote for the side of their hex they lie
  nearest (by angle from the centre, the hex scaled regular); a side gets the terrain with at
  least half a hexside's length of pixels (``SIDE_PIXELS``), the most voted when two compete.
  Rubble is a half level (terrain.py).

What cannot be represented is reported: factory walls, road blocks, dune crests... are not
imported, nor are bridges, and terrain without an exact counterpart is imported as the nearest
one (the ``VASL_TERRAIN`` table says which and why).
A terrain code VASL does not define, a damaged archive or stream, or a grid that disagrees with
the metadata is refused with one ScenarioError naming the file and what is wrong.
"""
from __future__ import annotations

import math
import os
import re
import struct
import xml.etree.ElementTree as ET
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..boards import MAX_LEVEL, Board, HexTerrain, hexside_key
from ..errors import ScenarioError, shown
from ..hexes import (
    BOARD_COLUMNS,
    BOARD_ID_RE,
    BOARD_ROWS,
    COLUMN_NAMES,
    SQRT3,
    board_hexes,
    column_name,
)
from ..jsonio import open_regular

LOS_DATA = "LOSData"
METADATA = "BoardMetadata.xml"
JAVA_MAGIC = b"\xac\xed\x00\x05"
GZIP_MAGIC = b"\x1f\x8b"
TC_BLOCKDATA, TC_BLOCKDATALONG = 0x77, 0x7A

# Bounds checked before anything is allocated (a standard board: 1800 x 645 pixels, 2.3 MB of
# payload in about 2,300 blocks, hexes 56.25 x 64.5 pixels)
MAX_HEX_PIXELS = 160.0                      # hexWidth and hexHeight at most (2.5 x standard)
MIN_HEX_PIXELS = 8.0
MAX_GRID_PIXELS = 10_000_000                # gridWidth x gridHeight
MAX_STREAM_BYTES = 2 * MAX_GRID_PIXELS + 64 * 1024   # decompressed LOSData (2 bytes a pixel)
MAX_ENTRY_BYTES = MAX_STREAM_BYTES          # compressed LOSData in the archive
MAX_METADATA_BYTES = 4 * 1024 * 1024
MAX_BLOCKS = 1 << 18                        # block-data records in the stream
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024       # the whole archive (board images included)
CHUNK = 256 * 1024                          # compressed bytes decompressed at a time


class ImportCancelled(Exception):
    """The ``progress`` callback of ``import_board`` stopped the import."""
DISC_RADIUS = 0.2                           # in hex heights: the centre region that is sampled
INHERENT_RADIUS = 0.25                      # ... and where inherent terrain is looked for
FEATURE_PIXELS = 12                         # pixels of a hexside feature that put it in a hex


@dataclass(frozen=True)
class Geometry:
    """VASL's hex grid in pixels (``BoardArchive.GEO_*`` for a standard geomorphic board)."""
    a1_x: float = 0.0
    a1_y: float = 32.25
    hex_width: float = 56.25        # column spacing
    hex_height: float = 64.5

    def centres(self, col: np.ndarray, row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixel centres of our (column, printed row) hexes: VASL's row index is the printed
        row minus one in even columns (A1 is its row 0) and the printed row in odd ones (B0)."""
        odd = col % 2
        vrow = row - 1 + odd
        x = self.a1_x + self.hex_width * col
        y = self.a1_y + self.hex_height * vrow - self.hex_height / 2 * odd
        return x, y


GEO = Geometry()


# ------------------------------------------------------------------------ the terrain table
@dataclass(frozen=True)
class VaslTerrain:
    name: str               # VASL's name (SharedBoardMetadata.xml)
    kind: str               # "area": decides a hex; "minor": ignored; "hexside", "bridge": reported
    terrain: str = "open"   # ours, for an area code
    upper_levels: int = 0
    note: str = ""          # why an area code is only approximated ("" = exact)
    inherent: bool = False  # VASL's inherent terrain: a few pixels near the centre make the hex


def _table() -> dict[int, VaslTerrain]:
    t: dict[int, VaslTerrain] = {}
    # isInherentTerrain in VASL's table: orchard trees, jungle... drawn as patches or dots
    inherent = {26, 27, 28, 63, 64, 90, 91, 105, 106, 114, 115, 117, 118, 119, 127, 128, 129,
                137, 190, 194}

    def area(codes, names, terrain, note="", upper=None):
        for i, (code, name) in enumerate(zip(codes, names)):
            up = upper[i] if upper is not None else 0
            t[code] = VaslTerrain(name, "area", terrain, up, note, code in inherent)

    def kind(codes, names, k):
        for code, name in zip(codes, names):
            t[code] = VaslTerrain(name, k)

    no_los = "no effect on LOS"
    area([0], ["Open Ground"], "open")
    area([1], ["Plowed Field"], "plowed")
    area([2, 3, 4, 5, 6, 7], ["Rooftop", "Snow", "Deep Snow", "Ice", "Mud", "Mudflats"], "open",
         no_los)
    area(range(8, 14), ["Water", "Shallow Water", "River", "Shallow River", "Ford", "Canal"],
         "water")
    area([14], ["Marsh"], "marsh")
    area([15], ["Shellholes"], "open", no_los)
    area([20, 21, 22, 23], ["Foxholes", "Trench", "Antitank Trench", "Pillbox"], "open",
         "fortifications are not imported; " + no_los)
    area([24], ["Grain"], "grain")
    area([25], ["Brush"], "brush")
    area([26, 27, 28], ["Crags", "Debris", "Graveyard"], "brush", "a hindrance, like brush")
    area([29], ["Lumberyard"], "woods", "a one-level obstacle, like woods")
    area([30], ["Gully"], "gully")
    area([31, 32, 33], ["Dry Stream", "Shallow Stream", "Deep Stream"], "stream")
    area([34], ["Flooded Stream"], "water")
    area([35], ["Irrigation Ditch"], "open", no_los)
    area([40, 41, 42, 43, 44], ["Stone Building"] +
         [f"Stone Building, {n} Level" for n in (1, 2, 3, 4)], "building", upper=[0, 1, 2, 3, 4])
    area([50, 51, 52, 53, 54], ["Wooden Building"] +
         [f"Wooden Building, {n} Level" for n in (1, 2, 3, 4)], "building", upper=[0, 1, 2, 3, 4])
    factory = "a factory, as a building (factory rules are a follow-up)"
    area([47, 48, 57, 58, 198], ["Stone Factory, 1.5 Level", "Stone Factory, 2.5 Level",
                                 "Wooden Factory, 1.5 Level", "Wooden Factory, 2.5 Level",
                                 "Wooden Factory, 1 Level"], "building", factory,
         upper=[1, 2, 1, 2, 1])
    area([49, 59], ["Stone Market Place", "Wooden Market Place"], "open",
         "a market place is open ground at ground level")
    area([60], ["Woods"], "woods")
    area([61], ["Forest"], "forest")
    area([62], ["Pine Woods"], "pine_woods")
    area([63], ["Orchard"], "orchard")
    area([64], ["Orchard, Out of Season"], "orchard_out_of_season")
    area([90, 91, 190, 194], ["Stone Rubble", "Wooden Rubble", "Stone Rubble Ground Level",
                              "Wooden Rubble Ground Level"], "rubble")
    area([191, 192, 193, 195, 196, 197],
         [f"{k} Rubble Level {n}" for k in ("Stone", "Wooden") for n in (1, 2, 3)], "rubble",
         "rubble above ground level, as ground-level rubble")
    area([95, 96, 97, 100, 101, 102, 106, 107, 111, 120, 139, 143, 144, 145, 146, 147, 148, 201],
         ["Sewer", "Tunnel", "Cave", "Scrub", "Hammada", "Dier", "Hillock Summit", "Sand",
          "Sangar", "Broken Ground", "Panji", "Soft Sand", "Beach, Slight Slope",
          "Beach, Moderate Slope", "Beach, Steep Slope", "Exposed Reef", "Submerged Reef",
          "OffBObserver"], "open", no_los)
    area([104], ["Wadi"], "gully", "a depression, like a gully")
    area([105, 108, 117], ["Hillock", "Sand Dune, Low", "Cactus Patch"], "rubble",
         "a low obstacle, like rubble")
    area([113, 115, 125, 166, 174, 182, 203],
         ["Mausoleum", "Building Cluster", "Temple", "Storage Tank", "Cellar",
          "Gutted Stone Building", "MultipleWooden"], "building", "as a single-story building")
    area([163, 164, 165, 167, 168, 169, 183, 184, 185, 186],
         ["Tower Obstacle", "Tower, 2 Level Obstacle", "Tower, 3 Level Obstacle",
          "Storage Tank, 2 Level", "BFP Tower, 1 Level", "BFP Tower, 2 Level"] +
         [f"Gutted Stone Building, {n} Level" for n in (1, 2, 3, 4)], "building",
         "as a building of as many levels", upper=[0, 1, 2, 1, 1, 2, 1, 2, 3, 4])
    area([114, 131], ["Bedouin Camp", "Collapsed Huts"], "huts", "a hindrance, like huts")
    area([118, 129, 175], ["Olive Grove", "Palm Trees", "Light Woods"], "orchard",
         "VASL gives it an orchard's LOS (a hindrance between ground-level ends, "
         "a one-level obstacle otherwise)")
    area([119, 160, 161, 162, 170, 171, 180, 181, 204],
         ["Vineyard", "Tower Hindrance", "Tower, 2 Level Hindrance", "Tower, 3 Level Hindrance",
          "Roofless Stone Factory, 1.5 Level", "Roofless Stone Factory, 2.5 Level",
          "Gutted Stone Factory, 1.5 Level", "Gutted Stone Factory, 2.5 Level", "Monument"],
         "brush", "a hindrance, like brush")
    area([126], ["Light Jungle"], "light_jungle")
    area([127], ["Dense Jungle"], "dense_jungle")
    area([128], ["Bamboo"], "bamboo")
    area([130], ["Huts"], "huts")
    area([132], ["Kunai"], "kunai")
    area([133], ["Swamp"], "swamp")
    area([135, 136, 137], ["Rice Paddy, Drained", "Rice Paddy, Irrigated",
                           "Rice Paddy, In Season"], "open", no_los + " (VASL)")
    area([140, 141, 142], ["Ocean", "Shallow Ocean", "Effluent"], "water", "as water")
    kind([65, 66, 67, 68, 69, 70, 112, 138, 153, 154, 155, 156, 202],
         ["Dirt Road", "Paved Road", "Elevated Road", "Sunken Road", "Runway", "Path", "Track",
          "Rice Paddy Bank", "Railroad, Ground Level", "Railroad, Embankment",
          "Railroad, Elevated", "Railroad, Sunken", "Crest"], "minor")
    kind([72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 45, 46, 55, 56, 172, 173, 199, 103, 109, 110,
          116, 152, 157, 200],
         ["Wall", "Hedge", "Bocage", "Cliff", "Rowhouse Wall"] +
         [f"Rowhouse Wall, {n} Level" for n in (1, 2, 3, 4)] +
         ["Road Block", "Stone Factory Wall, 1.5 Level", "Stone Factory Wall, 2.5 Level",
          "Wooden Factory Wall, 1.5 Level", "Wooden Factory Wall, 2.5 Level",
          "Interior Factory Wall, 1 Level", "Interior Factory Wall, 2 Level",
          "Wooden Factory Wall, 1 Level", "Dier Lip", "Dune, Crest Low", "Dune, Crest High",
          "Cactus Hedge", "Railway Embankment", "Rrembankment", "PartialOrchard"], "hexside")
    kind(range(82, 88), ["Single Hex Stone Bridge", "Single Hex Wooden Bridge", "Stone Bridge",
                         "Wooden Bridge", "Pontoon Bridge", "Foot Bridge"], "bridge")
    return t


VASL_TERRAIN: dict[int, VaslTerrain] = _table()

# hexside terrain imported as ours (RULES.md 7): VASL code -> our hexside terrain name
HEXSIDE_IMPORT = {72: "wall", 73: "hedge", 74: "bocage", 75: "cliff", 76: "rowhouse_wall",
                  77: "rowhouse_wall", 78: "rowhouse_wall", 79: "rowhouse_wall",
                  80: "rowhouse_wall", 116: "cactus_hedge"}
SIDE_PIXELS = 0.5          # of a hexside's length in pixels: what it takes to put terrain on it

# what each hexside feature is called in the report
_HEXSIDE_GROUPS = {
    "walls": (72,), "hedges": (73,), "bocage": (74,), "cliffs": (75,),
    "rowhouse walls": (76, 77, 78, 79, 80), "road blocks": (81,),
    "factory walls": (45, 46, 55, 56, 172, 173, 199), "dier lips": (103,),
    "dune crests": (109, 110), "cactus hedges": (116,),
    "railway embankments": (152, 157), "partial orchards": (200,),
}

_VOTES = np.zeros(256, dtype=bool)
_INHERENT = np.zeros(256, dtype=bool)
_BUILDING = np.zeros(256, dtype=bool)
for _code, _t in VASL_TERRAIN.items():
    _VOTES[_code] = _t.kind == "area"
    _INHERENT[_code] = _t.inherent
    _BUILDING[_code] = _t.kind == "area" and _t.terrain == "building"


# ------------------------------------------------------------------------------ reading
@dataclass(frozen=True)
class LosData:
    """The decoded ``LOSData``: size in hexes, and the pixel grids indexed [x, y]."""
    width: int
    height: int
    elevation: np.ndarray       # int8
    terrain: np.ndarray         # uint8

    @property
    def grid_size(self) -> tuple[int, int]:
        return self.terrain.shape


def gunzip(raw: bytes, progress=None) -> bytes:
    """The decompressed ``LOSData`` (ScenarioError without file: the caller adds it), at most
    ``MAX_STREAM_BYTES``; decompressed a chunk at a time, ``progress(fraction)`` after each."""
    if raw[:2] != GZIP_MAGIC:
        raise ScenarioError(f"not gzip-compressed (bad magic {raw[:2].hex(' ') or 'none'}; "
                            f"expected 1f 8b)", place=LOS_DATA)
    d = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    out = bytearray()
    try:
        for at in range(0, len(raw), CHUNK):
            out += d.decompress(raw[at:at + CHUNK], MAX_STREAM_BYTES + 1 - len(out))
            if len(out) > MAX_STREAM_BYTES or d.eof:
                break
            if progress is not None:
                progress(min(1.0, (at + CHUNK) / len(raw)))
    except zlib.error as e:
        raise ScenarioError(f"damaged compressed data ({e})", place=LOS_DATA) from None
    if len(out) > MAX_STREAM_BYTES:
        raise ScenarioError(f"larger than {MAX_STREAM_BYTES} bytes once decompressed",
                            place=LOS_DATA)
    if not d.eof:
        raise ScenarioError(f"truncated after {len(out)} bytes (the compressed data ends "
                            "early)", place=LOS_DATA)
    return out


def block_data(stream: bytes) -> bytes:
    """The payload of a Java object stream that holds only block-data records."""
    if stream[:4] != JAVA_MAGIC:
        raise ScenarioError(f"not a Java object stream (bad magic {stream[:4].hex(' ') or 'none'};"
                            f" expected ac ed 00 05)", place=LOS_DATA)
    view = memoryview(stream)
    out = bytearray()
    got = 0
    blocks = 0
    pos, n = 4, len(stream)
    while pos < n:
        blocks += 1
        if blocks > MAX_BLOCKS:      # Java writes a block per 1024 bytes: this is no VASL stream
            raise ScenarioError(f"more than {MAX_BLOCKS} data blocks", place=LOS_DATA)
        tag = stream[pos]
        if tag == TC_BLOCKDATA and pos + 2 <= n:
            length, start = stream[pos + 1], pos + 2
        elif tag == TC_BLOCKDATALONG and pos + 5 <= n:
            length = int.from_bytes(stream[pos + 1:pos + 5], "big", signed=True)
            start = pos + 5
            if length < 0:
                raise ScenarioError(f"a block at byte {pos} has a negative length {length}",
                                    place=LOS_DATA)
        elif tag in (TC_BLOCKDATA, TC_BLOCKDATALONG):
            raise ScenarioError(f"truncated after {got} bytes (in a block header)",
                                place=LOS_DATA)
        else:
            raise ScenarioError(f"unexpected Java record 0x{tag:02x} at byte {pos} "
                                "(only block data is expected)", place=LOS_DATA)
        end = start + length
        if end > n:
            raise ScenarioError(f"truncated after {got + n - start} bytes (a block of "
                                f"{length} bytes is cut short)", place=LOS_DATA)
        out += view[start:end]
        got += length
        pos = end
    return bytes(out)


def parse_payload(payload: bytes) -> LosData:
    if len(payload) < 16:
        raise ScenarioError(f"truncated after {len(payload)} bytes (the header has 16)",
                            place=LOS_DATA)
    width, height, gw, gh = struct.unpack(">iiii", payload[:16])
    if not (1 <= width <= 100 and 1 <= height <= 100 and 1 <= gw <= 100_000
            and 1 <= gh <= 100_000 and gw * gh <= MAX_GRID_PIXELS):
        raise ScenarioError(f"implausible sizes: {width} x {height} hexes, {gw} x {gh} pixels",
                            place=LOS_DATA)
    cells = gw * gh
    stairways = sum(height + col % 2 for col in range(width))
    expected = 16 + 2 * cells + stairways
    if len(payload) < expected:
        raise ScenarioError(f"truncated after {len(payload)} of {expected} bytes",
                            place=LOS_DATA)
    if len(payload) > expected:
        raise ScenarioError(f"{len(payload) - expected} unexpected bytes after the data "
                            f"({expected} expected)", place=LOS_DATA)
    grid = np.frombuffer(payload, dtype=np.uint8, count=2 * cells, offset=16).reshape(gw, gh, 2)
    return LosData(width, height, grid[:, :, 0].view(np.int8), grid[:, :, 1])


def read_los_data(raw: bytes, progress=None) -> LosData:
    """Decode the bytes of a ``LOSData`` entry."""
    return parse_payload(block_data(gunzip(raw, progress)))


def _entry(archive: zipfile.ZipFile, name: str) -> zipfile.ZipInfo | None:
    infos = archive.infolist()
    for info in infos:
        if info.filename == name:
            return info
    for info in infos:      # an archive zipped with a folder around its files
        if info.filename.rsplit("/", 1)[-1] == name and not info.is_dir():
            return info
    return None


def _read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    if info.file_size > limit:
        raise ScenarioError(f"too large ({info.file_size} bytes; the limit is {limit})",
                            place=info.filename)
    if info.flag_bits & 0x1:
        raise ScenarioError("is encrypted: VASL's boards are not", place=info.filename)
    try:
        with archive.open(info) as f:
            data = f.read(limit + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError,
            RuntimeError, ValueError, OverflowError) as e:
        raise ScenarioError(f"cannot be read from the archive ({e})", place=info.filename) from None
    if len(data) > limit:
        raise ScenarioError(f"too large (more than {limit} bytes)", place=info.filename)
    return data


def read_metadata(raw: bytes) -> dict[str, str]:
    """The attributes of ``BoardMetadata.xml``'s root element."""
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise ScenarioError("document type declarations are not accepted", place=METADATA)
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise ScenarioError(f"not well-formed XML ({e})", place=METADATA) from None
    if root.tag != "boardMetadata":
        raise ScenarioError(f"the root element is <{root.tag}>, not <boardMetadata>",
                            place=METADATA)
    return dict(root.attrib)


def _number(meta: dict, key: str, kind=float):
    text = meta.get(key)
    if text is None or not text.strip():
        return None
    try:
        value = kind(text.strip())
    except (ValueError, OverflowError):
        raise ScenarioError(f"{key}={shown(text)} is not a number", place=METADATA) from None
    if not math.isfinite(value):
        raise ScenarioError(f"{key}={shown(text)} is not a finite number", place=METADATA)
    return value


def _geometry(meta: dict) -> Geometry:
    given = {k: _number(meta, k) for k in ("A1CenterX", "A1CenterY", "hexWidth", "hexHeight")}
    for key in ("hexHeight", "hexWidth"):
        v = given[key]
        if v is not None and not MIN_HEX_PIXELS <= v <= MAX_HEX_PIXELS:
            raise ScenarioError(f"{key}={v:g} pixels: a hex is {MIN_HEX_PIXELS:g} to "
                                f"{MAX_HEX_PIXELS:g} pixels across", place=METADATA)
    for key in ("A1CenterX", "A1CenterY"):
        v = given[key]
        if v is not None and abs(v) > 100_000:
            raise ScenarioError(f"{key}={v:g} lies far outside any board", place=METADATA)
    return Geometry(
        GEO.a1_x if given["A1CenterX"] is None else given["A1CenterX"],
        GEO.a1_y if given["A1CenterY"] is None else given["A1CenterY"],
        GEO.hex_width if given["hexWidth"] is None else given["hexWidth"],
        GEO.hex_height if given["hexHeight"] is None else given["hexHeight"])


@dataclass(frozen=True)
class VaslArchive:
    """What a board archive holds that we use."""
    file: str
    name: str               # VASL's board name (metadata), e.g. "02"
    version: str
    geometry: Geometry
    standard: bool          # no geometry in the metadata: a standard geomorphic board
    los: LosData
    notes: tuple = ()


def read_archive(path: str | Path, progress=None) -> VaslArchive:
    """Open and decode a VASL board archive; ScenarioError naming the file on any problem.
    ``progress(fraction)`` is called as the LOS data is decompressed (it may raise
    ImportCancelled to stop)."""
    path = Path(path)
    try:
        return _read_archive(path, progress)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None


@contextmanager
def open_archive(path: Path):
    """The board archive at ``path`` as an open ZIP file, both kinds alike: a regular file (no
    FIFO or device: a read would never end) of at most ``MAX_ARCHIVE_BYTES``."""
    fd, st = open_regular(path, "")
    if st.st_size > MAX_ARCHIVE_BYTES:
        os.close(fd)
        raise ScenarioError(f"too large for a VASL board ({st.st_size} bytes; the limit is "
                            f"{MAX_ARCHIVE_BYTES})")
    with os.fdopen(fd, "rb") as handle:
        try:
            archive = zipfile.ZipFile(handle)
        except (zipfile.BadZipFile, EOFError, ValueError, OverflowError):
            raise ScenarioError("not a VASL board archive (not a ZIP file, or truncated)") from None
        except OSError as e:
            raise ScenarioError(f"cannot read: {e.strerror or e}") from None
        with archive:
            yield archive


def _read_archive(path: Path, progress=None) -> VaslArchive:
    with open_archive(path) as archive:
        return _read_entries(path, archive, progress)


def _read_entries(path: Path, archive: zipfile.ZipFile, progress) -> VaslArchive:
    los_info = _entry(archive, LOS_DATA)
    if los_info is None:
        raise ScenarioError("the archive has no LOSData: VASL has no LOS data for this "
                            "board (an old board version?)")
    meta_info = _entry(archive, METADATA)
    meta = {} if meta_info is None else read_metadata(
        _read_entry(archive, meta_info, MAX_METADATA_BYTES))
    _geometry(meta)                     # bad geometry is refused before the LOS data is read
    los = read_los_data(_read_entry(archive, los_info, MAX_ENTRY_BYTES), progress)
    notes = []
    if meta_info is None:
        notes.append(f"no {METADATA} in the archive: read as a standard geomorphic board")
    for key in ("altHexGrain",):
        if meta.get(key, "").strip().lower() in ("true", "yes", "on", "1"):
            raise ScenarioError(f"{key}: boards whose hex grain runs the other way cannot be "
                                "imported", place=METADATA)
    config = meta.get("HexGridConfig", "").strip()
    if config and config != "Normal":
        raise ScenarioError(f"HexGridConfig {config!r}: only the normal geomorphic hex grid can "
                            "be imported", place=METADATA)
    geometry = _geometry(meta)
    standard = geometry == GEO and not any(
        k in meta for k in ("A1CenterX", "A1CenterY", "hexWidth", "hexHeight"))
    _check_sizes(meta, los, geometry, standard)
    name = meta.get("name", "").strip() or path.name
    return VaslArchive(str(path), name, meta.get("version", "").strip(), geometry, standard, los,
                       tuple(notes))


def _check_sizes(meta: dict, los: LosData, geometry: Geometry, standard: bool) -> None:
    for key, got in (("width", los.width), ("height", los.height)):
        want = _number(meta, key, int)
        if want is not None and want != got:
            raise ScenarioError(f"LOSData is {los.width} x {los.height} hexes but the metadata "
                                f"says {key}={want}", place=LOS_DATA)
    if (los.width, los.height) != (BOARD_COLUMNS, BOARD_ROWS):
        raise ScenarioError(f"a {los.width} x {los.height} hex board cannot be imported: "
                            f"Starshell boards are geomorphic, {BOARD_COLUMNS} x {BOARD_ROWS} "
                            "hexes", place=LOS_DATA)
    gw, gh = los.grid_size
    if standard:
        # VASL's Map(width, height): gridWidth = (int) ((width - 1) * 56.25), gridHeight likewise
        want = (int((los.width - 1) * GEO.hex_width), int(los.height * GEO.hex_height))
        if (gw, gh) != want:
            raise ScenarioError(f"the grid is {gw} x {gh} pixels, but a standard "
                                f"{los.width} x {los.height} hex board has {want[0]} x {want[1]}",
                                place=LOS_DATA)
    else:
        cols, rows = _hex_arrays()
        x, y = geometry.centres(cols, rows)
        if x.min() < -1 or y.min() < -1 or x.max() > gw + 1 or y.max() > gh + 1:
            raise ScenarioError(f"the hex centres of the metadata's geometry fall outside the "
                                f"{gw} x {gh} pixel grid", place=METADATA)


# ---------------------------------------------------------------------------- converting
def _hex_arrays() -> tuple[np.ndarray, np.ndarray]:
    hexes = board_hexes()
    return (np.array([c for c, _ in hexes], dtype=np.int64),
            np.array([n for _, n in hexes], dtype=np.int64))


def hex_of_pixels(geometry: Geometry, xs: np.ndarray, ys: np.ndarray):
    """Our (column, printed row) of the hexes containing pixels (x, y), as two arrays.

    VASL's hexagon has corners at +-2/3 of the column spacing and +-half the hex height; scaled
    to a regular hexagon, the nearest centre is the hex that contains the point."""
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys, dtype=float)
    side = geometry.hex_width * 2 / 3
    half = geometry.hex_height / 2
    best_d = np.full(xs.shape, np.inf)
    best_c = np.zeros(xs.shape, dtype=np.int64)
    best_n = np.zeros(xs.shape, dtype=np.int64)
    c0 = np.floor((xs - geometry.a1_x) / geometry.hex_width).astype(np.int64)
    for dc in (0, 1):
        c = np.clip(c0 + dc, 0, BOARD_COLUMNS - 1)
        odd = c % 2
        vrow = np.rint((ys - geometry.a1_y + half * odd) / geometry.hex_height).astype(np.int64)
        n = np.clip(vrow + 1 - odd, 1 - odd, BOARD_ROWS)
        cx, cy = geometry.centres(c, n)
        d = ((xs - cx) / side) ** 2 + ((ys - cy) / half * SQRT3 / 2) ** 2
        closer = d < best_d
        best_d = np.where(closer, d, best_d)
        best_c = np.where(closer, c, best_c)
        best_n = np.where(closer, n, best_n)
    return best_c, best_n


def _hex_name(board_id: str, col: int, row: int) -> str:
    return f"{board_id}{COLUMN_NAMES[col]}{row}"


def _building_runs(is_building: np.ndarray):
    """4-connected components of building pixels, as vertical runs: (starts, ends, label) with
    starts/ends flat indices into the grid padded by one empty pixel at the bottom of each
    column (so runs never join across columns), ends exclusive."""
    gw, gh = is_building.shape
    stride = gh + 1
    padded = np.zeros((gw, stride), dtype=np.int8)
    padded[:, :gh] = is_building
    edges = np.diff(padded.ravel(), prepend=np.int8(0))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    if len(ends) < len(starts):         # the last column's padding closes every run, but be safe
        ends = np.append(ends, padded.size)
    # runs of the next column that overlap each run: [lo, hi) in run order
    lo = np.searchsorted(ends, starts + stride, side="right")
    hi = np.searchsorted(starts, ends + stride, side="left")
    count = np.maximum(hi - lo, 0)
    a = np.repeat(np.arange(len(starts)), count)
    b = np.repeat(lo, count) + (np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count))
    parent = np.arange(len(starts))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(a.tolist(), b.tolist()):
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    label = np.array([find(i) for i in range(len(starts))], dtype=np.int64)
    return starts, ends, label, stride


def convert(archive: VaslArchive, board_id: str) -> tuple[Board, list[str]]:
    """The Starshell board of a decoded archive, and the report of what was not (exactly)
    imported.  ScenarioError (without the file) for terrain codes VASL does not define."""
    los, geo = archive.los, archive.geometry
    gw, gh = los.grid_size
    counts = np.bincount(los.terrain.ravel(), minlength=256)
    unknown = [c for c in np.flatnonzero(counts) if int(c) not in VASL_TERRAIN]
    if unknown:
        first = int(np.flatnonzero(los.terrain.ravel() == unknown[0])[0])
        x, y = divmod(first, gh)
        raise ScenarioError(f"unknown terrain code {int(unknown[0])} (first at pixel x={x}, "
                            f"y={y}; {int(counts[unknown[0]])} pixels)"
                            + (f"; other unknown codes: {', '.join(map(str, unknown[1:]))}"
                               if len(unknown) > 1 else ""), place=LOS_DATA)

    cols, rows = _hex_arrays()
    n_hex = len(cols)
    fx, fy = geo.centres(cols, rows)
    cx = np.clip(fx.astype(np.int64), 0, gw - 1)      # VASL truncates; edge centres are clamped
    cy = np.clip(fy.astype(np.int64), 0, gh - 1)
    # VASL's centre sample point (Hex.resetTerrain): the first of these on the map
    order = np.array([(1, -1), (1, 1), (-1, 1), (-1, -1), (0, 0)])
    px = cx[:, None] + order[:, 0]
    py = cy[:, None] + order[:, 1]
    on = (px >= 0) & (px < gw) & (py >= 0) & (py < gh)
    first = np.argmax(on, axis=1)
    sx, sy = px[np.arange(n_hex), first], py[np.arange(n_hex), first]
    centre_code = los.terrain[sx, sy]
    level = los.elevation[sx, sy].astype(np.int64)

    # the centre region: a disc of pixels around (cx, cy); inherent terrain is looked for in a
    # slightly larger one (VASL: pixels nearer the centre than any hexside location point)
    r = max(2, int(round(DISC_RADIUS * geo.hex_height)))
    r_in = max(r, int(round(INHERENT_RADIUS * geo.hex_height)))
    dx, dy = np.mgrid[-r_in:r_in + 1, -r_in:r_in + 1]
    keep = dx ** 2 + dy ** 2 <= r_in * r_in
    dx, dy = dx[keep], dy[keep]
    near = dx ** 2 + dy ** 2 <= r * r
    X = cx[:, None] + dx
    Y = cy[:, None] + dy
    inside = (X >= 0) & (X < gw) & (Y >= 0) & (Y < gh)
    Xc, Yc = np.clip(X, 0, gw - 1), np.clip(Y, 0, gh - 1)
    codes = np.where(inside, los.terrain[Xc, Yc], 256).astype(np.int64)
    rows_257 = np.arange(n_hex)[:, None] * 257

    def tally(which: np.ndarray) -> np.ndarray:
        c = np.where(which, codes, 256)
        return np.bincount((rows_257 + c).ravel(),
                           minlength=n_hex * 257).reshape(n_hex, 257)[:, :256]

    votes = tally(near & _VOTES[np.minimum(codes, 255)])
    code = np.where(votes.max(axis=1) > 0, votes.argmax(axis=1), 0)
    code = np.where(_BUILDING[centre_code], centre_code, code)
    inherent = tally(inside & _INHERENT[np.minimum(codes, 255)])
    code = np.where(inherent.max(axis=1) > 0, inherent.argmax(axis=1), code)

    steep = np.flatnonzero(np.abs(level) > MAX_LEVEL)
    if len(steep):
        i = int(steep[0])
        raise ScenarioError(f"{_hex_name(board_id, int(cols[i]), int(rows[i]))} is at level "
                            f"{int(level[i])}: a board's levels run from {-MAX_LEVEL} to "
                            f"{MAX_LEVEL}", place=LOS_DATA)
    groups = _building_groups(los, code, Xc, Yc, inside, sx, sy, cols, rows)

    hexes: dict = {}
    default = HexTerrain("open", 0)
    approximated: dict[int, list[int]] = {}
    for i in range(n_hex):
        vt = VASL_TERRAIN[int(code[i])]
        if vt.note:
            approximated.setdefault(int(code[i]), []).append(i)
        building = groups.get(i) if vt.terrain == "building" else None
        spec = HexTerrain(vt.terrain, int(level[i]), building,
                          vt.upper_levels if vt.terrain == "building" else 0)
        if spec != default:
            hexes[(int(cols[i]), int(rows[i]))] = spec

    report = list(archive.notes)
    for c, members in sorted(approximated.items()):
        vt = VASL_TERRAIN[c]
        what = "a building" if vt.terrain == "building" else repr(vt.terrain)
        if vt.terrain == "building":
            what += f" with {vt.upper_levels} upper level{'s' if vt.upper_levels != 1 else ''}"
        report.append(f"{len(members)} hex{'es' if len(members) != 1 else ''} of VASL "
                      f"'{vt.name}' (code {c}) imported as {what}: {vt.note} "
                      f"({_list_hexes(board_id, cols[members], rows[members])})")
    sides, side_report = _import_hexsides(los, geo, counts, board_id)
    report += side_report
    report += _feature_report(los, geo, counts, board_id)
    extra = {"imported_from": {"format": "vasl", "file": Path(archive.file).name,
                               "name": archive.name, "version": archive.version},
             "import_report": report}
    title = f"VASL board {archive.name}" + (f" (version {archive.version})"
                                            if archive.version else "")
    return Board(board_id, title, default, hexes, extra, hexsides=sides), report


def _import_hexsides(los: LosData, geo: Geometry, counts, board_id: str
                     ) -> tuple[dict, list[str]]:
    """Hexside terrain (RULES.md 7) from the pixels of codes ``HEXSIDE_IMPORT``: each pixel votes
    for the side of its hex it lies nearest; ({(col, row, direction): name}, report lines)."""
    present = [c for c in HEXSIDE_IMPORT if counts[c]]
    if not present:
        return {}, []
    flat = los.terrain.ravel()
    gh = los.grid_size[1]
    where = np.flatnonzero(np.isin(flat, present))
    x, y = np.divmod(where, gh)
    c, n = hex_of_pixels(geo, x, y)
    hx, hy = geo.centres(c, n)
    # the hex scaled regular (circumradius 1), then the side the pixel's angle points at
    u = (x - hx) / (geo.hex_width / 1.5)
    v = (y - hy) / (geo.hex_height / SQRT3)
    angle = np.degrees(np.arctan2(u, -v)) % 360             # 0: north, clockwise (y down)
    side = ((angle + 30) % 360 // 60).astype(np.int64)       # 0..5: direction 1..6 less one
    names = sorted(set(HEXSIDE_IMPORT.values()))
    kind = np.array([names.index(HEXSIDE_IMPORT[int(t)]) for t in flat[where]], dtype=np.int64)
    votes: dict = {}
    for col, row, d, k in zip(c.tolist(), n.tolist(), side.tolist(), kind.tolist()):
        key = hexside_key(col, row, d + 1)
        tally = votes.setdefault(key, {})
        tally[k] = tally.get(k, 0) + 1
    need = max(FEATURE_PIXELS, SIDE_PIXELS * geo.hex_width * 2 / 3)
    sides: dict = {}
    for key, tally in votes.items():
        k, pixels = max(tally.items(), key=lambda kv: (kv[1], -kv[0]))
        if pixels >= need:
            sides[key] = names[k]
    report = []
    for name in names:
        keys = sorted(k for k, v in sides.items() if v == name)
        if keys:
            listed = ", ".join(f"{board_id}{COLUMN_NAMES[c]}{r}/{d}" for c, r, d in keys[:8])
            more = f" and {len(keys) - 8} more" if len(keys) > 8 else ""
            report.append(f"{len(keys)} hexside{'s' if len(keys) != 1 else ''} of "
                          f"{name.replace('_', ' ')} imported ({listed}{more}) (RULES.md 7)")
    return sides, report


def _building_groups(los: LosData, code, Xc, Yc, inside, sx, sy, cols, rows) -> dict[int, str]:
    """Hex index -> building group name, for the hexes of multi-hex buildings."""
    is_bldg = np.flatnonzero(_BUILDING[code])
    if len(is_bldg) < 2:
        return {}
    starts, ends, label, stride = _building_runs(_BUILDING[los.terrain])

    def component(x, y):
        flat = np.asarray(x) * stride + np.asarray(y)
        run = np.searchsorted(starts, flat, side="right") - 1
        ok = (run >= 0) & (flat < ends[np.maximum(run, 0)])
        return np.where(ok, label[np.maximum(run, 0)], -1)

    comp_of: dict[int, int] = {}
    for i in is_bldg.tolist():
        at_centre = int(component(sx[i], sy[i]))
        if at_centre < 0:               # the building is in the centre region, not at its point
            found = component(Xc[i][inside[i]], Yc[i][inside[i]])
            found = found[found >= 0]
            if not len(found):
                continue
            values, n = np.unique(found, return_counts=True)
            at_centre = int(values[np.argmax(n)])
        comp_of[i] = at_centre
    return named_groups(comp_of, cols, rows)


def named_groups(comp_of: dict[int, int], cols, rows) -> dict[int, str]:
    """Hex index -> its building's group name, for the buildings found in two or more hexes
    (``comp_of``: hex index -> the building it stands in); a group is named after its first hex
    (leftmost column, then top row)."""
    members: dict[int, list[int]] = {}
    for i, comp in comp_of.items():
        members.setdefault(comp, []).append(i)
    groups: dict[int, str] = {}
    for hexes in members.values():
        if len(hexes) < 2:
            continue
        first = min(hexes, key=lambda i: (cols[i], rows[i]))
        name = f"{column_name(int(cols[first]))}{int(rows[first])}"
        for i in hexes:
            groups[i] = name
    return groups


def _list_hexes(board_id: str, cols, rows, limit: int = 8) -> str:
    names = [_hex_name(board_id, int(c), int(n)) for c, n in sorted(zip(cols, rows))]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _feature_report(los: LosData, geo: Geometry, counts, board_id: str) -> list[str]:
    """Hexside terrain and bridges: where they are, and that they are not imported."""
    out = []
    groups = [(label, codes) for label, codes in _HEXSIDE_GROUPS.items()
              if not set(codes) <= set(HEXSIDE_IMPORT)] + [("bridges", tuple(range(82, 88)))]
    flat = los.terrain.ravel()
    gh = los.grid_size[1]
    for label, codes in groups:
        present = [c for c in codes if counts[c]]
        if not present:
            continue
        where = np.flatnonzero(np.isin(flat, present))
        x, y = np.divmod(where, gh)
        c, n = hex_of_pixels(geo, x, y)
        keys, pixels = np.unique(c * 100 + n, return_counts=True)
        # a feature's end may spill a few pixels over a hex corner into a third hex
        keys = keys[pixels >= min(FEATURE_PIXELS, pixels.max())]
        hexes = sorted(zip((keys // 100).tolist(), (keys % 100).tolist()))
        hc = [h[0] for h in hexes]
        hn = [h[1] for h in hexes]
        why = ("bridges are a follow-up" if label == "bridges"
               else "this hexside terrain has no Starshell counterpart yet")
        out.append(f"{label} (VASL code{'s' if len(present) > 1 else ''} "
                   f"{', '.join(map(str, present))}) not imported, in {len(hexes)} hex"
                   f"{'es' if len(hexes) != 1 else ''} ({_list_hexes(board_id, hc, hn)}): "
                   f"{why}")
    return out


# --------------------------------------------------------------------------- front door
_BOARD_FILE_RE = re.compile(r"^bd(.+)$")


def board_id_from_filename(name: str) -> str:
    """``bd02`` -> ``"2"``, ``bd34`` -> ``"34"``, ``bdRO`` -> ``"ro"``, ``bd10a`` -> ``"bd10a"``:
    a valid board id ([0-9]+ or a lower-case letter, then letters and digits)."""
    stem = Path(name).name
    if "." in stem:
        stem = stem.rsplit(".", 1)[0]
    stem = re.sub(r"[^a-z0-9]", "", stem.lower())
    m = _BOARD_FILE_RE.match(stem)
    rest = m.group(1) if m else stem
    if rest.isdigit():
        return str(int(rest))
    if BOARD_ID_RE.match(rest):
        return rest
    if BOARD_ID_RE.match(stem):
        return stem
    return "vasl" + stem if stem else "vasl"


def import_board(path: str | Path, board_id: str | None = None,
                 progress=None) -> tuple[Board, list[str]]:
    """Read a VASL board archive and convert it: (Board, report).  The board id is ``board_id``
    or derived from the file name (``bd02`` -> ``"2"``).  Raises ScenarioError naming the file.
    ``progress(fraction)``, when given, is called as the work goes on; it may raise
    ImportCancelled to stop the import."""
    path = Path(path)
    if board_id is None:
        board_id = board_id_from_filename(path.name)
    elif not isinstance(board_id, str) or not BOARD_ID_RE.match(board_id):
        raise ScenarioError(f"board id {board_id!r} must be digits, or a lower-case letter "
                            "followed by lower-case letters and digits", file=str(path),
                            place="--id")
    report = progress if progress is not None else (lambda fraction: None)
    from ..boards import with_raster
    from ..raster_file import RASTER_SUFFIX
    from . import vasl5, vasl_raster  # the older kind: a board image and its colours
    if vasl5.is_vasl5(path):
        report(0.1)
        board, notes = vasl5.import_board(path, board_id)
        report(0.8)
        board = with_raster(board, vasl_raster.import_raster(path),   # the terrain as drawn
                            path.name + RASTER_SUFFIX)
        report(1.0)
        return board, notes
    archive = read_archive(path, lambda fraction: report(0.8 * fraction))
    report(0.8)
    try:
        board, notes = convert(archive, board_id)
        board = with_raster(board, vasl_raster.raster_from_los(archive.los, archive.geometry,
                                                               board.size),
                            path.name + RASTER_SUFFIX)
        report(1.0)
        return board, notes
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
