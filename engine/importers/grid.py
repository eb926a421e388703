"""VASL's hex grid in a board's pixels: where hex centres lie, and which hex holds a pixel."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..hexes import BOARD_COLUMNS, BOARD_ROWS, PLAIN, SQRT3, Naming, board_hexes
from ..raster_hexes import pixel_centres

MAX_HEX_PIXELS = 400.0                      # hexWidth and hexHeight at most (Deluxe: 168.79 x 194.2)
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


def hex_arrays(size: tuple[int, int] = (BOARD_COLUMNS, BOARD_ROWS)
               ) -> tuple[np.ndarray, np.ndarray]:
    """(columns, printed rows) of a board's hexes (a geomorphic board's by default)."""
    hexes = board_hexes(tuple(size))
    return (np.array([c for c, _ in hexes], dtype=np.int64),
            np.array([n for _, n in hexes], dtype=np.int64))


def hex_of_pixels(geometry: Geometry, xs: np.ndarray, ys: np.ndarray,
                  size: tuple[int, int] = (BOARD_COLUMNS, BOARD_ROWS)):
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
        c = np.clip(c0 + dc, 0, size[0] - 1)
        odd = c % 2
        vrow = np.rint((ys - geometry.a1_y + half * odd) / geometry.hex_height).astype(np.int64)
        n = np.clip(vrow + 1 - odd, 1 - odd, size[1])
        cx, cy = geometry.centres(c, n)
        d = ((xs - cx) / side) ** 2 + ((ys - cy) / half * SQRT3 / 2) ** 2
        closer = d < best_d
        best_d = np.where(closer, d, best_d)
        best_c = np.where(closer, c, best_c)
        best_n = np.where(closer, n, best_n)
    return best_c, best_n


def hex_name(board_id: str, col: int, row: int, naming: Naming = PLAIN) -> str:
    """``2E4``: a hex's name on board ``board_id`` (named by ``naming``, rules.md 11.6)."""
    return f"{board_id}{naming.name(col, row)}"


WHOLE_HEXES = 0.02          # a negative A1CenterX within this many hex widths of a whole count


def grid_naming(a1_x: float | None, a1_y: float | None, hex_width: float, hex_height: float,
                size: tuple[int, int]) -> tuple[Naming, list[str]]:
    """rules.md 11.6: how VASL names the hexes of a board whose A1 lies off its picture, from
    the metadata's (or ``data`` file's) raw ``A1CenterX``, ``A1CenterY``; (naming, notes).

    - A negative ``A1CenterX`` a whole, even number of hex widths (``-901`` = 16 x 56.3125: the
      "b" half boards) names the picture's first column that many columns on (Q): VASL's
      ``Map.getGEOHexName`` and its hex grid (``ASLHexGrid``, x0) agree.  Any other negative
      one: VASL's LOS names the first column A (its grid does not), and so do we, said.
    - A negative ``A1CenterY`` (the BFP "DW b" halves) numbers the rows on from the hexes above
      the picture: VASL's ``rowOffset = (int) (-A1CenterY / hexHeight) + 1`` is added to each."""
    notes: list[str] = []
    first_column = 0
    if a1_x is not None and a1_x < 0:
        count = -a1_x / hex_width
        whole = round(count)
        if abs(count - whole) <= WHOLE_HEXES and whole % 2 == 0:
            first_column = int(whole)
        else:
            notes.append(f"A1CenterX={a1_x:g} is {count:.2f} hex widths left of the picture, "
                         "no whole even count of columns: its first column is named A, as "
                         "VASL's LOS names it (VASL's hex grid names it otherwise)")
    first_row = int(-a1_y / hex_height) + 2 if a1_y is not None and a1_y < 0 else 1
    naming = Naming(first_column, first_row)
    problem = naming.check(size)
    if problem:
        notes.append(f"A1CenterX={a1_x}, A1CenterY={a1_y}: {problem}; hexes named from A1")
        return PLAIN, notes
    if not naming.plain:
        notes.append(f"hexes named as VASL names them (rules.md 11.6): columns "
                     f"{naming.column(0)}..{naming.column(size[0] - 1)}, the first column's "
                     f"first hex {naming.name(0, 1)}")
    return naming, notes
