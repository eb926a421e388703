"""The map's pixel frame for LOS over the terrain as drawn (VASL's ``Map``, ``Hex``, ``LOS``):
``Frame``, built once per map by ``build_frame`` and never changed.

Every board's raster (``engine.raster_file``, found by ``engine.boards.board_raster``) pasted
at its slot: per pixel its terrain and ground level, the map's hex it lies in, its nearest
hexside and whether the centre is its nearest location (VASL's ``Hex.getNearestLocation``),
which neighbours' extended borders hold it too (``pixels``), and whether VASL finds it in no
hex (``hexless``: a line's walk ends there); pixels judged alike share a *class*, and what
the compiled walk (``kernel``) reads of each class.  Per hex: its centre pixel, its centre's
terrain, the terrain at its hexsides' middles, its neighbours, cliffs and hexside terrain
(B9.2), and the ranges between hexes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...boards import board_raster
from ...hexes import SQRT3
from ...maps import Map
from ...terrain import HEXSIDES
from ..hexside_terrain import OFF_MAP_LEVEL
from . import bits
from .build import PixelClassesPastBound, bound, report
from .hexless import hexless_pixels
from .pixels import (
    PixelHexes,
    extended_borders,
    in_own_border,
    off_map_sides,
    pixel_hexes,
    shared_slots,
)
from .terrain import (
    BOCAGE_T,
    BRIDGE_T,
    BUILDING_TERRAIN_T,
    CLIFF_T,
    DEPRESSION_T,
    HALF_LEVEL,
    HEIGHT,
    HEXSIDE_T,
    IN_BUILDING_T,
    INHERENT,
    OBSTACLE,
    OUT_OF_SEASON,
    ROWHOUSE_T,
    SPLIT,
)

MAX_MAP_PIXELS = 40_000_000  # the map's pixel frame (boards side by side)
MAX_RANGE_TABLE = 4000       # hexes: ranges kept as a table (int16, 32 MB at most)
CLASS_CHUNK = 4_000_000      # pixels classed at once (memory bounded whatever the classes)
WALK_CHUNK = 1 << 20         # classes whose walk bits are made at once (memory)


@dataclass(frozen=True)
class Frame:
    """A map's pixel frame and what the rules read of it (module doc).  Per-hex arrays have
    one row more than the map's hexes: the void row (off the map, index -1)."""
    geometry: tuple            # (A1's x, A1's y, hex width, hex height) in pixels
    width: int
    height: int
    terrain: np.ndarray        # per pixel (flat, row after row): VASL's terrain code
    level: np.ndarray          # per pixel: ground level
    pix_cls: np.ndarray        # per pixel: its class
    # per class: the first class of each floor (``cls_from[floor + 128]``: the classes from it
    # on can matter above the floor), nearest side, extended-border bits, ground level,
    # terrain code, hex (-1 off the map), whether at the centre, in no hex for VASL (0 in one,
    # 1 in none but in its hex's extended border, 2 out of that too); what the walk reads: its bits
    # (``bits``), obstacle top, what it can matter above, its hex and neighbours (-2: none)
    cls_from: np.ndarray
    cls_side: np.ndarray
    cls_edge: np.ndarray
    cls_level: np.ndarray
    cls_code: np.ndarray
    cls_hex: np.ndarray
    cls_centre: np.ndarray
    cls_lost: np.ndarray
    cls_flags: np.ndarray
    cls_top: np.ndarray
    cls_low: np.ndarray
    cls_nbr: np.ndarray
    tile_max: np.ndarray       # the highest class of each tile of the frame (``bits.TILE``)
    # per hex
    centre_x: np.ndarray       # VASL's LOS point (truncated)
    centre_y: np.ndarray
    centre_code: np.ndarray    # the terrain of the centre location (VASL's Hex.resetTerrain)
    depression: np.ndarray     # the centre is depression terrain (A6.3)
    ground: np.ndarray         # base level (the void row: OFF_MAP_LEVEL)
    side_code: np.ndarray      # (hexes, 6): the terrain at each hexside's middle
    neighbours: np.ndarray     # (hexes + 1, 6): -1 none
    cliff_side: np.ndarray     # (hexes + 1, 6): a cliff hexside (B10.23)
    side_terrain: np.ndarray   # (hexes + 1, 6): hexside terrain there (B9.2)
    q: np.ndarray              # axial coordinates (the void row: 0)
    r: np.ndarray
    ranges: np.ndarray | None  # (hexes + 1)^2 ranges, or None on a large map
    bridge_centres: np.ndarray  # (k, 2): the centres of hexes holding bridge pixels (B6)
    hexless: np.ndarray        # the pixels in no hex for VASL (flat, sorted: ``hexless``)


