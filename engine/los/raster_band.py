"""A line's hexes before its pixels, for ``raster_frame``: the hexes a walk's pixels can lie in
(every hex whose centre is within one hexagon's reach of the segment between the ends, widened
by the walk's own distance from it), so that a line whose every such hex is plain ground at or
below its floor (A6.2, A6.4, A6.1: plain terrain not above the lower end neither blocks nor
hinders) is known clear without reading a pixel.

Geometry, in the hex scaled regular (VASL's ``Hex``: x * 1.5 / hex width, y * sqrt(3) / hex
height; centres sqrt(3) apart, a pixel within 1 of its hex's centre, the one nearest it).  A
walk's point lies within 2 pixels of the segment between the ends' truncated centres (VASL's
``Map.LOS``: the rows between a column's entry and exit; its slope per column 1/(dx + 1)), and
each truncated (and clipped) centre within ``deviation`` of its ideal one.  The hexes of one
difference (the viewer's column parity, columns and rows apart) are the same for every viewer:
kept per map as offsets in its hex grid.
"""
from __future__ import annotations

import threading

import numpy as np

from ..hexes import SQRT3

MAX_BAND_POINTS = 4_000_000      # hex offsets kept per map (int32: 16 MB at most)
PADDING = 3                      # grid columns and rows around the map (off-map hexes: void)


class HexBands:
    """Per map: its hex grid (map index, or ``void`` off the map, padded), and the band of grid
    offsets of each line difference (built once, at most ``MAX_BAND_POINTS`` kept)."""

    def __init__(self, col: np.ndarray, row: np.ndarray, reach: float, void: int):
        self.reach = float(reach)       # scaled: a hex counts within this of the segment
        self.c0 = int(col.min()) - PADDING
        self.r0 = int(row.min()) - PADDING
        self.rows = int(row.max()) - self.r0 + 1 + PADDING
        cols = int(col.max()) - self.c0 + 1 + PADDING
        self.grid = np.full(cols * self.rows, void, dtype=np.int32)
        self.cell = (col - self.c0) * self.rows + (row - self.r0)
        self.grid[self.cell] = np.arange(len(col))
        self.col, self.row = col, row
        self._bands: dict = {}
        self._points = 0
        self._lock = threading.Lock()

    def cells(self, viewer: int, targets: np.ndarray):
        """The grid cells (flat: ``grid`` holds their hexes, or void) a line from ``viewer`` to
        each of ``targets`` can meet, and how many per line (lines in order; none empty)."""
        dc = self.col[targets] - self.col[viewer]
        dr = self.row[targets] - self.row[viewer]
        parity = int(self.col[viewer] % 2)
        keys = ((dc * 4096 + dr) * 2 + parity).tolist()
        with self._lock:
            missing = sorted({k for k in keys if k not in self._bands})
            if missing:
                if self._points > MAX_BAND_POINTS:
                    self._bands.clear()
                    self._points = 0
                    missing = sorted(set(keys))
                mk = np.array(missing, dtype=np.int64)
                p = mk % 2
                rest = mk // 2
                mdc = (rest + 2048) // 4096
                mdr = rest - mdc * 4096
                for key, offs in zip(missing, band_offsets(p, mdc, mdr, self.reach)):
                    self._bands[key] = (offs[0] * self.rows + offs[1]).astype(np.int32)
                    self._points += offs.shape[1]
            parts = [self._bands[k] for k in keys]
        lens = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        return np.concatenate(parts) + int(self.cell[viewer]), lens

    def col_row(self, cells: np.ndarray):
        """The map's (column, row) of grid cells."""
        return cells // self.rows + self.c0, cells % self.rows + self.r0


