"""VASL's terrain codes for the importers: the table lives in the core (``engine.vasl_terrain``),
where the night loader reads it too (overlays re-derive hexes from pasted pixels)."""
from __future__ import annotations

from ..vasl_terrain import (
                            BUILDING,
                            HEXSIDE_GROUPS,
                            HEXSIDE_IMPORT,
                            INHERENT,
                            VASL_TERRAIN,
                            VOTES,
                            VaslTerrain,
)

__all__ = ["BUILDING", "HEXSIDE_GROUPS", "HEXSIDE_IMPORT", "INHERENT", "VASL_TERRAIN", "VOTES",
           "VaslTerrain"]