def map_rasters(game_map: Map):
    """The rasters of every board of the map (turned as placed), or None if one has none or
    they disagree on the hex spacing."""
    out = []
    for placement in game_map.placements:
        raster = board_raster(placement.board)
        if raster is None:
            return None
        out.append(raster.rotated() if placement.rotated else raster)
    if len({raster.geometry for raster in out}) != 1:
        return None
    return out


def hex_range(frame: Frame, here, there):
    """The range between hexes ``here`` and ``there`` (arrays or ints)."""
    return _axial_range(frame.q, frame.r, here, there)


def _axial_range(q, r, here, there):
    dq = q[here] - q[there]
    dr = r[here] - r[there]
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


def ranges_from(frame: Frame, viewer: int, hexes: np.ndarray) -> np.ndarray:
    """The ranges from ``viewer`` to each of ``hexes``."""
    if frame.ranges is not None:
        return frame.ranges[viewer][hexes]
    return hex_range(frame, hexes, np.full_like(hexes, viewer))


def along_hexsides(frame: Frame, viewer: int, targets: np.ndarray) -> np.ndarray:
    """VASL's LOSisHorizontal / LOSis60Degree: lines between centre points (truncated) that
    are level, or within a tolerance (by range) of 60 degrees."""
    dx = (frame.centre_x[targets] - frame.centre_x[viewer]).astype(np.float64)
    dy = (frame.centre_y[targets] - frame.centre_y[viewer]).astype(np.float64)
    rng = ranges_from(frame, viewer, targets)
    tolerance = np.where(rng <= 2, 0.05, np.where(rng <= 4, 0.028, np.where(rng <= 10, 0.02,
                                                                           0.015)))
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.abs(dy / dx)
    sixty = np.abs(slope - np.tan(np.radians(60.0))) < tolerance
    return ((dy == 0) | sixty) & (targets != viewer)


def line_spines(frame: Frame, viewer: int, targets: np.ndarray, along: np.ndarray):
    """VASL's source exit and target entry hexspines (0..5) of lines along hexsides (-1 for
    the others): level lines leave by spine 2 or 5, 60-degree lines by 0, 1, 3 or 4."""
    east = frame.centre_x[targets] >= frame.centre_x[viewer]
    south = frame.centre_y[targets] >= frame.centre_y[viewer]
    level = frame.centre_y[targets] == frame.centre_y[viewer]
    out = np.where(level, np.where(east, 2, 5),
                   np.where(east, np.where(south, 3, 1), np.where(south, 4, 0)))
    into = np.where(level, np.where(east, 5, 2),
                    np.where(east, np.where(south, 0, 4), np.where(south, 1, 3)))
    return np.where(along, out, -1), np.where(along, into, -1)


def facing(frame: Frame, hexes, side, end) -> np.ndarray:
    """Whether a hexside location of each of ``hexes`` (next to ``end``) is the one facing the
    end or one of the two beside it: the locations nearer the end's centre than the hex's
    own centre is (VASL measures each point; these locations stand for it)."""
    neighbours = frame.neighbours[hexes]
    end = np.full(hexes.shape, end) if np.ndim(end) == 0 else np.asarray(end)
    towards = np.argmax(neighbours == end[:, None], axis=1)
    off = (side - towards) % 6
    return (neighbours == end[:, None]).any(axis=1) & ((off == 0) | (off == 1) | (off == 5))


