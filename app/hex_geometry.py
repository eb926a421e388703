"""Hexes of a map in scene coordinates: centres, polygons, areas, outlines, board rectangles.

Pure drawing data computed from the engine's hex geometry (``engine.hexes``); the scale is
``style.SCALE`` pixels per map unit.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF

from engine.api import (
    CORNER_OFFSETS,
    SQRT3,
    center,
    disc,
    neighbours,
    per_map,
    pixel_to_hex,
)

from .style import SCALE

# edge k of a hex runs from corner k to corner k+1 and faces direction EDGE_DIRECTION[k]
EDGE_DIRECTION = tuple(((k + 2) % 6) + 1 for k in range(6))


def scene_center(game_map, hex_index: int) -> QPointF:
    """The scene point of the centre of hex ``hex_index`` of map ``game_map`` (``api.center`` gives a hex's
    map coordinates from its column and row)."""
    return QPointF(float(game_map.x[hex_index]) * SCALE, float(game_map.y[hex_index]) * SCALE)


@per_map(8)
def all_corners(game_map) -> np.ndarray:
    """(n, 6, 2) corners of every hex of map ``game_map``, in scene coordinates."""
    xy = np.stack([game_map.x, game_map.y], axis=1)[:, None, :] + CORNER_OFFSETS[None, :, :]
    return xy * SCALE


def polygon(points: np.ndarray) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y in points])


def hex_polygon(game_map, hex_index: int, inset: float = 1.0) -> QPolygonF:
    """Hex ``hex_index``; ``inset`` < 1 shrinks it around its centre."""
    pts = all_corners(game_map)[hex_index]
    if inset != 1.0:
        c = np.array([game_map.x[hex_index], game_map.y[hex_index]]) * SCALE
        pts = c + (pts - c) * inset
    return polygon(pts)


def area(game_map, mask: np.ndarray) -> QPainterPath:
    """The hexes where ``mask`` is true, as one path: the region's border loops, filled odd-even
    (a few loops paint far faster than a polygon per hex, and leave no seams)."""
    return mask_outline(game_map, mask)


def outline(positions: Iterable[tuple[int, int]]) -> QPainterPath:
    """The border of a set of global hexes (col, row), as closed loops (dashes run on)."""
    cells = set(positions)
    nxt: dict[tuple, list[tuple]] = {}
    points: dict[tuple, tuple[float, float]] = {}
    for pos in cells:
        cx, cy = center(*pos)
        nb = neighbours(pos)
        for k in range(6):
            if nb[EDGE_DIRECTION[k] - 1] in cells:
                continue
            a = (cx + CORNER_OFFSETS[k][0], cy + CORNER_OFFSETS[k][1])
            b = (cx + CORNER_OFFSETS[(k + 1) % 6][0], cy + CORNER_OFFSETS[(k + 1) % 6][1])
            ka, kb = _key(a), _key(b)
            points[ka], points[kb] = a, b
            nxt.setdefault(ka, []).append(kb)
    return _loops(nxt, points)


def disc_outline(at: tuple[int, int], radius: int) -> QPainterPath:
    """The border of the hexes within ``radius`` of global hex ``at`` (rings, light circles):
    one shape per radius and column parity, moved into place (a drag draws a ring a frame)."""
    col, row = at
    return _disc_at_origin(col % 2, radius).translated(1.5 * (col - col % 2) * SCALE,
                                                       SQRT3 * row * SCALE)


@lru_cache(maxsize=64)
def _disc_at_origin(parity: int, radius: int) -> QPainterPath:
    return outline(disc((parity, 0), radius))


def _loops(nxt: dict, points: dict) -> QPainterPath:
    """Chain directed edges (key -> [next keys]) into closed loops, in scene coordinates."""
    path = QPainterPath()
    while nxt:
        start = next(iter(nxt))
        path.moveTo(*(v * SCALE for v in points[start]))
        here = start
        while True:
            outs = nxt.get(here)
            if not outs:
                break
            there = outs.pop()
            if not outs:
                del nxt[here]
            path.lineTo(*(v * SCALE for v in points[there]))
            here = there
            if here == start:
                break
        path.closeSubpath()
    return path


def mask_outline(game_map, mask: np.ndarray) -> QPainterPath:
    """The border of the hexes where ``mask`` is true: ``outline`` for a map's mask.  The map's
    hex edges and corners are numbered once (``_edges``); a mask's boundary edges are then
    found and chained by numpy (every corner of a hex grid joins three hexes, so a boundary
    edge has exactly one boundary edge after it), and only the path is built in Python (a drag
    redraws a whole field every frame)."""
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return QPainterPath()
    nb, start, end, vx, vy = _edges(game_map)
    outside = mask[:, None] & ((nb < 0) | ~mask[np.where(nb < 0, 0, nb)])
    sv, ev = start[outside], end[outside]
    after = np.full(len(vx), -1, dtype=np.int64)
    after[sv] = np.arange(len(sv))
    succ = after[ev]
    if len(np.unique(sv)) != len(sv) or (succ < 0).any():   # not a plain hex grid: trace
        return _mask_outline_traced(game_map, mask)
    xs, ys, nxt = vx[sv].tolist(), vy[sv].tolist(), succ.tolist()
    seen = bytearray(len(nxt))
    path = QPainterPath()
    for e0 in range(len(nxt)):
        if seen[e0]:
            continue
        seen[e0] = 1
        path.moveTo(xs[e0], ys[e0])
        e = nxt[e0]
        while e != e0:
            seen[e] = 1
            path.lineTo(xs[e], ys[e])
            e = nxt[e]
        path.closeSubpath()
    return path


@per_map(8)
def _edges(m):
    """Per hex and edge k (corner k to corner k + 1): the hex across it (-1: none), the numbers
    of its two corners, and every corner's scene position."""
    nb = m.neighbours[:, np.array(EDGE_DIRECTION) - 1]
    xy = np.stack([m.x, m.y], axis=1)[:, None, :] + CORNER_OFFSETS[None, :, :]
    keys = np.round(xy * 1000).astype(np.int64)
    keys = (keys[..., 0] << 32) + keys[..., 1]
    corners, number = np.unique(keys.ravel(), return_inverse=True)
    number = number.reshape(keys.shape)
    first = np.zeros(len(corners), dtype=np.int64)
    first[number.ravel()] = np.arange(number.size)
    flat = xy.reshape(-1, 2)[first] * SCALE
    return nb, number, np.roll(number, -1, axis=1), flat[:, 0], flat[:, 1]


