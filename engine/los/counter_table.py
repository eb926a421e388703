"""What one set of counters adds to every line between two ground locations of a map
(rules.md 11.4), built once per map and set of counters: a field is then its daytime row and a
small patch.

``CounterTable``: for every ordered pair of hexes (both ends at their ground level) whose line
the counters hinder, the hindrances they add, kept by viewer.  Built by the same rules as a
viewer's lines (``engine.los.counters``: ``smoke_in_hex``, ``vehicles_in_hex``,
``ffe_hindrance``, each asked once per counter hex of every viewer's lines that meet it, the
viewer's fields given per line) and added up as ``counter_lines`` adds them (per range from
the viewer the largest smoke hex and the largest vehicle hex, each FFE).  The lines meeting a
counter hex are the map's lines by hex offset (``counter_lines.pair_hits``), so a map without
that table (``MAX_OFFSET_HEXES``) has no counter table: its fields ask their lines one by one.
Built once a set of counters has been asked for enough fields (``fields_before_table``; before
that its fields are answered line by line, as each step of a counter's drag): a new set (one
counter placed, moved, changed) costs one build when it is used (``CounterTable.seconds``;
three boards and 20 counters: docs/performance.md).  Kept by the map's content and the
counters' value (``LosCounters``): whatever changes a counter's hindrance must be in one of
them, and a new kind of counter is added up here as in ``counter_lines``.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict

import numpy as np

from ..maps import Map
from . import los_table
from .counter_lines import MAX_OFFSET_HEXES, pair_hits
from .counters import (
    Ends,
    LosCounters,
    blast_area,
    ffe_hindrance,
    part_hits,
    smoke_in_hex,
    vehicles_in_hex,
)

KEPT_SETS = 8           # the counter sets kept a table (about 1 MB each on 3 boards)
# the fields asked of one set of counters before its table is built, per thousand hexes: its
# build (20 counters: 0.1 s on three boards, 1,006 hexes) costs about 40 fields answered line by
# line; it grows about as the map's size squared (0.75 s on nine), a field about as its size
TABLE_AFTER = 24
ASKED_KEPT = 64


class _PairMeets:
    """``Meets`` for a counter table's lines (every viewer's lines that may meet a counter's
    hexes): per hex, the lines that meet it; the part nearest a hexside clipped when asked."""

    def __init__(self, game_map: Map, ends: Ends, met: dict):
        self.map, self.ends, self._hit = game_map, ends, met

    def __call__(self, hex_index: int, side: int | None = None) -> np.ndarray:
        if (hex_index, side) not in self._hit:
            self._hit[(hex_index, side)] = part_hits(self.map, self.ends, hex_index, side)
        return self._hit[(hex_index, side)]


class CounterTable:
    """Per viewer hex (its ground location), the targets (ground locations) whose lines the
    counters hinder and the hindrances they add: ``extra_row(viewer)``."""

    def __init__(self, table, counters: LosCounters):
        start = time.perf_counter()
        self.size = n = table.map.size
        pids, amounts = _hindered(table, counters)      # sorted
        self.targets = (pids % n).astype(np.int32)
        self.extra = amounts.astype(np.int16)
        self.start = np.searchsorted(pids // n, np.arange(n + 1))
        self.seconds = time.perf_counter() - start

    @property
    def nbytes(self) -> int:
        return self.targets.nbytes + self.extra.nbytes + self.start.nbytes

    def hindered(self, viewer: int) -> tuple[np.ndarray, np.ndarray]:
        """The hexes (ascending) whose line from the viewer the counters hinder (both ends at
        ground level), and the hindrances they add to each."""
        lo, hi = self.start[viewer], self.start[viewer + 1]
        return self.targets[lo:hi], self.extra[lo:hi]

    def hindered_rows(self, viewers: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``hindered`` of many viewers at once: per line, its viewer's row in ``viewers``,
        its target hex and the hindrances the counters add."""
        lo, hi = self.start[viewers], self.start[viewers + 1]
        count = hi - lo
        row = np.repeat(np.arange(len(viewers)), count)
        at = np.arange(int(count.sum())) + np.repeat(lo - (np.cumsum(count) - count), count)
        return row, self.targets[at], self.extra[at]

    def extra_row(self, viewer: int) -> np.ndarray:
        """The counters' hindrances to the viewer's line to every hex (both at ground level)."""
        out = np.zeros(self.size, dtype=np.int64)
        hit, extra = self.hindered(viewer)
        out[hit] = extra
        return out


def _ends(game_map: Map, viewers: np.ndarray, targets: np.ndarray) -> Ends:
    """Lines from ground location to ground location."""
    level = game_map.level.astype(np.int64)
    return Ends(viewers, level[viewers], np.zeros(len(viewers), dtype=np.int64), targets,
                level[targets])


