"""VASL's walk of a line over the pixel frame (``Map.LOS``: one pixel column at a time, every
pixel row between the line's entry into the column and its exit), compiled (numba), for
``walk``: every line of one viewer walked in one call, each point's pixel class read
and only the points that can matter kept, each walk ended at a point that surely blocks it,
and a line answered here when that point is the first any rule could judge.

What a point is comes from its pixel class (``frame``: the class arrays are built once
per map).  Which points a line keeps, by its mode bits:

- ``KEEP_ALL``: every point (A6.3's lines);
- ``KEEP_BUILDING``: every point until the first one out of building terrain, that one
  included (A6.8: the line must leave the building before leaving the viewer's hex), but
  those in the viewer's hex (no rule judges them there), then as below;
- otherwise a point whose class is at least the line's ``threshold`` (``cls_from``: plain
  terrain at or below the lower end can neither block nor hinder, A6.2, A6.4, A6.1) and, with
  the ends at two elevations, whose ``cls_low`` is above the lower end (hexside, half-level
  and split terrain count at the lower end's level only with both ends there: B9.2's walls,
  B24.1, A6.1's split terrain; a cliff counts a level higher, B10.23; a bridge always, B6);
  with ``KEEP_EDGE`` also every point on a hex's border next to a hex whose centre is
  inherent terrain (a line along hexsides takes that terrain there; elsewhere the point is
  what it is drawn in both hexes); consecutive points of one class once (the first);
- ``DROP_ENDS``: a point kept as above that lies in an end's hex or its extended border is left
  out unless hexside terrain, a rowhouse wall or a bridge (the height rules skip the ends'
  hexes: A6.2, A6.4).

A walk ends, clear so far, at a pixel VASL finds in no hex (``HEXLESS``: ``Map.gridToHex``
finds none, ``hexless``) unless an end's extended border holds it (VASL asks the ends' borders
first): VASL's ``Map.LOS`` returns there with what the line met before.

A walk ends after a point that surely blocks (for a line along hexsides, not one on a hex's
border, whose terrain the line may take from the hex): not in an end's hex nor its extended
border, no bridge in its hex (B6), not inherent terrain drawn over from another hex, and ground
higher than both ends, an obstacle higher than both ends (A6.2; split terrain with both ends at
its ground level excepted, A6.1) or terrain as high as the higher end and above the lower
(A6.2; not out-of-season orchards, nor along cliffs or in depressions, nor ground next to an
end); or, while the line is in the viewer's building, building terrain out of the viewer's hex
as high as the viewer (A6.8).  The line's first block is at or before it, and the hindrances
counted are those before the first block (A6.1), so the answer is unchanged.  When that point
is the first of the line any rule could judge (the line has no mode but ``DROP_ENDS`` and
``KEEP_BUILDING``, and the point no hexside, rowhouse or bridge terrain), the answer is that
point's: the kernel writes it (``GROUND_HIGHER``, ``OBSTACLE_HIGHER``, ``AS_HIGH``,
``STILL_INSIDE``) and keeps no point of the line.

Long: ``walk_lines`` is kept whole (over 80 lines): the compiled loop keeps a line's walk state
(its mode, the last class kept, whether it is still in the building, its first point judged)
in local variables, read at every point.
"""
from __future__ import annotations

import math

import numba
import numpy as np

from .bits import (
    AS_HIGH,
    AS_HIGH_OK,
    CAN_BLOCK,
    DROP_ENDS,
    GROUND_HIGHER,
    HEXLESS,
    IN_BUILDING,
    INHERENT_NEAR,
    KEEP_ALL,
    KEEP_BUILDING,
    KEEP_EDGE,
    KEEP_IN_ENDS,
    LEAVE_FIRST,
    OBSTACLE_CLS,
    OBSTACLE_HIGHER,
    ON_EDGE,
    OUT_OF_OWN,
    SPLIT_CLS,
    STILL_INSIDE,
    TILE,
    TILE_SIZE,
)


