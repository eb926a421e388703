"""Daytime line of sight (A6), the base that night rules restrict: one table per map.

- ``geometry``: the crossings of canonical lines and the grid's symmetries, shared by all maps;
- ``hex_table``: ``LosTable``, the hex model's lines (A6.1, A6.2, A6.4), with
  ``hexside_terrain`` (rules.md 7: walls, hedges, bocage, cliffs);
- ``raster``: ``RasterLosTable``, lines over the terrain as drawn (VASL's point rules), a
  package: the map's frame of arrays, one module of plain functions per rule, the compiled
  walk of lines (its doc);
- ``day_lines``: what both answer (``DayLines``, the codes of why a line is blocked);
- ``explain``: the answers in words;
- ``ground``: every ground-level pair of a map, precomputed in the background (it reads the
  tables through ``los_table`` below, so this package does not import it).

Here: ``los_table``, the factory that picks a map's table (the raster one when every board of
the map carries its terrain as drawn, else the hex one), cached by map content; ``building``,
how the drawn maps' frames built meanwhile report their progress and bound their pixel
classes (``MAX_PIXEL_CLASSES``: the command line's bound).
"""
from __future__ import annotations

from ..cache import per_map
from ..maps import Map
from .day_lines import (
    BLIND,
    BUILDING_EXIT,
    CLEAR,
    DEPRESSION,
    EQUAL,
    HALF,
    HIGHER,
    HILL,
    HINDRANCES,
    KIND_RULE,
    MAX_HINDRANCES,
    WALL,
    DayLines,
)
from .explain import explain_block, hexside_words, hexsides_crossed
from .geometry import CROSSINGS, GEOMETRY_LOCK
from .hex_table import LosTable
from .hexside_terrain import OFF_MAP_LEVEL
from .raster import RasterLosTable, map_rasters, raster_table
from .raster.build import MAX_PIXEL_CLASSES, PixelClassesPastBound, building

_MAX_TABLES = 8


@per_map(_MAX_TABLES)
def _table(game_map: Map) -> LosTable:
    # boards that carry the terrain as drawn (engine.raster_file): VASL's point rules
    return raster_table(game_map) or LosTable(game_map)


def los_table(game_map: Map) -> LosTable:
    """The LOS table of a map, shared by every scenario on a map of the same content (one
    table built at a time: ``engine.cache``)."""
    with GEOMETRY_LOCK:
        return _table(game_map)


__all__ = ["MAX_PIXEL_CLASSES", "PixelClassesPastBound", "building",
           "BLIND", "BUILDING_EXIT", "CLEAR", "CROSSINGS", "DEPRESSION", "EQUAL", "HALF", "HIGHER", "HILL",
           "HINDRANCES", "KIND_RULE", "MAX_HINDRANCES", "OFF_MAP_LEVEL", "WALL", "DayLines",
           "LosTable", "RasterLosTable", "explain_block", "hexside_words", "hexsides_crossed",
           "los_table", "map_rasters", "raster_table"]
