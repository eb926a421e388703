"""The drag tool: a unit or a marker follows the mouse; the Document shows the position of each
hex it passes (the overlays follow live, the engine asked at most once a frame); dropped, it
snaps to the hex centre and the whole drag is one undo step.  Escape, or a drop off the map,
puts it back."""
from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Signal

from app.hex_geometry import scene_center
from engine import api

from . import Spot


class DragTool(QObject):
    told = Signal(str)

    def __init__(self, document, scene, parent=None):
        super().__init__(parent)
        self.document, self.scene = document, scene
        self.item = None                 # the counter dragged
        self.before: api.night.Scenario | None = None
        self._grab = QPointF()           # scene offset from the counter's position to the mouse
        self._last_hex = -1
        self._off_map = False            # the mouse is off the map now
        self._outside = False            # ... outside the map view (over a panel)

    @property
    def dragging(self) -> bool:
        return self.item is not None

    def begin(self, item, at: Spot) -> None:
        self.item, self.before, self._last_hex = item, self.document.scenario, -1
        self._off_map = False
        self._grab = at.scene - item.pos()
        self.document.begin_drag()

    def move(self, at: Spot) -> None:
        # showing the position rebuilds the counters (each at its hex centre): the dragged one
        # is put back under the mouse afterwards
        p = self.item
        self._off_map = at.hex < 0
        self._outside = at.outside
        if at.hex >= 0 and at.hex != self._last_hex:
            self._last_hex = at.hex
            self.document.show(moved(self.before, p, self.scene.map.names[at.hex]))
        p.setPos(at.scene - self._grab)
        p.setZValue(90)

    def drop(self) -> None:
        if self._off_map:                       # dropped off the map: it goes back
            self.told.emit("Dropped outside the map view: the piece goes back where it was"
                           if self._outside else
                           "Dropped off the map: the piece goes back where it was")
            self.cancel()
            return
        item, before, self.item = self.item, self.before, None
        where = piece_of(self.document.scenario, item)
        what = item.key if item.kind == "unit" else (where.type.replace("_", " ") if where else "")
        try:
            self.document.finish_drag(before, f"move {what} to {where.hex if where else '?'}")
        except api.ScenarioError as e:          # an impossible position: the piece goes back
            self.told.emit(str(e))
        self._snap(item)

    def cancel(self) -> None:
        """Escape: the piece goes back where the drag began."""
        item, before, self.item = self.item, self.before, None
        if item is None:
            return
        self.document.show(before)
        self.document.finish_drag(None)
        self._snap(item)

    def _snap(self, item) -> None:
        piece = piece_of(self.document.scenario, item)
        if piece is not None:
            item.setPos(scene_center(self.scene.map, self.scene.map.index(piece.hex)))
        self.scene.counters.layout()


def moved(scenario: api.night.Scenario, item, hex_id: str) -> api.night.Scenario:
    """``scenario`` with the piece of ``item`` in ``hex_id``."""
    if item.kind == "unit":
        return scenario.moved(item.key, hex_id)
    marker = scenario.markers[item.key].replace(hex=scenario.map.canonical(hex_id))
    return scenario.with_marker(marker, item.key)


def piece_of(scenario: api.night.Scenario, item):
    if item.kind == "unit":
        return next((u for u in scenario.units if u.id == item.key), None)
    return scenario.markers[item.key] if 0 <= item.key < len(scenario.markers) else None