def location_terrain(frame: Frame, hexes: np.ndarray, side: np.ndarray) -> np.ndarray:
    """The terrain code of each hex's hexside location (VASL's Hex.resetTerrain): the pixel at
    the hexside's middle, or the one the hex across reads there when that is hexside terrain
    (walls, hedges, cliffs) and this is not."""
    hexes = np.minimum(hexes, len(frame.side_code) - 1)
    code = frame.side_code[hexes, side]
    other = frame.neighbours[hexes, side]
    there = other >= 0
    across = frame.side_code[np.where(there, other, hexes), (side + 3) % 6]
    return np.where(there & ~HEXSIDE_T[code] & HEXSIDE_T[across], across, code)


def build_frame(game_map: Map, rasters) -> Frame:
    """The frame of ``game_map`` from its boards' ``rasters`` (``map_rasters``), its progress
    reported and its pixel classes bounded as ``building`` says.  ValueError: boards off the
    pixel grid, or a map too large; PixelClassesPastBound."""
    m = game_map
    a1x, a1y, hw, hh = rasters[0].geometry
    geometry = (a1x, a1y, hw, hh)
    width, height, terrain, level, covered, slots = _paste(m, rasters, geometry)
    # the hex (map index) of every pixel, its nearest hexside and whether the centre is its
    # nearest location (VASL's Hex.getNearestLocation)
    report(0.0)
    px = pixel_hexes(m, width, height, geometry, *slots)
    px.hexi[~covered] = -1
    del covered
    # the pixels VASL finds in no hex (Map.gridToHex): a line's walk ends there
    hexless = hexless_pixels(m, width, height, geometry, px)
    report(0.15)
    classes = _classify(m, terrain, level, px, width, height, geometry, hexless)
    # hex centres in pixels (VASL's LOS point: truncated), and the terrain there
    cx = a1x + hw * m.col
    cy = a1y + hh * (m.row - 1 + (m.col % 2)) - hh / 2 * (m.col % 2)
    centre_x = np.clip(cx.astype(np.int64), 0, width - 1)
    centre_y = np.clip(cy.astype(np.int64), 0, height - 1)
    centre_code = _centre_terrain(m, terrain, px, centre_x, centre_y, width, height)
    del px                                  # the pixels' hexes: not kept (memory)
    sides = _hexside_points(m, terrain, cx, cy, width, height, geometry)
    q, r = np.append(m.q, 0), np.append(m.r, 0)
    # ranges between hexes, looked up (the last row and column: off the map)
    ranges = None
    if m.size <= MAX_RANGE_TABLE:
        idx = np.arange(m.size + 1)
        ranges = np.empty((m.size + 1, m.size + 1), dtype=np.int16)
        for a in range(0, m.size + 1, 256):       # a band of rows at a time (memory)
            ranges[a:a + 256] = _axial_range(q, r, idx[a:a + 256, None], idx[None, :])
    # B6: the centres of the hexes holding bridge pixels
    bridged = np.unique(classes["cls_hex"][BRIDGE_T[classes["cls_code"]]
                                           & (classes["cls_hex"] >= 0)])
    walked = _walk_classes(m, classes, centre_code, width, height)
    report(1.0)
    return Frame(
        geometry=geometry, width=width, height=height, terrain=terrain, level=level,
        **classes, **walked,
        centre_x=centre_x, centre_y=centre_y, centre_code=centre_code,
        # hexes whose centre is depression terrain (gully, stream, sunken road: A6.3)
        depression=np.append(DEPRESSION_T[centre_code[:-1]], False),
        ground=np.append(m.level.astype(np.int64), OFF_MAP_LEVEL),
        **sides, q=q, r=r, ranges=ranges,
        bridge_centres=np.stack([centre_x[bridged], centre_y[bridged]], axis=1).astype(
            np.float64),
        hexless=hexless)


