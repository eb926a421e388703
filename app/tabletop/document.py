"""One table being looked at: the engine's Table, its file, the undo stack, the chosen shooter
and the engine's answer for it.  Every change is a command on the undo stack."""
from __future__ import annotations

import weakref
from dataclasses import replace

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from engine import api

tabletop = api.tabletop


class MoveElement(QUndoCommand):
    """An element put down elsewhere (moved, turned, or both)."""

    def __init__(self, document: "Document", before, after, text: str):
        super().__init__(text)
        self.document, self.before, self.after = document, before, after

    def redo(self):
        self.document._put(self.after)

    def undo(self):
        self.document._put(self.before)


class Document(QObject):
    changed = Signal()

    def __init__(self, table, path: str | None = None):
        super().__init__()
        self.table = table
        self.path = path
        self.undo_stack = QUndoStack(self)
        self.shooter: str | None = None
        self._report = None
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    @classmethod
    def open_file(cls, path: str) -> "Document":
        return cls(tabletop.load_table(path), path)

    def _clean_changed(self, _clean: bool) -> None:
        self.changed.emit()

    # -- state ----------------------------------------------------------------------------------
    def _put(self, element) -> None:
        self.table = self.table.with_element(element)
        self._report = None
        self.changed.emit()

    def select(self, element_id: str | None) -> None:
        if element_id is not None:
            self.table.element(element_id)          # raises api.ScenarioError if unknown
        self.shooter = element_id
        self._report = None
        self.changed.emit()

    @property
    def report(self) -> dict | None:
        """The engine's answer for the chosen shooter (SPEC.md ``shoot``), or None."""
        if self.shooter is None:
            return None
        if self._report is None:
            self._report = tabletop.shoot(self.table, self.shooter)
        return self._report

    # -- edits ----------------------------------------------------------------------------------
    def place(self, element_id: str, x_bw: float, y_bw: float, facing: float, snap: bool = True) -> str:
        """Put an element down at (x, y) facing ``facing``, snapped into edge contact with a
        nearby element; refused (nothing changes) when it would overlap another base.  Returns a
        sentence for the status bar."""
        before = self.table.element(element_id)
        how = other = None
        if snap:
            x_bw, y_bw, facing, how, other = tabletop.snap(self.table, element_id, x_bw, y_bw, facing)
        after = replace(before, x=x_bw, y=y_bw, facing=facing % 360.0 % 360.0)   # never 360.0
        trial = self.table.with_element(after)
        clash = [p for p in tabletop.overlaps(trial) if element_id in p]
        if clash:
            a, b = clash[0]
            return f"{element_id} would overlap {b if a == element_id else a}: put back"
        if after == before:
            return ""
        moved = (after.x, after.y) != (before.x, before.y)
        self.undo_stack.push(MoveElement(weakref.proxy(self), before, after,   # no cycle (app.night.document)
                                   f"{'Move' if moved else 'Turn'} {element_id}"))
        if how:
            words = {"front": "front to front with", "behind": "behind", "beside": "beside"}
            return f"{element_id} put {words[how]} {other}"
        x_bw, y_bw = (round(v, 2) + 0.0 for v in (after.x, after.y))    # never "-0.00"
        return f"{element_id} at ({x_bw:.2f}, {y_bw:.2f}) BW, facing {after.facing:.0f}°"

    def save(self, path: str | None = None) -> None:
        path = path or self.path
        if path is None:
            raise ValueError("no file name")
        tabletop.save_table(self.table, path)      # atomic (engine.jsonio)
        self.path = path
        self.undo_stack.setClean()
        self.changed.emit()
