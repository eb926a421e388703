"""The fire room's autosave and crash recovery: the shared ``app.recovery`` on fire positions.
Board and chart paths of the position stay as the player wrote them, relative to the file the
work belongs to, and are read from its folder again when restored."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from app import recovery
from engine import api

from .document import Document

nap = api.napoleonic


def _to_json(document, slot: Path) -> dict:
    return nap.position_to_json(document.position)


def _from_json(data, path: Path, belongs_to: str | None):
    folder = Path(belongs_to).parent if belongs_to else path.parent
    position = nap.position_from_json(data, file=str(path), folder=folder)
    return replace(position, path=belongs_to)


FIRE = recovery.register(recovery.RoomRecovery(
    frozenset({nap.FIRE_FORMAT}), _to_json, _from_json,
    lambda position, belongs_to: Document(position, belongs_to)))


def offer_recovery(parent=None, folder: Path | None = None) -> Document | None:
    """The fire work a crash left, if the player wants it back (``app.recovery``)."""
    return recovery.offer_recovery(FIRE, parent, folder)
