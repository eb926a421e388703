"""What the board editor's brush does to the boards under it: paint a terrain, raise
or lower the ground, join hexes into one building or separate them, set a building's upper levels,
put walls, hedges, bocage and cliffs on hexsides (rules.md 7).

Plain data, no Qt: a Scenario and a map hex in, the Scenario on the edited boards out
(``engine.night.layout.set_layout``, which keeps units and markers on their hexes and reports any it
has to bring down).  A joined half hex is one hex on the table, so every board's half of it is
edited alike.  Which terrain does what to a line of sight is the engine's; here the terrain is
only written down.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from engine import api
from engine.api import MAX_LEVEL, MAX_UPPER_LEVELS, Board, HexTerrain, parse_hex_id

KINDS = ("terrain", "raise", "lower", "join", "separate", "upper", "hexside")
# the hexside brush cycles a clicked hexside through these (None: no hexside terrain)
SIDE_CYCLE = (None, "wall", "hedge", "bocage", "cliff")
SIDE_REACH = 0.35        # map units from a hex centre: nearer than this, no hexside is meant


@dataclass(frozen=True)
class Brush:
    kind: str = "terrain"          # one of KINDS
    terrain: str = "woods"         # the terrain painted by the "terrain" brush
    upper_levels: int = 1          # a building's levels above ground ("join" and "upper")

    def describe(self) -> str:
        return {"terrain": f"paint {self.terrain.replace('_', ' ')}",
                "raise": "raise the ground", "lower": "lower the ground",
                "join": "join into one building", "separate": "separate building hexes",
                "upper": f"set {self.upper_levels} upper level(s)",
                "hexside": "set hexsides"}[self.kind]


@dataclass
class Stroke:
    """One press-drag-release of the brush: each hex is touched once; a "join" stroke makes one
    building (its name per board, chosen at the first hex)."""
    before: api.night.Scenario
    touched: set = field(default_factory=set)
    groups: dict = field(default_factory=dict)     # board id -> building name of this stroke
    report: list = field(default_factory=list)
    sides: set = field(default_factory=set)        # (hex, side 0..5) the hexside brush touched
    side_value: tuple = ()                         # (name or None,): what this stroke puts down


def halves(scenario: api.night.Scenario, hex_index: int) -> list[tuple[int, int, int]]:
    """(placement index, col, row) of every board's half of map hex ``hex_index``."""
    placements = scenario.map.placements
    where = {p.board.id: k for k, p in enumerate(placements)}
    out = []
    for name in scenario.map.aliases(hex_index):
        h = parse_hex_id(name, size=None)
        if h.board in where:            # the board's own naming (a "b" half's Q..GG)
            board = placements[where[h.board]].board
            h = parse_hex_id(name, board.size, board.naming)
            out.append((where[h.board], h.col, h.row))
    return out


def fresh_building(board: Board) -> str:
    taken = {spec.building for spec in board.hexes.values()}
    k = 1
    while f"b{k}" in taken:
        k += 1
    return f"b{k}"


def _painted(spec: HexTerrain, terrain: str) -> HexTerrain:
    if terrain == "building":
        return spec if spec.terrain == "building" else HexTerrain("building", spec.level,
                                                                  extra=spec.extra)
    return HexTerrain(terrain, spec.level, extra=spec.extra)


def _stroke_building(board: Board, spec: HexTerrain, brush: Brush, stroke: Stroke):
    """The (name, upper levels) the "join" stroke builds on ``board``: the first building hex's
    own building when it has one, otherwise a new one with the brush's upper levels."""
    if board.id not in stroke.groups:
        if spec.terrain == "building" and spec.building:
            stroke.groups[board.id] = (spec.building, spec.upper_levels)
        else:
            upper = spec.upper_levels if spec.terrain == "building" else brush.upper_levels
            stroke.groups[board.id] = (fresh_building(board), upper)
    return stroke.groups[board.id]


def edit_board(board: Board, col: int, row: int, brush: Brush, stroke: Stroke,
               level: int | None = None) -> Board:
    """``board`` with the brush applied to its hex (col, row); ``level`` is the ground level the
    hex gets from "raise" and "lower" (the same for every half of a joined hex)."""
    spec = board.at(col, row)
    if brush.kind == "terrain":
        return board.with_hex(col, row, _painted(spec, brush.terrain))
    if brush.kind in ("raise", "lower"):
        return board.with_hex(col, row, dataclasses.replace(spec, level=level))
    if brush.kind == "join":
        name, upper = _stroke_building(board, spec, brush, stroke)
        return board.with_hex(col, row, HexTerrain("building", spec.level, name, upper,
                                                   spec.extra))
    if spec.terrain != "building":
        return board                     # "separate" and "upper" only touch buildings
    if brush.kind == "separate":
        return board.with_hex(col, row, dataclasses.replace(spec, building=None))
    if brush.kind == "upper":
        upper = max(0, min(brush.upper_levels, MAX_UPPER_LEVELS))
        if spec.building is None:
            return board.with_hex(col, row, dataclasses.replace(spec, upper_levels=upper))
        for (c, n), other in board.hexes.items():      # the whole building
            if other.terrain == "building" and other.building == spec.building:
                board = board.with_hex(c, n, dataclasses.replace(other, upper_levels=upper))
        return board
    raise ValueError(f"no brush {brush.kind!r}")


