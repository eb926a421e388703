"""Maps of several boards: slots, joins, rotation, and the terrain arrays of the whole map.

rules.md 1: a board starts every 32 columns and every 10 rows of a global grid, so the half
hexes of two boards joined edge to edge fall on one global hex, which answers to both names; its
canonical name is the north-easternmost board's.  A board may be rotated 180 degrees.
Where the two halves of a joined hex disagree, the canonical half's terrain is used.

Boards of another size (SPEC.md "size"): a slot column is as wide as its widest board, less
one column when that leaves an even step (an odd column count ends in a half hex that the next
board's A column joins, as on geomorphic boards); a slot row is as tall as its tallest board.
Even steps keep column parity.  A slot column or row with no board keeps the geomorphic step.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from .boards import Board
from .errors import ScenarioError
from .hexes import (
    COLUMN_STEP,
    DIRECTIONS,
    PLAIN,
    ROW_STEP,
    SQRT3,
    HexId,
    HexIdError,
    Naming,
    board_hexes,
    center,
    parse_hex_id,
    to_axial,
)
from .terrain import BY_CODE, HEXSIDE_BY_CODE, HEXSIDES, TERRAINS


@dataclass(frozen=True)
class Placement:
    board: Board
    at: tuple[int, int]          # (slot column, slot row)
    rotated: bool = False


def place_in_slot(col: int, row: int, rotated: bool, size: tuple[int, int] = (33, 10)) -> tuple[int, int]:
    """A board-local hex's position inside its slot; a 180-degree turn maps the board onto itself."""
    if not rotated:
        return col, row
    columns, rows = size
    # even columns hold rows 1..rows, odd columns 0..rows (rules.md 1); see engine/hexes.py
    return columns - 1 - col, (rows + 1 - row) if col % 2 == 0 else (rows - row)


def _place_many(col: np.ndarray, row: np.ndarray, rotated: bool, size: tuple[int, int]):
    """``place_in_slot`` of arrays."""
    if not rotated:
        return col, row
    columns, rows = size
    return columns - 1 - col, np.where(col % 2 == 0, rows + 1 - row, rows - row)


@lru_cache(maxsize=64)
def _layout(size: tuple[int, int], naming: Naming = PLAIN):
    """A board of ``size``'s printed hexes (``Board.hexes_all``' order): columns, rows, local
    names (as the board names them, rules.md 11.6), and the index of each (col, row)."""
    hexes = board_hexes(size)
    return (np.array([c for c, _ in hexes], np.int64), np.array([n for _, n in hexes], np.int64),
            [naming.name(c, n) for c, n in hexes], {h: k for k, h in enumerate(hexes)})


class _BoardCells:
    """A board's printed hexes as arrays: position, local name and terrain (for speed: a map is
    built from these, not hex by hex)."""

    def __init__(self, board: Board):
        self.col, self.row, self.names, where = _layout(tuple(board.size), board.naming)
        d = board.default
        n = len(self.col)
        self.terrain = np.full(n, TERRAINS[d.terrain].code, np.int16)
        self.level = np.full(n, d.level, np.int16)
        self.upper = np.full(n, d.upper_levels, np.int16)
        self.half = np.full(n, d.half_level or TERRAINS[d.terrain].half_level, bool)
        self.specs = dict.fromkeys(range(n), d) if d.terrain == "building" else {}
        for cn, spec in board.hexes.items():
            k = where.get(cn)
            if k is None:               # not a printed hex of the board: never on a map
                continue
            self.terrain[k] = TERRAINS[spec.terrain].code
            self.level[k] = spec.level
            self.upper[k] = spec.upper_levels
            self.half[k] = spec.half_level or TERRAINS[spec.terrain].half_level
            if spec.terrain == "building":
                self.specs[k] = spec
            else:
                self.specs.pop(k, None)

    def building_key(self, board_id: str, k: int) -> str | None:
        """The building hex k belongs to: its group on its board, or the hex alone."""
        spec = self.specs.get(k)
        if spec is None:
            return None
        return f"{board_id}:{spec.building}" if spec.building else board_id + self.names[k]


