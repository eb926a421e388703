"""The brush on the map: while the board editor paints, it stands in for the player's
hand (``view.hand``).  Press and drag with the left button: every hex the mouse passes gets the
brush once, the map and the night overlays follow live, and the whole stroke is one undo step.
Other buttons (the LOS thread on the right button) go to the hand as usual, so the player can
stretch a thread and watch it change while painting."""
from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal

from app import style
from app.hex_geometry import hex_at

from .brush import Brush, Stroke, apply, apply_side


class PaintTool(QObject):
    told = Signal(str)               # a sentence for the status bar (and what the stroke did
                                     # to units: a unit upstairs in a house painted away)
    painted = Signal(str)            # a stroke ended on this board (its id)

    def __init__(self, document, scene, view, hand, parent=None):
        super().__init__(parent)
        self.document, self.scene, self.view, self.hand = document, scene, view, hand
        self.brush = Brush()
        self._stroke: Stroke | None = None
        self._board = ""                 # the board the stroke painted last

    @property
    def painting(self) -> bool:
        return self._stroke is not None

    def _hex(self, event) -> int:
        return hex_at(self.scene.map, self.view.mapToScene(event.position().toPoint()))

    def _point(self, event) -> tuple[float, float]:
        """The mouse in map units (the hexside brush picks the hexside nearest it)."""
        p = self.view.mapToScene(event.position().toPoint())
        return p.x() / style.SCALE, p.y() / style.SCALE

    # ------------------------------------------------------------------------ the view's calls
    def press(self, event) -> bool:
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if event.button() != Qt.MouseButton.LeftButton or shift:
            return self.hand.press(event)
        self._stroke = Stroke(self.document.scenario)
        self.document.begin_drag()          # the map follows each hex, the panels the end
        self._paint(self._hex(event), self._point(event))
        return True

    def move(self, event) -> bool:
        if self._stroke is None:
            return self.hand.move(event)
        self._paint(self._hex(event), self._point(event))
        return False                 # the view still reports the hovered hex

    def release(self, event) -> bool:
        if self._stroke is None:
            return self.hand.release(event)
        self.finish()
        return True

    # ------------------------------------------------------------------------ strokes
    def _paint(self, i: int, point: tuple[float, float] = (0.0, 0.0)) -> None:
        if i < 0:
            return
        d = self.document                        # the edit is worked out on the engine thread
        if self.brush.kind == "hexside":
            result = d.call(apply_side, d.scenario, i, *point, self._stroke)
        else:
            result = d.call(apply, d.scenario, i, self.brush, self._stroke)
        if result is not None:
            self.document.show(result.scenario)
            self._board = result.scenario.map.board_of[i].board
            self.view.hexHovered.emit(i)         # the status bar reads the hex anew

    def finish(self) -> None:
        """End the stroke: one undo step for all it painted (none when it changed nothing)."""
        stroke, self._stroke = self._stroke, None
        if stroke is None:
            return
        d = self.document
        changed = d.scenario is not stroke.before
        n = len(stroke.touched)
        text = f"{self.brush.describe()} on {n} hex{'es' if n != 1 else ''}"
        if self.brush.kind == "hexside":
            n = len(stroke.sides)
            value = stroke.side_value[0] if stroke.side_value else None
            text = f"{(value or 'no terrain').replace('_', ' ')} on {n} hexside{'s' if n != 1 else ''}"
        d.finish_drag(stroke.before if changed else None, text)
        if not changed:
            return
        self.told.emit(text + ("" if not stroke.report else ": " + "; ".join(stroke.report)))
        self.painted.emit(self._board)
