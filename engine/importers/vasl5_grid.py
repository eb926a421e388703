"""A VASL 5 board picture made into VASL's own LOS grid, step by step as VASL's image-to-LOS
pipeline does it (``LOSDataEditor.createLOSData``), so that both kinds of archive give the same
pixels (rules.md 2: terrain and levels as VASL draws them).

1. every pixel's colour gives its terrain code and, for hill colours, its level
   (``vasl5_image.decode_pixels``: VASL's ``setAllTerrain``); a board whose metadata says it has
   no hills (``hasHills="FALSE"``) is level 0 throughout;
2. pixels of no terrain (the black frame, hex ids, centre dots, outlines: VASL's "UNKNOWN"
   colours) take the terrain of the first known pixel of the nearest ring around them, at most
   ``TERRAIN_RINGS`` pixels out, inherent terrain skipped, open ground if none; pixels of no
   level the level of the nearest ring's first known pixel, at most ``LEVEL_RINGS`` out, else 0
   (VASL's ``getNearestTerrain``, ``getNearestElevation``: a ring is the pixels at a distance in
   (r - 1, r], scanned column by column; only pixels known from their colour count; the level's
   50 pixels scaled up for hexes larger than VASL's standard 64.5 pixels);
3. each hex's base level is the level at its centre sample point (VASL's ``Hex.resetTerrain``);
   a cliff pixel (B10) takes the lower of its hex's and the hex across its nearest hexside's
   base levels (its own hex's when that side leads off the board or the centre is nearer);
4. ``BoardMetadata.xml``'s building types: in each named hex the pixels of the hex's centre
   terrain (``centre_terrain``: a building at a hexside location point when the centre dot
   misses it) become the named building (VASL's ``changeAllTerrain`` over the hex);
5. a factory's outermost pixels become its exterior wall (B23.71/O5.31; VASL's
   ``setExteriorFactoryWalls``);
6. depression terrain (gully, streams, sunken road, wadi: A6.3) one level below what it was
   drawn on;
7. sunken roads (B4.1) in a hex of base level 1 are elevated roads at level 1 (the two share
   their colours), the others level -1 (VASL's ``fixElevatedSunkenRoads``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ScenarioError
from ..raster_hexes import side_points
from .board_metadata import BoardMetadata, read_board_metadata
from .grid import Geometry, hex_of_pixels
from .vasl5_image import (
    NO_CODE,
    NO_LEVEL,
    Decoded,
    Vasl5Archive,
    board_geometry,
    board_naming,
    decode_pixels,
    open_ground,
)
from .vasl_terrain import BUILDING, INHERENT

TERRAIN_RINGS = 5
LEVEL_RINGS = 50
STANDARD_HEX_HEIGHT = 64.5
CLIFF = 75
SUNKEN_ROAD, ELEVATED_ROAD = 68, 67
DEPRESSION = np.zeros(256, dtype=bool)          # VASL's LOSCategory DEPRESSION (A6.3)
DEPRESSION[[30, 31, 32, 33, 68, 104]] = True
FACTORY = np.zeros(256, dtype=bool)             # VASL's LOSCategory FACTORY (B23.74)
FACTORY[[45, 46, 47, 48, 55, 56, 57, 58, 170, 171, 172, 173, 180, 181]] = True
FACTORY_WALL = {57: 55, 58: 56, 47: 45, 48: 46}  # factory -> its exterior wall (B23.71/O5.31)


def _rings(count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """For r = 1..count the offsets (di, dj) at a distance in (r - 1, r], in VASL's scan order
    (di, then dj, ascending)."""
    di, dj = np.mgrid[-count:count + 1, -count:count + 1]
    di, dj = di.ravel(), dj.ravel()
    dist = np.hypot(di, dj)
    out = []
    for r in range(1, count + 1):
        keep = (dist > r - 1) & (dist <= r)
        out.append((di[keep], dj[keep]))          # mgrid order is already di-major
    return out


_RINGS: list = []


def _ring_offsets(count: int) -> list:
    if len(_RINGS) < count:
        _RINGS[:] = _rings(count)
    return _RINGS[:count]
CHUNK = 4096                # pixels searched at once (memory: CHUNK x a ring's offsets)


def nearest_ring(source: np.ndarray, rings: int, progress=None) -> np.ndarray:
    """(H, W) int: the ring (1..rings) holding the nearest ``source`` pixel, 0 where none is
    within ``rings`` (a pixel of ``source`` itself: 0 too).  An exact squared distance: the
    distance down each column, then the nearest over the columns within ``rings``.
    ``progress(fraction)`` is called before each column pass (it may raise ImportCancelled)."""
    h, w = source.shape
    far = rings + 1
    rows = np.arange(h)[:, None]
    above = np.maximum.accumulate(np.where(source, rows, -h - far), axis=0)
    below = np.minimum.accumulate(np.where(source, rows, 2 * h + far)[::-1], axis=0)[::-1]
    down = np.minimum(np.minimum(rows - above, below - rows), far).astype(np.int64)
    best = np.full((h, w), far * far * 2, dtype=np.int64)
    col2 = down * down
    for dx in range(-rings, rings + 1):
        if progress is not None:
            progress((dx + rings) / (2 * rings + 1))
        lo, hi = max(0, -dx), min(w, w - dx)          # x with x + dx on the grid
        if lo >= hi:
            continue
        np.minimum(best[:, lo:hi], col2[:, lo + dx:hi + dx] + dx * dx, out=best[:, lo:hi])
    ring = np.ceil(np.sqrt(best)).astype(np.int64)
    ring += (ring * ring < best)                      # exact: the least r with r * r >= d2
    ring -= ((ring - 1) ** 2 >= best) & (ring > 0)
    ring[(ring > rings) | source] = 0
    return ring


def nearest_fill(values: np.ndarray, known: np.ndarray, usable: np.ndarray, rings: int,
                 default: int, progress=None) -> np.ndarray:
    """Each pixel not ``known`` takes the value of the first ``usable`` known pixel of the
    nearest ring (``rings`` at most), else ``default``; ``values`` is (H, W), image order.
    Only the one ring that holds the nearest such pixel is scanned (``nearest_ring``)."""
    out = values.copy()
    source = known & usable
    ring = nearest_ring(source, rings, progress)
    ring[known] = 0
    out[~known & (ring == 0)] = default
    ys, xs = np.nonzero(ring)
    r_of = ring[ys, xs]
    offsets = _ring_offsets(rings)
    h, w = values.shape
    for r in np.unique(r_of).tolist():
        di, dj = offsets[r - 1]
        sel = np.flatnonzero(r_of == r)
        for start in range(0, len(sel), CHUNK):
            part = sel[start:start + CHUNK]
            x = xs[part][:, None] + di[None, :]
            y = ys[part][:, None] + dj[None, :]
            ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
            ok &= source[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]
            k = np.argmax(ok, axis=1)               # the ring holds one: VASL's scan order
            n = np.arange(len(part))
            out[ys[part], xs[part]] = values[y[n, k], x[n, k]]
    return out


def centre_points(geo: Geometry, cols: np.ndarray, rows: np.ndarray, width: int, height: int):
    """VASL's centre sample point of each hex (``Hex.resetTerrain``): the truncated centre,
    an edge centre moved onto the grid (``Hex.fixMapEdgePoints``)."""
    fx, fy = geo.centres(cols, rows)
    return np.clip(fx.astype(np.int64), 0, width - 1), np.clip(fy.astype(np.int64), 0, height - 1)


def _side_offsets(geo: Geometry) -> np.ndarray:
    """(6, 2): from a hex's centre to the centre of the hex across its side 0..5."""
    a = geo.hex_width
    q = geo.hex_height / 2
    return np.array([(0, -2 * q), (a, -q), (a, q), (0, 2 * q), (-a, q), (-a, -q)])


