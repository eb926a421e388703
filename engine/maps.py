"""Maps of several boards: slots, joins, rotation, and the terrain arrays of the whole map.

RULES.md section 1: a board starts every 32 columns and every 10 rows of a global grid, so the half
hexes of two boards joined edge to edge fall on one global hex, which answers to both names; its
canonical name is the north-easternmost board's.  A board may be rotated 180 degrees.
Where the two halves of a joined hex disagree, the canonical half's terrain is used.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .boards import Board
from .errors import ScenarioError
from .hexes import (
    COLUMN_STEP,
    DIRECTIONS,
    ROW_STEP,
    HexId,
    HexIdError,
    board_hexes,
    center,
    parse_hex_id,
    to_axial,
)
from .terrain import BY_CODE, TERRAINS


@dataclass(frozen=True)
class Placement:
    board: Board
    at: tuple[int, int]          # (slot column, slot row)
    rotated: bool = False


def _place(col: int, row: int, rotated: bool) -> tuple[int, int]:
    """A board-local hex's position inside its slot; a 180-degree turn maps the board onto itself."""
    if not rotated:
        return col, row
    # even columns hold rows 1..10, odd columns 0..10 (RULES.md 1); see engine/hexes.py
    return 32 - col, (11 - row) if col % 2 == 0 else (10 - row)


