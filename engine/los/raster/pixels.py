"""Which hex each pixel of a map's pixel frame lies in (VASL's ``Hex``), for
``frame``: the hex whose centre is nearest (the hex scaled regular), its nearest side
and whether the centre is nearer still (VASL's ``Hex.getNearestLocation``), and which
neighbours' extended borders hold the pixel too (VASL's ``Hex.getExtendedHexBorder``, tested
with java.awt.Polygon's crossing rule).  Geometry only: the rules read it in
the rule modules.
"""
from __future__ import annotations

import numpy as np

from ...hexes import SQRT3
from ...maps import Map

PIXELS_AT_ONCE = 1 << 15   # pixels classified at a time (whole rows): small temporaries, reused


class PixelHexes:
    """Per pixel of the frame (flat): the map's hex (or -1), the nearest side (0..5 clockwise
    from north), whether the centre is nearer still; and per side the pixels close to it (the
    only ones a neighbour's extended border can hold)."""

    def __init__(self, size: int):
        self.hexi = np.empty(size, dtype=np.int32)
        self.side = np.empty(size, dtype=np.int8)
        self.at_centre = np.empty(size, dtype=bool)
        self.near: list[list[np.ndarray]] = [[] for _ in range(6)]


def shared_slots(game_map: Map, geometry, offsets, shapes, width: int, height: int):
    """The slots' pixel and hex origins [(X0, Y0, ox, oy)] when boards of one size tile the
    frame (``width`` x ``height`` pixels) on a geometry in 1/256 pixels: then the sums of
    ``pixel_hexes`` are exact, and a board's pixels are computed once for all the boards an even
    number of hex columns and rows away (the nearest row rounds half to even).  Else None."""
    m, W, H = game_map, width, height
    if len(set(shapes)) != 1 or sum(h * w for h, w in shapes) != W * H:
        return None
    if any(abs(g) >= 1 << 16 or g * 256 != int(g * 256) for g in map(float, geometry)):
        return None
    return [(X0, Y0, int(ox), int(oy)) for (X0, Y0), (ox, oy) in zip(offsets, m.origins)]


def pixel_hexes(game_map: Map, width: int, height: int, geometry, slots=None, shape=None
                ) -> PixelHexes:
    """The hex whose centre is nearest (the hex scaled regular), the side whose middle is
    nearest, and whether the centre is nearer still (VASL's Hex.getNearestLocation: a side
    VASL counts off the map never, ``off_map_sides``), of every pixel of the map's ``width`` x
    ``height`` pixel frame.  With ``slots`` of one ``shape`` (``shared_slots``), computed at
    the first slot of each parity of hex column and row, and placed at the others of that
    parity too."""
    m, W, H = game_map, width, height
    if slots is None:
        slots, shape = [(0, 0, 0, 0)], (H, W)
    out = PixelHexes(W * H)
    groups: dict = {}
    for slot in slots:
        groups.setdefault((slot[2] % 2, slot[3] % 2), []).append(slot)
    for group in groups.values():
        _slot_hexes(m, W, H, geometry, shape, group, out)
    _sides_on_map(m, W, geometry, out)
    return out


def off_map_sides(game_map: Map) -> np.ndarray:
    """Per hex, per side (0..5 clockwise from north), whether VASL counts that side off the
    map (Hex.setHexFlags: the first column's west sides, the last column's east sides, the
    north sides of an odd column's top half hex and the south sides of its bottom one; an
    even column's sides on the map's top or bottom edge stay on it)."""
    m = game_map
    odd = m.col % 2 == 1
    vrow = m.row - 1 + odd
    height = int(vrow[~odd].max()) + 1 if (~odd).any() else 0
    out = np.zeros((m.size, 6), dtype=bool)
    out[m.col == 0, 4] = out[m.col == 0, 5] = True
    last = m.col == m.col.max()
    out[last, 1] = out[last, 2] = True
    top = odd & (vrow == 0)
    out[np.ix_(top, [0, 1, 5])] = True
    bottom = odd & (vrow == height)
    out[np.ix_(bottom, [2, 3, 4])] = True
    return out


