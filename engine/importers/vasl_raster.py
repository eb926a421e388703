"""The terrain as drawn (``engine.raster_file``) of an imported VASL board, both kinds.

- VASL 6 archives (``LOSData``): the per-pixel terrain codes and elevations as VASL holds them,
  transposed to image order.
- VASL 5 archives (a board image and its colours): every pixel's colour gives a VASL terrain
  code and, for hill colours, a ground level (``vasl5_image.decode_pixels``).  Pixels of no named
  terrain (hex dots, grid lines, numbers) are open ground; pixels whose colour carries no level
  (woods, buildings, dots) take the level of the nearest pixel that has one (VASL's terrain drawn
  on a hill stands on that hill), found by growing the known levels a pixel at a time.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import ScenarioError
from ..raster_file import Raster
from . import vasl5_image, vasl6
from .grid import Geometry
from .losdata import LosData

MAX_FILL_STEPS = 400        # pixels a level spreads into terrain that carries none


def raster_from_los(los: LosData, geometry: Geometry, size: tuple[int, int]) -> Raster:
    """The raster of a decoded ``LOSData`` (indexed [x, y] there)."""
    return Raster(np.ascontiguousarray(los.terrain.T).astype(np.uint8),
                  np.ascontiguousarray(los.elevation.T).astype(np.int8),
                  (geometry.a1_x, geometry.a1_y, geometry.hex_width, geometry.hex_height),
                  tuple(size))


def fill_levels(level: np.ndarray, unknown: int, progress=None) -> np.ndarray:
    """Every ``unknown`` pixel takes the level of a nearest known one (4-neighbour growth, at
    most ``MAX_FILL_STEPS`` pixels; a pixel reached from several takes the one above, below,
    left, right, in that order).  Each step looks only at the pixels the last one reached, so
    the whole fill costs about one pass over the picture.  ``progress(fraction)`` is called at
    every step (it may raise ImportCancelled)."""
    h, w = level.shape
    out = level.astype(np.int16).ravel()
    todo = out == unknown
    if todo.all():
        return np.zeros(level.shape, dtype=np.int8)
    frontier = np.flatnonzero(~todo)
    left = int(todo.sum())
    for step in range(MAX_FILL_STEPS):
        if not left or frontier.size == 0:
            break
        if progress is not None:
            progress(step / MAX_FILL_STEPS)
        row, col = np.divmod(frontier, w)
        reach = np.concatenate([frontier[row > 0] - w, frontier[row < h - 1] + w,
                                frontier[col > 0] - 1, frontier[col < w - 1] + 1])
        reach = np.unique(reach[todo[reach]])
        qrow, qcol = np.divmod(reach, w)
        value = np.full(reach.size, unknown, dtype=np.int16)
        for near, inside in ((reach - w, qrow > 0), (reach + w, qrow < h - 1),
                             (reach - 1, qcol > 0), (reach + 1, qcol < w - 1)):
            near = np.where(inside, near, 0)
            take = inside & ~todo[near] & (value == unknown)
            value[take] = out[near[take]]
        out[reach] = value
        todo[reach] = False
        left -= reach.size
        frontier = reach
    out[todo] = 0
    return out.reshape(level.shape).astype(np.int8)


def raster_from_vasl5(archive: vasl5_image.Vasl5Archive, progress=None) -> Raster:
    """The raster decoded from a VASL 5 board image with its colour table."""
    geo, size = vasl5_image.board_geometry(archive)
    dec = vasl5_image.decode_pixels(archive.index, archive.palette, archive.colours)
    code = np.where(dec.code == vasl5_image.NO_CODE, 0, dec.code).astype(np.uint8)
    level = fill_levels(dec.level, vasl5_image.NO_LEVEL, progress)
    return Raster(code, level, (geo.a1_x, geo.a1_y, geo.hex_width, geo.hex_height), size)


def import_raster(path: str | Path, progress=None) -> Raster:
    """The raster of a VASL board archive of either kind (ScenarioError naming the file)."""
    path = Path(path)
    if vasl5_image.is_vasl5(path):
        archive = vasl5_image.read_archive(path)
        try:
            return raster_from_vasl5(archive, progress)
        except ScenarioError as e:
            raise e.at(file=str(path)) from None
    archive = vasl6.read_archive(path)
    los = archive.los
    return raster_from_los(los, archive.geometry, (los.width, los.height))
