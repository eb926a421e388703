"""Daytime LOS over the terrain as drawn (VASL's point rules), for maps whose boards carry a
raster (``engine.raster_file``).  The layers, each reading only those below it:

- ``table``: ``RasterLosTable``, thin: a viewer's lines walked, their points judged by the
  rules' modules in turn, the first block of each line (A6.1's sixth hindrance);
- the rules, plain functions (points in, masks out): ``depressions`` (A6.3), ``hexsides``
  (B9.2 / B9.52), ``rowhouse`` (B23.71 / O5.31), ``heights`` (A6.1, A6.2, A6.4, B24.1, split
  terrain) with ``cliffs`` (B10.23, B10.2) and ``bridges`` (B6);
- ``points``: the points of a viewer's walk being judged (``Points``, ``Ends``,
  ``Measures``, ``Marks``); ``walk``: the compiled walk called, which lines run along
  hexsides;
- ``frame``: ``Frame``, the map's pixel frame of arrays, built once per map (which hex each
  pixel is in: ``pixels``); ``terrain``: what each terrain code is;
- ``kernel``: VASL's walk of a viewer's lines, compiled (numba), loaded only for a map whose
  boards are drawn; ``bits``: what it and its callers agree on.
"""
from __future__ import annotations

from .frame import Frame, build_frame, map_rasters
from .table import RasterLosTable, raster_table

__all__ = ["Frame", "RasterLosTable", "build_frame", "map_rasters", "raster_table"]