def _sides_on_map(m: Map, W: int, geometry, out: PixelHexes) -> None:
    """The pixels whose nearest side VASL counts off the map (``off_map_sides``): the nearest
    of the others, or the centre (Hex.getNearestLocation screens those sides out)."""
    if m.size == 0 or int(m.col.min()) < 0:
        return
    off = off_map_sides(m)
    if not off.any():
        return
    hexi = out.hexi
    f = np.flatnonzero(hexi >= 0)
    f = f[off[hexi[f], out.side[f]]]
    if not len(f):
        return
    a1x, a1y, hw, hh = geometry
    h = hexi[f]
    odd = m.col[h] % 2
    u = (f % W - (a1x + hw * m.col[h])) / hw * 1.5
    v = (f // W - (a1y + hh * (m.row[h] - 1 + odd) - hh / 2 * odd)) / hh * SQRT3
    s60, c60 = SQRT3 / 2, 0.5
    proj = np.stack([-v, u * s60 - v * c60, u * s60 + v * c60], axis=1)
    proj = np.concatenate([proj, -proj], axis=1)
    proj[off[h]] = -np.inf
    side = np.argmax(proj, axis=1)
    out.side[f] = side
    out.at_centre[f] = proj[np.arange(len(f)), side] < SQRT3 / 4


def _slot_hexes(m: Map, W: int, H: int, geometry, shape, slots, out: PixelHexes) -> None:
    """``pixel_hexes`` of the first of ``slots`` (its pixels as the map's), placed at every one
    of them; a band of rows at a time, per pixel column what depends on the column only (the
    same float32 arithmetic pixel by pixel)."""
    h, w = shape
    a1x, a1y, hw, hh = geometry
    X0r, Y0r, oxr, oyr = slots[0]
    x = np.arange(X0r, X0r + w, dtype=np.float64)
    y = np.arange(Y0r, Y0r + h, dtype=np.float64)
    c0 = np.floor((x - a1x) / hw).astype(np.int64)
    odd0 = (c0 % 2).astype(bool)[None, :]          # the parity of the nearer-left column
    # per row: the nearest row of an even and of an odd column, and the offset from it; a
    # pixel row halfway between two hexes of a column goes to the lower one (VASL's
    # Map.gridToHex truncates y / hex height: the top edge's row is the first hex's)
    rows = [np.floor((y - a1y) / hh + 1.5).astype(np.int64),        # even columns
            np.floor((y - a1y + hh / 2) / hh + 0.5).astype(np.int64)]  # odd columns
    vs = [((y - (a1y + hh * (rows[0] - 1))) / hh * SQRT3).astype(np.float32),
          ((y - (a1y + hh * rows[1] - hh / 2)) / hh * SQRT3).astype(np.float32)]
    us = [((x - a1x - hw * (c0 + dc)) / hw * 1.5).astype(np.float32)[None, :] for dc in (0, 1)]
    # the map's index of (column, row), looked up as one flat index, per slot
    cmin, rmin = int(m.col.min()), int(m.row.min())
    grid = np.full((int(m.col.max()) - cmin + 3, int(m.row.max()) - rmin + 3), -1, np.int64)
    grid[m.col - cmin + 1, m.row - rmin + 1] = np.arange(m.size)
    gcols = [[(np.clip(c0 + dc + ox - oxr - cmin + 1, 0, grid.shape[0] - 1)
               * grid.shape[1])[None, :] for dc in (0, 1)] for _, _, ox, _ in slots]
    grows = [[np.clip(r + oy - oyr - rmin + 1, 0, grid.shape[1] - 1) for r in rows]
             for _, _, _, oy in slots]
    grid = grid.ravel()
    s60, c60 = np.float32(SQRT3 / 2), np.float32(0.5)
    # a neighbour's extended border reaches less than 3 pixels past its hexagon (a vertex
    # truncated and moved by one pixel): pixels farther from a side than that are not in it
    near_limit = np.float32(SQRT3 / 2 - 3.01 * max(1.5 / hw, SQRT3 / hh))
    hexi2, side2, centre2 = (a.reshape(H, W) for a in (out.hexi, out.side, out.at_centre))
    band = max(4, PIXELS_AT_ONCE // w)
    for y0 in range(0, h, band):
        y1 = min(h, y0 + band)
        v_even, v_odd = vs[0][y0:y1, None], vs[1][y0:y1, None]
        v0 = np.where(odd0, v_odd, v_even)          # the nearer-left column (dc = 0)
        v1 = np.where(odd0, v_even, v_odd)          # the next one (dc = 1)
        better = us[1] * us[1] + v1 * v1 < us[0] * us[0] + v0 * v0
        bu = np.where(better, us[1], us[0])
        bv = np.where(better, v1, v0)
        # the sides' outward normals at 0 (N), 60 (NE), 120 (SE) degrees; 3..5 their opposites
        proj = (-bv, bu * s60 - bv * c60, bu * s60 + bv * c60)
        mag = [np.abs(q) for q in proj]
        k = np.where(mag[1] > mag[0], 1, 0)             # the first largest, as argmax
        top = np.maximum(mag[0], mag[1])
        k = np.where(mag[2] > top, 2, k)
        pk = np.where(k == 0, proj[0], np.where(k == 1, proj[1], proj[2]))
        side = np.where(pk >= 0, k, k + 3)
        # the centre is nearer than the side's middle (at sqrt(3)/2) when the projection is
        # < sqrt(3)/4
        at_centre = np.abs(pk) < SQRT3 / 4
        near = [np.flatnonzero((proj[d] if d < 3 else -proj[d - 3]).ravel() > near_limit)
                for d in range(6)]
        for (X0, Y0, _, _), gc, gr in zip(slots, gcols, grows):
            r_even, r_odd = gr[0][y0:y1, None], gr[1][y0:y1, None]
            cell = np.where(better, gc[1] + np.where(odd0, r_even, r_odd),
                            gc[0] + np.where(odd0, r_odd, r_even))
            rows_at, cols_at = slice(Y0 + y0, Y0 + y1), slice(X0, X0 + w)
            hexi2[rows_at, cols_at] = grid[cell]
            side2[rows_at, cols_at] = side
            centre2[rows_at, cols_at] = at_centre
            for d in range(6):
                f = near[d]
                out.near[d].append(((Y0 + y0 + f // w) * W + X0 + f % w).astype(np.int32))


def java_contains(xp, yp, poly, xs, ys) -> np.ndarray:
    """java.awt.Polygon.contains of integer points (``xs``, ``ys``), point j in polygon
    ``poly[j]`` of integer vertices (rows of xp, yp): the crossing rule VASL's tests use."""
    X, Y = xs, ys
    inside = ((X >= xp.min(axis=1)[poly]) & (Y >= yp.min(axis=1)[poly])
              & (X < xp.max(axis=1)[poly]) & (Y < yp.max(axis=1)[poly]))
    sel = np.flatnonzero(inside)
    X, Y, poly = X[sel], Y[sel], poly[sel]
    hits = np.zeros(len(sel), dtype=np.int8)
    lastx, lasty = xp[:, -1][poly], yp[:, -1][poly]
    for e in range(xp.shape[1]):
        curx, cury = xp[:, e][poly], yp[:, e][poly]
        left = curx < lastx
        cx_ok = X < np.where(left, lastx, curx)
        leftx = np.where(left, curx, lastx)
        up = cury < lasty
        y_ok = np.where(up, (Y >= cury) & (Y < lasty), (Y >= lasty) & (Y < cury))
        t1 = X - np.where(up, curx, lastx)
        t2 = Y - np.where(up, cury, lasty)
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = (X < leftx) | (t1 < t2 / (lasty - cury) * (lastx - curx))
        hits += (cury != lasty) & cx_ok & y_ok & cross
        lastx, lasty = curx, cury
    out = np.zeros(len(inside), dtype=bool)
    out[sel] = hits % 2 == 1
    return out


def hex_vertices(game_map: Map, width: int, height: int, geometry):
    """Every hex's six vertices as VASL places them (Hex.initHexNew: clockwise from the top
    side's left end, a vertex a pixel or two off the ``width`` x ``height`` grid moved onto
    its last row or column, Hex.fixMapEdgePoints): (vx, vy), float, one row per hex."""
    m, W, H = game_map, width, height
    a1x, a1y, hw, hh = geometry
    side = hw * 2.0 / 3.0
    half = hh / 2.0
    odd = m.col % 2
    x = (a1x + hw * m.col)[:, None]
    y = (a1y + hh * (m.row - 1 + odd) - half * odd)[:, None]
    vx = x + np.array([-side / 2, side / 2, side, side / 2, -side / 2, -side])[None, :]
    vy = y + np.array([-half, -half, 0.0, half, half, 0.0])[None, :]

    def fix(v, lim):
        v = np.where(v == -1.0, 0.0, v)
        whole = np.trunc(v)
        return np.where((whole == lim) | (whole == lim + 1), lim - 1.0, v)

    return fix(vx, W), fix(vy, H)


def _border_polygons(m: Map, W: int, H: int, geometry):
    """Every hex's extended border (VASL's Hex.getExtendedHexBorder: the hex polygon one pixel
    larger, its vertices kept inside the frame): (xp, yp), one row of six vertices per hex."""
    vx, vy = hex_vertices(m, W, H, geometry)
    xp = np.trunc(vx).astype(np.int32) + np.array([-1, -1, 1, 1, -1, -1], np.int32)
    yp = np.trunc(vy).astype(np.int32) + np.array([-1, 1, 0, 1, 1, 0], np.int32)
    return xp, yp


def extended_borders(game_map: Map, px: PixelHexes, width: int, height: int, geometry
                     ) -> np.ndarray:
    """Per pixel, 6 bits: the neighbours of its hex whose extended border (VASL's
    Hex.getExtendedHexBorder: the hex polygon one pixel larger) holds it too; bit k for the
    neighbour across side k, tried only on the pixels close to that side."""
    m, W, H = game_map, width, height
    hexi = px.hexi
    out = np.zeros(len(hexi), dtype=np.uint8)
    xp, yp = _border_polygons(m, W, H, geometry)
    nb = m.neighbours
    for k in range(6):
        f = np.concatenate(px.near[k]) if px.near[k] else np.zeros(0, np.int32)
        own = hexi[f]
        f, own = f[own >= 0], own[own >= 0]
        other = nb[own, k]
        f, other = f[other >= 0], other[other >= 0]
        inside = java_contains(xp, yp, other, f % W, f // W)
        out[f[inside]] |= np.uint8(1 << k)
    return out


def in_own_border(game_map: Map, hexes: np.ndarray, pixels: np.ndarray, width: int,
                  height: int, geometry) -> np.ndarray:
    """Per pixel (flat index) whether the extended border of its hex of ``hexes`` (VASL's
    Hex.getExtendedHexBorder) holds it."""
    xp, yp = _border_polygons(game_map, width, height, geometry)
    pixels = np.asarray(pixels, dtype=np.int64)
    return java_contains(xp, yp, np.asarray(hexes, dtype=np.int64), pixels % width,
                         pixels // width)
