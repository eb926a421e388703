"""The player's hand on the map: routes each click and drag to the tool it belongs to
(``app.night.tools``; the features' own: ``thread.tool``, ``starshell.tool``,
``planner.route_tool``).

- Left press on a counter: the select tool picks it; moved past the drag distance, the drag tool
  takes it.  Left press on empty ground: the selection is cleared on release.
- Right button, Shift + left, or the thread tool: the LOS thread.
- The starshell tool: hovering and dragging preview the drift; the release fires.
- The route tool: a drag from a unit to a hex asks for the dark way (``planner.route_tool``).
- A piece armed from the palette is put down where the player clicks.
- Escape: a drag goes back where it began; tools, thread and palette are put away.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication

from app.hex_geometry import hex_at

from ..planner.job import Planner
from ..planner.route_tool import RouteTool
from ..starshell.tool import StarshellTool
from ..thread.tool import ThreadTool
from ..tools import Spot
from ..tools.drag import DragTool
from ..tools.pieces import Piece, PiecesTool
from ..tools.select import SelectTool

TOOLS = ("select", "starshell", "thread", "route")
__all__ = ["Hand", "TOOLS"]


class Hand(QObject):
    told = Signal(str)                 # a sentence for the status bar (from every tool)
    toolChanged = Signal(str)

    def __init__(self, document, scene, view, parent=None):
        super().__init__(parent)
        self.document, self.scene, self.view = document, scene, view
        self.select = SelectTool(document, scene, self)
        self.drag = DragTool(document, scene, self)
        self.threads = ThreadTool(document, scene, self)
        self.starshell = StarshellTool(document, scene, self)
        self.pieces = PiecesTool(document, self)
        self.planner = Planner(document, self)          # advice, threat map, routes
        self.route = RouteTool(document, scene, self.planner, self)
        for tool in (self.select, self.drag, self.threads, self.starshell, self.pieces,
                     self.route, self.planner):
            tool.told.connect(self.told)
        self.tool = "select"
        self._gesture: str | None = None     # "piece", "ground", "thread", "starshell"
        self._at = None                      # viewport point of the press
        self._dragging = False

    # ------------------------------------------------------------------------ tools
    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"no tool {tool!r}")
        self.tool = tool
        self.pieces.armed = None
        self._cursor(tool != "select")
        self.starshell.set_on(tool == "starshell")
        self.planner.set_advising(tool == "starshell")
        self.toolChanged.emit(tool)

    def arm(self, piece: Piece | None) -> None:
        """The next click on the map puts ``piece`` down (None: disarm)."""
        if self.tool != "select":
            self.set_tool("select")
        self.pieces.armed = piece
        self._cursor(piece is not None)
        if piece is not None:
            self.told.emit(f"Click a hex to put down a {piece.type.replace('_', ' ')} "
                           "(Esc: cancel)")

    def _cursor(self, cross: bool) -> None:
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor if cross
                                       else Qt.CursorShape.ArrowCursor)

    # ------------------------------------------------------------------------ mouse
    def _spot(self, event, item=None) -> Spot:
        return self.spot_at(event.position().toPoint(), item)

    def spot_at(self, pos, item=None) -> Spot:
        """The Spot at viewport point ``pos``; outside the viewport (over a panel) no hex: the
        player cannot see the one there."""
        at = self.view.mapToScene(pos)
        if not self.view.viewport().rect().contains(pos):
            return Spot(-1, at, item, outside=True)
        return Spot(hex_at(self.scene.map, at), at, item)

    @property
    def dragging(self) -> bool:
        """A drag of a piece, a thread or a starshell preview is on (the view scrolls at its edge)."""
        return self._gesture is not None and self._dragging

    def follow(self, pos) -> None:
        """The view scrolled under a mouse held still at viewport point ``pos``: the dragged
        piece, thread, preview or route follows the map."""
        self._carry(self._gesture, self.spot_at(pos))

    def _carry(self, gesture, spot) -> None:
        """The gesture under way follows the mouse to ``spot``."""
        if gesture == "piece" and self.drag.dragging:
            self.drag.move(spot)
        elif gesture == "thread":
            self.threads.move(spot)
        elif gesture == "starshell":
            self.starshell.hover(spot, pressed=True)
        elif gesture == "route":
            self.route.move(spot)

    def press(self, event) -> bool:
        button, shift = event.button(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        left = button == Qt.MouseButton.LeftButton
        if button == Qt.MouseButton.RightButton or (left and (shift or self.tool == "thread")):
            gesture = "thread"
        elif not left:
            return False
        elif self.pieces.armed is not None:
            spot = self._spot(event)
            if spot.hex >= 0 and self.pieces.put_down(self.pieces.armed, spot.hex):
                self.arm(None)
            return True
        elif self.tool in ("starshell", "route"):
            gesture = self.tool
        else:
            gesture = "piece"
        spot = self._spot(event, self.view.counter_at(event.position().toPoint())
                          if gesture == "piece" else None)
        self._gesture, self._at, self._dragging = gesture, event.position(), False
        if gesture == "thread":
            self.threads.press(spot)
        elif gesture == "starshell":
            self.starshell.hover(spot, pressed=True)
        elif gesture == "route":
            self.route.press(spot)
        else:
            self.select.press(spot)
        return True

    def move(self, event) -> bool:
        spot, gesture = self._spot(event), self._gesture
        if gesture is None:
            if self.tool == "starshell":
                self.starshell.hover(spot)
            return False
        if not self._dragging:
            if (event.position() - self._at).manhattanLength() < QApplication.startDragDistance():
                return True
            self._dragging = True
            if gesture == "piece" and self.select.pressed is not None:
                self.drag.begin(self.select.pressed, spot)
        self._carry(gesture, spot)
        return False                # the view still reports the hovered hex

    def release(self, event) -> bool:
        gesture, self._gesture = self._gesture, None
        if gesture is None:
            return False
        spot = self._spot(event)
        if gesture == "piece":
            if self.drag.dragging:
                self.select.pressed = None
                self.drag.drop()
            else:                   # a click, or a drag over empty ground: clears
                self.select.click()
        elif gesture == "thread":
            self.threads.release(spot, self._dragging)
        elif gesture == "starshell":
            self.starshell.release(spot)
        elif gesture == "route":
            self.route.release(spot)
        return True

    def cancel(self) -> None:
        """Escape: a drag goes back where it began; tools, thread and palette are put away."""
        self._gesture = None
        self.select.pressed = None
        self.drag.cancel()
        self.starshell.drop_ghost()
        self.threads.set_thread(None)
        self.route.clear()
        self.arm(None)
        if self.tool != "select":
            self.set_tool("select")
