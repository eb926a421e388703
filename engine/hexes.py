"""Hex geometry of geomorphic boards (rules.md 1).

Coordinates
-----------
A hex has a *global* position ``(col, row)`` on the grid of board slots: a board in slot
``(sx, sy)`` starts at global column ``32 * sx`` and global row ``10 * sy`` (this keeps column
parity, so joined half hexes coincide).  Columns with an even index (A, C, ..., GG) sit half a hex
higher than the odd ones for the same row number.

Cube/axial coordinates (our convention): ``q = col``, ``r = row - (col - (col & 1)) // 2``.
Map coordinates are those of regular flat-topped hexes of circumradius 1: the centre of
``(col, row)`` is ``(1.5 * col, sqrt(3) * (row - 0.5 * (1 - col % 2)))``, with y growing south.

Lines of sight (A6.1: centre dot to centre dot) are computed *exactly* with integers: see
``engine.hex_lines``.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

import numpy as np

BOARD_COLUMNS = 33          # A..Z, AA..GG: a geomorphic board, the default size
BOARD_ROWS = 10
DEFAULT_SIZE = (BOARD_COLUMNS, BOARD_ROWS)
MAX_BOARD_COLUMNS = 104     # A..ZZZZ: bounds what a board file may ask for (SPEC.md "size")
MAX_BOARD_ROWS = 99
COLUMN_STEP = 32            # a board starts every 32 global columns (its GG is the next one's A)
ROW_STEP = 10               # ... and every 10 global rows

SQRT3 = math.sqrt(3.0)

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def column_name(col: int) -> str:
    """VASL's column names: A..Z, then AA..ZZ, AAA..ZZZ (one letter repeated)."""
    return _LETTERS[col % 26] * (col // 26 + 1)


COLUMN_NAMES: tuple[str, ...] = tuple(column_name(i) for i in range(BOARD_COLUMNS))  # geomorphic

# ``\Z``, not ``$``: ``$`` also matches before a trailing newline, which let "t1\n" pass as a board
# id and "2CC6\n" as a hex id.  Rows are written without leading zeros ("A1", not "A01": two
# spellings of one hex would let a board file list a hex twice).
BOARD_ID_RE = re.compile(r"^(?:[0-9]+|[a-z][a-z0-9]*)\Z")
_HEX_ID_RE = re.compile(r"^([0-9]+|[a-z][a-z0-9]*)([A-Z]{1,4})(0|[1-9][0-9]?)\Z")
_LOCAL_ID_RE = re.compile(r"^([A-Z]{1,4})(0|[1-9][0-9]?)\Z")

# Directions clockwise from map north (rules.md 1, used by drift E1.922): number -> (dq, dr).
# Keep this the only place that says which way a direction points.
DIRECTIONS: dict[int, tuple[int, int]] = {
    1: (0, -1),   # N
    2: (1, -1),   # NE
    3: (1, 0),    # SE
    4: (0, 1),    # S
    5: (-1, 1),   # SW
    6: (-1, 0),   # NW
}


class HexIdError(ValueError, KeyError):
    """A hex id that cannot be parsed or does not exist on its board (or map).

    Also a KeyError, so that a field (a Mapping of hex ids) answers ``in`` and ``.get`` as a
    Mapping should."""

    def __str__(self) -> str:          # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class Naming(NamedTuple):
    """How a board names its hexes (rules.md 11.6, VASL's ``Map.getGEOHexName`` and
    ``ASLHexGrid``): its first column's name, the row number of its first A, C, E... hex, and
    VASL's ``alternate`` numbering (odd columns numbered one more: B1 half a hex above A1).
    Hex positions (``col``, ``row``) stay the board's own count from A1; only names move.

    The plain naming (A, 1, not alternate) is a geomorphic board's; a "b" half board's first
    column is Q (16), a BFP "DW b" half's first row 11."""
    first_column: int = 0       # 0 = A; even, so that columns keep their parity
    first_row: int = 1          # the printed row of the board's first even-column hex
    alternate: bool = False

    def column(self, col: int) -> str:
        return column_name(col + self.first_column)

    def row_name(self, col: int, row: int) -> int:
        """The printed row number of our (col, row)."""
        return row + self.first_row - 1 + (1 if self.alternate and col % 2 else 0)

    def name(self, col: int, row: int) -> str:
        """``"Q5"``: our (col, row)'s local name."""
        return f"{self.column(col)}{self.row_name(col, row)}"

    def position(self, name_col: int, name_row: int) -> tuple[int, int]:
        """Our (col, row) of a hex named by column index and printed row (any naming)."""
        col = name_col - self.first_column
        return col, name_row - self.first_row + 1 - (1 if self.alternate and col % 2 else 0)

    def check(self, size: tuple[int, int]) -> str | None:
        """None when this naming fits a board of ``size``, else what is wrong."""
        columns, rows = size
        if self.first_column < 0 or self.first_column % 2 \
                or self.first_column + columns > MAX_BOARD_COLUMNS:
            return (f"a first column {column_name(max(self.first_column, 0))} must be A, C, "
                    f"E... (even) and leave the board's {columns} columns within "
                    f"{column_range(MAX_BOARD_COLUMNS)}")
        low = min(self.row_name(c, rows_of_column(c, rows)[0]) for c in (0, 1))
        high = max(self.row_name(c, rows) for c in (0, 1))
        if low < 0 or high > MAX_NAMED_ROW:
            return (f"a first row {self.first_row} names rows {low}..{high}: rows are named "
                    f"0..{MAX_NAMED_ROW}")
        return None

    @property
    def plain(self) -> bool:
        return self == PLAIN


PLAIN = Naming()
MAX_NAMED_ROW = 99          # a hex id's row is at most two digits


class HexId(NamedTuple):
    board: str
    col: int        # 0 = the board's first column (A on most boards) .. 32 = GG
    row: int
    naming: Naming = PLAIN      # how the board names it (rules.md 11.6)

    def __str__(self) -> str:
        return f"{self.board}{self.local}"

    @property
    def local(self) -> str:
        return self.naming.name(self.col, self.row)


def rows_of_column(col: int, rows: int = BOARD_ROWS) -> range:
    """Printed rows of a board column: 1..rows for A, C, E..., 0..rows for B, D, F... (half hexes
    0 and ``rows`` cut by the long edges, rules.md 1; 10 rows on a geomorphic board)."""
    return range(0, rows + 1) if col % 2 else range(1, rows + 1)


def board_hexes(size: tuple[int, int] = DEFAULT_SIZE) -> list[tuple[int, int]]:
    """Every (col, row) printed on one board of ``size`` (columns, rows), column by column."""
    columns, rows = size
    return [(c, n) for c in range(columns) for n in rows_of_column(c, rows)]


def column_range(columns: int) -> str:
    """``"A..GG"`` for 33 columns."""
    return f"A..{column_name(columns - 1)}"


def column_index(name: str) -> int:
    """``"A"`` -> 0, ``"GG"`` -> 32, ``"AAA"`` -> 52 (VASL's names: one letter repeated)."""
    if not isinstance(name, str) or not name or not name.isascii() or not name.isupper() \
            or len(set(name)) != 1 or not name.isalpha():
        raise HexIdError(f"unknown column {name!r} (columns run A..Z, AA..ZZ, AAA..)")
    return (len(name) - 1) * 26 + _LETTERS.index(name[0])


def parse_local(text: str, size: tuple[int, int] = DEFAULT_SIZE,
                naming: Naming = PLAIN) -> tuple[int, int]:
    """``"CC8"`` -> ``(28, 8)``; the hex must exist on a board of ``size`` (columns, rows)
    that names its hexes by ``naming`` (a "b" half board's ``"Q1"`` is its ``(0, 1)``)."""
    if not isinstance(text, str):
        raise HexIdError(f"hex must be a string like 'CC8', not {type(text).__name__}")
    columns, rows = size
    span = f"{naming.column(0)}..{naming.column(columns - 1)}"
    m = _LOCAL_ID_RE.match(text)
    if not m:
        raise HexIdError(f"{text!r} is not a hex of a board (column {span}, then row, e.g. "
                         f"'{naming.name(2, 8 if rows >= 8 else 1)}')")
    col, row = naming.position(column_index(m.group(1)), int(m.group(2)))
    if not 0 <= col < columns:
        raise HexIdError(f"{text!r} is not on a board: columns run {span}")
    if row not in rows_of_column(col, rows):
        named = rows_of_column(col, rows)
        raise HexIdError(f"{text!r} is not on a board: column {m.group(1)} has rows "
                         f"{naming.row_name(col, named[0])}..{naming.row_name(col, named[-1])}")
    return col, row


def parse_hex_id(text: str, size: tuple[int, int] | None = DEFAULT_SIZE,
                 naming: Naming = PLAIN) -> HexId:
    """``"2CC6"`` -> ``HexId("2", 28, 6)``; ``"t1A1"`` -> ``HexId("t1", 0, 1)``.

    The hex must exist on a board of ``size`` naming its hexes by ``naming``; ``size=None``
    checks only the spelling (a map knows its boards' sizes and namings): the column and row
    are then those of the name (plain naming)."""
    if not isinstance(text, str):
        raise HexIdError(f"hex id must be a string like '2CC6', not {type(text).__name__}")
    m = _HEX_ID_RE.match(text)
    if not m:
        raise HexIdError(f"{text!r} is not a hex id (board id, column A..GG, row: e.g. '2CC6')")
    if size is None:
        return HexId(m.group(1), column_index(m.group(2)), int(m.group(3)))
    col, row = parse_local(m.group(2) + m.group(3), size, naming)
    return HexId(m.group(1), col, row, naming)


# ----------------------------------------------------------------------------------- cube maths

def to_axial(col, row):
    """Global (col, row) -> axial (q, r); works on numpy arrays too."""
    return col, row - (col - (col & 1)) // 2


def from_axial(axial_q, axial_r):
    """Axial (q, r) -> global (col, row); works on numpy arrays too."""
    return axial_q, axial_r + (axial_q - (axial_q & 1)) // 2


def axial_distance(dq, dr):
    """Hex distance of an axial difference; numpy-friendly."""
    if isinstance(dq, np.ndarray) or isinstance(dr, np.ndarray):
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_range(start: tuple[int, int], end: tuple[int, int]) -> int:
    """Range between global hexes: fewest hexes from start to end, counting end, not start (rules.md 1)."""
    qa, ra = to_axial(*start)
    qb, rb = to_axial(*end)
    return axial_distance(qb - qa, rb - ra)


def step(pos: tuple[int, int], direction: int, count: int = 1) -> tuple[int, int]:
    """The global hex ``count`` hexes from ``pos`` in ``direction`` (1..6, see DIRECTIONS)."""
    dq, dr = DIRECTIONS[direction]
    q, r = to_axial(*pos)
    return from_axial(q + count * dq, r + count * dr)


def neighbours(pos: tuple[int, int]) -> list[tuple[int, int]]:
    """The six adjacent global hexes, in direction order 1..6."""
    return [step(pos, d) for d in range(1, 7)]


def ring(center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    """Hexes at exactly ``radius`` from ``center`` (the centre itself for radius 0)."""
    if radius == 0:
        return [center]
    q, r = to_axial(*center)
    dq, dr = DIRECTIONS[5]
    q, r = q + dq * radius, r + dr * radius       # start SW, walk the six sides
    out = []
    for d in (3, 2, 1, 6, 5, 4):
        ddq, ddr = DIRECTIONS[d]
        for _ in range(radius):
            out.append(from_axial(q, r))
            q, r = q + ddq, r + ddr
    return out


def disc(center: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    """Hexes within ``radius`` of ``center`` (inclusive)."""
    out = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


# --------------------------------------------------------------------------- map coordinates

def center(col, row):
    """Map coordinates of a hex centre (circumradius 1, flat-topped, y south); numpy-friendly."""
    x = 1.5 * np.asarray(col, dtype=float)
    y = SQRT3 * (np.asarray(row, dtype=float) - 0.5 * (1 - (np.asarray(col) % 2)))
    if np.ndim(x) == 0:
        return float(x), float(y)
    return x, y


_CORNER_ANGLES = np.radians(np.arange(0, 360, 60))
CORNER_OFFSETS = np.stack([np.cos(_CORNER_ANGLES), np.sin(_CORNER_ANGLES)], axis=1)


def corners(col: int, row: int) -> np.ndarray:
    """The six corners (6 x 2) of a hex in map coordinates, starting east, clockwise (y south)."""
    cx, cy = center(col, row)
    return CORNER_OFFSETS + np.array([cx, cy])


def pixel_to_hex(map_x: float, map_y: float) -> tuple[int, int]:
    """The global (col, row) of the hex containing map point (map_x, map_y)."""
    q = (2.0 / 3.0) * map_x
    # the inverse of center(): with row = r + (q - (q & 1)) // 2, both column parities give
    # y = sqrt3 * (r + q/2 - 1/2)  (the half hex is what A, C, E... columns sit higher)
    r = map_y / SQRT3 - q / 2.0 + 0.5
    rq, rr = cube_round(q, r)
    return from_axial(rq, rr)


def cube_round(axial_q: float, axial_r: float) -> tuple[int, int]:
    s = -axial_q - axial_r
    rq, rr, rs = round(axial_q), round(axial_r), round(s)
    dq, dr, ds = abs(rq - axial_q), abs(rr - axial_r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)
