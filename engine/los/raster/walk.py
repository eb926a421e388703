"""The walk of a viewer's lines over the pixel frame (VASL's ``Map.LOS``), from Python: which
points each line keeps (``line_modes``), the compiled walk called (``walk``), whether a walk
back visits the same pixels (``ReversibleWalks``), and which lines run along hexsides (VASL's
LOSisHorizontal / LOSis60Degree) with their hexspines at the ends."""
from __future__ import annotations

import numpy as np

from . import bits
from .depressions import depression_lines
from .frame import Frame
from .terrain import BUILDING_T


def compiled():
    """The compiled walk (``kernel``, numba): loaded on the first map whose boards are drawn (a
    tenth of a second or two; compiled and cached beside it the first time, a few seconds),
    never for the hex model."""
    from . import kernel
    return kernel


def walk(frame: Frame, viewer: int, viewer_elev: int, targets: np.ndarray,
         target_elev: np.ndarray, threshold: np.ndarray, mode: np.ndarray):
    """Every point of every line (VASL's walk) that can matter, as the pixel classes met in
    turn (consecutive points of one class kept once): (class, line, answer hex, answer),
    a line's points together and in the walk's order; which points, and where a walk
    ends, by each line's class ``threshold`` and ``mode``; the lines the walk answers
    itself (``answer`` not 0, ``bits``' answers, at ``answer hex``) keep no point."""
    n = len(targets)
    answer_hex = np.full(n, -1, dtype=np.int64)
    answer = np.zeros(n, dtype=np.int8)
    x, y = int(frame.centre_x[viewer]), int(frame.centre_y[viewer])
    targets = np.asarray(targets, dtype=np.int64)
    dxs = frame.centre_x[targets] - x
    dys = frame.centre_y[targets] - y
    room = int((np.abs(dxs) + np.abs(dys)).sum()) + 2 * n
    out = bits.Walked(np.empty(room, dtype=np.int32), np.empty(room, dtype=np.int32),
                      answer_hex, answer)
    target_elev = np.asarray(target_elev, dtype=np.int64)
    lines = bits.Lines(dxs, dys, np.asarray(threshold, dtype=np.int64),
                       np.asarray(mode, dtype=np.uint8), np.maximum(viewer_elev, target_elev),
                       target_elev, targets)
    count = compiled().walk_lines(pixels(frame), classes(frame),
                                  bits.Viewer(x, y, int(viewer), int(viewer_elev)), lines, out)
    return (out.classes[:count].astype(np.int64), out.lines[:count].astype(np.int64),
            answer_hex, answer)


def pixels(frame: Frame) -> bits.Pixels:
    """The frame's pixels as the compiled walk reads them."""
    return bits.Pixels(frame.pix_cls, frame.width, frame.height, frame.tile_max)


def classes(frame: Frame) -> bits.Classes:
    """The frame's pixel classes (and hexes' coordinates) as the compiled walk reads them."""
    return bits.Classes(frame.cls_level, frame.cls_top, frame.cls_low, frame.cls_flags,
                        frame.cls_nbr, frame.q, frame.r)


def line_modes(frame: Frame, viewer: int, viewer_elev: int, targets: np.ndarray,
               target_elev: np.ndarray, along: np.ndarray):
    """Per line, the class threshold and the mode of its walk (``kernel``): plain terrain at or
    below the lower end's elevation can neither block nor hinder (A6.2, A6.4, A6.1), nor can
    the ends' own hexes but by their hexside terrain; lines that need more keep it: A6.3
    (leaving or entering a depression) every point, A6.8 (from a building to another
    elevation) every point until the line leaves the building (the drawn building: a hex's
    inherent terrain taken on a line along hexsides is never a building, so it can only leave
    earlier), lines along hexsides their points on hex borders (they take a hex's inherent
    terrain)."""
    floor = np.clip(np.minimum(viewer_elev, target_elev), -128, 126)
    threshold = frame.cls_from[floor + 128]
    edge = np.where(along, bits.KEEP_EDGE, 0)
    mode = edge | bits.DROP_ENDS
    exits, enters = depression_lines(frame, viewer, viewer_elev, targets, target_elev)
    mode = np.where(exits | enters, edge | bits.KEEP_ALL, mode)
    if BUILDING_T[frame.centre_code[viewer]]:
        a68 = (target_elev != viewer_elev) & ~(exits | enters)
        mode = np.where(a68, mode | bits.KEEP_BUILDING, mode)
    return threshold, mode.astype(np.uint8)


def hexless_in_reach(frame: Frame, viewer: int, targets: np.ndarray) -> np.ndarray:
    """Per line from ``viewer``: whether its walk may meet a pixel in no hex (VASL's
    gridToHex, ``hexless``), where it would end: its box of pixels (a row more each way)
    meets the box of those pixels.  The walk back may then end elsewhere (it meets them
    from the other side)."""
    targets = np.asarray(targets, dtype=np.int64)
    if not len(frame.hexless):
        return np.zeros(len(targets), dtype=bool)
    xs, ys = frame.hexless % frame.width, frame.hexless // frame.width
    vx, vy = frame.centre_x[viewer], frame.centre_y[viewer]
    tx, ty = frame.centre_x[targets], frame.centre_y[targets]
    return ((np.minimum(vx, tx) <= xs.max()) & (np.maximum(vx, tx) >= xs.min())
            & (np.minimum(vy, ty) - 1 <= ys.max()) & (np.maximum(vy, ty) + 1 >= ys.min()))


SPAN = 1 << 32     # a key's room for one difference: dy in [-2**31, 2**31), dx as wide


def difference_keys(dxs: np.ndarray, dys: np.ndarray) -> np.ndarray:
    """One int64 per pixel difference that no other difference shares: dx times ``SPAN`` plus
    dy, every difference of a frame far inside +-2**31 pixels (checked, never wrapped)."""
    dxs = np.asarray(dxs, dtype=np.int64)
    dys = np.asarray(dys, dtype=np.int64)
    half = SPAN // 2
    if len(dxs) and (np.abs(dxs).max() >= half or np.abs(dys).max() >= half):
        raise ValueError("a pixel difference past 2**31 pixels: no frame is that large")
    return dxs * SPAN + dys


def difference_of(keys: np.ndarray):
    """The (dx, dy) each key of ``difference_keys`` stands for."""
    dxs = (keys + SPAN // 2) // SPAN
    return dxs, keys - dxs * SPAN


class ReversibleWalks:
    """Per pixel difference: whether the walk back visits the same pixels, in reverse
    (``kernel.reversible``), kept per difference asked (sorted keys that cannot collide,
    looked up)."""

    def __init__(self, width: int):
        self.width = width
        self.keys = np.zeros(0, dtype=np.int64)
        self.same = np.zeros(0, dtype=bool)

    def __call__(self, dxs: np.ndarray, dys: np.ndarray) -> np.ndarray:
        keys = difference_keys(dxs, dys)
        known, same = self.keys, self.same
        at = np.minimum(np.searchsorted(known, keys), max(len(known) - 1, 0))
        found = (known[at] == keys) if len(known) else np.zeros(len(keys), dtype=bool)
        if not found.all():
            new = np.unique(keys[~found])
            new_dx, new_dy = difference_of(new)
            known = np.concatenate([known, new])
            same = np.concatenate([same, compiled().reversible(new_dx, new_dy, self.width)])
            order = np.argsort(known, kind="stable")
            known, same = known[order], same[order]
            self.keys, self.same = known, same
            at = np.searchsorted(known, keys)
        return same[at]
