"""One program, several games: the ``format`` of the file opened picks the room that shows it.

The night rules (``starshell-scenario``) are the main window of ``app.night.main_window``.  Every other
room is a module named in ``ROOMS`` with two functions:

- ``open_window(path: str) -> QMainWindow``: a window on that file (raises ``api.ScenarioError``
  naming the file and the place when it is refused);
- ``save_screenshot(path: str, out: str, width: int, height: int, select: str | None)``: the
  same view rendered headless to a PNG of exactly width x height pixels.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from engine import api

NIGHT = "starshell-scenario"
ROOMS: dict[str, str] = {"starshell-fire": "app.napoleonic", "starshell-table": "app.tabletop"}


def room_for(path: str) -> ModuleType | None:
    """The room module that opens ``path``, or None for a night position (and for files that
    are not JSON, such as VASL saved games, which the night room imports)."""
    if not path.lower().endswith(".json"):
        return None
    fmt = api.file_format(path)
    if fmt == NIGHT or fmt not in ROOMS:
        return None
    return importlib.import_module(ROOMS[fmt])


def open_any_window(path: str):
    """A window on ``path`` in the room its format picks: that game's window, or a main window
    on a night position (a room's File > Open reaches every room).  Raises api.ScenarioError
    naming the file when it is refused."""
    room = room_for(path)
    if room is not None:
        return room.open_window(path)
    from .night.document import Document
    from .night.main_window import MainWindow
    return MainWindow(Document(api.load_scenario(path), path))
