"""What a LOS table answers (A6): ``DayLines``, and the codes of why a line is blocked.

Both tables (the hex model's ``hex_table.LosTable`` and the drawn terrain's
``raster.RasterLosTable``) answer with ``DayLines``, so the night layer, the LOS thread
and the precomputed ground tables read either unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# why a line is blocked (codes kept in arrays; sentences built only when asked for)
CLEAR, HILL, HIGHER, EQUAL, BLIND, HINDRANCES, HALF, WALL = 0, 1, 2, 3, 4, 5, 6, 7
DEPRESSION = 8      # A6.3, judged on drawn terrain (engine.los.raster)
BUILDING_EXIT = 9   # A6.8 Example 2, judged on drawn terrain (engine.los.raster)
MAX_HINDRANCES = 6          # A6.1: six hindrances block

KIND_RULE = {HILL: "A6.2", HIGHER: "A6.2", EQUAL: "A6.2", BLIND: "A6.4", HINDRANCES: "A6.1",
             HALF: "B24.1 / A6.2", WALL: "B9.2", DEPRESSION: "A6.3",
             BUILDING_EXIT: "A6.8 Example 2"}


@dataclass
class DayLines:
    """Daytime LOS from one location to many targets (arrays aligned with ``targets``)."""
    viewer: int
    viewer_elev: int
    targets: np.ndarray
    target_elev: np.ndarray
    clear: np.ndarray           # bool
    kind: np.ndarray            # why the first blocking entry blocks (CLEAR when clear)
    block_h1: np.ndarray        # that entry's hexes (map indices; equal for a hex), -1 when clear
    block_h2: np.ndarray
    hindrances: np.ndarray      # hindrances met before the block (all of them when clear)
    block_side: np.ndarray | None = None   # hexside terrain code of the block (0: a hex)
