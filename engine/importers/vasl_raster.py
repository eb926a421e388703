"""The terrain as drawn (``engine.raster_file``) of an imported VASL board, both kinds.

- VASL 6 archives (``LOSData``): the per-pixel terrain codes and elevations as VASL holds them,
  transposed to image order.
- VASL 5 archives (a board image and its colours): VASL's own image-to-LOS pipeline
  (``vasl5_grid``: colours, nearest terrain and level for the pixels of none, cliffs,
  ``BoardMetadata.xml``'s building types, factory walls, depressions, sunken roads).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import ScenarioError
from ..raster_file import Raster
from . import vasl5_image, vasl6
from .grid import Geometry
from .losdata import LosData
from .vasl5_grid import Vasl5Pixels, vasl5_pixels


def raster_from_los(los: LosData, geometry: Geometry, size: tuple[int, int]) -> Raster:
    """The raster of a decoded ``LOSData`` (indexed [x, y] there)."""
    return Raster(np.ascontiguousarray(los.terrain.T).astype(np.uint8),
                  np.ascontiguousarray(los.elevation.T).astype(np.int8),
                  (geometry.a1_x, geometry.a1_y, geometry.hex_width, geometry.hex_height),
                  tuple(size))


def raster_from_vasl5(archive: vasl5_image.Vasl5Archive,
                      pixels: Vasl5Pixels | None = None, progress=None) -> Raster:
    """The raster decoded from a VASL 5 board image with its colour table, as VASL's own
    image-to-LOS pipeline makes it (``vasl5_grid``); ``pixels``: that grid, already made."""
    if pixels is None:
        pixels = vasl5_pixels(archive, progress=progress)
    geo = pixels.geometry
    return Raster(pixels.code, pixels.level, (geo.a1_x, geo.a1_y, geo.hex_width, geo.hex_height),
                  pixels.size)


def import_raster(path: str | Path, progress=None) -> Raster:
    """The raster of a VASL board archive of either kind (ScenarioError naming the file)."""
    path = Path(path)
    if vasl5_image.is_vasl5(path):
        archive = vasl5_image.read_archive(path)
        try:
            return raster_from_vasl5(archive, progress=progress)
        except ScenarioError as e:
            raise e.at(file=str(path)) from None
    archive = vasl6.read_archive(path)
    los = archive.los
    return raster_from_los(los, archive.geometry, (los.width, los.height))
