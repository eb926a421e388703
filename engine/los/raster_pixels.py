"""Which hex each pixel of a map's pixel frame lies in (VASL's ``Hex``), for
``raster_frame``: the hex whose centre is nearest (the hex scaled regular), its nearest side
and whether the centre is nearer still (VASL's ``Hex.getNearestLocation``), and which
neighbours' extended borders hold the pixel too (VASL's ``Hex.getExtendedHexBorder``, tested
with java.awt.Polygon's crossing rule).  Geometry only: the rules read it in
``raster_table``.
"""
from __future__ import annotations

import numpy as np

from ..hexes import SQRT3
from ..maps import Map

PIXELS_AT_ONCE = 1 << 15   # pixels classified at a time (whole rows): small temporaries, reused


class _PixelHexes:
    """Per pixel of the frame (flat): the map's hex (or -1), the nearest side (0..5 clockwise
    from north), whether the centre is nearer still; and per side the pixels close to it (the
    only ones a neighbour's extended border can hold)."""

    def __init__(self, size: int):
        self.hexi = np.empty(size, dtype=np.int32)
        self.side = np.empty(size, dtype=np.int8)
        self.at_centre = np.empty(size, dtype=bool)
        self.near: list[list[np.ndarray]] = [[] for _ in range(6)]


def _pixel_hexes(m: Map, W: int, H: int, geometry) -> _PixelHexes:
    """The hex whose centre is nearest (the hex scaled regular), the side whose middle is
    nearest, and whether the centre is nearer still (VASL's Hex.getNearestLocation), of every
    pixel of the map's W x H pixel frame; a band of rows at a time, per pixel column what
    depends on the column only (the same float32 arithmetic pixel by pixel)."""
    a1x, a1y, hw, hh = geometry
    x = np.arange(W, dtype=np.float64)
    y = np.arange(H, dtype=np.float64)
    c0 = np.floor((x - a1x) / hw).astype(np.int64)
    odd0 = (c0 % 2).astype(bool)[None, :]          # the parity of the nearer-left column
    # per row: the nearest row of an even and of an odd column, and the offset from it
    rows = [np.rint((y - a1y) / hh + 1).astype(np.int64),            # even columns
            np.rint((y - a1y + hh / 2) / hh).astype(np.int64)]       # odd columns
    vs = [((y - (a1y + hh * (rows[0] - 1))) / hh * SQRT3).astype(np.float32),
          ((y - (a1y + hh * rows[1] - hh / 2)) / hh * SQRT3).astype(np.float32)]
    us = [((x - a1x - hw * (c0 + dc)) / hw * 1.5).astype(np.float32)[None, :] for dc in (0, 1)]
    # the map's index of (global column, row), looked up as one flat index
    cmin, rmin = int(m.col.min()), int(m.row.min())
    grid = np.full((int(m.col.max()) - cmin + 3, int(m.row.max()) - rmin + 3), -1, np.int64)
    grid[m.col - cmin + 1, m.row - rmin + 1] = np.arange(m.size)
    gcols = [(np.clip(c0 + dc - cmin + 1, 0, grid.shape[0] - 1) * grid.shape[1])[None, :]
             for dc in (0, 1)]
    grows = [np.clip(r - rmin + 1, 0, grid.shape[1] - 1) for r in rows]
    grid = grid.ravel()
    s60, c60 = np.float32(SQRT3 / 2), np.float32(0.5)
    # a neighbour's extended border reaches less than 3 pixels past its hexagon (a vertex
    # truncated and moved by one pixel): pixels farther from a side than that are not in it
    near_limit = np.float32(SQRT3 / 2 - 3.01 * max(1.5 / hw, SQRT3 / hh))
    out = _PixelHexes(W * H)
    band = max(4, PIXELS_AT_ONCE // W)
    for y0 in range(0, H, band):
        y1 = min(H, y0 + band)
        v_even, v_odd = vs[0][y0:y1, None], vs[1][y0:y1, None]
        v0 = np.where(odd0, v_odd, v_even)          # the nearer-left column (dc = 0)
        v1 = np.where(odd0, v_even, v_odd)          # the next one (dc = 1)
        better = us[1] * us[1] + v1 * v1 < us[0] * us[0] + v0 * v0
        bu = np.where(better, us[1], us[0])
        bv = np.where(better, v1, v0)
        r_even, r_odd = grows[0][y0:y1, None], grows[1][y0:y1, None]
        cell = np.where(better, gcols[1] + np.where(odd0, r_even, r_odd),
                        gcols[0] + np.where(odd0, r_odd, r_even))
        lo, hi = y0 * W, y1 * W
        out.hexi[lo:hi] = grid[cell].ravel()
        # the sides' outward normals at 0 (N), 60 (NE), 120 (SE) degrees; 3..5 their opposites
        proj = (-bv, bu * s60 - bv * c60, bu * s60 + bv * c60)
        mag = [np.abs(q) for q in proj]
        k = np.where(mag[1] > mag[0], 1, 0)             # the first largest, as argmax
        top = np.maximum(mag[0], mag[1])
        k = np.where(mag[2] > top, 2, k)
        pk = np.where(k == 0, proj[0], np.where(k == 1, proj[1], proj[2]))
        out.side[lo:hi] = np.where(pk >= 0, k, k + 3).ravel()
        # the centre is nearer than the side's middle (at sqrt(3)/2) when the projection is
        # < sqrt(3)/4
        out.at_centre[lo:hi] = (np.abs(pk) < SQRT3 / 4).ravel()
        for d in range(6):
            q = proj[d] if d < 3 else -proj[d - 3]
            out.near[d].append((np.flatnonzero(q.ravel() > near_limit) + lo).astype(np.int32))
    return out


def _java_contains(xp, yp, poly, X, Y) -> np.ndarray:
    """java.awt.Polygon.contains of integer points (X, Y), point j in polygon ``poly[j]`` of
    integer vertices (rows of xp, yp): the crossing rule VASL's tests use."""
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


def _border_polygons(m: Map, W: int, H: int, geometry):
    """Every hex's extended border (VASL's Hex.getExtendedHexBorder: the hex polygon one pixel
    larger, its vertices kept inside the frame): (xp, yp), one row of six vertices per hex."""
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

    xp = np.trunc(fix(vx, W)).astype(np.int32) + np.array([-1, -1, 1, 1, -1, -1], np.int32)
    yp = np.trunc(fix(vy, H)).astype(np.int32) + np.array([-1, 1, 0, 1, 1, 0], np.int32)
    return xp, yp


def _extended_borders(m: Map, px: _PixelHexes, W: int, H: int, geometry) -> np.ndarray:
    """Per pixel, 6 bits: the neighbours of its hex whose extended border (VASL's
    Hex.getExtendedHexBorder: the hex polygon one pixel larger) holds it too; bit k for the
    neighbour across side k, tried only on the pixels close to that side."""
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
        inside = _java_contains(xp, yp, other, f % W, f // W)
        out[f[inside]] |= np.uint8(1 << k)
    return out
