"""The one registry of file kinds: for every kind of file the program opens, the room that opens
it, its file dialog's filter and how it is recognised (the ``format`` its JSON names, or its
suffix).  Every "open this file" asks here (``kind_of``, ``room_of``): the rooms' door
(``app.rooms``), the command line, every room's File > Open.  Rooms are named, not imported (a
room asks this module; ``app.rooms`` maps the names to the rooms)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine import api

from .file_filters import (
    BOARD_FILTER,
    FIRE_FILTER,
    POSITION_FILTER,
    TABLE_FILTER,
    VASL_BOARD_FILTER,
    VSAV_FILTER,
)

NIGHT, FIRE, TABLE = "night", "napoleonic", "tabletop"      # the rooms, by their package names
DEFAULT_ROOM = NIGHT    # no file (the bundled default), and formats no room knows: it refuses them


@dataclass(frozen=True)
class FileKind:
    """``name``: what the player calls it; ``room``: the room that opens it; ``filter``: its
    file dialog filter; ``format``: the ``format`` its JSON names (None: not JSON, recognised by
    ``suffix``); ``new_position``: it opens as a new, unsaved position (a board, a VASL save)."""
    name: str
    room: str
    filter: str
    format: str | None = None
    suffix: str = ".json"
    new_position: bool = False


POSITION = FileKind("night position", NIGHT, POSITION_FILTER, api.night.SCENARIO_FORMAT)
BOARD = FileKind("board", NIGHT, BOARD_FILTER, api.BOARD_FORMAT, new_position=True)
VSAV = FileKind("VASL saved game", NIGHT, VSAV_FILTER, None, ".vsav", new_position=True)
# a VASL board archive (bd05, no suffix): recognised by its content; opening it offers to import
VASL_BOARD = FileKind("VASL board archive", NIGHT, VASL_BOARD_FILTER, None, "", new_position=True)
FIRE_POSITION = FileKind("fire position", FIRE, FIRE_FILTER, api.napoleonic.FIRE_FORMAT)
TABLE_FILE = FileKind("table", TABLE, TABLE_FILTER, api.tabletop.FORMAT)
KINDS: tuple[FileKind, ...] = (POSITION, BOARD, VSAV, VASL_BOARD, FIRE_POSITION, TABLE_FILE)

# File > Open of any room: every kind the program opens, then each on its own
OPEN_FILTER = ";;".join(
    ["Starshell files, VASL saved games and boards (*.json *.vsav bd*)"]
    + [k.filter.split(";;")[0] for k in KINDS if k.format is None] + ["All files (*)"])


def file_format(path) -> str | None:
    """The ``format`` a JSON file names, or None for a file that is not JSON (a VASL saved game,
    which the night room imports).  Raises api.ScenarioError for a JSON file that cannot be
    read."""
    if Path(str(path)).suffix.lower() != ".json":
        return None
    return api.file_format(str(path))


def is_vsav(path) -> bool:
    """A VASL saved game (the night room imports it as a new position)."""
    return Path(str(path)).suffix.lower() == VSAV.suffix


def kind_of(path) -> FileKind | None:
    """The kind of the file ``path``, or None for one no room knows (the night room refuses it,
    naming the file).  Raises api.ScenarioError for a JSON file that cannot be read."""
    if is_vsav(path):
        return VSAV
    if Path(str(path)).suffix.lower() != ".json" and api.vasl.is_board_archive(str(path)):
        return VASL_BOARD
    fmt = file_format(path)
    return next((k for k in KINDS if k.format is not None and k.format == fmt), None)


def room_of(path) -> str:
    """The name of the room that opens ``path`` (``DEFAULT_ROOM`` for no path or an unknown
    kind)."""
    kind = kind_of(path) if path is not None else None
    return kind.room if kind is not None else DEFAULT_ROOM


def kinds_of(room: str) -> tuple[FileKind, ...]:
    """The kinds ``room`` opens."""
    return tuple(k for k in KINDS if k.room == room)
