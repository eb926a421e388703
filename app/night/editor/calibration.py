"""Where a player's scan of a board lies on the map: a similarity transform (scale,
turn and shift, no shear) from two points of the image whose hex centres the player names.

Plain maths, no Qt.  Points are complex numbers ``x + 1j*y`` (y grows downwards both in an image
and on the map, so no mirror is needed).  The chain is: image pixel -> board-local map units
(the calibration: hex centres of the board as if alone in slot [0, 0]) -> map units of the
board's slot and rotation -> scene pixels.  Calibrating in board-local units keeps the image on
its board when the board is moved or turned.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.api import BOARD_ROWS, COLUMN_STEP, SQRT3, center

BOARD_WIDTH = 1.5 * COLUMN_STEP          # map units from the centres of column A to GG
BOARD_HEIGHT = SQRT3 * BOARD_ROWS        # from the long edge to the other


@dataclass(frozen=True)
class Similarity:
    """z -> a * z + b on complex points."""
    a: complex = 1 + 0j
    b: complex = 0j

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        z = self.a * complex(x, y) + self.b
        return z.real, z.imag

    def then(self, other: "Similarity") -> "Similarity":
        """This transform followed by ``other``."""
        return Similarity(other.a * self.a, other.a * self.b + other.b)

    @property
    def scale(self) -> float:
        return abs(self.a)

    @property
    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """(m11, m12, m21, m22, dx, dy) as QTransform takes them (x' = m11 x + m21 y + dx)."""
        a, b = self.a, self.b
        return a.real, a.imag, -a.imag, a.real, b.real, b.imag


def from_two_points(p1, p2, q1, q2) -> Similarity:
    """The similarity taking point ``p1`` to ``q1`` and ``p2`` to ``q2`` (each an (x, y) pair).
    Raises ValueError when the two source points coincide."""
    z1, z2, w1, w2 = (complex(*p) for p in (p1, p2, q1, q2))
    if abs(z2 - z1) < 1e-9:
        raise ValueError("the two calibration points must be different points of the image")
    if abs(w2 - w1) < 1e-9:
        raise ValueError("the two calibration points must be in different hexes")
    a = (w2 - w1) / (z2 - z1)
    return Similarity(a, w1 - a * z1)


def hex_centre(col: int, row: int) -> tuple[float, float]:
    """Board-local map units of a hex centre (the board alone in slot [0, 0], not rotated)."""
    return center(col, row)


def placement(at: tuple[int, int], rotated: bool) -> Similarity:
    """Board-local map units -> map units of a board in slot ``at``, turned 180 degrees when
    ``rotated`` (the turn maps the board's rectangle onto itself: rules.md 1)."""
    shift = complex(BOARD_WIDTH * at[0], BOARD_HEIGHT * at[1])
    if rotated:
        return Similarity(-1 + 0j, complex(BOARD_WIDTH, BOARD_HEIGHT) + shift)
    return Similarity(1 + 0j, shift)


def fitted(width: int, height: int) -> Similarity:
    """A first guess before calibration: the image's width laid across the board."""
    return from_two_points((0, 0), (width, 0), (0, 0), (BOARD_WIDTH, 0))
