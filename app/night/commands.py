"""The undo command: every change of the Document swaps one Scenario for another.

A Scenario is immutable, so a command keeps the two positions (not copies of the scene).  A
whole drag, a whole brush stroke, a whole starshell (usage dr, drift, marker) is one command.
"""
from __future__ import annotations

from PySide6.QtGui import QUndoCommand


class ScenarioEdit(QUndoCommand):
    """Replace the document's scenario ``before`` with ``after``."""

    def __init__(self, document, before, after, text: str):
        super().__init__(text)
        self.document = document
        self.before = before
        self.after = after

    def redo(self):
        self.document.set_scenario(self.after)

    def undo(self):
        self.document.set_scenario(self.before)
