"""The select tool: a click on a unit makes it the viewer (a second click: the next unit of its
stack), a click on a marker picks it for editing, a click on empty ground clears both."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from . import Spot


class SelectTool(QObject):
    told = Signal(str)

    def __init__(self, document, scene, parent=None):
        super().__init__(parent)
        self.document, self.scene = document, scene
        self.pressed = None              # the counter pressed, None: the ground
        self._was_selected = False

    def press(self, spot: Spot) -> None:
        d, item = self.document, spot.item
        self.pressed = item
        if item is None:
            return
        if item.kind == "unit":
            self._was_selected = d.viewer == item.key
            d.select(item.key)
        else:
            self._was_selected = False
            d.pick_marker(item.key)

    def click(self) -> None:
        """The press ended without a drag."""
        item, self.pressed = self.pressed, None
        if item is None:
            self.clear_selection()
        elif item.kind == "unit" and self._was_selected:
            self.cycle(+1)

    def clear_selection(self) -> None:
        self.document.select(None)
        self.document.pick_marker(None)

    def cycle(self, step: int) -> None:
        """The next (``step`` +1) or previous (-1) unit of the selected unit's stack."""
        d = self.document
        item = self.scene.counters.item("unit", d.viewer) if d.viewer else None
        if item is None:
            return
        stack = self.scene.counters.stack_of(item)
        if len(stack) > 1:
            d.select(stack[(stack.index(item) + step) % len(stack)].key)
