"""One program, several games: the ``format`` of the file opened picks the room that shows it.

Every room is a package with the same door (see ``app.night``'s docstring):

- ``open_window(path, *, select=None, recover=False, open_other=None) -> QMainWindow``: a
  window on that file (raises ``api.ScenarioError`` naming the file and the place when it is
  refused);
- ``save_screenshot(path, out, width, height, select=None)``: the same view rendered headless
  to a PNG of exactly width x height pixels;
- ``open_recovered(*, open_other=None)``: a window on the room's unsaved work a crash left, if
  the player restores it (``app.recovery``), else None.

Only this module and ``__main__`` know the rooms; a room never imports another, and reaches the
others through the ``open_other`` it is handed (this module's ``open_window``).
"""
from __future__ import annotations

from types import ModuleType

from . import napoleonic, night, tabletop
from .room_window import file_format

ROOMS: dict[str, ModuleType] = {night.FORMAT: night, napoleonic.FORMAT: napoleonic,
                                tabletop.FORMAT: tabletop}


def default_path() -> str:
    """The bundled default position, opened when no file is named (the night room's)."""
    return str(night.default_scenario_path())


def room_for(path: str | None) -> ModuleType:
    """The room that opens ``path``: the one its format names; the night room for no path (the
    bundled default), for files that are not JSON (VASL saved games, which it imports) and for
    formats no room knows (it refuses them, naming the file)."""
    fmt = file_format(path) if path is not None else None
    return ROOMS.get(fmt, night)


def open_window(path: str | None = None, **options):
    """A window on ``path`` in the room its format picks, able to open every room's files in
    turn (File > Open).  ``options``: the room's door's (``select``, ``recover``, ``boards``).
    With ``recover`` (at start-up) the unsaved work a crash left in any room is offered first,
    the other rooms' before this one's (its door offers its own): restored, it opens instead.
    Raises api.ScenarioError naming the file when it is refused."""
    room = room_for(path)
    if options.get("recover"):
        for other in ROOMS.values():
            window = None if other is room else other.open_recovered(open_other=open_window)
            if window is not None:
                return window
    return room.open_window(path, open_other=open_window, **options)


def save_screenshot(path: str | None, out: str, width: int, height: int,
                    select: str | None = None, **options) -> None:
    """The room's view of ``path`` rendered headless to the PNG ``out``."""
    room_for(path).save_screenshot(path, out, width, height, select, **options)
