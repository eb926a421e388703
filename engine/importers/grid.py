"""VASL's hex grid in a board's pixels: where hex centres lie, and which hex holds a pixel."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..hexes import BOARD_COLUMNS, BOARD_ROWS, COLUMN_NAMES, SQRT3, board_hexes
from ..raster_hexes import pixel_centres

MAX_HEX_PIXELS = 160.0                      # hexWidth and hexHeight at most (2.5 x standard)
MIN_HEX_PIXELS = 8.0


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
        return pixel_centres((self.a1_x, self.a1_y, self.hex_width, self.hex_height), col, row)


GEO = Geometry()


def hex_arrays() -> tuple[np.ndarray, np.ndarray]:
    """(columns, printed rows) of a geomorphic board's hexes, as two arrays."""
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


def hex_name(board_id: str, col: int, row: int) -> str:
    """``2E4``: a hex's name on board ``board_id``."""
    return f"{board_id}{COLUMN_NAMES[col]}{row}"
