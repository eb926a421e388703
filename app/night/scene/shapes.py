"""Shapely geometry to Qt paths, and the hex polygons of a map in map units."""
from __future__ import annotations

import zlib

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPainterPath, QPolygonF
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from app.style import SCALE
from engine.api import CORNER_OFFSETS


def hex_shape(game_map, hex_index: int, inset: float = 1.0) -> Polygon:
    """Hex ``hex_index`` of map ``game_map`` in map units (``inset`` < 1 shrinks it around its centre)."""
    c = np.array([game_map.x[hex_index], game_map.y[hex_index]])
    return Polygon(c + CORNER_OFFSETS * inset)


def _ring(coords) -> QPolygonF:
    return QPolygonF([QPointF(x * SCALE, y * SCALE) for x, y in coords])


def to_path(geom: BaseGeometry) -> QPainterPath:
    """Polygons (with holes) to one odd-even path, in scene coordinates."""
    path = QPainterPath()
    if geom is None or geom.is_empty:
        return path
    for poly in getattr(geom, "geoms", [geom]):
        if poly.geom_type != "Polygon":
            if hasattr(poly, "geoms"):
                path.addPath(to_path(poly))
            continue
        path.addPolygon(_ring(poly.exterior.coords))
        path.closeSubpath()
        for hole in poly.interiors:
            path.addPolygon(_ring(hole.coords))
            path.closeSubpath()
    return path


def to_lines(segments) -> QPainterPath:
    """Line segments ((x1, y1), (x2, y2)) in map units to one path."""
    path = QPainterPath()
    for (x1, y1), (x2, y2) in segments:
        path.moveTo(x1 * SCALE, y1 * SCALE)
        path.lineTo(x2 * SCALE, y2 * SCALE)
    return path


def rng_for(*key) -> np.random.Generator:
    """The same pseudo-random art for the same hexes on every run."""
    return np.random.default_rng(zlib.crc32("/".join(map(str, key)).encode()))
