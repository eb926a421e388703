"""Synthetic VASL board files, written the way VASL writes them (we never ship VASL's boards).

``BoardArchive.writeLOSData``: a ZIP without extension holding ``BoardMetadata.xml``, the board
image and ``LOSData``: gzip around a Java ``ObjectOutputStream`` (header ``AC ED 00 05``) that
received writeInt(width, height, gridWidth, gridHeight), then for x, for y: writeByte(elevation),
writeByte(terrain code), then one stairway byte per hex.  Java's block-data mode buffers 1024
bytes and flushes each full buffer as a ``0x7A`` record (4-byte length); the last, shorter block
is ``0x77`` (1-byte length) when it holds at most 255 bytes, else ``0x7A``.

``SynthBoard`` draws terrain and hills into the pixel grids (hexagons in VASL's geometry, thick
segments, rectangles) and records what each hex is meant to be, for an exact comparison.
"""
from __future__ import annotations

import gzip
import math
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.boards import HexTerrain
from engine.hexes import BOARD_COLUMNS, BOARD_ROWS, column_name, parse_local

GRID_W, GRID_H = 1800, 645            # a standard geomorphic board (BoardArchive.GEO_*)
HEX_W, HEX_H = 1800 / 32, 645 / 10    # 56.25 x 64.5
A1_X, A1_Y = 0.0, HEX_H / 2
JAVA_MAGIC = b"\xac\xed\x00\x05"
BLOCK = 1024                          # java.io.ObjectOutputStream.BlockDataOutputStream

# VASL terrain codes (SharedBoardMetadata.xml)
OPEN, PLOWED, WATER, MARSH, SHELLHOLES = 0, 1, 8, 14, 15
GRAIN, BRUSH, GULLY, SHALLOW_STREAM = 24, 25, 30, 32
STONE, STONE_1, STONE_2, STONE_3, STONE_4 = 40, 41, 42, 43, 44
WOODEN, WOODEN_1, WOODEN_2, WOODEN_3, WOODEN_4 = 50, 51, 52, 53, 54
WOODS, FOREST, PINE, ORCHARD = 60, 61, 62, 63
DIRT_ROAD, PAVED_ROAD = 65, 66
WALL, HEDGE, BOCAGE, CLIFF, ROWHOUSE_WALL = 72, 73, 74, 75, 76
STONE_RUBBLE = 90
LIGHT_JUNGLE, DENSE_JUNGLE, BAMBOO, PALM_TREES, HUTS, KUNAI, SWAMP = 126, 127, 128, 129, 130, \
    132, 133


@dataclass(frozen=True)
class Kind:
    """A kind of VASL board (rules.md 11.6): hexes, pixel grid, A1's centre, hex size, and the
    metadata's geometry attributes (none: a standard geomorphic board)."""
    size: tuple[int, int] = (BOARD_COLUMNS, BOARD_ROWS)
    grid: tuple[int, int] = (GRID_W, GRID_H)
    a1: tuple[float, float] = (A1_X, A1_Y)
    hex_w: float = HEX_W
    hex_h: float = HEX_H
    attrs: tuple = ()

    def centre(self, hex_id: str) -> tuple[float, float]:
        col, row = parse_local(hex_id, self.size)
        odd = col % 2
        return (self.a1[0] + self.hex_w * col,
                self.a1[1] + self.hex_h * (row - 1 + odd) - self.hex_h / 2 * odd)


GEOMORPHIC = Kind()
# half boards: 17 x 20 hexes of 56.3125 x 64.5 on a 901 x 1290 picture; a "b" half says
# A1CenterX="-901" (VASL puts its A1 at x = 0); Deluxe: 15 x 5 hexes of 168.79 x 194.2
HALF_A = Kind((17, 20), (901, 1290), (0.0, 32.25), 56.3125, 64.5,
              (("hexWidth", "56.3125"), ("hexHeight", "64.5")))
HALF_B = Kind((17, 20), (901, 1290), (0.0, 32.25), 56.3125, 64.5,
              (("hexWidth", "56.3125"), ("hexHeight", "64.5"), ("A1CenterX", "-901"),
               ("A1CenterY", "32.25")))
