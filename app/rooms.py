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

import os
from types import ModuleType

from PySide6.QtWidgets import QMessageBox

from engine import api

from . import napoleonic, night, tabletop
from .file_kinds import FIRE, NIGHT, TABLE, room_of

ROOMS: dict[str, ModuleType] = {night.FORMAT: night, napoleonic.FORMAT: napoleonic,
                                tabletop.FORMAT: tabletop}      # by the format of their files
BY_NAME: dict[str, ModuleType] = {NIGHT: night, FIRE: napoleonic, TABLE: tabletop}


def default_path() -> str:
    """The bundled default position, opened when no file is named (the night room's)."""
    return str(night.default_scenario_path())


def room_for(path: str | None) -> ModuleType:
    """The room that opens ``path``: the one its kind names (``app.file_kinds``); the night room
    for no path (the bundled default) and for kinds no room knows (it refuses them, naming the
    file)."""
    return BY_NAME[room_of(path)]


def open_window(path: str | None = None, **options):
    """A window on ``path`` in the room its format picks, able to open every room's files in
    turn (File > Open).  ``options``: the room's door's (``select``, ``recover``, ``boards``).
    With ``recover`` (at start-up) the unsaved work a crash left in any room is offered first,
    the other rooms' before this one's: restored, its window is returned, and ``path`` (unless
    the work restored is that file's) opens beside it, kept alive by its ``room_windows``.
    Raises api.ScenarioError naming the file when it is refused."""
    room = room_for(path)
    if options.get("recover"):
        options = {**options, "recover": False}
        for each in [*(r for r in ROOMS.values() if r is not room), room]:
            window = each.open_recovered(open_other=open_window)
            if window is not None:
                if path is not None and not _holds(window, path):
                    _open_beside(window, room, path, options)
                return window
    return room.open_window(path, open_other=open_window, **options)


def _holds(window, path: str) -> bool:
    """Whether ``window``'s document is the file ``path``."""
    own = getattr(window.document, "path", None)
    return own is not None and os.path.realpath(own) == os.path.realpath(path)


def _open_beside(window, room: ModuleType, path: str, options: dict) -> None:
    """The file asked for at start-up, opened beside the restored work (a refused one is told
    over the restored window, which stays)."""
    try:
        named = room.open_window(path, open_other=open_window, **options)
    except (api.ScenarioError, OSError) as e:
        QMessageBox.warning(window, "Open", str(e))
        return
    window.keep(named)


def save_screenshot(path: str | None, out: str, width: int, height: int,
                    select: str | None = None, **options) -> None:
    """The room's view of ``path`` rendered headless to the PNG ``out``."""
    room_for(path).save_screenshot(path, out, width, height, select, **options)
