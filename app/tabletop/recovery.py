"""The tabletop room's autosave and crash recovery: the shared ``app.recovery`` on tables."""
from __future__ import annotations

from pathlib import Path

from app import recovery
from engine import api

from .document import Document

tabletop = api.tabletop


def _to_json(document, slot: Path) -> dict:
    return tabletop.table_to_json(document.table)


def _from_json(data, path: Path, belongs_to: str | None):
    return tabletop.table_from_json(data, file=str(path))


TABLE = recovery.register(recovery.RoomRecovery(
    frozenset({tabletop.FORMAT}), _to_json, _from_json,
    lambda table, belongs_to: Document(table, belongs_to)))


def offer_recovery(parent=None, folder: Path | None = None) -> Document | None:
    """The table work a crash left, if the player wants it back (``app.recovery``)."""
    return recovery.offer_recovery(TABLE, parent, folder)