def _lines(game_map: Map, frame, hexes: list[int], ends_too: bool):
    """Every line that may meet ``hexes`` (or, ``ends_too``, starts or ends in one), as sorted
    pair ids (viewer * size + target) with its ``Ends`` and its meets."""
    n = game_map.size
    found = [pair_hits(game_map, h, frame) for h in hexes]
    pairs = np.zeros((n, n), dtype=bool)
    for v, t, _ in found:
        pairs[v, t] = True
    if ends_too:
        pairs[hexes, :] = True
        pairs[:, hexes] = True
    pid = np.flatnonzero(pairs)
    ends = _ends(game_map, pid // n, pid % n)
    met = {}
    for h, (v, t, hit) in zip(hexes, found):
        mask = np.zeros(len(pid), dtype=bool)
        mask[np.searchsorted(pid, v[hit] * n + t[hit])] = True
        met[(h, None)] = mask
    return pid, ends, _PairMeets(game_map, ends, met)


def _largest_per_range(game_map: Map, entries: list) -> tuple[np.ndarray, np.ndarray]:
    """rules.md 11.4: per line and range from the viewer, the largest hex's hindrance; entries
    (pair ids, counter hex, amounts)."""
    if not entries:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    n = game_map.size
    pid = np.concatenate([p for p, _, _ in entries])
    amount = np.concatenate([a for _, _, a in entries])
    rng = np.concatenate([game_map.distance(p // n, h) for p, h, _ in entries])
    if not len(pid):                # counters hindering no line
        return pid, amount
    span = int(rng.max()) + 1
    key = pid * span + rng
    order = np.argsort(key, kind="stable")
    key, amount = key[order], amount[order]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    return key[first] // span, np.maximum.reduceat(amount, first)


def _hindered(table, counters: LosCounters) -> tuple[np.ndarray, np.ndarray]:
    """The pair ids of the lines the counters hinder and the hindrances they add (the sum
    ``counter_lines`` makes, line by line)."""
    m = table.map
    frame = getattr(table, "frame", None)
    smoke_at: dict = {}
    for s in counters.smoke:
        smoke_at.setdefault(s.hex, []).append(s)
    vehicles_at: dict = {}
    for v in counters.vehicles:
        vehicles_at.setdefault(v.hex, []).append(v)
    blaze = {h for h, ss in smoke_at.items() if any(s.name == "Blaze" for s in ss)}
    smoke, vehicles, parts = [], [], []
    for h, here in smoke_at.items():
        pid, ends, meets = _lines(m, frame, [h], ends_too=True)
        amount = smoke_in_hex(m, ends, here, meets, h in vehicles_at)
        smoke.append((pid[amount > 0], h, amount[amount > 0]))
    for h, here in vehicles_at.items():
        pid, ends, meets = _lines(m, frame, [h], ends_too=False)
        amount = vehicles_in_hex(table, ends, here, meets, h in blaze)
        vehicles.append((pid[amount > 0], h, amount[amount > 0]))
    for group in (smoke, vehicles):
        parts.append(_largest_per_range(m, group))
    for f in counters.ffe:
        pid, ends, meets = _lines(m, frame, blast_area(m, f), ends_too=True)
        amount = ffe_hindrance(m, ends, f, meets)
        parts.append((pid[amount > 0], amount[amount > 0]))
    pid = np.concatenate([p for p, _ in parts])
    amount = np.concatenate([a for _, a in parts])
    if not len(pid):
        return pid, amount
    order = np.argsort(pid, kind="stable")
    pid, amount = pid[order], amount[order]
    first = np.flatnonzero(np.r_[True, pid[1:] != pid[:-1]])
    return pid[first], np.add.reduceat(amount, first)


_LOCK = threading.Lock()
_TABLES: OrderedDict = OrderedDict()    # (map content, counters) -> CounterTable, the last few
_ASKED: OrderedDict = OrderedDict()     # (map content, counters) -> fields asked, no table yet


def counter_table(game_map: Map, counters: LosCounters, fields: int = 1,
                  now: bool = False) -> CounterTable | None:
    """The table of ``counters`` on ``game_map`` (its LOS table's: ``engine.los.los_table``),
    for ``fields`` fields asked: built once ``fields_before_table`` fields have been asked of
    that set (or ``now``: one thread builds it, the others wait), kept for the last ``KEPT_SETS``.
    None until then (a set of counters asked for a few fields, as each step of a counter's
    drag, is answered line by line: cheaper than its table), and for a map too large for
    one (``MAX_OFFSET_HEXES``)."""
    if game_map.size > MAX_OFFSET_HEXES:
        return None
    key = (game_map.content_key, counters)
    with _LOCK:
        table = _TABLES.get(key)
        if table is not None:
            _TABLES.move_to_end(key)
            return table
        asked = _ASKED.pop(key, 0) + fields
        if asked < fields_before_table(game_map) and not now:
            _ASKED[key] = asked
            if len(_ASKED) > ASKED_KEPT:
                _ASKED.popitem(last=False)
            return None
        table = _TABLES[key] = CounterTable(los_table(game_map), counters)
        if len(_TABLES) > KEPT_SETS:
            _TABLES.popitem(last=False)
        return table


def fields_before_table(game_map: Map) -> int:
    """How many fields a set of counters is asked for before its table is built on this map:
    ``TABLE_AFTER`` a thousand hexes, at least ``TABLE_AFTER``."""
    return max(TABLE_AFTER, TABLE_AFTER * game_map.size // 1000)


def forget_tables() -> None:
    """Forget every counter table and count of fields asked (benchmarks, tests)."""
    with _LOCK:
        _TABLES.clear()
        _ASKED.clear()