@numba.njit(cache=True, inline="always")
def in_an_end(cls_nbr, cl, flags, viewer, target):
    """Whether the class's pixels are in an end's hex or its extended border (a pixel in no
    hex for VASL, out of its own hex's border: only by a neighbour's border)."""
    hx = cls_nbr[cl, 0]
    if (hx == viewer or hx == target) and (flags & OUT_OF_OWN) == 0:
        return True
    if (flags & ON_EDGE) != 0:
        for j in range(1, 7):
            if cls_nbr[cl, j] == viewer or cls_nbr[cl, j] == target:
                return True
    return False


@numba.njit(cache=True, inline="always")
def hex_range(qa, ra, here, there):
    """The range between hexes ``here`` and ``there`` (axial coordinates ``qa``, ``ra``)."""
    dq = qa[here] - qa[there]
    dr = ra[here] - ra[there]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@numba.njit(cache=True, inline="always")
def sure_block(flags, ground, top, hi, lo, viewer_elev, target_elev,
               beside_end):
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


@numba.njit(cache=True, inline="always")
def tile_columns(column, columns, px, sign, rise, sy, enter, leave):
    """The last column from ``column`` (at pixel column ``px``, rows ``enter``..``leave`` from
    the line's first pixel row ``sy``; ``columns`` in all) whose rows all lie in the tile of
    the column's first pixel; ``column - 1`` when the column's own do not."""
    top = ((sy + enter) >> TILE) << TILE
    low, high = top - sy, top + TILE_SIZE - 1 - sy        # the tile's rows, from row sy
    if leave < low or leave > high:
        return column - 1
    inner = px - ((px >> TILE) << TILE)
    last = min(columns - 1, column + (TILE_SIZE - 1 - inner if sign > 0 else inner))
    if rise > 0:
        guess = math.ceil((high + 1) / rise) - 2
    elif rise < 0:
        guess = math.floor(low / rise) - 1
    else:
        guess = last
    end = max(column, min(guess, last))
    while end > column and not low <= math.floor((end + 1) * rise) <= high:
        end -= 1
    while end < last and low <= math.floor((end + 2) * rise) <= high:
        end += 1
    return end


