"""The starshell tool: placing a starshell or an IR by mouse.

Where the selected unit may place one is the engine's answer (``starshell_options``, asked with
the Document's answers while the tool is on); the method is the player's choice, or on "auto" the
first legal one in the engine's order.  Hovering or dragging shows the drift preview of the hex
under the mouse and a ghost counter; releasing fires it with the dice (``Document.fire_starshell``):
typed-in rolls, or the Document's dice source.  Once fired, the preview goes (the shot is done,
its result is in the panel) and stays gone while the mouse rests, even when the new position's
answers come in; the next move of the mouse (or a method key), the tool still on, aims again.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, Signal

from engine import api

from ..scene.counters import CounterItem
from ..tools import Spot

__all__ = ["StarshellTool"]


class StarshellTool(QObject):
    told = Signal(str)
    fired = Signal(object)             # the engine's FireResult
    methodChanged = Signal(str)
    previewChanged = Signal()          # the drift preview moved

    def __init__(self, document, scene, parent=None):
        super().__init__(parent)
        self.document, self.scene = document, scene
        self.on = False
        self.method = api.night.AUTO
        self.typed_dice = lambda: None   # the typed-in dice (FixedDice), or None: roll
        self._ghost: CounterItem | None = None
        self._options = (None, None, None)   # (scenario, viewer, starshell_options)
        self._hovered: Spot | None = None    # where the mouse last was (a method key redraws)
        self._shot = False                   # fired, and the mouse has not moved since
        for signal in (document.answersChanged, document.dragAnswered):
            signal.connect(self._refresh)

    def set_dice_source(self, typed_dice) -> None:
        """``typed_dice()``: the dice typed in at the table, or None (the computer rolls)."""
        self.typed_dice = typed_dice

    def set_on(self, on: bool) -> None:
        self.on = on
        self._hovered, self._shot = None, False
        self.document.want_starshells(on)
        self.scene.set_placing(on)
        if not on:
            self.drop_ghost()
        self.previewChanged.emit()
        if on and self.document.viewer is None:
            self.told.emit("Select a unit first: the starshell is fired by the selected unit")

    def set_method(self, method: str) -> None:
        self.method = method
        self.scene.drift.clear()
        self.methodChanged.emit(method)
        if self.on and self._hovered is not None:
            self.hover(self._hovered)     # the mouse has not moved: its preview, by the new method

    def _refresh(self) -> None:
        """Another position (a roll, Ctrl+Z, an edit): the hex under the mouse may have become
        legal or not; its preview follows without waiting for the mouse to move."""
        at = self._hovered
        if self._shot:
            return                        # the preview went with the shot: the mouse brings it back
        if self.on and at is not None and at.hex < len(self.scene.map.names):
            self.hover(at)

    # ------------------------------------------------------------------------ the engine's answer
    def options(self) -> api.night.StarshellOptions | None:
        """Where the viewer may place a starshell or IR (the engine's answer, asked once per
        position: from the Document's answers when they are in, else on its engine thread)."""
        d = self.document
        if d.viewer is None:
            return None
        s, viewer, options = self._options
        if s is d.scenario and viewer == d.viewer:
            return options
        a = d.answers
        if a is not None and a.scenario is d.scenario and a.viewer == d.viewer and a.starshell:
            options = a.starshell
        else:
            options = d.call(api.night.starshell_options, d.scenario, d.viewer)
        self._options = (d.scenario, d.viewer, options)
        return options

    def method_for(self, hex_id: str) -> str | None:
        """The method by which the viewer would place a flare in ``hex_id``: the chosen one when
        legal there; on "auto" the first legal of 1, 2, 3, then IR; None when none is."""
        o = self.options()
        return None if o is None else o.method_for(hex_id, self.method)

    # ------------------------------------------------------------------------ the mouse
    def hover(self, at: Spot, pressed: bool = False) -> None:
        """The drift preview of the hex under the mouse (and the ghost counter while pressed)."""
        self._hovered, self._shot = at, False
        i = at.hex
        if i < 0 or self.document.viewer is None:
            self.scene.drift.clear()
            self.previewChanged.emit()
            return
        method = self.method_for(self.scene.map.names[i])
        if method is not None:
            self.scene.drift.show_drift(i, method, True)
        elif self.method != api.night.AUTO:
            self.scene.drift.show_drift(i, self.method, False)
        else:
            self.scene.drift.clear()
        if pressed:
            self._show_ghost(at.scene, method or self.method)
        self.previewChanged.emit()

    def release(self, at: Spot) -> None:
        self.drop_ghost()
        if at.hex >= 0:
            self.fire_at(at.hex)

    def _show_ghost(self, scene_at: QPointF, method: str) -> None:
        kind = api.night.FLARE_OF.get(method, "starshell")
        if self._ghost is None or self._ghost.piece.type != kind:
            self.drop_ghost()
            self._ghost = CounterItem("ghost", None, api.night.Marker(kind, "?"), None)
            self._ghost.place(max(self.scene.counters.ppu * 0.7, 24.0), QPointF(0, 0))
            self._ghost.setOpacity(0.85)
            self._ghost.setZValue(95)
            self.scene.addItem(self._ghost)
        self._ghost.setPos(scene_at)

    def drop_ghost(self) -> None:
        if self._ghost is not None:
            self.scene.removeItem(self._ghost)
            self._ghost = None

    def fire_at(self, hex_index: int) -> None:
        """The viewer fires a starshell (or IR) at hex ``hex_index``: the dice decide where it lands."""
        d = self.document
        if d.viewer is None:
            self.told.emit("Select the unit that fires the starshell first")
            return
        name = self.scene.map.names[hex_index]
        method = self.method_for(name)
        if method is None:
            o = self.options()
            why = o.why_not() if o is not None else "not a legal hex"
            chosen = "" if self.method == api.night.AUTO else f" by method {self.method}"
            self.told.emit(f"{d.viewer} may not place a starshell in {name}{chosen}: {why}")
            return
        try:
            result = d.fire_starshell(d.viewer, name, method, self.typed_dice())
        except (api.ScenarioError, ValueError) as e:
            self.told.emit(str(e))
            return
        self._shot = True                 # the preview goes with the shot, until the mouse moves
        self.scene.drift.clear()
        self.previewChanged.emit()
        self.fired.emit(result)