def band_offsets(parity: np.ndarray, dcol: np.ndarray, drow: np.ndarray, reach: float
                 ) -> list[np.ndarray]:
    """Per difference (the viewer's column parity, target columns and rows apart): the (column,
    row) offsets, shape (2, k), of every hex whose centre lies within ``reach`` of the segment
    between the two centres (scaled regular hexes).  Column by column: the rows the segment's
    reach spans there, then each centre's distance checked."""
    parity, dcol, drow = (np.asarray(a, dtype=np.int64) for a in (parity, dcol, drow))
    U = 1.5 * dcol
    V = SQRT3 * (drow + (((parity + dcol) % 2) - parity) / 2)
    spread = int(np.ceil(reach / 1.5))
    clo = np.minimum(0, dcol) - spread
    ncol = np.abs(dcol) + 2 * spread + 1
    start = np.cumsum(ncol) - ncol
    li = np.repeat(np.arange(len(dcol)), ncol)
    c = np.arange(int(ncol.sum())) - np.repeat(start, ncol) + np.repeat(clo, ncol)
    u = 1.5 * c
    # the segment's rows over the column's reach [u - reach, u + reach] (clipped to its ends)
    Ul, Vl = U[li], V[li]
    ua = np.clip(u - reach, np.minimum(0, Ul), np.maximum(0, Ul))
    ub = np.clip(u + reach, np.minimum(0, Ul), np.maximum(0, Ul))
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.where(Ul != 0, Vl / Ul, 0.0)
    va, vb = ua * slope, ub * slope
    vert = Ul == 0                                 # a line along one column
    vlo = np.where(vert, np.minimum(0, Vl), np.minimum(va, vb)) - reach
    vhi = np.where(vert, np.maximum(0, Vl), np.maximum(va, vb)) + reach
    off = (((parity[li] + c) % 2) - parity[li]) / 2       # a centre's row offset, this column
    rlo = np.ceil(vlo / SQRT3 - off).astype(np.int64)
    rhi = np.floor(vhi / SQRT3 - off).astype(np.int64)
    nrow = np.maximum(rhi - rlo + 1, 0)
    rstart = np.cumsum(nrow) - nrow
    cc = np.repeat(c, nrow)
    rr = np.arange(int(nrow.sum())) - np.repeat(rstart, nrow) + np.repeat(rlo, nrow)
    owner = np.repeat(li, nrow)
    # each centre's distance to the segment
    pu = 1.5 * cc
    pv = SQRT3 * (rr + np.repeat(off, nrow))
    su, sv = U[owner], V[owner]
    norm = su * su + sv * sv
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(norm > 0, np.clip((pu * su + pv * sv) / norm, 0.0, 1.0), 0.0)
    near = (pu - s * su) ** 2 + (pv - s * sv) ** 2 <= reach * reach
    cc, rr, owner = cc[near], rr[near], owner[near]
    cuts = np.searchsorted(owner, np.arange(1, len(dcol)))
    return np.split(np.vstack([cc, rr]), cuts, axis=1)


def walk_reach(hex_width: float, hex_height: float, deviation: float) -> float:
    """How far (scaled) from the segment between two ideal centres a hex's centre can be and
    its pixels still meet the walk: the hexagon (1), the walk's 2 pixels and the ends'
    ``deviation`` (pixels; both axes), with a margin for rounding."""
    per_pixel = max(1.5 / hex_width, SQRT3 / hex_height)
    return 1.0 + (2.0 + deviation * SQRT3 + 0.5) * per_pixel + 0.01


def index_reach(hex_width: float, hex_height: float) -> float:
    """How far apart in a walk (its index: |x| + |y| from the viewer, the walk being monotone
    in both) a hex's pixels can be from its centre: the hexagon within the ellipse of radii
    hex width / 1.5 and hex height / sqrt(3), plus 2 pixels for rounding."""
    return float(np.hypot(hex_width / 1.5, hex_height / SQRT3)) + 2.0


def pixel_reach(hex_width: float, hex_height: float) -> float:
    """How far (pixels) a hex's pixels can lie from its centre: its hexagon's farthest vertex
    (the regular hexagon scaled by hex width / 1.5 and hex height / sqrt(3)), plus a pixel
    for rounding."""
    return max(hex_width / 1.5, float(np.hypot(hex_width / 3, hex_height / 2))) + 1.0


WALK_OFF = 2.5     # pixels: a walk's point to the segment between the ends (2, and rounding)


def index_spans(X: np.ndarray, Y: np.ndarray, tx: np.ndarray, ty: np.ndarray,
                reach: float, loose: float):
    """The walk indices (|x| + |y| from the viewer) at which a walk to (tx, ty) can meet a
    hex centred at (X, Y) (pixels from the viewer, ``reach`` its pixels' farthest): the
    segment's stretch within reach + ``WALK_OFF`` of the centre, widened by the walk's
    distance from it; never wider than ``loose`` either side of the centre's own index.
    (first, last), first > last where the hex is out of reach."""
    sx, sy = np.where(tx >= 0, 1.0, -1.0), np.where(ty >= 0, 1.0, -1.0)
    length = np.hypot(tx, ty)
    ex, ey = tx / length, ty / length
    along = X * ex + Y * ey
    across = np.abs(X * ey - Y * ex)
    r = reach + WALK_OFF
    half = np.sqrt(np.maximum(r * r - across * across, 0.0))
    t0 = np.maximum(along - half, 0.0)
    t1 = np.minimum(along + half, length)
    lean = sx * ex + sy * ey                    # the index's growth along the segment
    at = sx * X + sy * Y
    first = np.maximum(np.floor(t0 * lean - 1.5 * WALK_OFF), np.floor(at - loose))
    last = np.minimum(np.ceil(t1 * lean + 1.5 * WALK_OFF), np.ceil(at + loose))
    empty = (across > r) | (t0 > t1)
    return first.astype(np.int64), np.where(empty, -1, last.astype(np.int64))