def column_step(size: tuple[int, int]) -> int:
    """Global columns from a board's A to the next slot's A: even (parity), 32 for 33 columns."""
    return 2 * (size[0] // 2)


def slot_origins(placements) -> list[tuple[int, int]]:
    """Global (column, row) of each placement's A column and row 0 (see the module doc)."""
    widths: dict[int, int] = {}
    heights: dict[int, int] = {}
    for p in placements:
        widths[p.at[0]] = max(widths.get(p.at[0], 0), column_step(p.board.size))
        heights[p.at[1]] = max(heights.get(p.at[1], 0), p.board.size[1])

    def offset(steps: dict[int, int], k: int, default: int) -> int:
        return sum(steps.get(j, default) for j in range(k))
    return [(offset(widths, p.at[0], COLUMN_STEP), offset(heights, p.at[1], ROW_STEP))
            for p in placements]


# rules.md 11.6: the kinds of board VASL joins, each only with boards of its own kind
BOARD_KINDS = {(33, 10): "a geomorphic board (33 x 10 hexes)",
               (17, 20): "a half board (17 x 20 hexes)",
               (15, 5): "a Deluxe board (15 x 5 hexes)"}


def _from_losdata(board: Board) -> bool:
    """A board imported from a VASL archive with LOSData (a VASL 6 board)."""
    source = board.extra.get("imported_from")
    return isinstance(source, dict) and source.get("format") == "vasl"


def _hex_pixels(board: Board):
    image = board.extra.get("image")
    if not isinstance(image, dict):
        return None
    try:
        return float(image["hex_width"]), float(image["hex_height"])
    except (KeyError, TypeError, ValueError):
        return None


def _check_kinds(placements) -> None:
    """rules.md 11.6: VASL joins only boards of one kind, draws any other LOSData board alone
    and turns LOS off on a map that mixes hex sizes: such a map is refused, saying which."""
    if len(placements) < 2:
        return
    first = placements[0].board
    for i, p in enumerate(placements):
        size = tuple(p.board.size)
        if size not in BOARD_KINDS and _from_losdata(p.board):
            raise ScenarioError(f"board {p.board.id} is a {size[0]} x {size[1]} hex VASL map: "
                                "VASL draws it alone, never joined with another board "
                                "(rules.md 11.6)", place=f"map[{i}]")
        first_size = tuple(first.size)
        if size != first_size and size in BOARD_KINDS and first_size in BOARD_KINDS:
            raise ScenarioError(f"board {p.board.id} is {BOARD_KINDS[size]} and board "
                                f"{first.id} {BOARD_KINDS[first_size]}: VASL joins only boards "
                                "of one kind (rules.md 11.6)", place=f"map[{i}]")
    sizes = [(p.board.id, px) for p in placements if (px := _hex_pixels(p.board)) is not None]
    for bid, (w, h) in sizes:
        for other, (w2, h2) in sizes:
            if abs(w - w2) > 0.05 * w or abs(h - h2) > 0.05 * h:
                raise ScenarioError(f"boards {other} and {bid} have hexes of {w2:g} x {h2:g} and "
                                    f"{w:g} x {h:g} pixels: VASL turns LOS off on a map that "
                                    "mixes hex sizes (rules.md 11.6)", place="map")


def _check_placements(placements) -> None:
    """One board per slot; only a board with an odd number of columns may be turned (rules.md 1)."""
    if not placements:
        raise ScenarioError("a map needs at least one board")
    seen_slots = {}
    for i, p in enumerate(placements):
        if p.at in seen_slots:
            raise ScenarioError(f"two boards in slot {list(p.at)}", place=f"map[{i}].at")
        seen_slots[p.at] = i
    _check_kinds(placements)
    for i, p in enumerate(placements):
        if p.rotated and p.board.size[0] % 2 == 0:
            raise ScenarioError(f"board {p.board.id} has an even number of columns "
                                f"({p.board.size[0]}): it cannot be turned (rules.md 1)",
                                place=f"map[{i}].rotated")


class Map:
    """Boards on slots.  Hexes are numbered 0..n-1 (global column, then row)."""

    def __init__(self, placements: list[Placement]):
        _check_placements(placements)
        self.placements = tuple(placements)
        self.origins = slot_origins(placements)
        cells = [_BoardCells(p.board) for p in placements]
        gp, gk, first, owner, canon = self._place_hexes(cells)
        self._take_terrain(cells, gp, gk, first, owner, canon)
        self._build_lookup()
        self.x, self.y = center(self.col, self.row)
        self.hexside = self._hexsides()

    def _place_hexes(self, cells: list[_BoardCells]):
        # every board's hexes at their global positions, then one hex per position, named by
        # the north-easternmost board's half: the northernmost slot row, then the easternmost
        # column (numpy, for speed)
        gc, gr, gp, gk = [], [], [], []
        for pi, (p, cell) in enumerate(zip(self.placements, cells)):
            pc, pn = _place_many(cell.col, cell.row, p.rotated, p.board.size)
            ox, oy = self.origins[pi]
            gc.append(ox + pc)
            gr.append(oy + pn)
            gp.append(np.full(len(pc), pi, np.int64))
            gk.append(np.arange(len(pc)))
        gc, gr, gp, gk = (np.concatenate(v) for v in (gc, gr, gp, gk))
        slot_col = np.array([p.at[0] for p in self.placements], np.int64)[gp]
        slot_row = np.array([p.at[1] for p in self.placements], np.int64)[gp]
        order = np.lexsort((-slot_col, slot_row, gr, gc))
        gc, gr, gp, gk = gc[order], gr[order], gp[order], gk[order]
        first = np.ones(len(gc), bool)
        first[1:] = (gc[1:] != gc[:-1]) | (gr[1:] != gr[:-1])
        owner = np.cumsum(first) - 1                  # the map index of every board's half
        canon = np.flatnonzero(first)
        self.size = len(canon)
        self.col, self.row = gc[canon], gr[canon]
        self.q, self.r = to_axial(self.col, self.row)
        self.index_of_pos = dict(zip(zip(self.col.tolist(), self.row.tolist()),
                                     range(self.size)))
        ids = [p.board.id for p in self.placements]
        every = [ids[pi] + cells[pi].names[k] for pi, k in zip(gp.tolist(), gk.tolist())]
        self.names: list[str] = [every[e] for e in canon.tolist()]
        self._index_of_name: dict[str, int] = dict(zip(every, owner.tolist()))
        self._board_part = (gp[canon], gk[canon])
        return gp, gk, first, owner, canon

    def _take_terrain(self, cells: list[_BoardCells], gp, gk, first, owner, canon) -> None:
        ids = [p.board.id for p in self.placements]
        # terrain of the canonical half
        codes = [cell.terrain for cell in cells]
        pick = [gk[canon][gp[canon] == pi] for pi in range(len(self.placements))]
        at_hex = [np.flatnonzero(gp[canon] == pi) for pi in range(len(self.placements))]
        terrain = np.zeros(self.size, dtype=np.int16)
        level = np.zeros(self.size, dtype=np.int16)
        upper = np.zeros(self.size, dtype=np.int16)
        half = np.zeros(self.size, dtype=bool)
        for pi, cell in enumerate(cells):
            terrain[at_hex[pi]] = codes[pi][pick[pi]]
            level[at_hex[pi]] = cell.level[pick[pi]]
            upper[at_hex[pi]] = cell.upper[pick[pi]]
            half[at_hex[pi]] = cell.half[pick[pi]]
        building: list[str | None] = [None] * self.size
        for i in np.flatnonzero(terrain == TERRAINS["building"].code).tolist():
            pi, k = int(gp[canon[i]]), int(gk[canon[i]])
            building[i] = cells[pi].building_key(ids[pi], k)
        # a building drawn across a board join is one building: its groups on both boards
        # are joined through the two halves of the joined hex
        joins: list[tuple[str, str]] = []
        for e in np.flatnonzero(~first).tolist():
            i, pi, k = int(owner[e]), int(gp[e]), int(gk[e])
            if building[i] is not None and cells[pi].building_key(ids[pi], k) is not None:
                joins.append((building[i], cells[pi].building_key(ids[pi], k)))
        self.terrain = terrain
        self.level = level
        self.upper_levels = upper
        self.half_level = half
        self.building = _merge_groups(building, joins)

    def _build_lookup(self) -> None:
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

    def _hexsides(self) -> np.ndarray:
        """Hexside terrain codes (size x 6; column k is direction k + 1), both sides of each
        hexside set.  A board turned half round turns its directions by three."""
        out = np.zeros((self.size, 6), dtype=np.int8)
        index = self.index_of_pos
        for pi, p in enumerate(self.placements):
            if not p.board.hexsides:
                continue
            ox, oy = self.origins[pi]
            for (c, n, d), name in p.board.hexsides.items():
                pc, pn = place_in_slot(c, n, p.rotated, p.board.size)
                i = index.get((ox + pc, oy + pn))
                if i is None:
                    continue
                k = (d - 1 + (3 if p.rotated else 0)) % 6
                code = HEXSIDES[name].code
                if out[i, k] == 0:
                    out[i, k] = code
                j = self.neighbours[i, k]
                if j >= 0 and out[j, (k + 3) % 6] == 0:
                    out[j, (k + 3) % 6] = code
        return out

    def board_frame(self, pi: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) in map units of placement ``pi``'s printed area: from the
        centre of its A column to the next slot's (for 33 columns, GG's centre), and from the
        long edges that cut its half hexes (rules.md 1)."""
        p = self.placements[pi]
        ox, oy = self.origins[pi]
        return 1.5 * ox, SQRT3 * oy, 1.5 * column_step(p.board.size), SQRT3 * p.board.size[1]

    @cached_property
    def board_of(self) -> list[HexId]:
        """The canonical HexId of every map index."""
        layouts = [_layout(tuple(p.board.size)) for p in self.placements]
        return [HexId(self.placements[pi].board.id, int(layouts[pi][0][k]),
                      int(layouts[pi][1][k]), self.placements[pi].board.naming)
                for pi, k in zip(*(v.tolist() for v in self._board_part))]

    @property
    def any_hexsides(self) -> bool:
        return bool(self.hexside.any())

    def hexside_name(self, index: int, side: int) -> str | None:
        """The hexside terrain on direction ``side + 1`` of hex ``index`` (None for none)."""
        h = HEXSIDE_BY_CODE[int(self.hexside[index, side])]
        return None if h is None else h.name

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
        # boards read from other files (their pictures beside them): a map of its own
        if hit is None or [p.board.path for p in hit.placements] != [p.board.path for p in placements]:
            hit = cls(placements)
            _MAPS[key] = hit
            if len(_MAPS) > _MAX_MAPS:
                _MAPS.pop(next(iter(_MAPS)))
        return hit

    @property
    def board_ids(self) -> list[str]:
        return [p.board.id for p in self.placements]

    def lookup_axial(self, axial_q, axial_r):
        """Map index of axial (q, r) arrays, -1 off the map."""
        q = np.asarray(axial_q) - self.q0
        r = np.asarray(axial_r) - self.r0
        ok = (q >= 0) & (q < self._grid.shape[0]) & (r >= 0) & (r < self._grid.shape[1])
        out = np.full(np.shape(q), -1, dtype=np.int64)
        out[ok] = self._grid[q[ok], r[ok]]
        return out

    def index(self, hex_id: str) -> int:
        """Index of a hex id (either name of a joined hex); HexIdError when not on this map."""
        i = self._index_of_name.get(hex_id)
        if i is not None:
            return i
        h = parse_hex_id(hex_id, size=None)   # raises a clear message for malformed ids
        for p in self.placements:
            if p.board.id == h.board:
                parse_hex_id(hex_id, p.board.size, p.board.naming)  # ... and hexes off it
        raise HexIdError(f"{hex_id!r} is not on this map (boards {', '.join(self.board_ids)})")

    def has(self, hex_id: str) -> bool:
        return hex_id in self._index_of_name

    def canonical(self, hex_id: str) -> str:
        return self.names[self.index(hex_id)]

    def aliases(self, index: int) -> list[str]:
        return sorted(n for n, j in self._index_of_name.items() if j == index)

    def pos(self, index: int) -> tuple[int, int]:
        return int(self.col[index]), int(self.row[index])

    def distance(self, index, other):
        """Range between map indices (numpy-friendly)."""
        dq = self.q[other] - self.q[index]
        dr = self.r[other] - self.r[index]
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2

    def distances_from(self, index: int) -> np.ndarray:
        return self.distance(index, np.arange(self.size))

    def terrain_name(self, index: int) -> str:
        return BY_CODE[int(self.terrain[index])].name

    # ------------------------------------------------------------------ derived terrain facts
    @cached_property
    def obstacle_height(self) -> np.ndarray:
        """Height of each hex's obstacle above its ground (A6.2; buildings add upper levels)."""
        h = np.array([t.height for t in BY_CODE], dtype=np.int16)[self.terrain]
        h = h + np.where(self.terrain == TERRAINS["building"].code, self.upper_levels, 0)
        # a half-level obstacle has no whole level: its own rule (rules.md 7, engine.los)
        return np.where(self.half_level, 0, h).astype(np.int16)

    @cached_property
    def building_interior(self) -> np.ndarray:
        """A hex of a multi-hex building with no hexside outside it (rules.md 4, our assumption);
        a hexside on the map's edge counts as outside."""
        out = np.zeros(self.size, dtype=bool)
        for i, b in enumerate(self.building):
            if b is None:
                continue
            nb = self.neighbours[i]
            out[i] = bool(np.all(nb >= 0)) and all(self.building[j] == b for j in nb)
        return out

    def describe(self, index: int) -> str:
        t = self.terrain_name(index)
        s = f"{self.names[index]}: {BY_CODE[int(self.terrain[index])].label}, level {int(self.level[index])}"
        if t == "building" and self.upper_levels[index]:
            s += f", {int(self.upper_levels[index])} upper level(s)"
        return s


_MAPS: dict[str, Map] = {}
_MAX_MAPS = 16


def placements_key(placements) -> str:
    h = hashlib.sha1()
    for p in placements:
        h.update(f"{p.board.content_key}@{tuple(p.at)}/{bool(p.rotated)};".encode())
    return h.hexdigest()


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
