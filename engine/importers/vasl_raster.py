"""The terrain as drawn (``engine.raster_file``) of an imported VASL board, both kinds.

- VASL 6 archives (``LOSData``): the per-pixel terrain codes and elevations as VASL holds them,
  transposed to image order.
- VASL 5 archives (a board image and its colours): VASL's own image-to-LOS pipeline
  (``vasl5_grid``: colours, nearest terrain and level for the pixels of none, cliffs,
  ``BoardMetadata.xml``'s building types, factory walls, depressions, sunken roads).
"""
from __future__ import annotations

import numpy as np

from ..raster_file import Raster
from .grid import Geometry
from .losdata import LosData
from .vasl5_grid import Vasl5Pixels


def raster_from_los(los: LosData, geometry: Geometry, size: tuple[int, int]) -> Raster:
    """The raster of a decoded ``LOSData`` (indexed [x, y] there)."""
    return Raster(np.ascontiguousarray(los.terrain.T).astype(np.uint8),
                  np.ascontiguousarray(los.elevation.T).astype(np.int8),
                  (geometry.a1_x, geometry.a1_y, geometry.hex_width, geometry.hex_height),
                  tuple(size))


def raster_from_vasl5(pixels: Vasl5Pixels) -> Raster:
    """The raster of a VASL 5 board image with its colour table, from the grid VASL's own
    image-to-LOS pipeline makes of it (``vasl5_grid``)."""
    geo = pixels.geometry
    return Raster(pixels.code, pixels.level, (geo.a1_x, geo.a1_y, geo.hex_width, geo.hex_height),
                  pixels.size)

