"""Which boards of a position exist only in memory.

A scenario file names its boards (a bundled id or a board file); a board edited in the program
and not saved yet would be lost by saving the position alone.  A board is *unsaved* when what
its map entry names cannot be read, or reads as other terrain, or lies in a scratch folder (the
recovery folder keeps edited boards between a crash and the next start; they are not a home).
No Qt.
"""
from __future__ import annotations

import os
from pathlib import Path

from engine import api
from engine.api import Board, bundled_board, load_board

_FILES: dict[tuple, str] = {}     # (path, mtime, size, rules) -> content key


def board_file(ref: str, folder: str | None) -> Path | None:
    """The file a map entry's ``board`` names, or None for a bundled board."""
    if not ref.endswith(".json"):
        return None
    path = Path(ref)
    return path if path.is_absolute() else Path(folder or ".") / path


def _content_on_disk(ref: str, folder: str | None, rules: tuple[str, ...] = ()) -> str | None:
    """The content of the board the entry names, with the terrain SSRs the map applies to it
    (rules.md 11.2: the map's board is the file's board under the scenario's rules)."""
    path = board_file(ref, folder)
    try:
        if path is None:
            return api.night.board_for_slot(bundled_board(ref), rules).content_key
        st = os.stat(path)
        key = (str(path.resolve()), st.st_mtime_ns, st.st_size, rules)
        if key not in _FILES:
            _FILES[key] = api.night.board_for_slot(load_board(path), rules).content_key
        return _FILES[key]
    except (api.ScenarioError, OSError):
        return None


def is_saved(ref: str, board: Board, folder: str | None, scratch: Path | None = None,
             rules: tuple[str, ...] = ()) -> bool:
    path = board_file(ref, folder)
    if path is not None and scratch is not None:
        try:
            if Path(scratch).resolve() in path.resolve().parents:   # (or a slot in it)
                return False
        except OSError:
            return False
    return _content_on_disk(ref, folder, rules) == board.content_key


def unsaved_boards(scenario: api.night.Scenario, scratch: Path | None = None) -> list[int]:
    """Indices (into ``s.map.placements``) of the boards not saved as they are: the board
    without the position's SSRs and overlays (they belong to the position, rules.md 11.2-11.3)
    compared with its file; a board edited on the map under them is not saved."""
    out = []
    for k, e in enumerate(scenario.map_entries):
        bare = api.night.board_without_rules(scenario, k)
        if bare is None or not is_saved(e.board, bare, scenario.folder, scratch):
            out.append(k)
    return out
