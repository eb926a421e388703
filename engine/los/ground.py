"""Per-map precomputed daytime LOS between ground-level locations (A6), for fast night fields.

For a map of n hexes, two bit matrices of n x n bits (n^2 / 8 bytes each): ``clear`` (the line
from the ground location of hex v to that of hex t is clear: A6.1, A6.2, A6.4 and the hexside
terrain of rules.md 7) and ``blind`` (blocked, and what blocks it first from v leaves t in its
A6.4 blind hexes).  Every row is ``engine.los``'s own answer for that viewer
(``LosTable.lines``): the tables are a cache of it, never a second implementation of the rules.

- Built a step at a time (``GroundTable.steps``: a generator the caller drives; the engine
  starts no thread): the crossings of the map's lines in small batches, then row by row in
  order; until row v exists, the caller answers as before (``ground_row`` returns None).  The
  app's job runner drives it between its other work; ``prepare`` drives it to the end.
- Symmetry: a line between two ground locations is clear both ways or neither (A6.2 and A6.4 are
  judged from the higher and the lower end, hindrances counted along the whole line, hexside
  terrain ignored on both ends' own hexsides alike), so row v takes its first v entries from
  column v of the rows before it, on tables whose ``ground_lines_symmetric`` says so.  Over the
  terrain as drawn VASL's walk from the viewer is not always symmetric: there row v reads back
  only the lines its table's ``mirrors`` vouches for (the walk back visits the same pixels...,
  kept as a third bit matrix), and walks the others.
  Blindness is not symmetric (it belongs to the first block seen from the viewer): it is
  computed for the blocked lines towards lower-numbered hexes, and only where the two ends'
  ground levels differ (A6.4 needs an obstacle strictly between them).
- Cached by map content (``engine.cache.per_map``, the engine's one cache mechanism), the last
  ``MAX_MAPS`` maps; a build dropped midway goes on where it stopped when driven again.
- Bounded: maps of more than ``MAX_TABLE_HEXES`` hexes get no table (their rows stay lazy in
  ``engine.los``): a table's build time grows as n^2 x the lines' length.

Upper levels of buildings: their own rows, computed after the ground rows and kept by the
map's LOS table (``LosTable.from_location``'s rows), not in these bit matrices.  Not here:
other viewers above or below ground level (lazy rows in ``engine.los``), hindrance counts and
the hex that blocks (computed for the one hex being explained).
"""
from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np

from ..cache import per_map
from ..maps import Map
from . import los_table
from .day_lines import BLIND
from .geometry import CROSSINGS
from .hex_table import LosTable

MAX_TABLE_HEXES = 3000         # about 9 boards: its table builds in seconds; beyond, lazy rows
GEOMETRY_BATCH = 96            # line differences added to the shared crossings per lock hold
MAX_MAPS = 4                   # tables kept (engine.cache: by map content, least recent out)
_LOCK = threading.Lock()       # the cache of tables, asked from several threads


class TableTooLarge(ValueError):
    """The map is larger than ``MAX_TABLE_HEXES``: its rows stay lazy."""