def apply(scenario: api.night.Scenario, hex_index: int, brush: Brush, stroke: Stroke | None = None
          ) -> api.night.LayoutResult | None:
    """The scenario with the brush applied to map hex ``hex_index`` (None: nothing changed, or the hex
    was touched already in this stroke)."""
    stroke = stroke if stroke is not None else Stroke(scenario)
    if hex_index in stroke.touched:
        return None
    stroke.touched.add(hex_index)
    level = None
    if brush.kind in ("raise", "lower"):
        step = 1 if brush.kind == "raise" else -1
        level = max(-MAX_LEVEL, min(MAX_LEVEL, int(scenario.map.level[hex_index]) + step))
    edited = {}
    for k, col, row in halves(scenario, hex_index):
        board = scenario.map.placements[k].board
        after = edit_board(board, col, row, brush, stroke, level)
        if after.content_key != board.content_key:
            edited[scenario.map_entries[k].board] = after
    if not edited:
        return None
    result = api.night.set_layout(scenario, list(scenario.map_entries), edited)
    stroke.report.extend(result.report)
    return result


def blank_board(board_id: str, title: str = "") -> Board:
    """A new board of open ground at level 0."""
    return Board(board_id, title, HexTerrain(), {})


def renamed(board: Board, board_id: str | None = None, title: str | None = None) -> Board:
    """``board`` under another id and/or title."""
    return dataclasses.replace(board, id=board.id if board_id is None else board_id,
                               title=board.title if title is None else title)


# ------------------------------------------------------------------------ hexside brush

def nearest_side(game_map, hex_index: int, point_x: float, point_y: float) -> int | None:
    """The side (0..5: direction 1..6 less one) of map hex ``hex_index`` nearest the map point (x, y),
    or None when the point is near the hex's centre."""
    dx, dy = point_x - float(game_map.x[hex_index]), point_y - float(game_map.y[hex_index])
    if math.hypot(dx, dy) < SIDE_REACH:
        return None
    # side k faces the angle of its midpoint: N is straight up (y grows south), then clockwise
    angle = math.degrees(math.atan2(dx, -dy)) % 360
    return int(((angle + 30) % 360) // 60)


def next_side(name: str | None) -> str | None:
    """The hexside terrain after ``name`` in the brush's cycle (terrain off the cycle: none)."""
    k = SIDE_CYCLE.index(name) if name in SIDE_CYCLE else len(SIDE_CYCLE) - 1
    return SIDE_CYCLE[(k + 1) % len(SIDE_CYCLE)]


def apply_side(scenario: api.night.Scenario, map_hex: int, point_x: float, point_y: float,
               stroke: Stroke | None = None) -> api.night.LayoutResult | None:
    """The scenario with the hexside of map hex ``map_hex`` nearest (x, y) set: the stroke's first
    hexside is cycled to the next terrain, every later one gets the same (None: nothing
    changed, no hexside meant, or already touched in this stroke)."""
    stroke = stroke if stroke is not None else Stroke(scenario)
    m = scenario.map
    k = nearest_side(m, map_hex, point_x, point_y)
    if k is None:
        return None
    j = int(m.neighbours[map_hex, k])
    key = (map_hex, k) if j < 0 or map_hex < j else (j, (k + 3) % 6)
    if key in stroke.sides:
        return None
    stroke.sides.add(key)
    if not stroke.side_value:
        stroke.side_value = (next_side(m.hexside_name(map_hex, k)),)
    name = stroke.side_value[0]
    edited: dict = {}
    for hex_index, side in ((map_hex, k), (j, (k + 3) % 6)):
        if hex_index < 0:
            continue
        for p, col, row in halves(scenario, hex_index):
            entry = scenario.map_entries[p]
            board = edited.get(entry.board, scenario.map.placements[p].board)
            turned = scenario.map.placements[p].rotated
            direction = (side + (3 if turned else 0)) % 6 + 1      # the board's own direction
            after = board.with_hexside(col, row, direction, name)
            if after.content_key != board.content_key:
                edited[entry.board] = after
    if not edited:
        return None
    result = api.night.set_layout(scenario, list(scenario.map_entries), edited)
    stroke.report.extend(result.report)
    return result
