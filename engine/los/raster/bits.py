"""What the compiled walk of lines (``kernel``) and its callers (``frame``, ``walk``) agree
on: a line's mode bits, a pixel class's bits, the frame's tiles, the answers the walk writes
(their meaning: ``kernel``'s doc) and the named tuples its arguments travel in.  Plain Python:
the compiled walk is loaded only for a map whose boards are drawn.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

# per line: the mode bits
DROP_ENDS = 2
KEEP_EDGE = 4
KEEP_BUILDING = 8
KEEP_ALL = 16
# per class: what it is (``frame``)
CAN_BLOCK = 1       # on the map, no bridge in its hex, not inherent terrain from another hex
OBSTACLE_CLS = 2    # and an obstacle (not a rowhouse wall: B23.71 apart)
SPLIT_CLS = 4       # split terrain (A6.1 / B14.2)
KEEP_IN_ENDS = 8    # hexside terrain (B9.2), rowhouse walls (B23.71), bridges (B6): judged in
                    # the ends' hexes too
IN_BUILDING = 16    # building, factory or marketplace terrain (A6.8)
ON_EDGE = 32        # in a neighbour's extended border too
AS_HIGH_OK = 64     # can block as high as the higher end (A6.2; not an out-of-season orchard)
LEAVE_FIRST = 128   # building terrain a line must leave first (A6.8: building, marketplace)
INHERENT_NEAR = 256  # in a hex, or a neighbour's extended border, whose centre is inherent
                     # terrain (a line along hexsides may take it there)
HEXLESS = 512       # in no hex for VASL (Map.gridToHex: ``hexless``): a line's walk ends
                    # there, clear so far, unless an end's extended border holds it
OUT_OF_OWN = 1024   # hexless and out of its own (nearest) hex's extended border too
# the frame's tiles (``tile_max``: the highest class of each TILE_SIZE x TILE_SIZE pixels)
TILE = 3
TILE_SIZE = 1 << TILE
# a line's answer written by the kernel
GROUND_HIGHER = 1   # A6.2: ground higher than both ends
OBSTACLE_HIGHER = 2  # A6.2: an obstacle higher than both ends
AS_HIGH = 3         # A6.2: as high as the higher end and above the lower ("no height advantage")
STILL_INSIDE = 4    # A6.8: still in the building out of the viewer's hex


# ------------------------------------------------------------- the compiled walk's arguments
class Pixels(NamedTuple):
    """The frame's pixels: each one's class (flat, row after row), the frame's size, and the
    highest class of each tile (``TILE_SIZE`` pixels square, row after row)."""
    classes: np.ndarray
    width: int
    height: int
    tile_max: np.ndarray


class Classes(NamedTuple):
    """Per pixel class: ground level, obstacle top, what it can matter above (``low``), its
    bits (above), and its hex with the six neighbours whose extended border holds it (-2:
    none); per hex (the void row last): axial coordinates ``q``, ``r``."""
    level: np.ndarray
    top: np.ndarray
    low: np.ndarray
    flags: np.ndarray
    hexes: np.ndarray
    q: np.ndarray
    r: np.ndarray


class Viewer(NamedTuple):
    """The viewer: its centre pixel, its hex and its elevation."""
    x: int
    y: int
    hex: int
    elevation: int


class Lines(NamedTuple):
    """Per line: the pixel difference to its target's centre, its class threshold and mode,
    the higher end's elevation, the target's elevation and hex."""
    dx: np.ndarray
    dy: np.ndarray
    threshold: np.ndarray
    mode: np.ndarray
    higher: np.ndarray
    target_elevation: np.ndarray
    target: np.ndarray


class Walked(NamedTuple):
    """What the walk writes: the points kept (their class and line, room for every point of
    every walk) and per line the answer of a line it answered itself (hex and why)."""
    classes: np.ndarray
    lines: np.ndarray
    answer_hex: np.ndarray
    answer: np.ndarray
