"""Undo commands: each swaps one Scenario for another in the Document.

A Scenario is immutable, so a command keeps the two positions (not copies of the scene).
Follow-ups (move, add, delete, place starshell) subclass ``ScenarioEdit``; successive drags of one
counter merge through ``merge_key``.
"""
from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from engine import api


def validated(s: api.Scenario) -> api.Scenario:
    """``s`` as the engine would load it: raises api.ScenarioError for an impossible state.

    A map the engine cannot rebuild from its entries (boards made in memory, never saved) is not
    checked again: an edit of units, markers or settings never changes the map."""
    try:
        api.scenario_from_json(api.scenario_to_json(s), folder=s.folder)
    except api.ScenarioError as e:
        if not (e.place or "").startswith("map"):
            raise
    return s


class ScenarioEdit(QUndoCommand):
    """Replace the document's scenario ``before`` with ``after``."""

    merge_key: str | None = None        # equal non-None keys merge (a drag of one counter)

    def __init__(self, document, before, after, text: str):
        super().__init__(text)
        self.document = document
        self.before = before
        self.after = after

    def redo(self):
        self.document.set_scenario(self.after)

    def undo(self):
        self.document.set_scenario(self.before)

    def id(self) -> int:
        return -1 if self.merge_key is None else hash(self.merge_key) & 0x7FFFFFFF

    def mergeWith(self, other) -> bool:
        if self.merge_key is None or getattr(other, "merge_key", None) != self.merge_key:
            return False
        self.after = other.after
        return True
