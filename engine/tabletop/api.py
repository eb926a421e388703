"""The tabletop room's names the app and the command line use (``engine.api.tabletop``)."""
from __future__ import annotations

from .about import about_element, terrain_effect, ties
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
from .troops import TROOPS, Troop

__all__ = [
    "Shooting", "TargetVerdict",
    "resolution", "shoot", "snap", "FORMAT", "MAX_ELEMENTS", "Element", "Table", "load_table",
    "overlaps", "save_table", "table_from_json", "table_to_json", "TROOPS", "Troop",
    "about_element", "terrain_effect", "ties", "TERRAIN_KINDS", "TerrainPiece",
]
