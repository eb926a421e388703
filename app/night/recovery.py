"""The night room's autosave and crash recovery, on the shared ``app.recovery`` (slots, owners,
damaged files set aside, the status bar's warning: see there).

What the night room adds: boards edited in the program and not saved as board files yet are
written beside the recovery file (``board-N-ID.json``) and the recovered position names them
there; they still count as unsaved after a restore (``app.night.editor.unsaved``), so saving the
position asks where they go.

The window keeps one ``Autosaver`` for its document (``autosave_for``); at start-up
``offer_recovery`` asks the player, slot after slot, whether to restore what a previous run
left: the first one restored opens in the window (its Autosaver takes its slot over, so the
work is never unprotected); slots left after it are offered at the next start.
"""
from __future__ import annotations

from pathlib import Path

from app import recovery
from app.recovery import AUTOSAVE_MS, KEY, Damaged
from engine import api
from engine.api import atomic_write_json, board_to_json

from .document import FORMAT, Document
from .editor.unsaved import unsaved_boards


class Recovered(recovery.Recovered):
    @property
    def scenario(self) -> api.night.Scenario:
        return self.content


def _from_json(data, path: Path, belongs_to: str | None) -> api.night.Scenario:
    s = api.night.scenario_from_json(data, file=str(path), folder=str(path.parent))
    return s.replace(extra={k: v for k, v in s.extra.items() if k != KEY})


def _to_json(document, slot: Path) -> dict:
    s = document.scenario
    data = api.night.scenario_to_json(s, slot)
    for k in unsaved_boards(s, slot):
        # the board without the position's SSRs and overlays: the position lays them again
        board = api.night.board_without_rules(s, k) or s.map.placements[k].board
        path = slot / f"board-{k}-{board.id}.json"
        atomic_write_json(path, board_to_json(board), backup=False)
        data["map"][k]["board"] = str(path.resolve())
    return data


def _document(scenario, belongs_to: str | None) -> Document:
    document = Document(scenario, belongs_to)
    document.take_unsaved(scenario, belongs_to)
    return document


NIGHT = recovery.register(recovery.RoomRecovery(frozenset({FORMAT, None}), _to_json,
                                                _from_json, _document))


def pending(folder: Path | None = None) -> Recovered | None:
    """The unsaved work a previous run left behind, or None (also when it was damaged: see
    ``look``).  It must never stop the program starting."""
    found = look(folder)
    return found if isinstance(found, Recovered) else None


def look(folder: Path | None = None, skip=()) -> Recovered | Damaged | None:
    """The night room's ``app.recovery.look``."""
    found = recovery.look(NIGHT, folder, skip)
    if isinstance(found, recovery.Recovered):
        return Recovered(found.content, found.belongs_to, found.file)
    return found


def offer_recovery(parent=None, folder: Path | None = None) -> Document | None:
    """The night work a crash left, if the player wants it back (``app.recovery``): a Document
    on the first restored position (unsaved, its edited boards too), or None.  Slots after the
    restored one stay for the next start; damaged ones are set aside and told."""
    return recovery.offer_recovery(NIGHT, parent, folder)


def autosave_for(window) -> "Autosaver":
    """The window's autosaver, made anew when the window holds another document."""
    return recovery.autosave_for(window, make=Autosaver)


class Autosaver(recovery.Autosaver):
    """The shared Autosaver writing the night position and its edited boards."""

    def __init__(self, document, folder: Path | None = None, interval_ms: int = AUTOSAVE_MS):
        super().__init__(document, _to_json, folder, interval_ms)
