"""Our own terrain art, built once per map as Qt paths: ground by level, hill contours, patches
of woods, grain, brush, orchard, jungle, bamboo..., and buildings with their upper levels.

Drawing data only: what terrain a hex has comes from the engine's map (``terrain_name``,
``level``, ``building``, ``upper_levels``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtGui import QColor, QPainterPath
from shapely.geometry import LineString, Point, box
from shapely.ops import unary_union

from app import style
from app.hex_geometry import EDGE_DIRECTION, all_corners, polygon
from engine.api import CORNER_OFFSETS

from .shapes import hex_shape, rng_for, to_lines, to_path


@dataclass(frozen=True)
class TerrainLook:
    fill: QColor
    detail: QColor
    texture: str            # canopy, leaves, stalks, tufts, lines, orchard, waves
    inset: float = 0.14     # how far the patch edge stays inside the hex border
    scallop: float = 0.18   # radius of the bumps along its edge (0: straight edge)


TERRAIN_LOOKS = {
    "woods": TerrainLook(style.WOODS, style.WOODS_CANOPY, "canopy"),
    "forest": TerrainLook(style.FOREST, style.WOODS_CANOPY, "canopy", 0.10),
    "pine_woods": TerrainLook(style.PINE, style.WOODS_CANOPY, "canopy", 0.10),
    "dense_jungle": TerrainLook(style.DENSE_JUNGLE, style.DENSE_JUNGLE_LEAF, "leaves", 0.06, 0.14),
    "light_jungle": TerrainLook(style.LIGHT_JUNGLE, style.LIGHT_JUNGLE_LEAF, "canopy", 0.12, 0.15),
    "bamboo": TerrainLook(style.BAMBOO, style.BAMBOO_STALK, "stalks", 0.12, 0.12),
    "brush": TerrainLook(style.BRUSH, style.BRUSH_TUFT, "tufts", 0.16, 0.12),
    "grain": TerrainLook(style.GRAIN, style.GRAIN_LINE, "lines", 0.10, 0.0),
    "kunai": TerrainLook(style.KUNAI, style.GRAIN_LINE, "tufts", 0.10, 0.0),
    "orchard": TerrainLook(style.ORCHARD_TREE, style.ORCHARD_TRUNK, "orchard", 0.0, 0.0),
    "swamp": TerrainLook(style.SWAMP, style.SWAMP_LINE, "waves", 0.12, 0.10),
    "marsh": TerrainLook(style.MARSH, style.SWAMP_LINE, "waves", 0.12, 0.0),
    "plowed": TerrainLook(style.PLOWED, style.PLOWED_LINE, "lines", 0.08, 0.0),
    "water": TerrainLook(style.WATER, style.WATER_LINE, "waves", 0.0, 0.0),
    "stream": TerrainLook(style.WATER, style.WATER_LINE, "waves", 0.22, 0.0),
    "gully": TerrainLook(style.GULLY, style.GULLY_LINE, "tufts", 0.12, 0.0),
    "rubble": TerrainLook(style.RUBBLE, style.RUBBLE_STONE, "leaves", 0.12, 0.1),
    "huts": TerrainLook(style.HUTS, style.HUT_ROOF, "canopy", 0.2, 0.12),
    "orchard_out_of_season": TerrainLook(style.BARE_TREE, style.ORCHARD_TRUNK, "orchard", 0.0, 0.0),
}


@dataclass
class Patch:
    look: TerrainLook
    shape: QPainterPath
    texture: QPainterPath
    texture_fill: QPainterPath       # filled detail (tree crowns), may be empty


@dataclass
class Building:
    shape: QPainterPath
    ground: QPainterPath             # its whole hexes: a building hex is building throughout
    levels: list                     # one inner outline per upper level
    upper: int
    badge_at: tuple[float, float]    # map units


@dataclass
class TerrainArt:
    ground: list = field(default_factory=list)      # (level, path)
    contours: QPainterPath = field(default_factory=QPainterPath)
    contour_lights: QPainterPath = field(default_factory=QPainterPath)
    patches: list = field(default_factory=list)
    buildings: list = field(default_factory=list)


def build(game_map) -> TerrainArt:
    art = TerrainArt()
    corners = all_corners(game_map)
    for level in sorted(set(int(v) for v in game_map.level)):
        path = QPainterPath()
        for i in np.flatnonzero(game_map.level == level):
            path.addPolygon(polygon(corners[i]))
            path.closeSubpath()
        art.ground.append((level, path))
    art.contours, art.contour_lights = _contours(game_map)
    names = np.array([game_map.terrain_name(i) for i in range(game_map.size)])
    for name, look in TERRAIN_LOOKS.items():
        hexes = np.flatnonzero(names == name)
        if len(hexes):
            art.patches.append(_patch(game_map, name, look, hexes))
    groups: dict[str, list[int]] = {}
    for i, b in enumerate(game_map.building):
        if b is not None:
            groups.setdefault(b, []).append(i)
    art.buildings = [_building(game_map, g) for g in groups.values()]
    return art


def _contours(m):
    """Hexsides between two levels: a dark line, and a light one on the higher side."""
    dark, light = [], []
    for i in range(m.size):
        cx, cy = float(m.x[i]), float(m.y[i])
        for k in range(6):
            j = int(m.neighbours[i, EDGE_DIRECTION[k] - 1])
            if j < 0 or m.level[j] >= m.level[i]:
                continue            # drawn once, from the higher hex
            c = np.array([cx, cy])
            a, b = c + CORNER_OFFSETS[k], c + CORNER_OFFSETS[(k + 1) % 6]
            dark.append((tuple(a), tuple(b)))
            light.append((tuple(a + (c - a) * 0.07), tuple(b + (c - b) * 0.07)))
    return to_lines(dark), to_lines(light)


def _patch(m, name: str, look: TerrainLook, hexes) -> Patch:
    region = unary_union([hex_shape(m, i) for i in hexes])
    rng = rng_for(name, m.content_key)
    if look.texture == "orchard":
        shape = region
    else:
        shape = region.buffer(-look.inset, join_style="mitre" if not look.scallop else "round")
        if look.scallop:
            bumps = []
            for poly in getattr(shape, "geoms", [shape]):
                for ring in [poly.exterior, *poly.interiors]:
                    n = max(3, int(ring.length / (look.scallop * 1.6)))
                    for t in np.linspace(0, ring.length, n, endpoint=False):
                        p = ring.interpolate(t)
                        bumps.append(Point(p.x, p.y).buffer(look.scallop * rng.uniform(0.8, 1.2), 8))
            shape = unary_union([shape, *bumps]).intersection(region)
    texture, crowns = TEXTURES[look.texture](m, hexes, shape, rng)
    return Patch(look, to_path(shape), texture, crowns)


def _crowns(m, hexes, shape, rng, count, size):
    """Tree crowns: circles inside the patch."""
    circles = []
    for i in hexes:
        for _ in range(count):
            r = rng.uniform(0.0, 0.55)
            a = rng.uniform(0, 2 * math.pi)
            c = Point(m.x[i] + r * math.cos(a), m.y[i] + r * math.sin(a))
            circles.append(c.buffer(size * rng.uniform(0.75, 1.25), 8))
    crowns = unary_union(circles).intersection(shape.buffer(-0.04))
    return crowns


def _canopy(m, hexes, shape, rng):
    crowns = _crowns(m, hexes, shape, rng, 5, 0.17)
    return to_path(crowns), to_path(crowns)


def _leaves(m, hexes, shape, rng):
    crowns = _crowns(m, hexes, shape, rng, 9, 0.15)
    return to_path(crowns), to_path(crowns)


def _segments_in(shape, segments):
    out = []
    for s in segments:
        cut = LineString(s).intersection(shape)
        for part in getattr(cut, "geoms", [cut]):
            if part.geom_type == "LineString" and not part.is_empty:
                out.append((part.coords[0], part.coords[-1]))
    return out


def _stalks(m, hexes, shape, rng):
    segs = []
    for i in hexes:
        for _ in range(14):
            x = m.x[i] + rng.uniform(-0.7, 0.7)
            y = m.y[i] + rng.uniform(-0.6, 0.5)
            h = rng.uniform(0.25, 0.4)
            lean = rng.uniform(-0.05, 0.05)
            segs.append(((x, y), (x + lean, y - h)))
            segs.append(((x - 0.04, y - h * 0.5), (x + 0.04, y - h * 0.5)))   # a node
    return to_lines(_segments_in(shape, segs)), QPainterPath()


def _tufts(m, hexes, shape, rng):
    segs = []
    for i in hexes:
        for _ in range(7):
            x = m.x[i] + rng.uniform(-0.6, 0.6)
            y = m.y[i] + rng.uniform(-0.55, 0.55)
            for dx in (-0.07, 0.0, 0.07):
                segs.append(((x, y), (x + dx * 1.3, y - 0.1 - (0.03 if dx == 0 else 0))))
    return to_lines(_segments_in(shape, segs)), QPainterPath()


def _lines(m, hexes, shape, rng):
    x0, y0, x1, y1 = shape.bounds
    segs = []
    step = 0.16
    for k in np.arange(x0 - (y1 - y0), x1, step):
        segs.append(((k, y1), (k + (y1 - y0) * 0.45, y0)))
    return to_lines(_segments_in(shape, segs)), QPainterPath()


def _orchard(m, hexes, shape, rng):
    trees = []
    for i in hexes:
        for dx in (-0.42, 0.0, 0.42):
            for dy in (-0.45, 0.0, 0.45):
                trees.append(Point(m.x[i] + dx, m.y[i] + dy + (0.0 if dx == 0 else 0.22)).buffer(0.13, 8))
    crowns = unary_union(trees).intersection(shape.buffer(-0.05))
    return to_path(crowns), to_path(crowns)


def _waves(m, hexes, shape, rng):
    segs = []
    for i in hexes:
        for _ in range(6):
            x = m.x[i] + rng.uniform(-0.6, 0.5)
            y = m.y[i] + rng.uniform(-0.55, 0.55)
            segs.append(((x, y), (x + 0.22, y)))
    return to_lines(_segments_in(shape, segs)), QPainterPath()


TEXTURES = {"canopy": _canopy, "leaves": _leaves, "stalks": _stalks, "tufts": _tufts,
            "lines": _lines, "orchard": _orchard, "waves": _waves}


def _building(m, hexes: list[int]) -> Building:
    """A footprint of one block per hex, neighbours joined by the hull of their two blocks;
    one inner outline per upper level."""
    blocks = {i: box(m.x[i] - 0.68, m.y[i] - 0.6, m.x[i] + 0.68, m.y[i] + 0.6) for i in hexes}
    parts = list(blocks.values())
    for i in hexes:
        for j in m.neighbours[i]:
            if j in blocks and j > i:
                parts.append(unary_union([blocks[i], blocks[j]]).convex_hull.buffer(-0.08,
                             join_style="mitre"))
    shape = unary_union(parts)
    upper = int(max(m.upper_levels[i] for i in hexes))
    levels = [to_path(shape.buffer(-0.1 * k, join_style="mitre")) for k in range(1, min(upper, 3) + 1)]
    first = min(hexes, key=lambda i: (m.y[i], m.x[i]))
    ground = to_path(unary_union([hex_shape(m, i) for i in hexes]))
    return Building(to_path(shape), ground, levels, upper, (float(m.x[first]), float(m.y[first])))
