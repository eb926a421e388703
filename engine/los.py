"""Daytime line of sight (A6), the base that night rules restrict.

Per map, a ``LosTable`` answers "what does the line from hex A (at elevation Ea) to every hex B
(at elevation Eb) meet" with numpy arrays.  The geometry of a line depends only on the axial
difference B - A (``hexes.line_crossing``); the table keeps every difference it has met in flat
arrays (CSR), so a viewer's lines to all hexes are one gather and a few vector operations.

Every line is a list of *entries*, nearest first.  An entry is a pair of hexes (h1, h2): for a hex
whose interior the line enters h1 == h2; for a hexside the line runs along, the two hexes sharing
it.  A pair blocks only when both of its hexes would block (A6.1 hexside rule), which makes the
one rule serve both cases.

Rules (RULES.md 2):
- A6.2: an intervening hex blocks when its ground level is higher than both ends; or its
  obstacle top (ground + height) is higher than both ends; or that top equals the higher end and
  is above the lower one (no height advantage).
- A6.4: blind hexes behind an obstacle top or a bare crest strictly between the two elevations.
- A6.1: hindrances add +1 each; six or more block.  Our reading for heights: a hindrance hex
  counts when neither end is more than one level above its ground.  Orchards: a hindrance
  between two ends at its own ground level, an obstacle of height 1 otherwise (VASL).
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .hexes import line_crossing
from .maps import Map
from .terrain import BY_CODE, ORCHARD

# why an entry blocks (codes kept in arrays; sentences built only when asked for)
CLEAR, HILL, HIGHER, EQUAL, BLIND, HINDRANCES = 0, 1, 2, 3, 4, 5
MAX_HINDRANCES = 6          # A6.1: six hindrances block


@dataclass
class DayLines:
    """Daytime LOS from one location to many targets (arrays aligned with ``targets``)."""
    viewer: int
    viewer_elev: int
    targets: np.ndarray
    target_elev: np.ndarray
    clear: np.ndarray           # bool
    kind: np.ndarray            # block code (CLEAR when clear)
    block_h1: np.ndarray        # first blocking pair (map indices), -1 when clear
    block_h2: np.ndarray
    hindrances: np.ndarray      # hindrance count along the line (up to the first block)


class _DeltaStore:
    """Flat arrays of line crossings for every axial difference met so far (all maps share it)."""

    def __init__(self):
        self.ids: dict[tuple[int, int], int] = {}
        self.start = np.zeros(0, dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.q1 = np.zeros(0, dtype=np.int64)
        self.r1 = np.zeros(0, dtype=np.int64)
        self.q2 = np.zeros(0, dtype=np.int64)
        self.r2 = np.zeros(0, dtype=np.int64)

    def ensure(self, dq: np.ndarray, dr: np.ndarray) -> np.ndarray:
        """Ids of the differences, computing the crossings of new ones."""
        keys = list(zip(dq.tolist(), dr.tolist()))
        missing = sorted({k for k in keys if k not in self.ids})
        if missing:
            starts, counts, parts = [], [], []
            base = len(self.q1)
            for k in missing:
                cr = line_crossing(*k)
                # merge interior hexes and hexside pairs, nearest first
                t = np.concatenate([cr.interior_t, cr.sides_t])
                p1 = np.concatenate([cr.interior, cr.sides[:, 0, :]])
                p2 = np.concatenate([cr.interior, cr.sides[:, 1, :]])
                order = np.argsort(t, kind="stable")
                parts.append((p1[order], p2[order]))
                self.ids[k] = len(self.start) + len(starts)
                starts.append(base)
                counts.append(len(t))
                base += len(t)
            self.start = np.concatenate([self.start, np.array(starts, dtype=np.int64)])
            self.count = np.concatenate([self.count, np.array(counts, dtype=np.int64)])
            self.q1 = np.concatenate([self.q1] + [p[0][:, 0] for p in parts])
            self.r1 = np.concatenate([self.r1] + [p[0][:, 1] for p in parts])
            self.q2 = np.concatenate([self.q2] + [p[1][:, 0] for p in parts])
            self.r2 = np.concatenate([self.r2] + [p[1][:, 1] for p in parts])
        ids = self.ids
        return np.fromiter((ids[k] for k in keys), dtype=np.int64, count=len(keys))


DELTAS = _DeltaStore()


class LosTable:
    """Daytime LOS for one map; build with :func:`los_table` (cached by map content)."""

    def __init__(self, game_map: Map, cache_size: int = 4096):
        self.map = game_map
        m = game_map
        self.ground = m.level.astype(np.int64)
        self.height = m.obstacle_height.astype(np.int64)
        self.orchard = m.terrain == ORCHARD
        self.hindrance = np.array([t.hindrance for t in BY_CODE])[m.terrain]
        # off-map (-1) reads the last slot: open ground at level 0
        self.ground = np.append(self.ground, 0)
        self.height = np.append(self.height, 0)
        self.orchard = np.append(self.orchard, False)
        self.hindrance = np.append(self.hindrance, False)
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size

    # ------------------------------------------------------------------------ public
    def from_location(self, viewer: int, viewer_level: int = 0) -> DayLines:
        """LOS from (viewer, its level) to the ground location of every hex (cached)."""
        key = (viewer, viewer_level)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        targets = np.arange(self.map.size)
        res = self.lines(viewer, int(self.ground[viewer]) + viewer_level, targets,
                         self.ground[:-1].copy())
        self._cache[key] = res
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return res

    def line(self, a: int, a_level: int, b: int, b_level: int) -> DayLines:
        """One line, location to location (levels above each hex's ground)."""
        return self.lines(a, int(self.ground[a]) + a_level, np.array([b]),
                          np.array([int(self.ground[b]) + b_level]))

    def lines(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray) -> DayLines:
        m = self.map
        n = len(targets)
        dq = m.q[targets] - m.q[viewer]
        dr = m.r[targets] - m.r[viewer]
        ids = DELTAS.ensure(dq, dr)
        counts = DELTAS.count[ids]
        total = int(counts.sum())
        owner = np.repeat(np.arange(n), counts)                 # entry -> target position
        seg_start = np.cumsum(counts) - counts
        pos = np.arange(total) - np.repeat(seg_start, counts) + np.repeat(DELTAS.start[ids], counts)
        vq, vr = m.q[viewer], m.r[viewer]
        h1 = m.lookup_axial(vq + DELTAS.q1[pos], vr + DELTAS.r1[pos])
        h2 = m.lookup_axial(vq + DELTAS.q2[pos], vr + DELTAS.r2[pos])
        te = np.asarray(target_elev, dtype=np.int64)
        hi = np.maximum(viewer_elev, te)[owner]
        lo = np.minimum(viewer_elev, te)[owner]
        # ranges for A6.4: from the higher end to the obstacle, from the obstacle to the lower
        tq, tr = m.q[targets][owner], m.r[targets][owner]
        viewer_higher = (viewer_elev > te)[owner]
        kind1, hind1 = self._judge(h1, hi, lo, vq, vr, tq, tr, viewer_higher)
        kind2, hind2 = self._judge(h2, hi, lo, vq, vr, tq, tr, viewer_higher)
        # a pair blocks only when both block (the weaker reason is the pair's); A6.1 hexsides
        blocks = (kind1 != CLEAR) & (kind2 != CLEAR)
        kind = np.where(blocks, np.minimum(kind1, kind2), CLEAR)
        # hindrance: both halves hinder or block, but not both block
        hind = (hind1 | (kind1 != CLEAR)) & (hind2 | (kind2 != CLEAR)) & ~blocks
        # A6.1: the sixth hindrance blocks
        per_target = np.bincount(owner, hind, n).astype(np.int64)
        before = np.cumsum(per_target) - per_target          # hindrances of earlier targets
        hcount = np.cumsum(hind) - np.repeat(before, counts)  # running count within each line
        six = hind & (hcount >= MAX_HINDRANCES)
        kind = np.where(six & ~blocks, HINDRANCES, kind)
        blocking = kind != CLEAR
        clear = np.ones(n, dtype=bool)
        out_kind = np.zeros(n, dtype=np.int8)
        b1 = np.full(n, -1, dtype=np.int64)
        b2 = np.full(n, -1, dtype=np.int64)
        hindrances = per_target.copy()
        idx = np.flatnonzero(blocking)
        if len(idx):
            first_owner, first_at = np.unique(owner[idx], return_index=True)
            first = idx[first_at]
            clear[first_owner] = False
            out_kind[first_owner] = kind[first]
            b1[first_owner] = h1[first]
            b2[first_owner] = h2[first]
            hindrances[first_owner] = hcount[first] - (hind[first] & ~six[first])
        # a line to its own hex is clear
        return DayLines(viewer, viewer_elev, targets, te, clear, out_kind, b1, b2, hindrances)

    # ------------------------------------------------------------------------ the rules
    def _judge(self, h, hi, lo, vq, vr, tq, tr, viewer_higher):
        """Block code and hindrance flag of hex h (array) for ends at elevations hi/lo."""
        m = self.map
        G = self.ground[h]
        height = self.height[h]
        orchard_low = self.orchard[h] & (hi == G) & (lo == G)
        height = np.where(orchard_low, 0, height)                 # orchard: hindrance at ground
        hindrance = (self.hindrance[h] & (hi <= G + 1)) & ((height == 0) | orchard_low)
        top = G + height
        kind = np.zeros(len(h), dtype=np.int8)
        # A6.2
        kind = np.where((top == hi) & (top > lo), EQUAL, kind)
        kind = np.where(top > hi, HIGHER, kind)
        kind = np.where(G > hi, HILL, kind)
        # A6.4 blind hexes: a top strictly between the two elevations
        between = (top > lo) & (top < hi)
        if between.any():
            hq = np.where(h >= 0, m.q[np.maximum(h, 0)], 0)
            hr = np.where(h >= 0, m.r[np.maximum(h, 0)], 0)
            hv = _dist(hq - vq, hr - vr)
            ht = _dist(tq - hq, tr - hr)
            R = np.where(viewer_higher, hv, ht)        # higher end -> obstacle
            D = np.where(viewer_higher, ht, hv)        # obstacle -> lower end
            obstacle = height > 0
            limit = np.where(obstacle,
                             np.maximum(2 * top + R // 5 - hi - lo + 1, 1),
                             np.maximum(2 * G + R // 5 - hi - lo, 0))
            kind = np.where(between & (D <= limit) & (kind == CLEAR), BLIND, kind)
        return kind, hindrance


def _dist(dq, dr):
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2


_TABLES: OrderedDict = OrderedDict()
_MAX_TABLES = 8


def los_table(game_map: Map) -> LosTable:
    """The LOS table of a map, shared by every scenario on a map of the same content."""
    key = game_map.content_key
    t = _TABLES.get(key)
    if t is None:
        t = LosTable(game_map)
        _TABLES[key] = t
        if len(_TABLES) > _MAX_TABLES:
            _TABLES.popitem(last=False)
    else:
        _TABLES.move_to_end(key)
    return t


# ---------------------------------------------------------------------------- explanations

KIND_RULE = {HILL: "A6.2", HIGHER: "A6.2", EQUAL: "A6.2", BLIND: "A6.4", HINDRANCES: "A6.1"}


def explain_block(m: Map, lines: DayLines, k: int) -> str:
    """A sentence saying why line k of ``lines`` is blocked (or that it is clear)."""
    src = m.names[lines.viewer]
    dst = m.names[int(lines.targets[k])]
    if lines.clear[k]:
        h = int(lines.hindrances[k])
        extra = f", through {h} hindrance{'s' if h != 1 else ''} (+{h} DRM, A6.1)" if h else ""
        return f"daytime LOS from {src} to {dst} is clear{extra} (A6.1)"
    kind = int(lines.kind[k])
    b1, b2 = int(lines.block_h1[k]), int(lines.block_h2[k])
    where = _hex_words(m, b1)
    if b2 != b1:
        where = f"the hexside of {_hex_words(m, b1)} and {_hex_words(m, b2)} (both block, A6.1)"
    hi = max(lines.viewer_elev, int(lines.target_elev[k]))
    lo = min(lines.viewer_elev, int(lines.target_elev[k]))
    if kind == HILL:
        why = f"its ground is higher than both ends (levels {lo} and {hi})"
    elif kind == HIGHER:
        why = f"its obstacle rises above both ends (levels {lo} and {hi})"
    elif kind == EQUAL:
        why = (f"it is as high as the higher end (level {hi}) and above the lower (level {lo}): "
               "no height advantage")
    elif kind == BLIND:
        why = f"{dst} lies in its blind hexes, seen from level {hi} down to level {lo}"
    else:
        why = "six or more hindrances block"
    return f"{where} blocks LOS from {src} to {dst}: {why} ({KIND_RULE[kind]})"


def _hex_words(m: Map, i: int) -> str:
    if i < 0:
        return "off-map ground"
    t = BY_CODE[int(m.terrain[i])]
    return f"{m.names[i]} ({t.label}, level {int(m.level[i])})"