class Map:
    """Boards on slots.  Hexes are numbered 0..n-1 (global column, then row)."""

    def __init__(self, placements: list[Placement]):
        if not placements:
            raise ScenarioError("a map needs at least one board")
        self.placements = tuple(placements)
        seen_slots = {}
        for i, p in enumerate(placements):
            if p.at in seen_slots:
                raise ScenarioError(f"two boards in slot {list(p.at)}", place=f"map[{i}].at")
            seen_slots[p.at] = i
        halves: dict[tuple[int, int], list[tuple[int, HexId]]] = {}
        for pi, p in enumerate(placements):
            sx, sy = p.at
            for (c, n) in board_hexes():
                pc, pn = _place(c, n, p.rotated)
                g = (COLUMN_STEP * sx + pc, ROW_STEP * sy + pn)
                halves.setdefault(g, []).append((pi, HexId(p.board.id, c, n)))
        order = sorted(halves)
        self.size = len(order)
        self.col = np.array([g[0] for g in order], dtype=np.int64)
        self.row = np.array([g[1] for g in order], dtype=np.int64)
        self.q, self.r = to_axial(self.col, self.row)
        self.index_of_pos = {g: i for i, g in enumerate(order)}
        self.names: list[str] = []
        self._index_of_name: dict[str, int] = {}
        terrain = np.zeros(self.size, dtype=np.int16)
        level = np.zeros(self.size, dtype=np.int16)
        upper = np.zeros(self.size, dtype=np.int16)
        building: list[str | None] = []
        joins: list[tuple[str, str]] = []
        self.board_of = []          # canonical HexId per index
        for i, g in enumerate(order):
            parts = halves[g]
            # north-easternmost board: the northernmost slot row, then the easternmost column
            pi, hid = max(parts, key=lambda ph: (-placements[ph[0]].at[1], placements[ph[0]].at[0]))
            self.names.append(str(hid))
            self.board_of.append(hid)
            for _, other in parts:
                self._index_of_name[str(other)] = i
            spec = placements[pi].board.at(hid.col, hid.row)
            terrain[i] = TERRAINS[spec.terrain].code
            level[i] = spec.level
            upper[i] = spec.upper_levels
            building.append(_building_key(hid, spec))
            # a building drawn across a board join is one building: its groups on both boards
            # are joined through the two halves of the joined hex
            if spec.terrain == "building" and len(parts) > 1:
                for pj, other in parts:
                    ospec = placements[pj].board.at(other.col, other.row)
                    if ospec.terrain == "building":
                        joins.append((building[-1], _building_key(other, ospec)))
        self.terrain = terrain
        self.level = level
        self.upper_levels = upper
        self.building = _merge_groups(building, joins)
        # axial lookup grid
        self.q0, self.r0 = int(self.q.min()) - 1, int(self.r.min()) - 1
        qn, rn = int(self.q.max()) - self.q0 + 2, int(self.r.max()) - self.r0 + 2
        grid = np.full((qn, rn), -1, dtype=np.int64)
        grid[self.q - self.q0, self.r - self.r0] = np.arange(self.size)
        self._grid = grid
        nb = np.full((self.size, 6), -1, dtype=np.int64)
        for k, d in enumerate(range(1, 7)):
            dq, dr = DIRECTIONS[d]
            nb[:, k] = self.lookup_axial(self.q + dq, self.r + dr)
        self.neighbours = nb
        self.x, self.y = center(self.col, self.row)

    # ------------------------------------------------------------------ identity and lookup
    @cached_property
    def content_key(self) -> str:
        """Equal for maps of equal content: the key of every per-map cache."""
        return placements_key(self.placements)

    @classmethod
    def build(cls, placements: list[Placement]) -> "Map":
        """The map of these placements, shared with any earlier map of the same content (a map is
        immutable, and its tables are cached on it)."""
        key = placements_key(placements)
        hit = _MAPS.get(key)
        if hit is None:
            hit = cls(placements)
            _MAPS[key] = hit
            if len(_MAPS) > _MAX_MAPS:
                _MAPS.pop(next(iter(_MAPS)))
        return hit

    @property
    def board_ids(self) -> list[str]:
        return [p.board.id for p in self.placements]

    def lookup_axial(self, q, r):
        """Map index of axial (q, r) arrays, -1 off the map."""
        q = np.asarray(q) - self.q0
        r = np.asarray(r) - self.r0
        ok = (q >= 0) & (q < self._grid.shape[0]) & (r >= 0) & (r < self._grid.shape[1])
        out = np.full(np.shape(q), -1, dtype=np.int64)
        out[ok] = self._grid[q[ok], r[ok]]
        return out

    def index(self, hex_id: str) -> int:
        """Index of a hex id (either name of a joined hex); HexIdError when not on this map."""
        i = self._index_of_name.get(hex_id)
        if i is not None:
            return i
        parse_hex_id(hex_id)   # raises a clear message for malformed ids
        raise HexIdError(f"{hex_id!r} is not on this map (boards {', '.join(self.board_ids)})")

    def has(self, hex_id: str) -> bool:
        return hex_id in self._index_of_name

    def canonical(self, hex_id: str) -> str:
        return self.names[self.index(hex_id)]

    def aliases(self, i: int) -> list[str]:
        return sorted(n for n, j in self._index_of_name.items() if j == i)

    def pos(self, i: int) -> tuple[int, int]:
        return int(self.col[i]), int(self.row[i])

    def distance(self, i, j):
        """Range between map indices (numpy-friendly)."""
        dq = self.q[j] - self.q[i]
        dr = self.r[j] - self.r[i]
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2

    def distances_from(self, i: int) -> np.ndarray:
        return self.distance(i, np.arange(self.size))

    def terrain_name(self, i: int) -> str:
        return BY_CODE[int(self.terrain[i])].name

    # ------------------------------------------------------------------ derived terrain facts
    @cached_property
    def obstacle_height(self) -> np.ndarray:
        """Height of each hex's obstacle above its ground (A6.2; buildings add upper levels)."""
        h = np.array([t.height for t in BY_CODE], dtype=np.int16)[self.terrain]
        return h + np.where(self.terrain == TERRAINS["building"].code, self.upper_levels, 0)

    @cached_property
    def building_interior(self) -> np.ndarray:
        """A hex of a multi-hex building with no hexside outside it (RULES.md 4, our assumption);
        a hexside on the map's edge counts as outside."""
        out = np.zeros(self.size, dtype=bool)
        for i, b in enumerate(self.building):
            if b is None:
                continue
            nb = self.neighbours[i]
            out[i] = bool(np.all(nb >= 0)) and all(self.building[j] == b for j in nb)
        return out

    def describe(self, i: int) -> str:
        t = self.terrain_name(i)
        s = f"{self.names[i]}: {BY_CODE[int(self.terrain[i])].label}, level {int(self.level[i])}"
        if t == "building" and self.upper_levels[i]:
            s += f", {int(self.upper_levels[i])} upper level(s)"
        return s


_MAPS: dict[str, Map] = {}
_MAX_MAPS = 16


def placements_key(placements) -> str:
    h = hashlib.sha1()
    for p in placements:
        h.update(f"{p.board.content_key}@{tuple(p.at)}/{bool(p.rotated)};".encode())
    return h.hexdigest()


def _building_key(hid: HexId, spec) -> str | None:
    """The building a hex belongs to: its group on its board, or the hex alone."""
    if spec.terrain != "building":
        return None
    return f"{hid.board}:{spec.building}" if spec.building else str(hid)


def _merge_groups(keys: list[str | None], joins: list[tuple[str, str]]) -> list[str | None]:
    """Building keys with the joined ones made equal (a small union-find)."""
    parent: dict[str, str] = {}

    def find(k: str) -> str:
        while parent.get(k, k) != k:
            k = parent[k]
        return k
    for a, b in joins:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return [None if k is None else find(k) for k in keys]
