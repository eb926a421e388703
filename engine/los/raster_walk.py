"""VASL's walk of a line over the pixel frame (``Map.LOS``: one pixel column at a time,
every pixel row between the line's entry into the column and its exit), for ``raster_frame``:
a walk depends on the pixel difference between its ends only, so each is built once and
shared by every frame of one width.
"""
from __future__ import annotations

import threading

import numpy as np

MAX_PATTERN_POINTS = 30_000_000  # walks kept per frame width (int32 offsets, 120 MB)
WALKS_AT_ONCE = 256              # walks built together (their temporaries: tens of MB at most)


class _Walks:
    """VASL's walks from (0, 0) to every pixel difference (dx, dy) asked for, as flat offsets
    in a frame ``width`` pixels wide (``_walk_offsets``): a walk depends on these only, so
    every map whose frame is this wide shares them (boards of one size side by side or
    stacked).  At most ``MAX_PATTERN_POINTS`` points kept: beyond, start again."""

    def __init__(self, width: int):
        self.width = width
        self._lock = threading.Lock()
        self._patterns: dict = {}           # dx * 65536 + dy -> offsets (int32)
        self._points = 0
        self._reversible: dict = {}         # dx * 65536 + dy -> bool

    def offsets(self, keys: list) -> list:
        """The walks of ``keys`` (dx * 65536 + dy each), built once."""
        with self._lock:
            pats = self._patterns
            missing = sorted({k for k in keys if k not in pats})
            if missing:
                if self._points > MAX_PATTERN_POINTS:
                    pats.clear()
                    self._points = 0
                    missing = sorted(set(keys))
                # a walk leftwards is the walk rightwards mirrored (the rows met in each
                # column depend on the column's distance only): built once for both
                # (a leftward walk whose rightward one is neither kept nor asked: built itself)
                wanted = set(missing)
                build = [k for k in missing if k >= -32768 or (
                    _mirror_key(k) not in pats and _mirror_key(k) not in wanted)]
                for k in range(0, len(build), WALKS_AT_ONCE):     # bounded temporaries
                    batch = build[k:k + WALKS_AT_ONCE]
                    mk = np.array(batch, dtype=np.int64)
                    mdx = (mk + 32768) // 65536
                    for key, offsets in zip(batch, _walk_offsets(mdx, mk - mdx * 65536,
                                                                 self.width)):
                        pats[key] = offsets
                        self._points += len(offsets)
                for key in missing:
                    if key not in pats:
                        pats[key] = mirrored(pats[_mirror_key(key)], self.width)
                        self._points += len(pats[key])
            return [pats[k] for k in keys]


    def reversible(self, keys: list) -> np.ndarray:
        """Per key (dx * 65536 + dy): whether the walk back from (dx, dy) visits the same
        pixels, in reverse (the walk's floors meet an exact row boundary differently each way
        on some differences)."""
        known = self._reversible
        missing = sorted({k for k in keys if k not in known})
        if missing:
            if len(known) > MAX_PATTERN_POINTS // 64:
                known.clear()
            walks = self.offsets(missing + [-k for k in missing])     # -k: (-dx, -dy)
            there, home = walks[:len(missing)], walks[len(missing):]
            for k, a, b in zip(missing, there, home):
                dx = (k + 32768) // 65536
                dy = k - dx * 65536
                known[k] = len(a) == len(b) and bool(
                    np.array_equal(a, (b + (dy * self.width + dx))[::-1]))
        return np.fromiter((known[k] for k in keys), dtype=bool, count=len(keys))


_WALKS: dict = {}                   # frame width -> _Walks (the last few widths)
_WALKS_LOCK = threading.Lock()
MAX_WALK_WIDTHS = 2               # frame widths whose walks are kept (120 MB each at most)


def walks_of_width(width: int) -> _Walks:
    with _WALKS_LOCK:
        walks = _WALKS.pop(width, None) or _Walks(width)
        _WALKS[width] = walks               # the most recent last
        while len(_WALKS) > MAX_WALK_WIDTHS:
            del _WALKS[next(iter(_WALKS))]
        return walks


def _walk_offsets(dx: np.ndarray, dy: np.ndarray, W: int) -> list[np.ndarray]:
    """The points VASL's walk visits from (0, 0) to (dx, dy), one pixel column at a time and
    every row between the line's entry into the column and its exit, as flat offsets y * W + x
    (int32), for each (dx, dy).  A walk depends on these differences only, so the map keeps
    each once."""
    n = np.abs(dx) + 1                                  # pixel columns of each line
    d = dy / n                                          # rise per column
    lstart = np.cumsum(n) - n
    c = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(lstart, n)
    x = c * np.repeat(np.where(dx < 0, -1, 1), n)
    dl = np.repeat(d, n)
    enter = np.floor(c * dl).astype(np.int64)
    leave = np.floor((c + 1) * dl).astype(np.int64)
    k = np.abs(leave - enter) + 1
    pstart = np.cumsum(k) - k
    step = np.where(leave < enter, -W, W)
    base = enter * W + x - pstart * step
    flat = (np.repeat(base, k) + np.arange(int(k.sum()), dtype=np.int64) * np.repeat(step, k))
    cuts = pstart[lstart][1:]
    return np.split(flat.astype(np.int32), cuts)


def _mirror_key(key: int) -> int:
    """The key (dx * 65536 + dy) of the walk (-dx, dy)."""
    dx = (key + 32768) // 65536
    return key - 2 * dx * 65536


def mirrored(offsets: np.ndarray, width: int) -> np.ndarray:
    """The walk to (-dx, dy) from the walk to (dx, dy), dx >= 0 (flat offsets y * width + x,
    0 <= x < width: a walk inside the frame): the same rows, each x negated."""
    flat = offsets.astype(np.int64)
    y = flat // width
    return (2 * y * width - flat).astype(np.int32)


def inside_frame(flat: np.ndarray, lens: np.ndarray) -> None:
    """The walk's points kept inside the frame, in place: a line to a centre on row 0 can step
    one row past it in its last column (the rise per column times the columns falls just
    short), and row -1 is no pixel (numpy would read the bottom row).  Only a line's last
    point can be there: it becomes its previous point again (a repeat, judged once)."""
    last = np.cumsum(lens) - 1
    off = last[flat[last] < 0]
    flat[off] = flat[off - 1]
