"""Per-map precomputed daytime LOS between ground-level locations (A6), for fast night fields.

For a map of n hexes, two bit matrices of n x n bits (n^2 / 8 bytes each): ``clear`` (the line
from the ground location of hex v to that of hex t is clear: A6.1, A6.2, A6.4 and the hexside
terrain of RULES.md 7) and ``blind`` (blocked, and what blocks it first from v leaves t in its
A6.4 blind hexes).  Every row is ``engine.los``'s own answer for that viewer
(``LosTable.lines``): the tables are a cache of it, never a second implementation of the rules.

- Built in the background (a plain thread; numpy releases the GIL), row by row in order, after
  the crossings of the map's lines are added in small batches; until row v exists, the caller
  answers as before (``ground_row`` returns None).  ``prepare`` waits for the whole table.
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
  ``MAX_MAPS`` maps; a background build left out of the cache stops.
- Bounded: maps of more than ``MAX_TABLE_HEXES`` hexes get no table (their rows stay lazy in
  ``engine.los``): a table's build time grows as n^2 x the lines' length.

Upper levels of buildings: their own rows, computed after the ground rows and kept by the
map's LOS table (``LosTable.from_location``'s rows), not in these bit matrices.  Not here:
other viewers above or below ground level (lazy rows in ``engine.los``), hindrance counts and
the hex that blocks (computed for the one hex being explained).
"""
from __future__ import annotations

import atexit
import threading
from contextlib import contextmanager

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
_LOCK = threading.Lock()
_ACTIVE: list = [None]         # the table building in the background for a caller not waiting
_EXITING = threading.Event()   # the process is ending: every build stops at its next row
_BUILDING: set = set()         # every build thread not ended yet (under _LOCK), cached or not
MAX_YIELD_S = 0.5              # a background build waits at most this long for a caller's field
_FOREGROUND = threading.Condition()
_CALLERS = [0]                 # fields being worked out for a caller (``foreground``)


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
        self._thread: threading.Thread | None = None
        self._done = threading.Event()
        self._stop = threading.Event()   # another map was opened: pause (resumed if asked again)
        self._waited = False             # someone waits for it (``prepare``): never paused
        self.error: BaseException | None = None
        self.upper_done = 0              # upper levels' rows built (``progress``)
        self.yielding = threading.Event()    # waiting for a caller's field (``foreground``)
        self.upper_total = int(m.upper_levels.sum())

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
        return self._done.is_set()

    @property
    def running(self) -> bool:
        """Its build is going on (not paused, not done)."""
        return self._thread is not None and not self._done.is_set()

    @property
    def progress(self) -> float:
        """The share of the table built: ground rows and upper levels' rows, 1.0 when done."""
        if self._done.is_set():
            return 1.0
        done = int(np.count_nonzero(self.ready)) + self.upper_done
        return min(done / max(1, self.n + self.upper_total), 0.999)

    @property
    def nbytes(self) -> int:
        return self.clear.nbytes + self.blind.nbytes + self.mirror.nbytes + self.ready.nbytes

    # ---------------------------------------------------------------------------- building
    def start(self) -> None:
        """Build in the background; a background build of another map is paused (the app
        shows one map at a time).  Later calls while it runs or once done change nothing."""
        with _LOCK:
            other = _ACTIVE[0]
            if other is not None and other is not self and not other._waited:
                other._stop.set()
            _ACTIVE[0] = self
            self._launch()

    def _launch(self) -> None:
        self._stop.clear()
        if self._thread is None and not self._done.is_set() and not _EXITING.is_set():
            self._thread = threading.Thread(target=self._run, name="starshell-los-table",
                                            daemon=True)
            _BUILDING.add(self._thread)
            self._thread.start()

    def wait(self) -> None:
        """Build (or finish building) and return when done."""
        with _LOCK:
            self._waited = True
            self._launch()
        self._done.wait()
        if self.error is not None:
            raise RuntimeError(f"the LOS table of this map could not be built: {self.error}")

    def _paused(self) -> bool:
        """Stop here (another map opened, or the process ends)?  First, while a caller's field
        is being worked out (``foreground``), wait for it (at most ``MAX_YIELD_S``)."""
        if not self._waited:
            with _FOREGROUND:
                if _CALLERS[0]:
                    self.yielding.set()
                    _FOREGROUND.wait_for(lambda: not _CALLERS[0] or _EXITING.is_set(),
                                         timeout=MAX_YIELD_S)
                    self.yielding.clear()
        with _LOCK:
            if _EXITING.is_set() or (self._stop.is_set() and not self._waited):
                self._thread = None
                return True
            return False

    def _run(self) -> None:
        try:
            self._build()
        finally:
            with _LOCK:
                _BUILDING.discard(threading.current_thread())

    def _build(self) -> None:
        try:
            if not self._add_geometry():
                return
            for v in range(int(np.argmin(self.ready)) if not self.ready.all() else self.n,
                           self.n):             # rows are built in order: resume at the first
                if not self._waited and not any(t is self for t in _ground.cached_values()):
                    break                       # left the cache (other maps opened): give up
                if self._paused():
                    return
                self._build_row(los_table(self.map), v)
            else:
                if not self._upper_rows():
                    return
        except BaseException as e:          # noqa: BLE001 - kept, and raised by ``wait``
            self.error = e
        self._done.set()

    def _upper_rows(self) -> bool:
        """After the ground rows, every upper level's own row (a building's floors above
        ground, judged from their elevation: A6.2, A6.4), kept by the map's LOS table (its rows
        cache: ``LosTable.from_location``) so that a viewer upstairs reads it too.  False when
        paused."""
        m = self.map
        for v in np.flatnonzero(m.upper_levels > 0).tolist():
            for level in range(1, int(m.upper_levels[v]) + 1):
                if self._paused():
                    return False
                los_table(m).from_location(v, level)
                self.upper_done += 1
        return True

    def _add_geometry(self) -> bool:
        """The crossings of every difference between two hexes of the map, a batch at a time
        (the shared crossings grow under ``engine.los``'s lock: a field asked meanwhile waits
        for one batch, not for all)."""
        m = self.map
        span = int(max(np.ptp(m.q), np.ptp(m.r)))
        seen = np.zeros((2 * span + 1, 2 * span + 1), dtype=bool)
        for k in range(0, m.size, 256):
            seen[m.q[None, :] - m.q[k:k + 256, None] + span,
                 m.r[None, :] - m.r[k:k + 256, None] + span] = True
        dq, dr = np.nonzero(seen)
        dq, dr = dq - span, dr - span
        for k in range(0, len(dq), GEOMETRY_BATCH):
            if self._paused():
                return False
            CROSSINGS.ids(dq[k:k + GEOMETRY_BATCH], dr[k:k + GEOMETRY_BATCH])
        return True

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