def _mask_outline_traced(m, mask: np.ndarray) -> QPainterPath:
    """``mask_outline`` edge by edge (for a map whose corners do not join three hexes)."""
    cells = np.flatnonzero(mask)
    nb = m.neighbours[cells]                                 # (c, 6) by direction 1..6
    outside = (nb < 0) | ~np.asarray(mask, dtype=bool)[np.where(nb < 0, 0, nb)]
    edge_dir = np.array(EDGE_DIRECTION) - 1                  # edge k faces this neighbour
    cell_k, k = np.nonzero(outside[:, edge_dir])
    c = cells[cell_k]
    xy = np.stack([m.x[c], m.y[c]], axis=1)
    a = xy + CORNER_OFFSETS[k]
    b = xy + CORNER_OFFSETS[(k + 1) % 6]
    ka = np.round(a * 1000).astype(np.int64)
    kb = np.round(b * 1000).astype(np.int64)
    nxt: dict[tuple, list[tuple]] = {}
    points: dict[tuple, tuple[float, float]] = {}
    for (ax, ay), (bx, by), pa, pb in zip(ka.tolist(), kb.tolist(), a.tolist(), b.tolist()):
        points[(ax, ay)] = pa
        points[(bx, by)] = pb
        nxt.setdefault((ax, ay), []).append((bx, by))
    return _loops(nxt, points)


def _key(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0] * 1000), round(p[1] * 1000)


def placement_rect(game_map, pi: int) -> QRectF:
    """The printed area of the map's board ``pi``, whatever its size (SPEC.md "size")."""
    x, y, w, h = game_map.board_frame(pi)
    return QRectF(x * SCALE, y * SCALE, w * SCALE, h * SCALE)


@per_map(8)
def map_clip(game_map) -> QPainterPath:
    """The union of the map's boards: everything the map draws stays inside it (shared: do not
    change the path returned)."""
    path = QPainterPath()
    for pi in range(len(game_map.placements)):
        path.addRect(placement_rect(game_map, pi))
    return path.simplified()


@per_map(8)
def map_clip_rect(game_map) -> QRectF | None:
    """The map's boards as one rectangle when they fill it (no board missing from the block),
    else None: a rectangle clips far faster than a path (a drag repaints every frame)."""
    rect = map_clip(game_map).boundingRect()
    whole = QPainterPath()
    whole.addRect(rect)
    return rect if whole.subtracted(map_clip(game_map)).isEmpty() else None


def map_rect(game_map) -> QRectF:
    return map_clip(game_map).boundingRect()


def hex_at(game_map, point: QPointF) -> int:
    """Index of the hex under a scene point, -1 off the map."""
    if not map_clip(game_map).contains(point):
        return -1
    pos = pixel_to_hex(point.x() / SCALE, point.y() / SCALE)
    return game_map.index_of_pos.get(pos, -1)


def hex_rects(game_map, hexes, most: int = 64) -> list[QRectF]:
    """Scene rectangles that cover hexes ``hexes`` (map indices) of map ``game_map``: one per run of
    neighbouring hexes in a column, or their bounding rectangle when that makes more than
    ``most`` (what a drag step repaints: only the hexes whose look changed)."""
    hexes = np.asarray(hexes, dtype=np.int64)
    if len(hexes) == 0:
        return []
    x, y = np.asarray(game_map.x)[hexes], np.asarray(game_map.y)[hexes]
    order = np.lexsort((y, x))
    x, y = x[order], y[order]
    # a new run where the column changes or a row is skipped
    breaks = np.flatnonzero((np.diff(x) != 0) | (np.diff(y) > SQRT3 * 1.01)) + 1
    starts, ends = np.r_[0, breaks], np.r_[breaks, len(x)] - 1
    half_h = SQRT3 / 2
    if len(starts) > most:
        x0, x1 = float(x.min()), float(x.max())
        return [QRectF((x0 - 1) * SCALE, (float(y.min()) - half_h) * SCALE, (x1 - x0 + 2) * SCALE,
                       (float(y.max()) - float(y.min()) + SQRT3) * SCALE)]
    return [QRectF((float(x[a]) - 1) * SCALE, (float(y[a]) - half_h) * SCALE, 2 * SCALE,
                   (float(y[b]) - float(y[a]) + SQRT3) * SCALE) for a, b in zip(starts, ends)]