@numba.njit(cache=True, nogil=True)
def walk_lines(pixels, classes, viewer, lines, out):
    """The points kept of every line from the viewer's pixel (``viewer.x``, ``viewer.y``) to
    (x + ``lines.dx[i]``, y + ``lines.dy[i]``), in the walk's order, line after line (the
    arguments: ``bits``' named tuples): their classes into ``out.classes`` and the line's index
    into ``out.lines`` (room for every point of every walk: |dx| + |dy| + 2 a line); returns
    how many.  A line answered by the kernel (module doc): its blocking hex in
    ``out.answer_hex`` and why in ``out.answer`` (else left as they are).  A point off the
    frame (a line to a centre on row 0 can step one row past it in its last column) is the
    point before it again: skipped."""
    pix_cls, width, height, tile_max = pixels
    cls_lev, cls_top, cls_low, cls_flags, cls_nbr, qa, ra = classes
    sx, sy, viewer_hex, viewer_elev = viewer
    dxs, dys, threshold, mode, hi, target_elev, target = lines
    out_cls, out_line, answer_hex, answer = out
    size = pix_cls.shape[0]
    base = sy * width + sx
    tiles_wide = (width + TILE_SIZE - 1) >> TILE
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
        answers = md == DROP_ENDS or md == KEEP_BUILDING | DROP_ENDS
        lo = min(viewer_elev, te)
        apart = viewer_elev != te                   # the ends at two elevations
        as_high = not (edges or keep_all)           # B10.23 along cliffs, A6.3: their own
        start = lead = k                            # lead: before the first point judged
        harmless = inside = False
        prev = -1
        done = False
        leave = 0                                   # floor(0 * rise)
        c = 0
        while c < n:
            enter = leave
            leave = math.floor((c + 1) * rise)
            x = sx + c * sign
            if plain and 0 <= sy + enter < height and tile_max[
                    ((sy + enter) >> TILE) * tiles_wide + (x >> TILE)] < th:
                # in a tile of classes all below the threshold: its columns skipped whole
                last = tile_columns(c, n, x, sign, rise, sy, enter, leave)
                if last >= c:
                    leave = math.floor((last + 1) * rise)
                    c = last + 1
                    continue
            step = -1 if leave < enter else 1
            tall = plain and abs(leave - enter) >= TILE_SIZE   # rows of this column skipped too
            r = enter
            col = base + c * sign
            c += 1
            while True:
                idx = col + r * width
                cl = np.int64(pix_cls[idx]) if 0 <= idx < size else -1
                if tall and cl < th and cl >= 0:
                    # the rest of this column in a tile of classes all below the threshold
                    y = sy + r
                    if tile_max[(y >> TILE) * tiles_wide + (x >> TILE)] < th:
                        edge = ((y >> TILE) << TILE) + (TILE_SIZE - 1 if step > 0 else 0) - sy
                        r = min(leave, edge) if step > 0 else max(leave, edge)
                elif (cl >= th or (cl >= 0 and not plain)) and cl != prev:
                    f = cls_flags[cl]
                    if (f & HEXLESS) != 0 and not in_an_end(cls_nbr, cl, f, viewer_hex, t):
                        done = True             # in no hex (VASL's gridToHex): clear so far
                        break
                    in_head = head
                    emit = True
                    if head:
                        head = (f & IN_BUILDING) != 0        # A6.8: out of the building here
                        # in the viewer's hex (and no hexside terrain), a point no rule judges
                        harmless = (f & KEEP_IN_ENDS) == 0 and in_an_end(cls_nbr, cl, f,
                                                                          viewer_hex, viewer_hex)
                        plain = not (head or keep_all or edges)
                        if head and harmless:
                            emit = False
                        elif head:
                            # A6.8: out of the viewer's hex in the building, as high as the
                            # viewer: blocks (else another point of it may)
                            inside = ((f & LEAVE_FIRST) != 0 and cls_top[cl] >= viewer_elev
                                      and not in_an_end(cls_nbr, cl, f, viewer_hex, viewer_hex))
                            answers = answers and inside and k == lead
                        keep = True
                    else:
                        keep = keep_all or (cl >= th and (not apart or cls_low[cl] > lo)) or (
                            edges and (f & ON_EDGE) != 0 and (f & INHERENT_NEAR) != 0)
                    if keep:
                        prev = cl
                        end = in_an_end(cls_nbr, cl, f, viewer_hex, t)
                        if emit and not (drop and not in_head and end
                                         and (f & KEEP_IN_ENDS) == 0):
                            out_cls[k] = cl
                            out_line[k] = i
                            k += 1
                            if in_head and not head:    # the first point out of it
                                lead = k if harmless else k - 1
                            why = 0
                            if in_head and head:
                                why = STILL_INSIDE if inside else 0
                            elif not end and not (edges and (f & ON_EDGE) != 0):
                                hx = cls_nbr[cl, 0]
                                why = sure_block(
                                    f if as_high else f & ~AS_HIGH_OK, cls_lev[cl], cls_top[cl],
                                    h, lo, viewer_elev, te,
                                    hex_range(qa, ra, hx, viewer_hex) < 2
                                    or hex_range(qa, ra, hx, t) < 2)
                            if why:
                                if (answers and k == lead + 1 and (f & KEEP_IN_ENDS) == 0):
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


@numba.njit(cache=True, nogil=True)
def walk_points(dx, dy, width, out):
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


@numba.njit(cache=True, nogil=True)
def reversible(dxs, dys, width):
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
