"""The pixels of a map's frame that lie in no hex for VASL (``Map.gridToHex`` finds none), for
``frame``: a line's walk ends there, clear with what it met so far (VASL's ``Map.LOS``: no hex
under the point, the walk returns).

VASL finds a pixel's hex by arithmetic in the middle third of each hex column (the column's
strip, the row by truncating y over the hex height) and, in the thirds between two columns
(where the hexsides slant), by testing the pixel against the outlines of the hexes around it in
a fixed order (java.awt.Polygon's rule).  Those outlines have whole-pixel vertices (rounded) and
a vertex a pixel or two off the grid moved onto its last row or column (``Hex.fixMapEdgePoints``):
where two neighbours' copies of a shared vertex round or move differently, pixels between their
outlines are in neither (on VASL 6 Deluxe boards, along the bottom edge).  Where the outlines
meet exactly (geomorphic and half boards) no pixel is hexless and nothing changes.

Geometry only: a pixel's hex otherwise stays the nearest centre's (``pixels``); only the
pixels VASL places in no hex are named here.
"""
from __future__ import annotations

import numpy as np

from ...maps import Map
from .pixels import PixelHexes, hex_vertices, java_contains

PIXELS_AT_ONCE = 1 << 20    # pixels looked up at a time (whole rows)
EDGE_ROOM = 4               # pixels from the frame's edges where a moved vertex can reach


class _Grid:
    """VASL's hex grid of the map (``hexGrid[col][row]``): the map's index of each cell (-1
    none), the length of each column, the hex rows of an even column (``Map.height``) and
    the hexes' outlines (rounded vertices)."""

    def __init__(self, m: Map, W: int, H: int, geometry):
        vrow = m.row - 1 + m.col % 2
        self.cols = int(m.col.max()) + 1
        self.lens = np.zeros(self.cols, dtype=np.int64)
        np.maximum.at(self.lens, m.col, vrow + 1)
        self.cells = np.full((self.cols, int(self.lens.max())), -1, dtype=np.int64)
        self.cells[m.col, vrow] = np.arange(m.size)
        even = self.lens[0::2]
        self.height = int(even.max()) if len(even) else 0
        vx, vy = hex_vertices(m, W, H, geometry)
        # Hex.initHexNew: hexBorder's vertices are Math.round of the (moved) vertices
        self.xp = np.floor(vx + 0.5).astype(np.int64)
        self.yp = np.floor(vy + 0.5).astype(np.int64)

    def length(self, c):
        """``hexGrid[c].length`` (-1 for a column off the grid)."""
        ok = (c >= 0) & (c < self.cols)
        return np.where(ok, self.lens[np.clip(c, 0, self.cols - 1)], -1)

    def cell(self, c, r):
        """The map's hex at VASL's ``hexGrid[c][r]``, -1 off the grid or not on the map."""
        ok = (c >= 0) & (c < self.cols) & (r >= 0) & (r < self.cells.shape[1])
        return np.where(ok, self.cells[np.clip(c, 0, self.cols - 1),
                                       np.clip(r, 0, self.cells.shape[1] - 1)], -1)

    def contains(self, hexes, X, Y) -> np.ndarray:
        """Hex.contains: each pixel (X, Y) in the outline of its hex of ``hexes`` (-1: no)."""
        out = np.zeros(len(hexes), dtype=bool)
        on = np.flatnonzero(hexes >= 0)
        if len(on):
            out[on] = java_contains(self.xp, self.yp, hexes[on], X[on], Y[on])
        return out


def _columns(geometry, xs: np.ndarray):
    """Per pixel column x: whether it lies in a third between two hex columns (VASL's "grey
    area") and the hex column gridToHex starts from."""
    a1x, _, hw, _ = geometry
    z = np.trunc((xs - max(a1x, 0.0)) / (hw / 3.0)).astype(np.int64)
    grey = np.fmod(z - 1, 3) == 0
    col = np.where(grey, np.ceil((z - 1.0) / 3.0), np.ceil(z / 3.0)).astype(np.int64)
    return grey, col


