"""A hex's terrain and level read from the terrain as drawn (VASL's ``Hex.resetTerrain``): the
board importers derive every hex this way from a board's pixels, and an overlay pasted into a
board's pixels (``overlay_paste``, rules.md 11.3) re-derives the hexes under it the same way."""
from __future__ import annotations

import numpy as np

from .vasl_terrain import BUILDING, INHERENT, VOTES

DISC_RADIUS = 0.2                           # in hex heights: the centre region that is sampled
INHERENT_RADIUS = 0.25                      # ... and where inherent terrain is looked for


def pixel_centres(geometry, col, row):
    """Pixel centres of (column, printed row) hexes on a board drawn with ``geometry`` (a1_x,
    a1_y, hex_width, hex_height): VASL's row index is the printed row minus one in even columns
    (A1 is its row 0) and the printed row in odd ones (B0)."""
    a1_x, a1_y, hex_width, hex_height = geometry
    odd = col % 2
    vrow = row - 1 + odd
    return a1_x + hex_width * col, a1_y + hex_height * vrow - hex_height / 2 * odd


def sample_hexes(terrain: np.ndarray, elevation: np.ndarray, hex_height: float,
                 fx: np.ndarray, fy: np.ndarray):
    """Each hex's terrain code (the one that decides what it is) and level, read from the pixels
    around its centre (``fx``, ``fy``: the hexes' pixel centres; ``terrain``, ``elevation``
    indexed [x, y] as VASL's grids); with the samples the building groups read again (the pixels
    of the centre region, clipped, and which lie on the grid; the centre sample point)."""
    gw, gh = terrain.shape
    n_hex = len(fx)
    cx = np.clip(fx.astype(np.int64), 0, gw - 1)      # VASL truncates; edge centres are clamped
    cy = np.clip(fy.astype(np.int64), 0, gh - 1)
    # VASL's centre sample point (Hex.resetTerrain): the base height and the centre terrain at
    # the truncated centre (cx, cy), an edge centre moved onto the grid (Hex.fixMapEdgePoints)
    sx, sy = cx, cy
    centre_code = terrain[sx, sy]
    level = elevation[sx, sy].astype(np.int64)

    # the centre region: a disc of pixels around (cx, cy); inherent terrain is looked for in a
    # slightly larger one (VASL: pixels nearer the centre than any hexside location point)
    r = max(2, int(round(DISC_RADIUS * hex_height)))
    r_in = max(r, int(round(INHERENT_RADIUS * hex_height)))
    dx, dy = np.mgrid[-r_in:r_in + 1, -r_in:r_in + 1]
    keep = dx ** 2 + dy ** 2 <= r_in * r_in
    dx, dy = dx[keep], dy[keep]
    near = dx ** 2 + dy ** 2 <= r * r
    X = cx[:, None] + dx
    Y = cy[:, None] + dy
    inside = (X >= 0) & (X < gw) & (Y >= 0) & (Y < gh)
    Xc, Yc = np.clip(X, 0, gw - 1), np.clip(Y, 0, gh - 1)
    codes = np.where(inside, terrain[Xc, Yc], 256).astype(np.int64)
    rows_257 = np.arange(n_hex)[:, None] * 257

    def tally(which: np.ndarray) -> np.ndarray:
        c = np.where(which, codes, 256)
        return np.bincount((rows_257 + c).ravel(),
                           minlength=n_hex * 257).reshape(n_hex, 257)[:, :256]

    votes = tally(near & VOTES[np.minimum(codes, 255)])
    code = np.where(votes.max(axis=1) > 0, votes.argmax(axis=1), 0)
    code = np.where(BUILDING[centre_code], centre_code, code)
    # Hex.resetTerrain: a building that misses the centre dot, lying at one of the hexside
    # location points (0..5 in turn), is the hex's centre terrain (B23: a building hex)
    missed = side_building(terrain, hex_height, fx, fy)
    code = np.where(~BUILDING[centre_code] & (missed >= 0), missed, code)
    inherent = tally(inside & INHERENT[np.minimum(codes, 255)])
    code = np.where(inherent.max(axis=1) > 0, inherent.argmax(axis=1), code)
    return code, level, (Xc, Yc, inside, sx, sy)


def side_points(hex_height: float, fx: np.ndarray, fy: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """(6, n) x and y of VASL's hexside location points 0..5 (N, NE, SE, S, SW, NW) of hexes
    centred at (fx, fy): each side's middle moved a pixel towards the centre, truncated
    (``Hex.initHexNew``'s ``hexsidePoints``)."""
    v = hex_height / 2
    hx = np.cos(np.radians(30.0)) * v
    x = [np.trunc(fx), np.trunc(hx + fx - 1), np.trunc(hx + fx - 1), np.trunc(fx),
         np.trunc(-hx + fx + 1), np.trunc(-hx + fx + 1)]
    y = [np.trunc(-v + fy + 1), np.trunc(-v / 2 + fy + 1), np.trunc(v / 2 + fy - 1),
         np.trunc(v + fy - 1), np.trunc(v / 2 + fy - 1), np.trunc(-v / 2 + fy + 1)]
    return np.array(x), np.array(y)


def side_building(terrain: np.ndarray, hex_height: float, fx: np.ndarray, fy: np.ndarray
                  ) -> np.ndarray:
    """Per hex the building code at the first of its hexside location points 0..5 that holds a
    building (VASL's ``Hex.getHexsideBuildingTerrain``; points moved onto the grid as
    ``Hex.fixMapEdgePoints``), or -1 (``terrain`` indexed [x, y])."""
    gw, gh = terrain.shape
    px, py = side_points(hex_height, np.asarray(fx, float), np.asarray(fy, float))
    codes = terrain[np.clip(px.astype(np.int64), 0, gw - 1), np.clip(py.astype(np.int64), 0, gh - 1)]
    found = np.full(codes.shape[1], -1, np.int64)
    for side in range(5, -1, -1):                      # the lowest-numbered side wins
        found = np.where(BUILDING[codes[side]], codes[side], found)
    return found


def sample_radius(hex_height: float) -> int:
    """The radius in pixels of the region ``sample_hexes`` reads around a hex's centre."""
    return max(2, int(round(DISC_RADIUS * hex_height)), int(round(INHERENT_RADIUS * hex_height)))