DELUXE = Kind((15, 5), (2363, 971), (0.0, 97.1), 168.7857142857, 194.2,
              (("hexWidth", "168.7857142857"), ("hexHeight", "194.2"), ("A1CenterX", "0"),
               ("A1CenterY", "97.1"), ("snapScale", "2")))


def centre(hex_id: str) -> tuple[float, float]:
    """VASL's pixel centre of a hex: ``"A1"`` -> (0, 32.25), ``"B0"`` -> (56.25, 0)."""
    return GEOMORPHIC.centre(hex_id)


# ------------------------------------------------------------------------------- the format
def los_payload(elevation: np.ndarray, terrain: np.ndarray, width: int = BOARD_COLUMNS,
                height: int = BOARD_ROWS, stairways: np.ndarray | None = None) -> bytes:
    gw, gh = terrain.shape
    pairs = np.empty((gw, gh, 2), dtype=np.uint8)
    pairs[:, :, 0] = elevation.astype(np.int8).view(np.uint8)
    pairs[:, :, 1] = terrain
    n_stairs = sum(height + col % 2 for col in range(width))
    stairs = np.zeros(n_stairs, np.uint8) if stairways is None else stairways.astype(np.uint8)
    return struct.pack(">iiii", width, height, gw, gh) + pairs.tobytes() + stairs.tobytes()


def java_block_stream(payload: bytes, block: int = BLOCK) -> bytes:
    """The object stream Java writes for ``payload`` written in block-data mode."""
    out = [JAVA_MAGIC]
    for start in range(0, len(payload), block):
        chunk = payload[start:start + block]
        if len(chunk) <= 0xFF:
            out.append(bytes([0x77, len(chunk)]))
        else:
            out.append(b"\x7a" + struct.pack(">i", len(chunk)))
        out.append(chunk)
    return b"".join(out)


def los_data(payload: bytes, block: int = BLOCK) -> bytes:
    return gzip.compress(java_block_stream(payload, block), compresslevel=1, mtime=0)


def metadata_xml(name: str = "99", version: str = "1.0", width: int = BOARD_COLUMNS,
                 height: int = BOARD_ROWS, **attrs: str) -> bytes:
    more = "".join(f' {k}="{v}"' for k, v in attrs.items())
    return (f'<?xml version="1.0"?>\n<!-- synthetic board for Starshell tests -->\n'
            f'<boardMetadata name="{name}" version="{version}" versionDate="Jan 2025" '
            f'author="tests" boardImageFileName="bd{name}.gif" hasHills="TRUE" '
            f'width="{width}" height="{height}"{more}>\n'
            f'    <buildingTypes>\n    </buildingTypes>\n</boardMetadata>\n').encode()


GIF_1X1 = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00"
           b"\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")


