"""The tabletop room's names the app and the command line use (``engine.api.tabletop``)."""
from __future__ import annotations

from .about import about_element, terrain_effect, ties
from .geometry import forward
from .rolls import resolution, shoot
from .shooting import Shooting, TargetVerdict
from .snap import facing_to, gap_needed, push_flush, snap, turned
from .table import (
    FORMAT,
    MAX_ELEMENTS,
    Element,
    Table,
    element_as_saved,
    load_table,
    overlaps,
    save_table,
    table_from_json,
    table_to_json,
)
from .terrain import KINDS as TERRAIN_KINDS
from .terrain import TerrainPiece, checked_piece, transformed
from .troops import TROOPS, Troop

__all__ = [
    "Shooting", "TargetVerdict", "forward", "resolution", "shoot", "snap", "push_flush",
    "gap_needed", "turned", "facing_to", "FORMAT", "MAX_ELEMENTS", "Element", "element_as_saved",
    "Table", "load_table", "overlaps", "save_table", "table_from_json", "table_to_json", "TROOPS",
    "Troop", "about_element", "terrain_effect", "ties", "TERRAIN_KINDS", "TerrainPiece",
    "checked_piece", "transformed",
]
