"""One fire position being looked at: the engine's Position, its file, the undo stack and the
position's edits (an attack recorded, another segment).  Every change is a command on the undo
stack; ``changed`` says the position changed (the undo stack's ``cleanChanged``, whether it is
saved)."""
from __future__ import annotations

import random
import weakref
from dataclasses import replace

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engine import api

nap = api.napoleonic


class PositionCommand(QUndoCommand):
    """One change of the position (a recorded attack, a new segment): undo puts the old back.
    It holds the document weakly (``weakref.proxy``): the document's undo stack owns it, and a
    strong reference back would be a cycle through Qt's ownership (see app.night.document)."""

    def __init__(self, document: "Document", before, after, text: str, note: str = ""):
        super().__init__(text)
        self.document, self.before, self.after, self.note = document, before, after, note

    def redo(self) -> None:
        self.document.set_position(self.after, self.note)

    def undo(self) -> None:
        self.document.set_position(self.before, "")


class Document(QObject):
    changed = Signal()          # another position (an edit, undo, redo)

    def __init__(self, position, path: str | None = None, dice=None, parent=None):
        super().__init__(parent)
        self.position = position
        self.path = path
        self.note = ""                      # the sentence of the last change (the roll made)
        self.dice = dice or (lambda: (random.randint(1, 6), random.randint(1, 6)))
        self.undo_stack = QUndoStack(self)

    @classmethod
    def open_file(cls, path: str) -> "Document":
        """A document on the fire position ``path`` (raises api.ScenarioError)."""
        return cls(nap.load_position(path), path)

    def set_position(self, position, note: str) -> None:
        """Show another position (undo commands call this; edits go through the methods below)."""
        self.position = position
        self.note = note
        self.changed.emit()

    # -- edits ----------------------------------------------------------------------------------
    def record_attack(self, assessment, note: str) -> None:
        """The attack ``assessment`` (rolled) recorded on the position: one undo step."""
        after, applied = nap.record(self.position, assessment)
        words = nap.applied_words(applied)
        if assessment.result and assessment.defender:
            words += nap.unmarked(self.position, assessment.defender, assessment.result)
        if words:
            note += ". " + "; ".join(words)
        self.undo_stack.push(PositionCommand(weakref.proxy(self), self.position, after,
                                             f"fire at {assessment.target}", note))

    def _edit(self, after, text: str) -> None:
        self.undo_stack.push(PositionCommand(weakref.proxy(self), self.position, after, text))

    def add_unit(self, fields: dict) -> None:
        """A new unit (the file's keys); raises api.ScenarioError naming the key at fault."""
        self._edit(nap.with_unit(self.position, fields), f"place {fields.get('id')}")

    def change_unit(self, uid: str, fields: dict) -> None:
        self._edit(nap.with_unit(self.position, fields, replacing=uid), f"change {uid}")

    def remove_unit(self, uid: str) -> None:
        self._edit(nap.without_unit(self.position, uid), f"delete {uid}")

    def set_segment(self, segment: str) -> None:
        """Another segment: no hex has been attacked in it yet (one undo step)."""
        if segment == self.position.segment:
            return
        after = replace(self.position, segment=segment, attacked=())
        self.undo_stack.push(PositionCommand(weakref.proxy(self), self.position, after,
                                             f"{segment} segment"))

    def save(self, path: str | None = None) -> None:
        """Save (atomically) to ``path`` or the current file; raises api.ScenarioError, OSError."""
        path = path or self.path
        if path is None:
            raise ValueError("no file name")
        nap.save_position(self.position, path)
        self.path = path
        self.undo_stack.setClean()
