"""What the compiled walk of lines (``raster_kernel``) and its callers (``raster_frame``,
``raster_table``) agree on: a line's mode bits, a pixel class's bits, the frame's tiles and the
answers the walk writes (their meaning: ``raster_kernel``'s doc).  Plain Python: the compiled
walk is loaded only for a map whose boards are drawn.
"""
from __future__ import annotations

# per line: the mode bits
DROP_ENDS = 2
KEEP_EDGE = 4
KEEP_BUILDING = 8
KEEP_ALL = 16
# per class: what it is (``raster_frame``)
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
# the frame's tiles (``tile_max``: the highest class of each TILE_SIZE x TILE_SIZE pixels)
TILE = 3
TILE_SIZE = 1 << TILE
# a line's answer written by the kernel
GROUND_HIGHER = 1   # A6.2: ground higher than both ends
OBSTACLE_HIGHER = 2  # A6.2: an obstacle higher than both ends
AS_HIGH = 3         # A6.2: as high as the higher end and above the lower ("no height advantage")
STILL_INSIDE = 4    # A6.8: still in the building out of the viewer's hex
