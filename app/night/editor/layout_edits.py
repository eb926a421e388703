"""The map layout as the player edits it: where a new board goes, how a board of the
map is named in the panels, and references for boards that exist only in memory.  No Qt; the
edits themselves are ``engine.night.layout``'s."""
from __future__ import annotations

from engine import api

NEW_PREFIX = "(new board "          # the reference of a board made in the program, never saved


def new_board_ref(board_id: str) -> str:
    """A reference no file and no bundled board answers to: saving the position asks to save
    the board first (``unsaved``)."""
    return f"{NEW_PREFIX}{board_id})"


def free_slot(scenario: api.night.Scenario) -> tuple[int, int]:
    """The slot a new board takes: east of the row's last board, else below the map."""
    taken = {e.at for e in scenario.map_entries}
    rows = sorted({at[1] for at in taken})
    for row in rows:
        col = max(at[0] for at in taken if at[1] == row) + 1
        if col <= api.night.MAX_MAP_SLOT and (col, row) not in taken:
            return col, row
    for row in range(api.night.MAX_MAP_SLOT + 1):
        for col in range(api.night.MAX_MAP_SLOT + 1):
            if (col, row) not in taken:
                return col, row
    raise api.ScenarioError("every board slot is taken")


def slot_words(scenario: api.night.Scenario, at: tuple[int, int]) -> str:
    """Where slot ``at`` lies, in a player's words: "east of board 3", "south of board 2"."""
    by_slot = {e.at: p.board.id for e, p in zip(scenario.map_entries, scenario.map.placements)}
    col, row = at
    for (dc, dr), side in (((-1, 0), "east"), ((0, -1), "south"), ((1, 0), "west"),
                           ((0, 1), "north")):
        if (col + dc, row + dr) in by_slot:
            return f"{side} of board {by_slot[(col + dc, row + dr)]}"
    return f"in board slot {col + 1} of row {row + 1}"


def entry_label(scenario: api.night.Scenario, board_index: int, unsaved: bool = False) -> str:
    """"2 at [0, 0], rotated" and where it comes from."""
    e, p = scenario.map_entries[board_index], scenario.map.placements[board_index]
    where = ("bundled" if not e.board.endswith(".json") and not e.board.startswith(NEW_PREFIX)
             else "new" if e.board.startswith(NEW_PREFIX) else e.board)
    text = f"{p.board.id} at [{e.at[0]}, {e.at[1]}]{', rotated' if e.rotated else ''} \u2013 {where}"
    rules = tuple(scenario.ssr) + tuple(e.ssr)      # rules.md 11.2: the rules it is under
    if rules:
        text += " \u2013 SSR: " + ", ".join(api.ssr.in_words(n) for n in rules)
    if e.overlays:                                  # rules.md 11.3: the overlays laid on it
        text += " \u2013 overlays: " + ", ".join(f"{a} {b}-{c}" for a, b, c in e.overlays)
    return text + (" \u2013 unsaved edits" if unsaved else "")
