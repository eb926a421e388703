"""Which of a viewer's lines meet a counter hex (rules.md 11.4), read from a table kept per map.

On the hex grid (axial coordinates, ``engine.hexes``) the hexes a line from V to T meets depend
only on T - V: so once per map, for every difference D of two of its hexes and every hex offset
H, whether the line from the origin to D runs a positive length in H's interior or along one of
its hexsides (``OffsetLines``).  The lines from a viewer meeting a counter hex are then one
slice of that table (its target offsets moved to the viewer), not a geometric clip per field.

Lines that touch a hex near one of its corners (less than ``CORNER`` hex radii in it, or missing
it by less) are flagged: on a drawn map VASL's pixels decide them (``walked_hits``), as
``engine.los.counters.Meets`` always did.
"""
from __future__ import annotations

import math
import threading
import weakref

import numba
import numpy as np

from ..cache import per_map
from ..hex_lines import cube_round_many
from ..hexes import SQRT3
from ..maps import Map

CORNER = 0.05       # hex radii: a line running less than this far in a hex, or missing it by less
_EPS = 1e-9
_INRADIUS = SQRT3 / 2
_NORMALS = np.array([(0.0, 1.0), (SQRT3 / 2, 0.5), (SQRT3 / 2, -0.5)])
_RING = np.array([(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])
# the largest map given a table (as the ground table's limit: 1.1 s and 3.8 MB for 2,958
# hexes, growing as the map's spans squared times their length); a larger map's lines are
# clipped per viewer
MAX_OFFSET_HEXES = 3000


def _xy(q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return 1.5 * q, SQRT3 * (r + q / 2)


def _inside(dx, dy, cx, cy) -> np.ndarray:
    """The length the segment from the origin to (dx, dy) runs inside the hex centred at
    (cx, cy), hexsides included (negative: how far it misses, along the segment's parameter)."""
    lo = np.zeros(len(dx))
    hi = np.ones(len(dx))
    for nx, ny in _NORMALS:             # the hex: |n . (p - c)| <= inradius, three slabs
        den = dx * nx + dy * ny
        mid = cx * nx + cy * ny
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = (mid - _INRADIUS - _EPS) / den
            t2 = (mid + _INRADIUS + _EPS) / den
        flat = den == 0
        enter, leave = np.minimum(t1, t2), np.maximum(t1, t2)
        outside = flat & (np.abs(mid) > _INRADIUS + _EPS)
        lo = np.where(flat, lo, np.maximum(lo, enter))
        hi = np.where(flat, hi, np.minimum(hi, leave))
        lo = np.where(outside, 2.0, lo)
    return (hi - lo) * np.hypot(dx, dy)


class OffsetLines:
    """Per hex offset H (from the viewer), the target offsets whose line meets H, and whether
    it touches H only near a corner: flat arrays sorted by H, ``start`` indexed by H."""

    def __init__(self, game_map: Map):
        sq = int(game_map.q.max() - game_map.q.min())
        sr = int(game_map.r.max() - game_map.r.min())
        self.sq, self.sr = sq, sr
        tq, tr = np.meshgrid(np.arange(-sq, sq + 1), np.arange(-sr, sr + 1), indexing="ij")
        tq, tr = tq.ravel(), tr.ravel()
        # the differences of two hexes of this map (a bounding box, then those that occur)
        occurs = np.zeros((2 * sq + 1, 2 * sr + 1), dtype=bool)
        for lo in range(0, game_map.size, 256):
            occurs[(game_map.q[None, :] - game_map.q[lo:lo + 256, None] + sq).ravel(),
                   (game_map.r[None, :] - game_map.r[lo:lo + 256, None] + sr).ravel()] = True
        keep = occurs[tq + sq, tr + sr] & ((tq != 0) | (tr != 0))
        tq, tr = tq[keep], tr[keep]
        keys, tgt, near = [], [], []
        for part in np.array_split(np.arange(len(tq)), max(1, len(tq) // 500)):
            k, t, n = self._pairs(tq[part], tr[part], part)
            keys.append(k)
            tgt.append(t)
            near.append(n)
        key = np.concatenate(keys)
        order = np.argsort(key, kind="stable")
        target = np.concatenate(tgt)[order]
        self.tq = tq[target].astype(np.int16)       # about 5 bytes a (hex, line) pair
        self.tr = tr[target].astype(np.int16)
        self.near = np.concatenate(near)[order]
        self.start = np.searchsorted(key[order], np.arange((2 * sq + 1) * (2 * sr + 1) + 1))

    @property
    def nbytes(self) -> int:
        return self.tq.nbytes + self.tr.nbytes + self.near.nbytes + self.start.nbytes

    def _pairs(self, tq, tr, ids):
        """The (hex offset key, target id, near a corner) of the lines to ``tq, tr`` and the
        hexes they meet: candidates are the hexes of points every half hex along each line and
        their neighbours (a hex within a radius of a line holds such a point or is next to it)."""
        n = (np.abs(tq) + np.abs(tr) + np.abs(tq + tr)) // 2
        steps = 2 * n + 1
        line = np.repeat(np.arange(len(tq)), steps)
        frac = (np.arange(len(line)) - np.repeat(np.cumsum(steps) - steps, steps)) / np.repeat(
            2 * n, steps)
        hq, hr = cube_round_many(tq[line] * frac, tr[line] * frac)
        cand_line = np.repeat(line, len(_RING))
        cq = np.repeat(hq, len(_RING)) + np.tile(_RING[:, 0], len(line))
        cr = np.repeat(hr, len(_RING)) + np.tile(_RING[:, 1], len(line))
        ok = (np.abs(cq) <= self.sq) & (np.abs(cr) <= self.sr)
        key = (cq[ok] + self.sq) * (2 * self.sr + 1) + (cr[ok] + self.sr)
        both = np.unique(cand_line[ok].astype(np.int64) * (1 << 32) + key)
        cand_line, key = both >> 32, both & ((1 << 32) - 1)
        cq = key // (2 * self.sr + 1) - self.sq
        cr = key % (2 * self.sr + 1) - self.sr
        dx, dy = _xy(tq[cand_line].astype(float), tr[cand_line].astype(float))
        cx, cy = _xy(cq.astype(float), cr.astype(float))
        inside = _inside(dx, dy, cx, cy)
        # only a line passing within a circumradius of the hex's centre can meet it
        t = np.clip((cx * dx + cy * dy) / np.maximum(dx * dx + dy * dy, _EPS), 0.0, 1.0)
        meets = (inside > -CORNER) & ((t * dx - cx) ** 2 + (t * dy - cy) ** 2 <= (1 + 1e-6) ** 2)
        return key[meets], ids[cand_line[meets]], (inside < CORNER)[meets]

    def lines_of(self, game_map: Map, viewer, hexes: np.ndarray):
        """The viewer's lines meeting each of ``hexes``: per line, the row of its hex in
        ``hexes``, its viewer and target (map indices), and whether it touches the hex only
        near a corner (its judgement left to the pixels or the geometry).  ``viewer``: one
        hex, or one per hex of ``hexes`` (every viewer's lines meeting one hex at once)."""
        vq = np.broadcast_to(game_map.q[viewer], hexes.shape)
        vr = np.broadcast_to(game_map.r[viewer], hexes.shape)
        key = (game_map.q[hexes] - vq + self.sq) * (2 * self.sr + 1) + (
            game_map.r[hexes] - vr + self.sr)
        lo, hi = self.start[key], self.start[key + 1]
        count = hi - lo
        row = np.repeat(np.arange(len(hexes)), count)
        at = np.arange(int(count.sum())) + np.repeat(lo - (np.cumsum(count) - count), count)
        vq, vr = vq[row], vr[row]
        targets = game_map.lookup_axial(self.tq[at].astype(np.int64) + vq,
                                        self.tr[at].astype(np.int64) + vr)
        on = targets >= 0
        viewers = np.broadcast_to(viewer, hexes.shape)[row[on]]
        return row[on], viewers, targets[on], self.near[at][on]


_LOCK = threading.Lock()


@per_map(4)
def _table(game_map: Map) -> OffsetLines:
    return OffsetLines(game_map)


def offset_lines(game_map: Map) -> OffsetLines | None:
    """The map's table of lines by hex offset, built once (one thread builds it, the others
    wait for it), kept for the last few maps (``engine.cache.per_map``); None for a map of
    more than ``MAX_OFFSET_HEXES`` hexes."""
    if game_map.size > MAX_OFFSET_HEXES:
        return None
    with _LOCK:
        return _table(game_map)


@numba.njit(cache=True, nogil=True)
def _hex_columns(pix_cls, cls_hex, width, hexes):
    """The first and last pixel column of each hex's pixels (-1, -2 for none)."""
    first = np.full(hexes, -1, dtype=np.int64)
    last = np.full(hexes, -2, dtype=np.int64)
    for flat in range(len(pix_cls)):
        h = cls_hex[pix_cls[flat]]
        if 0 <= h < hexes:
            x = flat % width
            if first[h] < 0 or x < first[h]:
                first[h] = x
            if x > last[h]:
                last[h] = x
    return first, last


_COLUMNS: dict = {}         # id of a frame's pixels -> (a weak reference to them, the columns)


def hex_columns(frame) -> tuple[np.ndarray, np.ndarray]:
    """Per hex, the first and last pixel column holding its pixels (once per frame)."""
    key = id(frame.pix_cls)
    kept = _COLUMNS.get(key)
    if kept is None or kept[0]() is not frame.pix_cls:
        for k in [k for k, (ref, _) in _COLUMNS.items() if ref() is None]:
            del _COLUMNS[k]
        kept = _COLUMNS[key] = (weakref.ref(frame.pix_cls), _hex_columns(
            frame.pix_cls, frame.cls_hex, int(frame.width), len(frame.centre_x)))
    return kept[1]


@numba.njit(cache=True, nogil=True)
def _walks_meet(centre_x, centre_y, width, pix_cls, cls_hex, first, last, viewers, targets,
                hexes, out):
    for k in range(len(targets)):
        x0, y0 = centre_x[viewers[k]], centre_y[viewers[k]]
        dx, dy = centre_x[targets[k]] - x0, centre_y[targets[k]] - y0
        h = hexes[k]
        # kernel.walk_points, only the columns of the hex's pixels (each column's rows its own)
        n = abs(dx) + 1
        rise = dy / n
        sign = -1 if dx < 0 else 1
        lo, hi = (first[h] - x0, last[h] - x0) if sign > 0 else (x0 - last[h], x0 - first[h])
        out[k] = False
        for c in range(max(lo, 0), min(hi, n - 1) + 1):
            enter = math.floor(c * rise)
            leave = math.floor((c + 1) * rise)
            step = -1 if leave < enter else 1
            r = enter
            while True:
                flat = (r + y0) * width + c * sign + x0
                if 0 <= flat < len(pix_cls) and cls_hex[pix_cls[flat]] == h:
                    out[k] = True
                    break
                if r == leave:
                    break
                r += step
            if out[k]:
                break


def walked_hits(frame, viewer, targets: np.ndarray, hexes: np.ndarray) -> np.ndarray:
    """Whether VASL's walk of each line (centre point to centre point: ``kernel.walk_points``)
    from ``viewer`` (one hex, or one a line) to ``targets[k]`` meets a pixel of ``hexes[k]``
    (rules.md 11.4: a line near a hex's corner, on a drawn map)."""
    out = np.zeros(len(targets), dtype=np.bool_)
    if len(targets):
        first, last = hex_columns(frame)
        viewers = np.ascontiguousarray(np.broadcast_to(viewer, np.shape(targets)), dtype=np.int64)
        _walks_meet(frame.centre_x.astype(np.int64), frame.centre_y.astype(np.int64),
                    int(frame.width), frame.pix_cls, frame.cls_hex, first, last, viewers,
                    np.ascontiguousarray(targets, dtype=np.int64),
                    np.ascontiguousarray(hexes, dtype=np.int64), out)
    return out


def hits(game_map: Map, viewer: int, hexes, frame=None) -> np.ndarray:
    """For each hex of ``hexes`` (a row each), whether the viewer's line to each hex of the map
    meets it (its interior or a hexside: rules.md 11.4), near a corner as the pixels walk
    (``frame``: a drawn map) or as the hex model clips."""
    table = offset_lines(game_map)
    hexes = np.asarray(hexes, dtype=np.int64)
    if table is None:
        row, targets, near = _clipped(game_map, viewer, hexes)
    else:
        row, _, targets, near = table.lines_of(game_map, viewer, hexes)
    out = np.zeros((len(hexes), game_map.size), dtype=bool)
    out[row[~near], targets[~near]] = True
    row, targets = row[near], targets[near]
    if frame is not None:
        own = np.flatnonzero(hexes == viewer)   # the line to the viewer's own hex: its pixel
        row = np.concatenate([row, own])
        targets = np.concatenate([targets, np.full(len(own), viewer, dtype=np.int64)])
        out[row, targets] = walked_hits(frame, viewer, targets, hexes[row])
    elif len(row):
        out[row, targets] = geometric_hits(game_map, viewer, hexes[row], targets)
    return out


def _clipped(game_map: Map, viewer: int, hexes: np.ndarray):
    """``OffsetLines.lines_of`` for a map without a table: the viewer's lines passing within a
    circumradius of each hex's centre clipped now."""
    a = np.array(_xy(float(game_map.q[viewer]), float(game_map.r[viewer])))
    bx, by = _xy(game_map.q.astype(float), game_map.r.astype(float))
    bx, by = bx - a[0], by - a[1]
    cx, cy = _xy(game_map.q[hexes].astype(float), game_map.r[hexes].astype(float))
    cx, cy = (cx - a[0])[:, None], (cy - a[1])[:, None]
    t = np.clip((cx * bx + cy * by) / np.maximum(bx * bx + by * by, _EPS), 0.0, 1.0)
    row, target = np.nonzero((t * bx - cx) ** 2 + (t * by - cy) ** 2 <= (1 + 1e-6) ** 2)
    keep = target != viewer
    row, target = row[keep], target[keep]
    inside = _inside(bx[target], by[target], cx[row, 0], cy[row, 0])
    meets = inside > -CORNER
    return row[meets], target[meets], (inside < CORNER)[meets]


def geometric_hits(game_map: Map, viewer, hexes: np.ndarray,
                   targets: np.ndarray) -> np.ndarray:
    """Whether each line from the viewer (one hex, or one a line) to ``targets[k]``, touching
    ``hexes[k]`` near a corner, runs a positive length in it (the hex model, a map without
    pixels)."""
    ax, ay = _xy(np.asarray(game_map.q[viewer], dtype=float),
                 np.asarray(game_map.r[viewer], dtype=float))
    bx, by = _xy(game_map.q[targets].astype(float), game_map.r[targets].astype(float))
    cx, cy = _xy(game_map.q[hexes].astype(float), game_map.r[hexes].astype(float))
    inside = _inside(bx - ax, by - ay, cx - ax, cy - ay)
    return inside > 1e-6


def pair_hits(game_map: Map, hex_index: int, frame=None):
    """Every line between two hexes of the map that may meet ``hex_index`` (rules.md 11.4):
    (viewers, targets, met), ``met`` as ``hits`` judges each line (the others pass within a
    circumradius of its centre: a part of the hex may still meet them).  None for a map
    without a table of lines by hex offset."""
    table = offset_lines(game_map)
    if table is None:
        return None
    viewers = np.arange(game_map.size)
    _, viewers, targets, near = table.lines_of(game_map, viewers,
                                               np.full(game_map.size, hex_index))
    met = ~near
    ask = np.flatnonzero(near)
    hexes = np.full(len(ask), hex_index)
    if frame is not None:
        # the line to the viewer's own hex, from that hex: its pixel
        viewers = np.append(viewers, hex_index)
        targets = np.append(targets, hex_index)
        met = np.append(met, False)
        ask = np.append(ask, len(met) - 1)
        met[ask] = walked_hits(frame, viewers[ask], targets[ask], np.append(hexes, hex_index))
    elif len(ask):
        met[ask] = geometric_hits(game_map, viewers[ask], hexes, targets[ask])
    return viewers, targets, met
