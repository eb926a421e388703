"""The night room (``format: "starshell-scenario"``, and VASL saved games): ASL chapter E1's
night visibility on a hex map.

The room's door, the same in every room (``app.rooms``):

- ``open_window(path=None, *, select=None, recover=False, open_other=None, ...)``: a
  window on ``path`` (None: the bundled default position, which has no file name); ``recover``:
  first offer the unsaved work a crash left behind (at start-up); ``open_other``: how File >
  Open reaches the other rooms.  Raises api.ScenarioError naming the file when refused.
- ``save_screenshot(path, out, width, height, select=None, ...)``: the map view rendered
  headless to a PNG of exactly width x height pixels.

Both also take ``boards``, the folder of a VASL saved game's boards (``--boards``).
"""
from __future__ import annotations

from PySide6.QtCore import QSettings

from app.file_kinds import BOARD, is_vsav, kind_of
from engine import api

from .document import FORMAT, Document, default_scenario_path
from .recovery import offer_recovery
from .screenshot import render_map, render_position
from .vasl.vsav_open import open_vsav, read_headless
from .window import NightWindow


def open_window(path: str | None = None, *, select: str | None = None, recover: bool = False,
                open_other=None, boards: str | None = None, settings: QSettings | None = None):
    """A window on ``path`` (see the module's docstring); ``settings``: the player's,
    unless given.  A VASL saved game opens as a new, unsaved position; a board found nowhere
    is asked for as File > Open asks (given up: the window stays on the bundled position)."""
    if path is not None and is_vsav(path):
        return _open_vsav_window(path, boards, settings, open_other)
    document = offer_recovery() if recover else None     # the room's RoomRecovery
    if document is None and path is not None and kind_of(path) is BOARD:
        document = Document(api.night.board_position(path), None)     # a map of its own
    if document is None:
        # the bundled default has no file name: Save asks for one instead of writing the assets
        document = Document(api.night.load_scenario(path or default_scenario_path()), path)
        if select:
            document.select(select)
    return NightWindow(document, settings, open_other=open_other)


def open_recovered(*, open_other=None, settings: QSettings | None = None):
    """A window on the night work a crash left, if the player restores it (``app.rooms``)."""
    document = offer_recovery()
    return None if document is None else NightWindow(document, settings, open_other=open_other)


def _open_vsav_window(path: str, boards: str | None, settings, open_other):
    """The window opens on the bundled position at once; the game is read through the job
    runner behind a progress dialog with Cancel (``open_vsav``), then shown."""
    settings = settings if settings is not None else QSettings()
    scenario = api.night.load_scenario(default_scenario_path())
    window = NightWindow(Document(scenario, None), settings, open_other=open_other)
    window.show()                            # the questions about boards need it on screen
    if not open_vsav(window, path, boards):
        window.say(f"The VASL saved game {path} was not opened", 15000)
    return window


def save_screenshot(path: str | None, out: str, width: int, height: int,
                    select: str | None = None, *, boards: str | None = None) -> None:
    """Raises api.ScenarioError for a bad file or unit, OSError when ``out`` can't be written."""
    if path is not None and is_vsav(path):
        document = Document(read_headless(path, boards)[0], None)
    elif path is not None and kind_of(path) is BOARD:
        document = Document(api.night.board_position(path), None)
    else:
        document = Document.open_file(path or default_scenario_path())
    if select:
        document.select(select)
    render_position(document, out, width, height)


__all__ = ["FORMAT", "Document", "NightWindow", "open_recovered", "open_window", "render_map",
           "save_screenshot"]