class _Hexes:
    """The board's hexes: index by (column, printed row), centres, VASL's sample points."""

    def __init__(self, geo: Geometry, size: tuple[int, int], width: int, height: int):
        self.geo, self.size = geo, size
        columns, rows = size
        cols, prow = [], []
        for c in range(columns):
            for n in range(1 - c % 2, rows + 1):
                cols.append(c)
                prow.append(n)
        self.cols, self.rows = np.array(cols), np.array(prow)
        self.index = np.full((columns, rows + 1), -1, dtype=np.int64)
        self.index[self.cols, self.rows] = np.arange(len(cols))
        self.sx, self.sy = centre_points(geo, self.cols, self.rows, width, height)

    def of_pixels(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        c, n = hex_of_pixels(self.geo, xs, ys, self.size)
        c = np.clip(c, 0, self.size[0] - 1)
        n = np.clip(n, 0, self.size[1])
        return self.index[c, n]

    def at_point(self, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
        """The hex whose centre is (fx, fy) (within a pixel), -1 where none is."""
        i = self.of_pixels(fx, fy)
        ok = i >= 0
        cx, cy = self.geo.centres(self.cols[np.maximum(i, 0)], self.rows[np.maximum(i, 0)])
        ok &= (np.abs(cx - fx) < 1) & (np.abs(cy - fy) < 1)
        return np.where(ok, i, -1)


def _cliff_levels(code, level, hexes: _Hexes) -> None:
    """B10: a cliff pixel stands at the lower of its two hexes' base levels (VASL's cliff pass
    after the first ``resetHexTerrain``), in place."""
    ys, xs = np.nonzero(code == CLIFF)
    if not len(xs):
        return
    base = level[hexes.sy, hexes.sx].astype(np.int64)
    own = hexes.of_pixels(xs, ys)
    keep = own >= 0
    xs, ys, own = xs[keep], ys[keep], own[keep]
    cols, rows = hexes.cols[own], hexes.rows[own]
    cx, cy = hexes.geo.centres(cols, rows)
    px, py = side_points(hexes.geo.hex_height, cx, cy)
    offs = _side_offsets(hexes.geo)
    best = np.hypot(xs - hexes.sx[own], ys - hexes.sy[own])
    other = np.full(len(xs), -1, dtype=np.int64)
    odd = cols % 2 == 1
    last_col = hexes.size[0] - 1
    for side in range(6):
        # VASL's "on map" flags: the first and last columns' outer sides, the top and bottom
        # half hexes' outer sides are no locations
        on = np.ones(len(xs), dtype=bool)
        if side in (4, 5):
            on &= cols != 0
        if side in (1, 2):
            on &= cols != last_col
        if side in (0, 1, 5):
            on &= ~(odd & (rows == 0))
        if side in (2, 3, 4):
            on &= ~(odd & (rows == hexes.size[1]))
        adj = hexes.at_point(cx + offs[side, 0], cy + offs[side, 1])
        d = np.hypot(xs - px[side], ys - py[side])
        closer = on & (d < best)
        best = np.where(closer, d, best)
        other = np.where(closer, adj, other)
    low = np.where(other >= 0, np.minimum(base[own], base[np.maximum(other, 0)]), base[own])
    level[ys, xs] = low


def centre_terrain(code: np.ndarray, hexes: _Hexes, hex_index: int) -> int:
    """VASL's centre location terrain of hex ``hex_index`` (``Hex.resetTerrain``): the centre sample
    point's, or when that is no building and a building lies at one of the hexside location
    points (0..5 in turn), that building (a building that misses the centre dot)."""
    i = hex_index
    here = int(code[hexes.sy[i], hexes.sx[i]])
    if BUILDING[here]:
        return here
    h, w = code.shape
    cx, cy = hexes.geo.centres(hexes.cols[i:i + 1], hexes.rows[i:i + 1])
    px, py = side_points(hexes.geo.hex_height, cx, cy)
    for side in range(6):
        x = int(np.clip(px[side, 0], 0, w - 1))
        y = int(np.clip(py[side, 0], 0, h - 1))
        if BUILDING[code[y, x]]:
            return int(code[y, x])
    return here


def _building_types(code, hexes: _Hexes, building_types: dict[int, int]) -> None:
    """VASL's building-type overrides: in hex i the pixels of the hex's centre terrain become
    building code ``building_types[i]``, in place."""
    geo = hexes.geo
    h, w = code.shape
    for i, to_code in building_types.items():
        from_code = centre_terrain(code, hexes, i)
        cx, cy = geo.centres(hexes.cols[i:i + 1], hexes.rows[i:i + 1])
        x0, x1 = max(0, int(cx[0] - geo.hex_width)), min(w, int(cx[0] + geo.hex_width) + 1)
        y0, y1 = max(0, int(cy[0] - geo.hex_height)), min(h, int(cy[0] + geo.hex_height) + 1)
        ys, xs = np.mgrid[y0:y1, x0:x1]
        inside = hexes.of_pixels(xs.ravel(), ys.ravel()).reshape(xs.shape) == i
        box = code[y0:y1, x0:x1]
        box[inside & (box == from_code)] = to_code


def _factory_walls(code) -> None:
    """B23.71/O5.31: a factory pixel beside a non-factory one is the factory's exterior wall
    (VASL's ``setExteriorFactoryWalls``; its neighbours clamped to the grid), in place."""
    fac = FACTORY[code]
    if not fac.any():
        return
    p = np.pad(fac, 1, mode="edge")
    edge = fac & ~(p[:-2, 1:-1] & p[2:, 1:-1] & p[1:-1, :-2] & p[1:-1, 2:])
    wall = code.copy()
    for room, outer in FACTORY_WALL.items():
        wall[code == room] = outer
    code[edge] = wall[edge]


def vasl_grid(code: np.ndarray, level: np.ndarray, geo: Geometry, size: tuple[int, int],
              building_types: dict | None = None, has_hills: bool = True, progress=None):
    """VASL's (terrain, level) grids (H, W) of a decoded picture (``NO_CODE``/``NO_LEVEL`` for
    no terrain/level); ``building_types``: (column, printed row) -> VASL building code;
    ``progress(fraction)`` called inside the fills (it may raise ImportCancelled)."""
    def part(start: float, span: float):
        return None if progress is None else (lambda fraction: progress(start + span * fraction))
    h, w = code.shape
    code = code.astype(np.uint8)
    known = code != NO_CODE
    usable = ~INHERENT[code]
    code = nearest_fill(code, known, usable, TERRAIN_RINGS, 0, part(0.0, 0.2))
    if has_hills:
        lev = level.astype(np.int8)
        # VASL's 50 pixels are for its standard hexes (64.5 pixels high): scaled for larger ones
        rings = max(LEVEL_RINGS, int(np.ceil(LEVEL_RINGS * geo.hex_height / STANDARD_HEX_HEIGHT)))
        lev = nearest_fill(lev, lev != NO_LEVEL, np.ones(lev.shape, dtype=bool), rings, 0,
                           part(0.2, 0.8))
    else:
        lev = np.zeros(code.shape, dtype=np.int8)
    hexes = _Hexes(geo, size, w, h)
    _cliff_levels(code, lev, hexes)
    if building_types:
        wanted = {int(hexes.index[c, n]): v for (c, n), v in building_types.items()
                  if 0 <= c < size[0] and 0 <= n <= size[1] and hexes.index[c, n] >= 0}
        _building_types(code, hexes, wanted)
    _factory_walls(code)
    dep = DEPRESSION[code]
    lev[dep] -= 1                                       # A6.3
    sunken = np.nonzero(code == SUNKEN_ROAD)            # B4.1, B4.2
    if len(sunken[0]):
        base = lev[hexes.sy, hexes.sx]
        on_hill = base[np.maximum(hexes.of_pixels(sunken[1], sunken[0]), 0)] == 1
        lev[sunken] = np.where(on_hill, 1, -1)
        code[sunken[0][on_hill], sunken[1][on_hill]] = ELEVATED_ROAD
    return code, lev


@dataclass(frozen=True)
class Vasl5Pixels:
    """A VASL 5 picture as VASL's LOS grid, with what went into it."""
    code: np.ndarray            # (H, W) uint8 VASL terrain code of every pixel
    level: np.ndarray           # (H, W) int8 level of every pixel
    decoded: Decoded            # the colours as read (before any fill)
    geometry: Geometry
    size: tuple[int, int]
    metadata: BoardMetadata | None
    metadata_from: str          # "" (none), "the archive" or the file named


def vasl5_pixels(archive: Vasl5Archive, metadata: tuple[str, bytes] | None = None,
                 progress=None) -> Vasl5Pixels:
    """VASL's grid of a VASL 5 archive; ``metadata`` (name, bytes) a BoardMetadata.xml the user
    names, which wins over the archive's own; ``progress(fraction)`` as ``vasl_grid``'s."""
    geo, size = board_geometry(archive)
    dec = (decode_pixels(archive.index, archive.palette, archive.colours) if archive.exact
           else open_ground(archive.index.shape))      # a JPEG: its colours are not read
    name, raw = metadata if metadata is not None else ("the archive", archive.metadata)
    meta = None
    if raw is not None:
        try:
            meta = read_board_metadata(raw, size, board_naming(archive)[0])
        except ScenarioError as e:
            raise e if metadata is None else e.at(file=name) from None
    code, level = vasl_grid(dec.code, dec.level, geo, size,
                            meta.building_types if meta else None,
                            meta.has_hills if meta else True, progress)
    return Vasl5Pixels(code, level, dec, geo, size, meta, name if meta else "")
