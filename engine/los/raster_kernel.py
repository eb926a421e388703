"""VASL's walk of a line over the pixel frame (``Map.LOS``: one pixel column at a time, every
pixel row between the line's entry into the column and its exit), compiled (numba), for
``raster_frame``: every line of one viewer walked in one call, each point's pixel class read
and only the points that can matter kept, each walk ended at a point that surely blocks it.

What a point is comes from its pixel class (``raster_frame``: the class arrays are built once
per map).  Which points a line keeps, by its mode bits:

- ``KEEP_ALL``: every point (A6.3's lines; A6.8's lines along hexsides);
- ``KEEP_BUILDING``: every point until the first one out of building terrain, that one
  included (A6.8: the line must leave the building before leaving the viewer's hex), then as
  below;
- otherwise a point whose class is at least the line's ``threshold`` (``cls_from``: plain
  terrain at or below the lower end can neither block nor hinder, A6.2, A6.4, A6.1), and with
  ``KEEP_EDGE`` also one on a hex's border (a line along hexsides takes a hex's inherent
  terrain there); consecutive points of one class once (the first);
- ``DROP_ENDS``: a point kept as above that lies in an end's hex or its extended border is left
  out unless hexside terrain, a rowhouse wall or a bridge (the height rules skip the ends'
  hexes: A6.2, A6.4).

A walk ends after a point that surely blocks (for a line along hexsides, not one on a hex's
border, whose terrain the line may take from the hex): not in an end's hex nor its extended
border, no bridge in its hex (B6), not inherent terrain drawn over from another hex, and ground
higher than both ends or an obstacle higher than both ends (A6.2; split terrain with both ends
at its ground level excepted, A6.1).  The line's first block is at or before it, and the
hindrances counted are those before the first block (A6.1), so the answer is unchanged.  When
that point is the first the line keeps, and the line has no rule of its own (no mode but
``DROP_ENDS``) and the point no hexside, rowhouse or bridge terrain, the answer is that point:
the kernel writes it (``GROUND_HIGHER``: A6.2's ground higher than both ends, else
``OBSTACLE_HIGHER``) and keeps no point of the line.
"""
from __future__ import annotations

import math

import numba
import numpy as np

# per line: the mode bits
DROP_ENDS = 2
KEEP_EDGE = 4
KEEP_BUILDING = 8
KEEP_ALL = 16
# per class: what it is (``raster_frame``)
CAN_BLOCK = 1       # on the map, no bridge in its hex, not inherent terrain from another hex
OBSTACLE_CLS = 2    # and an obstacle (not a rowhouse wall: B23.71 apart)
SPLIT_CLS = 4       # split terrain (A6.1 / B14.2)
KEEP_IN_ENDS = 8    # hexside terrain (B9.2), rowhouse walls (B23.71), bridges (B6): judged in
                    # the ends' hexes too
IN_BUILDING = 16    # building, factory or marketplace terrain (A6.8)
ON_EDGE = 32        # in a neighbour's extended border too
AS_HIGH_OK = 64     # can block as high as the higher end (A6.2; not an out-of-season orchard)
# a line's answer written by the kernel
GROUND_HIGHER = 1   # A6.2: ground higher than both ends
OBSTACLE_HIGHER = 2  # A6.2: an obstacle higher than both ends
AS_HIGH = 3         # A6.2: as high as the higher end and above the lower ("no height advantage")


@numba.njit(cache=True, inline="always")
def in_an_end(cls_nbr, cl, flags, viewer, target):     # pragma: no cover - compiled
    """Whether the class's pixels are in an end's hex or its extended border."""
    hx = cls_nbr[cl, 0]
    if hx == viewer or hx == target:
        return True
    if (flags & ON_EDGE) != 0:
        for j in range(1, 7):
            if cls_nbr[cl, j] == viewer or cls_nbr[cl, j] == target:
                return True
    return False


@numba.njit(cache=True, inline="always")
def hex_range(qa, ra, here, there):     # pragma: no cover - compiled
    """The range between hexes ``here`` and ``there`` (axial coordinates ``qa``, ``ra``)."""
    dq = qa[here] - qa[there]
    dr = ra[here] - ra[there]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@numba.njit(cache=True, inline="always")
def sure_block(flags, ground, top, hi, lo, viewer_elev, target_elev,
               beside_end):     # pragma: no cover - compiled
    """What surely blocks at a point between the ends (module doc): 0 nothing sure,
    ``GROUND_HIGHER``, ``OBSTACLE_HIGHER`` (split terrain with both ends at its ground level
    excepted, A6.1: its lower part rules) or ``AS_HIGH`` (A6.2: as high as the higher end and
    above the lower; with ``AS_HIGH_OK`` only, and not ground nor terrain under a level next
    to an end: water and B10.2's slope there are their own rules)."""
    if (flags & CAN_BLOCK) == 0:
        return 0
    if ground > hi:
        return GROUND_HIGHER
    split_level = (flags & SPLIT_CLS) != 0 and ground == viewer_elev and ground == target_elev
    if split_level:
        return 0
    if (flags & OBSTACLE_CLS) != 0 and top > hi:
        return OBSTACLE_HIGHER
    if ((flags & AS_HIGH_OK) != 0 and top == hi and top > lo
            and (top - ground >= 1 or not beside_end)):
        return AS_HIGH
    return 0


_LINES = ("int64(uint16[:], int64, int64, int64, int64, int64, int64[:], int64[:], "
          "int64[:], uint8[:], int64[:], int64[:], int64[:], int64[:], int64[:], uint8[:], "
          "int64[:, :], int64[:], int64[:], int32[:], int32[:], int64[:], int8[:])")
