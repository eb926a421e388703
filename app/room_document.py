"""What every room's document is alike: one immutable engine position being looked at, the file
it belongs to, its undo stack (whose clean state says whether it is saved) and the one undo
command, ``Swap``, that swaps one position for another.

A room's document derives from ``RoomDocument`` and keeps only its own edits: each edit makes a
new position (the engine's objects are immutable) and pushes it with ``swap``.  It says how its
files are read and written (``read_position``, ``write_position``) and may react to another
position (``set_position``, which the undo commands call, emitting ``changed``).
"""
from __future__ import annotations

import weakref

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack


class Swap(QUndoCommand):
    """Replace the document's position ``before`` with ``after``; ``note``: the sentence of the
    change (a roll made), shown while it is done.  A whole drag, a whole brush stroke, a whole
    starshell is one Swap.  It holds the document weakly (``weakref.proxy``): the document's undo
    stack owns it, and a strong reference back would be a cycle through Qt's ownership, which
    Python's collector frees in an order Qt does not survive."""

    def __init__(self, document, before, after, text: str, note: str = ""):
        super().__init__(text)
        self.document, self.before, self.after, self.note = document, before, after, note

    def redo(self) -> None:
        self.document.set_position(self.after, self.note)

    def undo(self) -> None:
        self.document.set_position(self.before, "")


class RoomDocument(QObject):
    """The position, its ``path`` (None: never saved, or a bundled example opened untitled),
    the ``undo_stack`` and ``note`` (the sentence of the last change).  ``changed``: another
    position; ``fileChanged``: saved or opened under another name."""
    changed = Signal()
    fileChanged = Signal()

    def __init__(self, position, path: str | None = None, parent=None):
        super().__init__(parent)
        self._position = position
        self._path = None if path is None else str(path)
        self.note = ""
        self.undo_stack = QUndoStack(self)
        self._weak = weakref.proxy(self)        # what its commands hold (see Swap)

    # -- files ------------------------------------------------------------------------------------
    @classmethod
    def read_position(cls, path: str):
        """The room's position in the file ``path`` (raises api.ScenarioError)."""
        raise NotImplementedError

    def write_position(self, position, path: str):
        """Write ``position`` to ``path`` atomically (raises api.ScenarioError, OSError); may
        return the position as it now is (anchored at its new folder), or None."""
        raise NotImplementedError

    @classmethod
    def open_file(cls, path, parent=None) -> "RoomDocument":
        """A document on the room's file ``path`` (raises api.ScenarioError)."""
        return cls(cls.read_position(str(path)), str(path), parent)

    def save(self, path: str | None = None) -> None:
        """Save to ``path`` or the current file; the path changes only once written.  Raises
        ValueError with no file name, api.ScenarioError or OSError when refused."""
        target = path or self._path
        if target is None:
            raise ValueError("no file name yet: use Save As")
        after = self.write_position(self._position, str(target))
        self._path = str(target)
        self.saved()
        if after is not None and after is not self._position:
            self.set_position(after)
        self.undo_stack.setClean()
        self.fileChanged.emit()

    def saved(self) -> None:
        """Written (before the stack is clean): a room forgets what saving settles."""

    # -- state ------------------------------------------------------------------------------------
    @property
    def position(self):
        """The position shown: an immutable engine object."""
        return self._position

    @property
    def path(self) -> str | None:
        """The file Save writes to; None for a position never saved."""
        return self._path

    @property
    def is_clean(self) -> bool:
        """Nothing unsaved."""
        return self.undo_stack.isClean()

    def set_position(self, position, note: str = "") -> None:
        """Show another position (the undo commands call this; edits go through ``swap``)."""
        self._position = position
        self.note = note
        self.changed.emit()

    def swap(self, after, text: str, note: str = "", before=None) -> None:
        """The one way an edit is made: ``after`` replaces the position (``before``: the
        position it started from, when a drag showed its steps meanwhile), one undo step."""
        start = self._position if before is None else before
        self.undo_stack.push(Swap(self._weak, start, after, text, note))
