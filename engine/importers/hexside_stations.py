"""Hexside terrain (B9, rules.md 7) read from a VASL pixel grid, for both kinds of archive.

Along each side of each hex, from a fifth to four fifths of its length, a station counts when a
pixel of a wall, hedge, bocage, cliff, cactus hedge or rowhouse wall lies within ``SIDE_BAND``
pixels of the side; the side holds the feature of most stations when they are at least
``SIDE_STATIONS`` of them.  (Measured against VASL's own LOS on real boards, this reads VASL's
hexside locations better than a vote of the feature's pixels by their angle from the centre.)
"""
from __future__ import annotations

import math

import numpy as np

from ..boards import hexside_key
from ..hexes import board_hexes
from .grid import Geometry
from .vasl_terrain import VASL_TERRAIN

SIDE_STATIONS_AT = np.linspace(0.2, 0.8, 9)
SIDE_STATIONS = 5           # of 9
SIDE_BAND = 4               # pixels either side of the hexside line
NO_CODE = 255

# VASL hexside terrain -> ours (SPEC.md "hexsides")
HEXSIDE_OF = {"Wall": "wall", "Hedge": "hedge", "Bocage": "bocage", "Cliff": "cliff",
              "Cactus Hedge": "cactus_hedge", "Rowhouse Wall": "rowhouse_wall",
              "Rowhouse Wall, 1 Level": "rowhouse_wall", "Rowhouse Wall, 2 Level": "rowhouse_wall",
              "Rowhouse Wall, 3 Level": "rowhouse_wall", "Rowhouse Wall, 4 Level": "rowhouse_wall"}

_SIDE_NAMES = sorted(set(HEXSIDE_OF.values()))
_SIDE = np.zeros(256, dtype=np.int64)           # code -> 1 + index in _SIDE_NAMES, 0: none
for _code, _t in VASL_TERRAIN.items():
    if _t.name in HEXSIDE_OF:
        _SIDE[_code] = 1 + _SIDE_NAMES.index(HEXSIDE_OF[_t.name])


def side_segments(geo: Geometry) -> np.ndarray:
    """(6, 2, 2): the two corners of sides 1..6 (N, NE, SE, S, SW, NW) relative to the centre,
    in pixels (VASL's hexagon: corners at +-2/3 of the column spacing and +-half the height)."""
    a = geo.hex_width * 2 / 3
    b = a / 2
    h = geo.hex_height / 2
    corners = np.array([(-b, -h), (b, -h), (a, 0), (b, h), (-b, h), (-a, 0)])
    return np.stack([np.stack([corners[k], corners[(k + 1) % 6]]) for k in range(6)])


def station_hexsides(code: np.ndarray, geo: Geometry, size: tuple[int, int]):
    """({(col, row, direction): our hexside name}, {name: count}) of a terrain grid ``code``
    (H, W: image order) of a board of ``size``."""
    hexes = board_hexes(size)
    cols = np.array([c for c, _ in hexes], dtype=np.int64)
    rows = np.array([n for _, n in hexes], dtype=np.int64)
    fx, fy = geo.centres(cols, rows)
    cx, cy = np.rint(fx).astype(np.int64), np.rint(fy).astype(np.int64)
    h, w = code.shape
    beyond = max(0, -int(cx.min()), -int(cy.min()), int(cx.max()) - w + 1, int(cy.max()) - h + 1)
    pad = int(math.ceil(geo.hex_width * 2 / 3 + SIDE_BAND)) + 4 + beyond
    grid = np.pad(code, pad, constant_values=NO_CODE)

    def code_at(xs, ys):
        return grid[ys + pad, xs + pad]

    seg = side_segments(geo)
    p0, p1 = seg[:, 0], seg[:, 1]
    t = SIDE_STATIONS_AT
    along = p0[:, None, :] + (p1 - p0)[:, None, :] * t[None, :, None]       # (6, S, 2)
    normal = np.stack([-(p1 - p0)[:, 1], (p1 - p0)[:, 0]], axis=1)
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    offs = np.arange(-SIDE_BAND, SIDE_BAND + 1)
    pts = along[:, :, None, :] + normal[:, None, None, :] * offs[None, None, :, None]  # (6,S,B,2)
    X = np.rint(cx[:, None, None, None] + pts[None, ..., 0]).astype(np.int64)
    Y = np.rint(cy[:, None, None, None] + pts[None, ..., 1]).astype(np.int64)
    side = _SIDE[code_at(X, Y)]                                                 # (n,6,S,B)
    k = len(_SIDE_NAMES)
    hits = np.stack([(side == j + 1).any(axis=3).sum(axis=2) for j in range(k)], axis=2)
    best = hits.argmax(axis=2)
    present = hits.max(axis=2) >= SIDE_STATIONS
    out: dict = {}
    counts: dict[str, int] = {}
    for i, d in zip(*np.nonzero(present)):
        key = hexside_key(int(cols[i]), int(rows[i]), int(d) + 1, size)
        if key in out:
            continue
        out[key] = _SIDE_NAMES[int(best[i, d])]
        counts[out[key]] = counts.get(out[key], 0) + 1
    return out, counts