_SIGNATURES = [_LINES, _LINES.replace("(uint16[:]", "(int32[:]")]


@numba.njit(_SIGNATURES, cache=True, nogil=True)
def walk_lines(pix_cls, width, sx, sy, viewer, viewer_elev, dxs, dys, threshold, mode, hi,
               target_elev, target, cls_g, cls_top, cls_flags, cls_nbr, qa, ra, out_cls,
               out_line, answer_hex, answer):     # pragma: no cover - compiled
    """The points kept of every line from the pixel (``sx``, ``sy``) to (sx + dxs[i],
    sy + dys[i]), in the walk's order, line after line: their classes into ``out_cls`` and the
    line's index into ``out_line`` (room for every point of every walk: |dx| + |dy| + 2 a
    line); returns how many.  A line answered by the kernel (module doc): its blocking hex in
    ``answer_hex`` and why in ``answer`` (else left as they are).  A point off the frame (a
    line to a centre on row 0 can step one row past it in its last column) is the point
    before it again: skipped."""
    size = pix_cls.shape[0]
    base = sy * width + sx
    k = 0
    for i in range(dxs.shape[0]):
        dx = dxs[i]
        n = abs(dx) + 1
        rise = dys[i] / n
        sign = -1 if dx < 0 else 1
        md = mode[i]
        th = threshold[i]
        h = hi[i]
        te = target_elev[i]
        t = target[i]
        head = (md & KEEP_BUILDING) != 0           # every point while in the building
        keep_all = (md & KEEP_ALL) != 0
        edges = (md & KEEP_EDGE) != 0
        drop = (md & DROP_ENDS) != 0
        plain = not (head or keep_all or edges)     # only classes from the threshold on
        answers = md == DROP_ENDS                   # no rule of its own: answered here
        lo = min(viewer_elev, te)
        as_high = not (edges or keep_all)           # B10.23 along cliffs, A6.3: their own
        start = k
        prev = -1
        done = False
        for c in range(n):
            enter = math.floor(c * rise)
            leave = math.floor((c + 1) * rise)
            step = -1 if leave < enter else 1
            r = enter
            while True:
                idx = base + r * width + c * sign
                cl = np.int64(pix_cls[idx]) if 0 <= idx < size else -1
                if (cl >= th or (cl >= 0 and not plain)) and cl != prev:
                    f = cls_flags[cl]
                    in_head = head
                    if head:
                        keep = True
                        head = (f & IN_BUILDING) != 0        # A6.8: out of the building here
                    else:
                        keep = keep_all or cl >= th or (edges and (f & ON_EDGE) != 0)
                    if keep:
                        prev = cl
                        end = in_an_end(cls_nbr, cl, f, viewer, t)
                        if not (drop and not in_head and end and (f & KEEP_IN_ENDS) == 0):
                            out_cls[k] = cl
                            out_line[k] = i
                            k += 1
                            why = 0
                            if not end and not (edges and (f & ON_EDGE) != 0):
                                hx = cls_nbr[cl, 0]
                                why = sure_block(
                                    f if as_high else f & ~AS_HIGH_OK, cls_g[cl], cls_top[cl],
                                    h, lo, viewer_elev, te,
                                    hex_range(qa, ra, hx, viewer) < 2
                                    or hex_range(qa, ra, hx, t) < 2)
                            if why:
                                if answers and k == start + 1 and (f & KEEP_IN_ENDS) == 0:
                                    k = start
                                    answer_hex[i] = cls_nbr[cl, 0]
                                    answer[i] = why
                                done = True
                                break
                if r == leave:
                    break
                r += step
            if done:
                break
    return k


@numba.njit("int64(int64, int64, int64, int64[:])", cache=True, nogil=True)
def walk_points(dx, dy, width, out):     # pragma: no cover - compiled
    """The points of VASL's walk from (0, 0) to (``dx``, ``dy``) as flat offsets y * width + x
    into ``out`` (room for |dx| + |dy| + 2); returns how many."""
    n = abs(dx) + 1
    rise = dy / n
    sign = -1 if dx < 0 else 1
    k = 0
    for c in range(n):
        enter = math.floor(c * rise)
        leave = math.floor((c + 1) * rise)
        step = -1 if leave < enter else 1
        r = enter
        while True:
            out[k] = r * width + c * sign
            k += 1
            if r == leave:
                break
            r += step
    return k


@numba.njit("boolean[:](int64[:], int64[:], int64)", cache=True, nogil=True)
def reversible(dxs, dys, width):     # pragma: no cover - compiled
    """Per difference (dx, dy): whether the walk back from (dx, dy) visits the same pixels in
    reverse (the walk's floors meet an exact row boundary differently each way on some)."""
    out = np.zeros(dxs.shape[0], dtype=np.bool_)
    for i in range(dxs.shape[0]):
        dx, dy = dxs[i], dys[i]
        room = abs(dx) + abs(dy) + 2
        there = np.empty(room, dtype=np.int64)
        back = np.empty(room, dtype=np.int64)
        a = walk_points(dx, dy, width, there)
        b = walk_points(-dx, -dy, width, back)
        same = a == b
        shift = dy * width + dx
        j = 0
        while same and j < a:
            same = there[j] == back[a - 1 - j] + shift
            j += 1
        out[i] = same
    return out


def walk_offsets(dx: int, dy: int, width: int) -> np.ndarray:
    """VASL's walk from (0, 0) to (``dx``, ``dy``) as flat offsets (y * width + x)."""
    out = np.empty(abs(dx) + abs(dy) + 2, dtype=np.int64)
    return out[:walk_points(int(dx), int(dy), int(width), out)]