def _paste(m: Map, rasters, geometry):
    """The map's pixel frame: every board pasted at its slot's origin: (width, height, terrain
    and level (flat), which pixels a board covers (flat), the shared slots of ``pixels``)."""
    hw, hh = geometry[2:]
    offs = []
    for (ox, oy) in m.origins:
        X0, Y0 = ox * hw, oy * hh
        if X0 != int(X0) or Y0 != int(Y0):
            raise ValueError("boards off the pixel grid")
        offs.append((int(X0), int(Y0)))
    W = max(o[0] + r.shape[1] for o, r in zip(offs, rasters))
    H = max(o[1] + r.shape[0] for o, r in zip(offs, rasters))
    if W * H > MAX_MAP_PIXELS:
        raise ValueError("map too large for its rasters")
    terr = np.zeros((H, W), dtype=np.uint8)
    lev = np.zeros((H, W), dtype=np.int8)
    covered = np.zeros((H, W), dtype=bool)
    for (X0, Y0), r in zip(offs, rasters):
        h, w = r.shape
        terr[Y0:Y0 + h, X0:X0 + w] = r.terrain
        lev[Y0:Y0 + h, X0:X0 + w] = r.level
        covered[Y0:Y0 + h, X0:X0 + w] = True
    # boards of one size tiling the frame share their pixels' hexes (pixels)
    shapes = [r.shape for r in rasters]
    slots = shared_slots(m, geometry, offs, shapes, W, H) if covered.all() else None
    return (W, H, terr.ravel(), lev.ravel(), covered.ravel(),
            (slots, shapes[0]) if slots is not None else (None, None))