def _rows(geometry, ys: np.ndarray, col: np.ndarray) -> np.ndarray:
    """gridToHex's row in ``col`` of each pixel row (rows of even columns start at the top)."""
    hh = geometry[3]
    even = np.trunc(ys / hh).astype(np.int64)
    odd = np.trunc((ys + hh / 2.0) / hh).astype(np.int64)
    return np.where(col % 2 == 0, even, odd)


def hexless_pixels(game_map: Map, width: int, height: int, geometry, px: PixelHexes
                   ) -> np.ndarray:
    """The flat indices (sorted) of the frame's pixels that lie in a map hex by the nearest
    centre (``px``) but in none for VASL's ``Map.gridToHex`` (module doc).  VASL's arithmetic
    reads rows from the top edge, A1's centre half a hex down (every board kind it builds hexes
    for); on another grid, none."""
    m, W, H = game_map, width, height
    a1x, a1y, hw, hh = geometry
    if a1y != hh / 2.0 or m.size == 0 or int(m.col.min()) < 0 or int(m.row.min()) < 0:
        return np.zeros(0, dtype=np.int64)
    grid = _Grid(m, W, H, geometry)
    grey, col = _columns(geometry, np.arange(W, dtype=np.float64))
    ys = np.arange(H, dtype=np.float64)
    found = []
    # a cell gridToHex reads first that is not on the grid: no hex (its exception)
    band = max(1, PIXELS_AT_ONCE // W)
    for y0 in range(0, H, band):
        y1 = min(H, y0 + band)
        rows = _rows(geometry, ys[y0:y1, None], col[None, :])
        missing = grid.cell(col[None, :], rows) < 0
        flat = np.flatnonzero(missing) + y0 * W
        found.append(flat[px.hexi[flat] >= 0])
    missing = np.concatenate(found)
    # between two columns, the pixels near a hexside (or the frame's edges, where a vertex
    # moves) may be in no outline; any other is in its nearest hex's (a vertex moves 3.5
    # pixels at most)
    cand = np.zeros((H, W), dtype=bool)
    flat = cand.ravel()
    for lst in px.near:
        for part in lst:
            flat[part] = True
    cand[:EDGE_ROOM] = cand[-EDGE_ROOM:] = True
    cand[:, :EDGE_ROOM] = cand[:, -EDGE_ROOM:] = True
    cand[:, ~grey] = False
    flat[missing] = False
    cand = np.flatnonzero(flat & (px.hexi >= 0))
    # in the outline of its nearest hex: gridToHex finds a hex (that one, or one tried before)
    cand = cand[~grid.contains(px.hexi[cand].astype(np.int64), cand % W, cand // W)]
    outside = cand[_outside(grid, cand % W, cand // W, col[cand % W], geometry)]
    return np.union1d(missing, outside)


def _outside(grid: _Grid, X, Y, col, geometry) -> np.ndarray:
    """Per pixel between two hex columns (its ``hexGrid[col][row]`` on the grid): whether
    gridToHex finds it in no hex, its outlines tried in its order."""
    row = _rows(geometry, Y.astype(np.float64), col)
    n = len(X)
    undecided = np.ones(n, dtype=bool)

    def attempt(dc, dr, allowed):
        nonlocal undecided
        hexes = np.where(allowed & undecided, grid.cell(col + dc, row + dr), -1)
        undecided &= ~grid.contains(hexes, X, Y)

    here, left, right = grid.length(col), grid.length(col - 1), grid.length(col + 1)
    attempt(0, 0, np.ones(n, dtype=bool))
    attempt(0, -1, (row - 1 >= 0) & (row - 1 < here))
    attempt(0, 1, row + 1 < here)
    attempt(1, 0, row < right)
    attempt(1, -1, (row - 1 >= 0) & (row - 1 < right))
    attempt(1, 1, row + 1 < right)
    attempt(-1, 0, row < left)
    attempt(-1, -1, (row - 1 >= 0) & (row - 1 < left))
    last = row + 1 < left
    attempt(-1, 1, last)
    # no cell below-left on the grid: an even column's tries were all made above; an odd
    # column's last row takes the hex above-right whatever its outline (row == Map.height)
    odd_tail = undecided & ~last & (col % 2 == 1) & (row - 1 >= 0) & (row - 1 < right)
    undecided &= ~(odd_tail & (row == grid.height))
    return undecided