@contextmanager
def foreground():
    """A field a caller waits for is being worked out: background builds wait between rows
    meanwhile (a row at most ``MAX_YIELD_S``), so that it is not slowed by them."""
    with _FOREGROUND:
        _CALLERS[0] += 1
    try:
        yield
    finally:
        with _FOREGROUND:
            _CALLERS[0] -= 1
            _FOREGROUND.notify_all()


@per_map(MAX_MAPS)
def _ground(game_map: Map) -> GroundTable:
    return GroundTable(game_map)


@atexit.register
def _stop_builds() -> None:
    """At exit, stop the background builds and wait for every one of their threads, cached or
    not, paused or not (a daemon thread killed inside numpy while the interpreter shuts down
    aborts the process).  Each stops at its next row or batch of crossings; none starts after."""
    with _LOCK:
        _EXITING.set()
        threads = list(_BUILDING)
    with _FOREGROUND:
        _FOREGROUND.notify_all()
    for thread in threads:
        thread.join()


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


def start(game_map: Map) -> GroundTable | None:
    """Start building the map's table in the background (the caller never waits)."""
    t = ground_table(game_map)
    if t is not None:
        t.start()
    return t


def progress(game_map: Map) -> dict | None:
    """How far the map's table is built, without starting it: {"done": share 0..1, "running":
    its build going on, "waiting": for a caller's field}; None when it has no table (never
    started, or too large)."""
    t = ground_table(game_map, create=False)
    if t is None:
        return None
    return {"done": t.progress, "running": t.running, "waiting": t.yielding.is_set()}


def prepare(game_map: Map) -> dict:
    """Build the map's table and return once it is done (at once if it is or if the map is too
    large); safe from several threads.  Returns what was done (hexes, table, bytes)."""
    t = ground_table(game_map)
    if t is None:
        return {"hexes": game_map.size, "table": False, "limit": MAX_TABLE_HEXES}
    t.wait()
    return {"hexes": game_map.size, "table": True, "bytes": t.nbytes,
            "complete": bool(t.ready.all())}


__all__ = ["GroundTable", "MAX_TABLE_HEXES", "TableTooLarge", "foreground", "ground_row",
           "ground_table", "prepare", "progress", "start"]