def _classify(m: Map, terr, lev, px: PixelHexes, W: int, H: int, geometry,
              hexless: np.ndarray) -> dict:
    """Pixels of one hex, terrain, level, extended borders, nearest location and VASL's hex
    (or none: ``hexless``) are judged alike: their classes (``pix_cls``) and what each class is
    (``cls_*``)."""
    hexi, side, at_centre = px.hexi, px.side, px.at_centre
    # the neighbours (bits 0..5) whose extended border holds the pixel too
    edge = extended_borders(m, px, W, H, geometry)
    # in no hex for VASL: 1 while its own hex's extended border holds it, else 2
    lost = np.zeros(len(hexi), dtype=np.uint8)
    lost[hexless] = np.where(in_own_border(m, hexi[hexless], hexless, W, H, geometry), 1, 2)
    # pixels of one hex, terrain, level and nearest location are judged alike: classes,
    # keyed (``_run_keys``); the same classes as np.unique of every pixel's key, from the
    # runs along the rows, a chunk of pixels at a time (memory bounded, however many classes)
    parts = (hexi, terr, lev, lost, edge, side, at_centre)
    n = len(hexi)
    chunks = [(a, min(a + CLASS_CHUNK, n)) for a in range(0, n, CLASS_CHUNK)]
    seen = []
    for k, (a, b) in enumerate(chunks):
        seen.append(sorted_unique(_run_keys(parts, a, b)[0]))
        report(0.15 + 0.3 * (k + 1) / len(chunks))
    uniq = sorted_unique(np.concatenate(seen))
    del seen
    most = bound()
    if most is not None and len(uniq) > most:
        raise PixelClassesPastBound(len(uniq), most,
                                    [placement.board.id for placement in m.placements])
    # what a class is to the first cut of a line's points (``table``): its obstacle top, or
    # 127 for terrain that counts whatever the ends' heights (hexside, half-level, split;
    # every floor is below 127); classes numbered in the order of this byte, so that a
    # pixel's class says at once whether it can matter above a floor (``cls_from``)
    code = (uniq // (KEY_LOW * 64)) % 256
    # a pixel in no hex (VASL) is met by every line: counted whatever the ends' heights
    special = HEXSIDE_T[code] | HALF_LEVEL[code] | SPLIT[code] | ((uniq // 1024) % 4 != 0)
    top = ((uniq // KEY_LOW) % 64) - 32 + HEIGHT[code]
    low = np.where(special, 127, np.clip(top, -127, 126))
    order = np.argsort(low, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    del code, special, top
    # (two bytes a pixel when the classes allow: the walk reads one per point)
    small = np.uint16 if len(uniq) <= np.iinfo(np.uint16).max else np.int32
    pix_cls = np.empty(n, dtype=small)
    for k, (a, b) in enumerate(chunks):
        key, runs = _run_keys(parts, a, b)
        pix_cls[a:b] = np.repeat(rank[_indices_in(uniq, key)].astype(small), runs)
        report(0.45 + 0.35 * (k + 1) / len(chunks))
    uniq, low = uniq[order], low[order]
    rest = uniq // KEY_LOW
    return dict(
        cls_from=np.searchsorted(low, np.arange(-128, 128), side="right"),
        pix_cls=pix_cls,
        cls_centre=(uniq % 2).astype(bool),
        cls_side=(uniq // 2) % 8,
        cls_edge=((uniq // 16) % 64).astype(np.int64),
        cls_lost=((uniq // 1024) % 4).astype(np.int8),
        cls_level=(rest % 64) - 32,
        cls_code=((rest // 64) % 256).astype(np.int64),
        cls_hex=rest // 64 // 256 - 1)


KEY_LOW = 4096     # a class key's low part: lost * 1024 + edge * 16 + side * 2 + at_centre


def _run_keys(parts, a: int, b: int):
    """The class keys of the runs of pixels ``a``..``b`` along the rows (a run: no part
    changes) and the runs' lengths: keyed (((hexi + 1) * 256 + terr) * 64 + lev + 32) * 4096
    + lost * 1024 + edge * 16 + side * 2 + at_centre."""
    hexi, terr, lev, lost, edge, side, at_centre = parts
    change = np.zeros(b - a, dtype=bool)
    change[0] = True
    for part in parts:
        change[1:] |= part[a + 1:b] != part[a:b - 1]
    starts = np.flatnonzero(change) + a
    key = hexi[starts].astype(np.int64)
    for scale, part in ((1, 1), (256, terr[starts]), (64, lev[starts]), (1, 32),
                        (4, lost[starts]), (64, edge[starts]), (8, side[starts]),
                        (2, at_centre[starts])):
        if scale != 1:
            key *= scale
        key += part
    return key, np.diff(np.append(starts, b))


def sorted_unique(keys: np.ndarray) -> np.ndarray:
    """``np.unique`` of integer keys by sorting them (numpy 2's unique hashes, many times slower
    on millions of distinct keys)."""
    keys = np.sort(keys)
    keep = np.ones(len(keys), dtype=bool)
    keep[1:] = keys[1:] != keys[:-1]
    return keys[keep]


def _indices_in(uniq: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Where each of ``keys`` (non-negative, each in ``uniq``, sorted) is in ``uniq``: the keys
    sorted once with their place in the low bits (a sort of numbers, faster than an argsort),
    each distinct key looked up once."""
    n = len(keys)
    shift = max(1, (n - 1).bit_length())
    if n == 0 or int(keys.max()).bit_length() + shift > 63:
        return np.searchsorted(uniq, keys)
    packed = (keys << shift) | np.arange(n, dtype=np.int64)
    packed.sort()
    ordered = packed >> shift
    first = np.ones(n, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    starts = np.flatnonzero(first)
    places = np.repeat(np.searchsorted(uniq, ordered[starts]), np.diff(np.append(starts, n)))
    out = np.empty(n, dtype=np.int64)
    out[packed & ((1 << shift) - 1)] = places
    return out


def _centre_terrain(m: Map, terr, px: PixelHexes, centre_x, centre_y, W: int, H: int):
    """The terrain of each hex's centre location (VASL's Hex.resetTerrain): at the truncated
    centre point itself (where VASL reads the base level too), unless inherent terrain (orchard
    trees, rubble...) lies nearer the centre than any hexside location: then that.  (The void
    row: 0.)"""
    hexi, at_centre = px.hexi, px.at_centre
    centre = terr[centre_y * W + centre_x].astype(np.int64)
    sel = np.flatnonzero(at_centre & INHERENT[terr] & (hexi >= 0))
    if len(sel):
        votes = np.bincount(hexi[sel] * 256 + terr[sel],
                            minlength=m.size * 256).reshape(m.size, 256)
        has = votes.max(axis=1) > 0
        centre = np.where(has, votes.argmax(axis=1), centre)
    return np.append(centre, 0)


def _hexside_points(m: Map, terr, cx, cy, W: int, H: int, geometry) -> dict:
    """The terrain at each hexside's location point, per hex and side; the neighbours, cliffs,
    and hexside terrain on each side of each hex (B9.2).  The point is VASL's (Hex.initHexNew):
    the hexside's middle moved a pixel toward the centre, truncated, and a point a pixel off
    the grid moved onto it (Hex.fixMapEdgePoints)."""
    vertical = geometry[3] / 2.0
    across = vertical * SQRT3 / 2                    # cos 30 degrees
    dx = np.array([0.0, across - 1, across - 1, 0.0, 1 - across, 1 - across])
    dy = np.array([1 - vertical, 1 - vertical / 2, vertical / 2 - 1, vertical - 1,
                   vertical / 2 - 1, 1 - vertical / 2])
    mx = np.trunc(cx[:, None] + dx[None, :])
    my = np.trunc(cy[:, None] + dy[None, :])
    mx = np.where(mx == -1, 0, np.where((mx == W) | (mx == W + 1), W - 1, mx))
    my = np.where(my == -1, 0, np.where((my == H) | (my == H + 1), H - 1, my))
    mx = np.clip(mx.astype(np.int64), 0, W - 1)
    my = np.clip(my.astype(np.int64), 0, H - 1)
    side_code = terr[my * W + mx]              # (n, 6)
    cliff = np.zeros((m.size + 1, 6), dtype=bool)
    if "cliff" in HEXSIDES:
        cliff[:-1] = m.hexside == HEXSIDES["cliff"].code
    # hexside terrain on each side of each hex (VASL's Hex.getHexsideTerrain, B9.2): drawn at
    # the side's location point, or at the hex's across when this one is none (Hex.resetTerrain),
    # on the sides VASL counts on the map
    nbr = m.neighbours
    there = nbr >= 0
    across = side_code[np.where(there, nbr, 0), (np.arange(6)[None, :] + 3) % 6]
    drawn = HEXSIDE_T[side_code] | (there & HEXSIDE_T[across])
    side_terrain = np.zeros((m.size + 1, 6), dtype=bool)
    side_terrain[:-1] = drawn & ~off_map_sides(m)
    return dict(side_code=side_code, cliff_side=cliff, side_terrain=side_terrain,
                neighbours=np.vstack([m.neighbours, np.full((1, 6), -1, np.int64)]))


def _walk_classes(m: Map, classes: dict, centre_code, W: int, H: int) -> dict:
    """What the compiled walk (``kernel``) reads of each pixel class: ground, top, what it is
    (bits) and its hex with the neighbours whose extended border holds it; the tiles' highest
    classes.  Made ``WALK_CHUNK`` classes at a time, the tiles a band of rows at a time
    (memory)."""
    code, hexc = classes["cls_code"], classes["cls_hex"]
    on_map = hexc >= 0
    bridge_hex = np.zeros(m.size + 1, dtype=bool)
    bridge_hex[hexc[BRIDGE_T[code] & on_map]] = True
    inherent = INHERENT[centre_code]               # per hex (the void row: none)
    n = len(code)
    flags = np.empty(n, dtype=np.uint16)
    nbr = np.empty((n, 7), dtype=np.int64)
    for a in range(0, n, WALK_CHUNK):
        part = slice(a, min(n, a + WALK_CHUNK))
        flags[part], nbr[part] = _class_bits(m, code[part], hexc[part],
                                             classes["cls_edge"][part], centre_code,
                                             bridge_hex, inherent, classes["cls_lost"][part])
    top = classes["cls_level"] + HEIGHT[code]
    return dict(
        cls_flags=flags, cls_top=top,
        # what a class can matter above between ends at two elevations (kernel)
        cls_low=np.where(BRIDGE_T[code], 127, top + CLIFF_T[code]), cls_nbr=nbr,
        tile_max=_tile_max(classes["pix_cls"], W, H))


def _class_bits(m: Map, code, hexc, cls_edge, centre_code, bridge_hex, inherent, lost):
    """The bits (``bits``) and the hex with its neighbours (-2: none) of some classes."""
    on_map = hexc >= 0
    foreign = INHERENT[code] & (centre_code[hexc] != code)   # drawn over from another hex
    can_block = on_map & ~foreign & ~bridge_hex[hexc]
    # B9.52: bocage blocks only by its hexside rule (``hexsides``), never surely here
    own_rule = ROWHOUSE_T[code] | BOCAGE_T[code]
    flags = (bits.CAN_BLOCK * can_block
             + bits.OBSTACLE_CLS * (can_block & OBSTACLE[code] & ~own_rule)
             + bits.SPLIT_CLS * SPLIT[code]
             + bits.KEEP_IN_ENDS * (HEXSIDE_T[code] | BRIDGE_T[code] | ROWHOUSE_T[code])
             + bits.IN_BUILDING * IN_BUILDING_T[code]
             + bits.ON_EDGE * (cls_edge != 0)
             + bits.AS_HIGH_OK * (can_block & ~OUT_OF_SEASON[code] & ~own_rule)
             + bits.LEAVE_FIRST * BUILDING_TERRAIN_T[code]
             + bits.HEXLESS * (lost != 0) + bits.OUT_OF_OWN * (lost == 2))
    nbr = np.full((len(code), 7), -2, dtype=np.int64)
    nbr[:, 0] = hexc
    edge_bits = ((cls_edge[:, None] >> np.arange(6)[None, :]) & 1) == 1
    across = np.where(on_map[:, None], m.neighbours[np.where(on_map, hexc, 0)], -2)
    nbr[:, 1:] = np.where(edge_bits & (across >= 0), across, -2)
    near = (inherent[hexc] & on_map) | (inherent[np.where(nbr[:, 1:] >= 0, nbr[:, 1:], -1)]
                                        & (nbr[:, 1:] >= 0)).any(axis=1)
    return (flags + bits.INHERENT_NEAR * near).astype(np.uint16), nbr


def _tile_max(pix_cls: np.ndarray, W: int, H: int) -> np.ndarray:
    """The highest class of each tile of the frame (the walk skips tiles below a threshold),
    a band of tile rows at a time."""
    size = bits.TILE_SIZE
    rows, cols = -(-H // size), -(-W // size)
    out = np.empty((rows, cols), dtype=np.int32)
    grid = pix_cls.reshape(H, W)
    band = max(1, (1 << 22) // (cols * size * size))          # tile rows at a time
    for t0 in range(0, rows, band):
        t1 = min(rows, t0 + band)
        tiles = np.zeros(((t1 - t0) * size, cols * size), dtype=np.int32)
        got = grid[t0 * size:min(H, t1 * size)]
        tiles[:len(got), :W] = got
        out[t0:t1] = tiles.reshape(t1 - t0, size, cols, size).max(axis=(1, 3))
    return out.ravel()