class GroundTable:
    """The clear / blind bit matrices of one map (see the module's docstring)."""

    def __init__(self, game_map: Map):
        m = game_map
        if m.size > MAX_TABLE_HEXES:
            raise TableTooLarge(f"a map of {m.size} hexes is larger than {MAX_TABLE_HEXES}: "
                                "its LOS rows are computed when asked")
        self.map = m
        self.key = m.content_key
        self.n = n = m.size
        width = (n + 7) // 8
        self.clear = np.zeros((n, width), dtype=np.uint8)
        self.blind = np.zeros((n, width), dtype=np.uint8)
        # (tables whose ground lines are not all symmetric) the line v -> t, t > v, answers
        # t -> v too (``RasterLosTable.mirrors``)
        self.mirror = np.zeros((n, width), dtype=np.uint8)
        self.ready = np.zeros(n, dtype=bool)
        self._lock = threading.Lock()    # one step at a time, whoever drives it
        self._differences: tuple | None = None  # the line differences whose crossings remain
        self._upper = [(v, level) for v in np.flatnonzero(m.upper_levels > 0).tolist()
                       for level in range(1, int(m.upper_levels[v]) + 1)]
        self.upper_done = 0              # upper levels' rows built (``progress``)
        self.upper_total = len(self._upper)

    # ----------------------------------------------------------------------------- reading
    def row(self, viewer: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(clear, blind) bool arrays of hex ``viewer`` at ground level, or None if not built
        yet."""
        if not self.ready[viewer]:
            return None
        return (np.unpackbits(self.clear[viewer], count=self.n).view(bool),
                np.unpackbits(self.blind[viewer], count=self.n).view(bool))

    @property
    def done(self) -> bool:
        return self.upper_done == self.upper_total and bool(self.ready.all())

    @property
    def progress(self) -> float:
        """The share of the table built: ground rows and upper levels' rows, 1.0 when done."""
        if self.done:
            return 1.0
        done = int(np.count_nonzero(self.ready)) + self.upper_done
        return min(done / max(1, self.n + self.upper_total), 0.999)

    @property
    def nbytes(self) -> int:
        return self.clear.nbytes + self.blind.nbytes + self.mirror.nbytes + self.ready.nbytes

    # ---------------------------------------------------------------------------- building
    def steps(self) -> Iterator[float]:
        """The build, one step at a time (a batch of crossings, a row, an upper level's row),
        each yielding the share built: the caller drives it (the app's job runner, between
        its other work) and may drop it between two steps; a later ``steps`` (or ``build``)
        goes on where it stopped.  Several callers on several threads may drive it: one step
        at a time."""
        while not self.done:
            with self._lock:
                self._step()
            yield self.progress

    def build(self) -> None:
        """Build (or finish building) now."""
        for _ in self.steps():
            pass

    def _step(self) -> None:
        """The next step not taken yet (under ``_lock``): the crossings first (a batch), then
        the ground rows in order, then the upper levels' rows."""
        if self._differences is None:
            self._differences = (*self._line_differences(), 0)
        dq, dr, k = self._differences
        if k < len(dq):
            # the shared crossings grow under engine.los's lock: a field asked meanwhile
            # waits for one batch, not for all
            CROSSINGS.ids(dq[k:k + GEOMETRY_BATCH], dr[k:k + GEOMETRY_BATCH])
            self._differences = (dq, dr, k + GEOMETRY_BATCH)
        elif not self.ready.all():
            self._build_row(los_table(self.map), int(np.argmin(self.ready)))
        elif self.upper_done < self.upper_total:
            # an upper level's own row (a building's floors above ground, judged from their
            # elevation: A6.2, A6.4), kept by the map's LOS table (``LosTable.from_location``)
            # so that a viewer upstairs reads it too
            v, level = self._upper[self.upper_done]
            los_table(self.map).from_location(v, level)
            self.upper_done += 1

    def _line_differences(self) -> tuple[np.ndarray, np.ndarray]:
        """Every difference between two hexes of the map (whose crossings the rows need)."""
        m = self.map
        span = int(max(np.ptp(m.q), np.ptp(m.r)))
        seen = np.zeros((2 * span + 1, 2 * span + 1), dtype=bool)
        for k in range(0, m.size, 256):
            seen[m.q[None, :] - m.q[k:k + 256, None] + span,
                 m.r[None, :] - m.r[k:k + 256, None] + span] = True
        dq, dr = np.nonzero(seen)
        return dq - span, dr - span

    def _build_row(self, table: LosTable, v: int) -> None:
        g = table.ground[:-1]
        ev = int(g[v])
        n = self.n
        clear = np.empty(n, dtype=bool)
        blind = np.zeros(n, dtype=bool)
        if not table.ground_lines_symmetric:
            self._build_row_mirrored(table, v)
            return
        ahead = table.lines(v, ev, np.arange(v, n), g[v:])
        clear[v:] = ahead.clear
        blind[v:] = ahead.kind == BLIND
        if v:
            # A6: clear both ways or neither; column v of the rows already built
            clear[:v] = ((self.clear[:v, v >> 3] >> (7 - (v & 7))) & 1).astype(bool)
            ask = np.flatnonzero(~clear[:v] & (g[:v] != ev))      # A6.4 needs levels apart
            if len(ask):
                back = table.lines(v, ev, ask, g[ask])
                blind[ask] = back.kind == BLIND
        self._store(v, clear, blind)

    def _build_row_mirrored(self, table: LosTable, v: int) -> None:
        """A row of a table whose ground lines are symmetric only where its ``mirrors`` says
        (over the terrain as drawn): the lines from lower-numbered hexes that answer this
        row's too are read from their rows, every other line walked."""
        g = table.ground[:-1]
        ev = int(g[v])
        n = self.n
        clear = np.empty(n, dtype=bool)
        blind = np.zeros(n, dtype=bool)
        back = ((self.mirror[:v, v >> 3] >> (7 - (v & 7))) & 1).astype(bool)
        walk = np.concatenate([np.flatnonzero(~back), np.arange(v, n)])
        read = np.flatnonzero(back)
        clear[read] = ((self.clear[read, v >> 3] >> (7 - (v & 7))) & 1).astype(bool)
        ask = read[~clear[read] & (g[read] != ev)]      # A6.4 needs levels apart
        # one walk for both: the lines walked and the read ones whose blind hex is asked
        asked = np.concatenate([walk, ask])
        both = table.lines(v, ev, asked, g[asked])
        row_clear, row_kind = both.clear[:len(walk)], both.kind[:len(walk)]
        clear[walk] = row_clear
        blind[walk] = row_kind == BLIND
        blind[ask] = both.kind[len(walk):] == BLIND
        ahead = np.zeros(n, dtype=bool)
        later = walk >= v + 1
        ahead[walk[later]] = table.mirrors(v, walk[later], row_clear[later], row_kind[later],
                                           both.hindrances[:len(walk)][later])
        self.mirror[v] = np.packbits(ahead)
        self._store(v, clear, blind)

    def _store(self, v: int, clear: np.ndarray, blind: np.ndarray) -> None:
        self.clear[v] = np.packbits(clear)
        self.blind[v] = np.packbits(blind)
        self.ready[v] = True


@per_map(MAX_MAPS)
def _ground(game_map: Map) -> GroundTable:
    return GroundTable(game_map)


def ground_table(game_map: Map, create: bool = True) -> GroundTable | None:
    """The map's table (None when the map is too large, or not created yet and ``create`` is
    false)."""
    if game_map.size > MAX_TABLE_HEXES:
        return None
    with _LOCK:
        if not create:
            key = game_map.content_key
            return next((t for t in _ground.cached_values() if t.key == key), None)
        return _ground(game_map)


def ground_row(game_map: Map, viewer: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(clear, blind) from the ground location of hex ``viewer`` to every hex's, if already
    built."""
    t = ground_table(game_map, create=False)
    return None if t is None else t.row(viewer)


def steps(game_map: Map) -> Iterator[float]:
    """The build of the map's table (made now, empty), a step at a time, each yielding the
    share built (nothing when the map is too large or its table is done): the caller drives
    it, in the background, between its other work, and drops it when it likes
    (``GroundTable.steps``)."""
    t = ground_table(game_map)
    return iter(()) if t is None else t.steps()


def progress(game_map: Map) -> dict | None:
    """How far the map's table is built, without starting it: {"done": share 0..1}; None when
    it has no table (never asked for, or too large)."""
    t = ground_table(game_map, create=False)
    if t is None:
        return None
    return {"done": t.progress}


def warm_up(game_map: Map) -> None:
    """What a map's first field needs, made now: its LOS table (for a map whose boards are
    drawn: the pixel frame, and the compiled walk loaded) and one line walked."""
    table = los_table(game_map)
    n = game_map.size
    if n:
        table.lines(0, int(table.ground[0]), np.array([n - 1]), table.ground[[n - 1]])


def prepare(game_map: Map) -> dict:
    """Build the map's table and return once it is done (at once if it is or if the map is too
    large); safe from several threads.  Returns what was done (hexes, table, bytes)."""
    t = ground_table(game_map)
    if t is None:
        return {"hexes": game_map.size, "table": False, "limit": MAX_TABLE_HEXES}
    t.build()
    return {"hexes": game_map.size, "table": True, "bytes": t.nbytes,
            "complete": bool(t.ready.all())}


__all__ = ["GroundTable", "MAX_TABLE_HEXES", "TableTooLarge", "ground_row", "ground_table",
           "prepare", "progress", "steps", "warm_up"]
