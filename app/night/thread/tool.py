"""The LOS thread: a string from one hex to another with the engine's verdicts (the hexes it
crosses, the blocking hex, hindrances, blind hex, range, levels) and the night verdict of the
unit standing at its start.  The engine answers on the Document's engine thread; an answer that
comes back after the string moved on (or was put away) is dropped."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from engine import api

from ..tools import Spot


class ThreadTool(QObject):
    told = Signal(str)
    threadChanged = Signal(object)     # api LOS thread, or None

    def __init__(self, document, scene, parent=None):
        super().__init__(parent)
        self.document, self.scene = document, scene
        self.thread = None
        self.levels = (0, 0)             # the levels of its two ends (Alt+arrows)
        self._start = -1
        self._last = -1
        self._asked = 0                  # generation of the latest question

    def press(self, at: Spot) -> None:
        self._start, self._last = at.hex, -1

    def move(self, at: Spot) -> None:
        if at.hex >= 0 and self._start >= 0 and at.hex != self._last:
            self._last = at.hex
            self.stretch(self._start, at.hex)

    def release(self, at: Spot, dragged: bool) -> None:
        if not dragged or at.hex == self._start:
            self.set_thread(None)

    def stretch(self, start: int, end: int) -> None:
        """The string from hex ``start`` to hex ``end`` (map indices) with the engine's verdicts.
        The viewer's level counts when it stands at the start."""
        s, m = self.document.scenario, self.scene.map
        viewer = self.document.viewer
        if viewer is None or m.index(s.unit(viewer).hex) != start:
            # the string starts at another unit: its night verdict is that unit's
            viewer = next((u.id for u in s.units if m.index(u.hex) == start), viewer)
        start_level, end_level = self.levels
        at_start = self.start_unit(start)
        if at_start is not None:
            start_level = at_start.level
        self._asked += 1
        asked = self._asked
        self.document.run(api.night.los_thread, s, m.names[start], m.names[end], start_level, end_level,
                          viewer, done=lambda future: self._answered(asked, future))

    def _answered(self, asked: int, future) -> None:
        if asked != self._asked:
            return                       # the string moved on meanwhile
        error = future.exception()
        if error is not None:           # an unknown hex, a unit gone meanwhile...
            self.told.emit(str(error))
            return
        self._show(future.result())

    def set_thread(self, thread) -> None:
        self._asked += 1                 # answers on their way are dropped
        self._show(thread)

    def _show(self, thread) -> None:
        self.thread = thread
        self.scene.thread.set_thread(thread)
        self.threadChanged.emit(thread)

    def set_levels(self, start: int, end: int) -> None:
        self.levels = (start, end)
        t = self.thread
        if t is not None:
            m = self.scene.map
            self.stretch(m.index(t.start), m.index(t.end))

    def start_unit(self, start: int):
        """The unit standing at the string's start whose own level the string starts from (the
        selected unit, else the first unit there), or None."""
        s, m = self.document.scenario, self.scene.map
        viewer = self.document.viewer
        if viewer is not None and m.index(s.unit(viewer).hex) == start:
            return s.unit(viewer)
        return next((u for u in s.units if m.index(u.hex) == start), None)

    def raise_levels(self, d_start: int, d_end: int) -> None:
        t = self.thread
        unit = self.start_unit(self.scene.map.index(t.start)) if t is not None else None
        if d_start and unit is not None:
            # a unit's level is a fact of the position: the string starts at it
            self.told.emit(f"The thread starts at {unit.id}: its own level ({unit.level}) is used "
                           "(change it in the Edit panel); Alt+Shift+Up/Down raise the end")
            d_start = 0
            if not d_end:
                return
        self.set_levels(self.levels[0] + d_start, self.levels[1] + d_end)