def write_archive(path: str | Path, entries: dict[str, bytes]) -> Path:
    path = Path(path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return path


# ------------------------------------------------------------------------------- drawing
class SynthBoard:
    """Pixel grids of a standard board plus what each hex is meant to import as."""

    def __init__(self, name: str = "99", kind: Kind = GEOMORPHIC):
        self.name = name
        self.kind = kind
        self.centre = kind.centre
        self.terrain = np.zeros(kind.grid, dtype=np.uint8)
        self.elevation = np.zeros(kind.grid, dtype=np.int8)
        self.expected: dict[tuple[int, int], HexTerrain] = {}

    # what a hex should become
    def expect(self, hex_id: str, **changes) -> None:
        key = parse_local(hex_id, self.kind.size)
        old = self.expected.get(key, HexTerrain())
        fields = {"terrain": old.terrain, "level": old.level, "building": old.building,
                  "upper_levels": old.upper_levels, **changes}
        self.expected[key] = HexTerrain(**fields)

    def expected_at(self, col: int, row: int) -> HexTerrain:
        return self.expected.get((col, row), HexTerrain())

    # pixel masks
    def _box(self, x0, y0, x1, y1):
        gw, gh = self.kind.grid
        xs = slice(max(0, int(math.floor(x0))), min(gw, int(math.ceil(x1)) + 1))
        ys = slice(max(0, int(math.floor(y0))), min(gh, int(math.ceil(y1)) + 1))
        X, Y = np.mgrid[xs, ys]
        return xs, ys, X.astype(float), Y.astype(float)

    def hexagon(self, hex_id: str, scale: float = 1.0):
        """Pixels inside VASL's hexagon (corners at +-37.5 px across, +-32.25 px up and down),
        shrunk by ``scale`` about the centre."""
        x, y = self.centre(hex_id)
        s, v = self.kind.hex_w * 2 / 3 * scale, self.kind.hex_h / 2 * scale
        xs, ys, X, Y = self._box(x - s, y - v, x + s, y + v)
        dx, dy = np.abs(X - x), np.abs(Y - y)
        return xs, ys, (dy <= v) & (dx <= s * (1 - dy / (2 * v)))

    def segment(self, p0, p1, width: float):
        (x0, y0), (x1, y1) = p0, p1
        r = width / 2
        xs, ys, X, Y = self._box(min(x0, x1) - r, min(y0, y1) - r, max(x0, x1) + r,
                                 max(y0, y1) + r)
        vx, vy = x1 - x0, y1 - y0
        t = np.clip(((X - x0) * vx + (Y - y0) * vy) / max(vx * vx + vy * vy, 1e-9), 0, 1)
        return xs, ys, (X - x0 - t * vx) ** 2 + (Y - y0 - t * vy) ** 2 <= r * r

    def rect(self, cx: float, cy: float, width: float, height: float):
        xs, ys, X, Y = self._box(cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
        return xs, ys, (np.abs(X - cx) <= width / 2) & (np.abs(Y - cy) <= height / 2)

    def paint(self, region, code: int | None = None, level: int | None = None) -> None:
        xs, ys, mask = region
        if code is not None:
            self.terrain[xs, ys][mask] = code
        if level is not None:
            self.elevation[xs, ys][mask] = level

    # terrain in the game's words
    def area(self, hex_ids, code: int, terrain: str, scale: float = 0.85) -> None:
        """An area terrain (woods, grain...) covering most of each hex."""
        for h in _ids(hex_ids):
            self.paint(self.hexagon(h, scale), code)
            self.expect(h, terrain=terrain)

    def trees(self, hex_ids, code: int, terrain: str) -> None:
        """Inherent terrain drawn as VASL draws orchards: round trees on open ground, one of
        them a little off the centre."""
        for h in _ids(hex_ids):
            x, y = self.centre(h)
            for dx, dy in ((7, -9), (-22, -14), (20, 12), (-16, 18), (26, -2)):
                self.paint(self.segment((x + dx, y + dy), (x + dx, y + dy), 7), code)
            self.expect(h, terrain=terrain)

    def hill(self, hex_ids, level: int) -> None:
        """Ground level of whole hexes (contours along the hexsides)."""
        for h in _ids(hex_ids):
            self.paint(self.hexagon(h, 1.0), level=level)
            self.expect(h, level=level)

    def round_hill(self, hill_x: float, hill_y: float, radius: float, level: int) -> None:
        """A hill whose contour is a circle, crossing hexes: each hex takes the level at its
        centre (the generator makes sure no centre sits on the contour)."""
        x, y = hill_x, hill_y
        xs, ys, X, Y = self._box(x - radius, y - radius, x + radius, y + radius)
        self.paint((xs, ys, (X - x) ** 2 + (Y - y) ** 2 <= radius ** 2), level=level)
        for col in range(self.kind.size[0]):
            for row in range(1 - col % 2, self.kind.size[1] + 1):
                hid = _name(col, row)
                cx, cy = self.centre(hid)
                d = math.hypot(cx - x, cy - y)
                assert abs(d - radius) > 4, f"{hid}'s centre is on the contour"
                if d < radius:
                    self.expect(hid, level=level)

    def depression(self, hex_ids, code: int, terrain: str, level: int = -1) -> None:
        """A gully or stream: VASL's data has the depression baked into the elevation."""
        for h in _ids(hex_ids):
            self.paint(self.hexagon(h, 0.8), code, level)
            self.expect(h, terrain=terrain, level=level)

    def building(self, hex_ids, code: int, upper: int, size: float = 30) -> None:
        """One building over these hexes: a square at each centre joined by thick segments to the
        previous hex, so its pixels touch; a group when it has two hexes or more."""
        ids = _ids(hex_ids)
        for i, h in enumerate(ids):
            self.paint(self.rect(*self.centre(h), size, size), code)
            if i:
                self.paint(self.segment(self.centre(ids[i - 1]), self.centre(h), size * 0.8),
                           code)
        group = None
        if len(ids) > 1:
            group = min(ids, key=lambda h: parse_local(h, self.kind.size))
        for h in ids:
            self.expect(h, terrain="building", building=group, upper_levels=upper)

    def hexside(self, hex_a: str, hex_b: str, code: int, width: float = 3) -> None:
        """A wall, hedge... along the hexside between two adjacent hexes."""
        (xa, ya), (xb, yb) = self.centre(hex_a), self.centre(hex_b)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        ux, uy = -(yb - ya), xb - xa              # along the hexside
        norm = math.hypot(ux, uy)
        half = self.kind.hex_w * 2 / 3 / 2       # half a hexside
        ux, uy = ux / norm * half, uy / norm * half
        self.paint(self.segment((mx - ux, my - uy), (mx + ux, my + uy), width), code)

    def road(self, p0, p1, code: int = DIRT_ROAD, width: float = 8) -> None:
        self.paint(self.segment(p0, p1, width), code)

    # files
    def picture(self) -> bytes:
        """A GIF of the grid's size, its colour the terrain code (a board other than geomorphic
        is written with one)."""
        import io

        from PIL import Image
        out = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(self.terrain.T), "P").save(out, "GIF")
        return out.getvalue()

    def payload(self) -> bytes:
        return los_payload(self.elevation, self.terrain, *self.kind.size)

    def write(self, path: str | Path, *, block: int = BLOCK, metadata: bytes | None = None,
              payload: bytes | None = None, los: bytes | None = None,
              with_los: bool = True) -> Path:
        entries = {"BoardMetadata.xml": metadata if metadata is not None
                   else metadata_xml(self.name, "1.0", *self.kind.size, **dict(self.kind.attrs)),
                   f"bd{self.name}.gif": GIF_1X1 if self.kind == GEOMORPHIC else self.picture(),
                   "data": b"VERSION 1.0\n"}
        if with_los:
            entries["LOSData"] = los if los is not None else los_data(
                payload if payload is not None else self.payload(), block)
        return write_archive(path, entries)


def _ids(hex_ids) -> list[str]:
    return hex_ids.split() if isinstance(hex_ids, str) else list(hex_ids)


def _name(col: int, row: int) -> str:
    return f"{column_name(col)}{row}"


def standard_board(name: str = "99") -> SynthBoard:
    """The test board: hills (levels 1-2, one with a round contour), woods, forest, orchards,
    grain with a road through it, buildings (single, multi-hex, two-level, three-level,
    rowhouses split by a rowhouse wall, two close but separate ones), jungle, bamboo, water,
    gully, stream, marsh, swamp, kunai, huts, rubble, walls and a hedge, and terrain VASL has
    that we only approximate (palm trees, shellholes); orchard trees as dots (inherent terrain)."""
    b = SynthBoard(name)
    # hills: a level-2 core with a level-1 ring, woods on the slope
    b.hill("K2 K4 J2 J3 L2 L3", 1)
    b.hill("K3", 2)
    b.area("L3", WOODS, "woods")
    b.round_hill(1530, 560, 75, 1)
    b.area("X4 B6 C6", WOODS, "woods")
    b.area("D2", FOREST, "forest")
    b.area("F2", PINE, "pine_woods")
    b.trees("N2", ORCHARD, "orchard")              # inherent terrain: a few trees do it
    b.area("G8 I8 H8", GRAIN, "grain")           # G8, I8: the road runs through their centres
    b.area("B0", GRAIN, "grain")                 # a half hex on the north edge
    b.area("A1 A2", BRUSH, "brush")              # half hexes on the west edge
    b.area("GG3", MARSH, "marsh")                # a half hex on the east edge
    b.area("FF5", WATER, "water")
    b.area("N9", PLOWED, "plowed")
    # a dirt road along row 8 of the even columns, drawn over the grain of G8 and I8
    y8 = centre("A8")[1]
    b.road((0, y8), (GRID_W - 1, y8))
    # buildings
    b.building("E2", STONE, 0)
    b.building("E4 E5 F5", WOODEN_1, 1)          # a three-hex building, one upper level
    b.building("T6 T7", STONE_2, 2)              # a two-hex building, two upper levels
    b.building("V3", STONE_2, 2)
    b.building("Y9", WOODEN_3, 3)
    b.building("H5", WOODEN, 0, size=24)         # close, but not touching: two buildings
    b.building("H6", WOODEN, 0, size=24)
    b.building("Q5 Q6", STONE_1, 1)              # rowhouses: one shape, split by a wall...
    b.paint(b.rect(*((np.array(centre("Q5")) + centre("Q6")) / 2), 34, 3), ROWHOUSE_WALL)
    b.expect("Q5", building=None)
    b.expect("Q6", building=None)                # ...so two buildings
    # PTO terrain
    b.area("CC2 CC3 DD3", DENSE_JUNGLE, "dense_jungle")
    b.area("AA7", LIGHT_JUNGLE, "light_jungle")
    b.area("BB8", BAMBOO, "bamboo")
    b.area("EE9", KUNAI, "kunai")
    b.area("FF8", SWAMP, "swamp")
    b.area("U9", HUTS, "huts")
    b.area("W7", STONE_RUBBLE, "rubble")
    # depressions: a gully and a stream, one level down
    b.depression("R2 R3", GULLY, "gully")
    b.depression("S9", SHALLOW_STREAM, "stream")
    # hexside terrain: reported, not imported
    b.hexside("I5", "I6", WALL)
    b.hexside("J7", "J8", HEDGE)
    # approximated: palm trees have an orchard's LOS, shellholes none
    b.area("O5", PALM_TREES, "orchard")
    b.area("Q3", SHELLHOLES, "open")
    return b


# ------------------------------------------------------------------------- hostile files
def blank_payload(width: int, height: int, grid_w: int, grid_h: int) -> bytes:
    """A well-formed payload of any claimed size: open ground at level 0 everywhere."""
    n_stairs = sum(height + col % 2 for col in range(width))
    return (struct.pack(">iiii", width, height, grid_w, grid_h)
            + bytes(2 * grid_w * grid_h) + bytes(n_stairs))


def empty_blocks_los(count: int) -> bytes:
    """A gzip-compressed object stream of ``count`` empty block-data records (``77 00``): a few
    kilobytes that decompress to 2 x count bytes."""
    z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = b"\x77\x00" * (1 << 19)
    out = [z.compress(JAVA_MAGIC)]
    whole, rest = divmod(count, 1 << 19)
    for _ in range(whole):
        out.append(z.compress(chunk))
    out.append(z.compress(b"\x77\x00" * rest))
    out.append(z.flush())
    return b"".join(out)


def hostile_archive(path: str | Path, *, los: bytes | None = None,
                    metadata: bytes | None = None) -> Path:
    """A board archive with the given LOSData and metadata (defaults: a blank standard board)."""
    entries = {"BoardMetadata.xml": metadata if metadata is not None else metadata_xml("66"),
               "LOSData": los if los is not None else los_data(
                   blank_payload(BOARD_COLUMNS, BOARD_ROWS, GRID_W, GRID_H))}
    return write_archive(path, entries)


def mark_encrypted(path: str | Path, name: str) -> Path:
    """Set the "encrypted" flag of entry ``name`` in its local and central headers (what a
    password-protected ZIP says; the data itself is left as it is)."""
    path = Path(path)
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(name)
        local = info.header_offset
    raw = bytearray(path.read_bytes())
    raw[local + 6] |= 1                                  # local header: general purpose flags
    at = 0
    while True:                                          # the central directory entry of name
        at = raw.find(b"PK\x01\x02", at)
        if at < 0:
            break
        n = struct.unpack("<H", raw[at + 28:at + 30])[0]
        if raw[at + 46:at + 46 + n] == name.encode():
            raw[at + 8] |= 1
        at += 4
    path.write_bytes(bytes(raw))
    return path
