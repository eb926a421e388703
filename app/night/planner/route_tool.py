"""The Route tool: drag from a unit to a hex; the planner asks the engine for the dark way
(``api.night.route``: through hexes no Good Order enemy sees, else the way seen by the fewest
enemies for the fewest hexes, E1.1, E1.101, E1.81, E1.14) and the map draws it, each seen step
ringed; the Explanation panel names who sees each step and why.  The way follows the mouse
while the button is down (an answer that comes back after the mouse moved on is dropped)."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ..tools import Spot


class RouteTool(QObject):
    told = Signal(str)

    def __init__(self, document, scene, planner, parent=None):
        super().__init__(parent)
        self.document, self.scene, self.planner = document, scene, planner
        self.unit: str | None = None        # the unit the drag started from
        self._last = -1

    def unit_at(self, index: int) -> str | None:
        """The unit a drag from hex ``index`` moves: the selected unit when it stands there,
        else the first unit there."""
        s, m = self.document.scenario, self.scene.map
        viewer = self.document.viewer
        if viewer is not None and m.index(s.unit(viewer).hex) == index:
            return viewer
        return next((u.id for u in s.units if m.index(u.hex) == index), None)

    def press(self, at: Spot) -> None:
        self.unit = self.unit_at(at.hex) if at.hex >= 0 else None
        self._last = at.hex
        if self.unit is None:
            self.told.emit("Route: press on a unit, then drag to the hex it should reach")

    def move(self, at: Spot) -> None:
        if self.unit is not None and at.hex >= 0 and at.hex != self._last:
            self._last = at.hex
            self.planner.set_route(self.unit, self.scene.map.names[at.hex])

    def release(self, at: Spot) -> None:
        if self.unit is None:
            return
        if at.hex < 0 or self.scene.map.index(self.document.scenario.unit(self.unit).hex) == at.hex:
            self.planner.set_route(None, None)
            return
        self.move(at)
        self.told.emit(f"Route of {self.unit} to {self.scene.map.names[at.hex]}: "
                       "seen steps are ringed in red, their watchers in the Explanation panel")

    def clear(self) -> None:
        self.unit = None
        self.planner.set_route(None, None)
