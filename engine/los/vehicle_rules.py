"""The lines a vehicle or wreck never hinders (rules.md 11.4, VASL's
``Map.checkVehicleHindranceRule``), apart from the rule's count so that it can be asked first:

- up a slope (B10.2): the line leaves the source's hex, or enters the target's, through one of
  that hex's slope hexsides (VASL's ``status.slopes``; the ends and the vehicle stand at one
  height, so the height test of VASL's slopes holds); a line through a vertex leaves by both
  hexsides there (VASL's ``getExitFromCenterHexsides``);
- hillock to hillock: both ends' hexes are hillock (their centre's terrain, VASL's
  ``startsOnHillock`` / ``endsOnHillock``) and the vehicle's hex is not (VASL: "unless the
  vehicle is also on a hillock").

Slopes are the boards' (``"slopes": {"G5": [0, 1, 2]}`` in a board file: VASL's sides, 0 the
top, clockwise; a board turned half round turns them by three).  Hillocks are known on the
terrain as drawn only (the hex model imports a hillock as rubble): elsewhere none.
"""
from __future__ import annotations

import numpy as np

from ..cache import per_map
from ..errors import ScenarioError, shown
from ..hexes import SQRT3, parse_local
from ..maps import Map
from ..raster_file import terrain_table

_HILLOCK = next(c for c, t in terrain_table().items() if t.name == "Hillock")
_EPS = 1e-9


def _board_slopes(board) -> list[tuple[int, int, int]]:
    """(col, row, side) of every slope hexside a board file names, checked."""
    raw = board.extra.get("slopes", {})
    if not isinstance(raw, dict):
        raise ScenarioError("must be an object: hex -> [its slope hexsides 0-5]",
                            file=board.path, place="slopes")
    out = []
    for name, sides in raw.items():
        try:
            col, row = parse_local(name, tuple(board.size), board.naming)
        except ValueError as e:
            raise ScenarioError(str(e), file=board.path, place=f"slopes.{shown(name, 20)}") from None
        if (not isinstance(sides, list) or len(sides) > 6
                or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 5
                           for s in sides)):
            raise ScenarioError(f"must be a list of hexsides 0 to 5, not {shown(sides, 40)}",
                                file=board.path, place=f"slopes.{name}")
        out += [(col, row, s) for s in sides]
    return out


@per_map(4)
def map_slopes(game_map: Map) -> np.ndarray:
    """bool (hexes, 6): which of each hex's hexsides (VASL's numbers, in the map's
    orientation) are slopes (B10.2)."""
    out = np.zeros((game_map.size, 6), dtype=bool)
    for p in game_map.placements:
        for col, row, side in _board_slopes(p.board):
            name = p.board.id + p.board.name(col, row)
            if game_map.has(name):
                out[game_map.index(name), (side + 3) % 6 if p.rotated else side] = True
    return out


def exit_sides(game_map: Map, source: int, targets: np.ndarray) -> np.ndarray:
    """bool (lines, 6): the hexsides of ``source``'s hex that the line from its centre to each
    target's centre leaves by (two at a vertex: VASL's ``getExitFromCenterHexsides``)."""
    q, r = game_map.q.astype(float), game_map.r.astype(float)
    dx = 1.5 * (q[targets] - q[source])
    dy = SQRT3 * ((r[targets] - r[source]) + (q[targets] - q[source]) / 2)    # y grows south
    # side k's middle lies at angle 60 k - 90 degrees (0 the top, clockwise, y south)
    angle = (np.degrees(np.arctan2(dy, dx)) + 90.0) % 360.0
    out = np.zeros((len(targets), 6), dtype=bool)
    for k in range(6):
        off = np.abs(((angle - 60.0 * k) + 180.0) % 360.0 - 180.0)
        out[:, k] = off <= 30.0 + _EPS
    out[(dx == 0) & (dy == 0)] = False
    return out


def up_a_slope(game_map: Map, viewer: int, targets: np.ndarray) -> np.ndarray:
    """The lines that leave the viewer's hex or enter a target's hex by a slope hexside."""
    slopes = map_slopes(game_map)
    if not slopes.any():
        return np.zeros(len(targets), dtype=bool)
    sides = exit_sides(game_map, viewer, targets)
    leaves = (sides & slopes[viewer]).any(axis=1)
    # the line enters a target's hex by the side opposite the one it would leave it by
    enters = (np.roll(sides, 3, axis=1) & slopes[targets]).any(axis=1)
    return leaves | enters


def hillock_hexes(table) -> np.ndarray | None:
    """bool per hex: a hillock hex (its centre's terrain, VASL's), on the terrain as drawn;
    None on the hex model (no hillock there)."""
    frame = getattr(table, "frame", None)
    if frame is None:
        return None
    return frame.centre_code[:table.map.size] == _HILLOCK


def no_vehicle_hindrance(table, viewer, targets: np.ndarray, vehicle_hex: int) -> np.ndarray:
    """The lines from ``viewer`` (one hex, or one a line) to ``targets`` a vehicle in
    ``vehicle_hex`` does not hinder however it stands (rules.md 11.4: up a slope, hillock to
    hillock)."""
    out = up_a_slope(table.map, viewer, targets)
    hillock = hillock_hexes(table)
    if hillock is not None and not hillock[vehicle_hex]:
        out |= hillock[viewer] & hillock[targets]
    return out
