"""New positions: one on a board file alone (``python -m app bd02.json``, File > New), and the
title a position on some boards is given ("Night on boards 3 and 2"), kept in step with its
boards while the player has not named it."""
from __future__ import annotations

from pathlib import Path

from ..boards import bundled_boards_dir, load_board
from .files import SCENARIO_FORMAT, scenario_from_json
from .scenario import Scenario


def boards_title(board_ids) -> str:
    """"Night on board 2", "Night on boards 2 and 34", "Night on boards 3, 2 and 1"."""
    ids = [str(b) for b in board_ids]
    if len(ids) == 1:
        return f"Night on board {ids[0]}"
    return f"Night on boards {', '.join(ids[:-1])} and {ids[-1]}"


def retitled(before: Scenario, after: Scenario) -> Scenario:
    """``after`` (a layout change of ``before``) with a title that names its boards, when the
    old one named the old boards (a title the player wrote is kept)."""
    old = boards_title(before.map.board_ids)
    if before.title.startswith(old) and before.map.board_ids != after.map.board_ids:
        return after.replace(title=boards_title(after.map.board_ids))
    return after


def board_position(path: str | Path) -> Scenario:
    """A new position on the board file ``path`` alone: no units, no markers (raises
    ScenarioError naming the file when it is no board)."""
    path = Path(path)
    board = load_board(path)
    # a bundled board is named by its id, as the bundled positions do: saved anywhere, the
    # position still finds it (a path would lead back into this installation's folders)
    bundled = (path.resolve().parent == bundled_boards_dir().resolve() and path.stem == board.id)
    data = {"format": SCENARIO_FORMAT, "version": 1, "title": boards_title([board.id]),
            "map": [{"board": board.id if bundled else path.name, "at": [0, 0]}], "units": [],
            "markers": []}
    return scenario_from_json(data, file=str(path), folder=str(path.resolve().parent))


DEFAULT_SIDES = ("allied", "axis")


def game_sides(scenario: Scenario) -> list[str]:
    """The game's two sides as the position names them (a position has two sides, no third:
    ``checks``), completed with "allied" and "axis" while its units name fewer."""
    sides = list(scenario.sides)
    for side in DEFAULT_SIDES:
        if len(sides) < 2 and side not in sides:
            sides.append(side)
    return sides
