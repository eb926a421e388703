"""The tabletop room's names the app and the command line use (``engine.api.tabletop``)."""
from __future__ import annotations

from .about import about_element, terrain_effect, ties
from .geometry import CORNERS, TOL, corners, forward, rightward
from .rolls import resolution, shoot
from .shooting import Shooting, TargetVerdict
from .snap import snap
from .table import (
    FORMAT,
    MAX_ELEMENTS,
    Element,
    Table,
    load_table,
    overlaps,
    save_table,
    table_from_json,
    table_to_json,
)
from .terrain import KINDS as TERRAIN_KINDS
from .terrain import TerrainPiece
from .troops import BW_MM, TROOPS, Troop, depth_bw

__all__ = [
    "CORNERS", "TOL", "corners", "forward", "rightward", "Shooting", "TargetVerdict",
    "resolution", "shoot", "snap", "FORMAT", "MAX_ELEMENTS", "Element", "Table", "load_table",
    "overlaps", "save_table", "table_from_json", "table_to_json", "BW_MM", "TROOPS", "Troop",
    "depth_bw", "about_element", "terrain_effect", "ties", "TERRAIN_KINDS", "TerrainPiece",
]
