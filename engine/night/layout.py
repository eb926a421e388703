"""Editing the map of a scenario: boards on slots, rotation, and edited board terrain.

Every edit makes a new Scenario.  Units and markers keep their hexes (by any of the hex's names)
when the hex is still on the map; those whose board left the map are removed and *reported*, so
the app can tell the player and undo it.  A unit left above what its hex now holds (a building
painted over) is brought down to the ground and reported too.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..boards import Board
from ..errors import ScenarioError
from ..hexes import parse_hex_id
from ..maps import Map, Placement
from .bounds import check_map_size
from .scenario import MapEntry, Scenario


@dataclass
class LayoutResult:
    scenario: Scenario
    report: list = field(default_factory=list)     # sentences: what was removed or changed


def _renamed(names: list[str], renames: dict[str, str]) -> list[str]:
    """Hex names with renamed board ids (a board whose id was edited)."""
    if not renames:
        return names
    out = []
    for n in names:
        h = parse_hex_id(n, size=None)
        out.append(f"{renames[h.board]}{h.local}" if h.board in renames else n)
    return out


def _rehome(old: Scenario, new_map: Map, entries: tuple[MapEntry, ...],
            renames: dict[str, str] | None = None) -> LayoutResult:
    report = []
    units, markers = [], []
    renames = renames or {}
    for u in old.units:
        names = _renamed([u.hex] + old.map.aliases(old.map.index(u.hex)), renames)
        home = next((n for n in names if new_map.has(n)), None)
        if home is None:
            report.append(f"unit {u.id} in {u.hex} was removed: its board left the map")
            continue
        i = new_map.index(home)
        top = int(new_map.upper_levels[i]) if new_map.terrain_name(i) == "building" else 0
        if u.level > top:
            report.append(f"unit {u.id} in {new_map.names[i]} came down from level {u.level} "
                          f"to {top}: the hex no longer has that level")
            u = u.replace(level=top)
        units.append(u.replace(hex=new_map.names[i]))
    for k, mk in enumerate(old.markers):
        names = _renamed([mk.hex] + old.map.aliases(old.map.index(mk.hex)), renames)
        home = next((n for n in names if new_map.has(n)), None)
        if home is None:
            report.append(f"the {mk.type.replace('_', ' ')} marker in {mk.hex} was removed: "
                          "its board left the map")
            continue
        markers.append(mk.replace(hex=new_map.canonical(home)))
    attempts = tuple(new_map.canonical(h) for h in _renamed(list(old.starshell_attempts), renames)
                     if new_map.has(h))
    new = old.replace(map_entries=entries, map=new_map, units=tuple(units),
                      markers=tuple(markers), starshell_attempts=attempts)
    return LayoutResult(new, report)


def _placements(scenario: Scenario, entries, boards: dict[str, Board]) -> list[Placement]:
    out = []
    for e in entries:
        board = boards.get(e.board)
        if board is None:
            raise ScenarioError(f"no board {e.board!r} is loaded for this map")
        out.append(Placement(board, e.at, e.rotated))
    return out


def current_boards(scenario: Scenario) -> dict[str, Board]:
    """The boards of a scenario's map, by the reference its map entries use."""
    return {e.board: p.board for e, p in zip(scenario.map_entries, scenario.map.placements)}


def set_layout(scenario: Scenario, entries: list[MapEntry], boards: dict[str, Board] | None = None,
               renames: dict[str, str] | None = None) -> LayoutResult:
    """The scenario on another arrangement of boards (added, moved, rotated, removed).

    ``boards`` supplies boards not yet on the map (by the reference written in their entry);
    ``renames`` maps old board ids to new ones (hex ids on those boards follow)."""
    known = current_boards(scenario)
    known.update(boards or {})
    entries = tuple(entries)
    ids = [known[e.board].id if e.board in known else None for e in entries]
    for i, bid in enumerate(ids):
        if bid is not None and ids.index(bid) != i:
            raise ScenarioError(f"board {bid!r} appears twice", place=f"map[{i}].board")
    placements = _placements(scenario, entries, known)
    check_map_size(placements)          # the bounds a loaded file has
    new_map = Map.build(placements)
    result = _rehome(scenario, new_map, entries, renames)
    result.report[:0] = _drawings_dropped(scenario, boards or {})
    return result


def _drawings_dropped(scenario: Scenario, boards: dict[str, Board]) -> list[str]:
    """What the player is told when a board edited by hand (``Board.with_hex``) has lost the
    terrain as drawn it had on the map: its lines of sight are the hex model's from now on."""
    before = current_boards(scenario)
    return [f"board {b.id}'s terrain as drawn (imported from VASL) is dropped: its hexes were "
            "edited by hand, so its lines of sight are judged on its hexes from now on (undo "
            "brings the drawing back)"
            for ref, b in boards.items()
            if ref in before and before[ref].raster is not None and b.raster is None
            and before[ref].id == b.id]


def add_board(scenario: Scenario, ref: str, board: Board, at: tuple[int, int],
              rotated: bool = False) -> LayoutResult:
    return set_layout(scenario, list(scenario.map_entries) + [MapEntry(ref, tuple(at), rotated)],
                      {ref: board})


def remove_board(scenario: Scenario, index: int) -> LayoutResult:
    if len(scenario.map_entries) == 1:
        raise ScenarioError("a map needs at least one board")
    entries = [e for k, e in enumerate(scenario.map_entries) if k != index]
    return set_layout(scenario, entries)


def move_board(scenario: Scenario, index: int, at: tuple[int, int] | None = None,
               rotated: bool | None = None) -> LayoutResult:
    entries = list(scenario.map_entries)
    e = entries[index]
    entries[index] = dataclasses.replace(e, at=tuple(at) if at is not None else e.at,
                                         rotated=e.rotated if rotated is None else rotated)
    return set_layout(scenario, entries)


def with_board(scenario: Scenario, board: Board, ref: str | None = None,
               replacing: str | None = None) -> LayoutResult:
    """Replace the board of id ``replacing`` (default: the edited board's own id) by an edited
    one, optionally under a new reference (e.g. the path it was saved to).  When the id changed,
    the hex ids of units and markers on that board follow."""
    old_id = replacing or board.id
    entries = list(scenario.map_entries)
    boards = current_boards(scenario)
    for k, (e, p) in enumerate(zip(scenario.map_entries, scenario.map.placements)):
        if p.board.id == old_id:
            new_ref = ref or e.board
            entries[k] = dataclasses.replace(e, board=new_ref)
            boards[new_ref] = board
            renames = {old_id: board.id} if old_id != board.id else None
            return set_layout(scenario, entries, boards, renames)
    raise ScenarioError(f"board {old_id!r} is not on this map")

