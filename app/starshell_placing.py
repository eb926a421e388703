"""Placing a starshell or an IR by mouse (the starshell tool of ``hand.Hand``).

Where the selected unit may place one is the engine's answer (``starshell_options``, asked once
per position); the method is the player's choice, or on "auto" the first legal of 1, 2, 3, then
IR.  Hovering or dragging shows the drift preview of the hex under the mouse and a ghost counter;
releasing fires it with the dice (``Document.fire_starshell``): typed-in rolls, or the
Document's dice source.
"""
from __future__ import annotations

from PySide6.QtCore import QPointF

from engine import api
from engine.api import starshell_options

from .scene.counters import CounterItem

AUTO = "auto"
STARSHELL_ORDER = ("1", "2", "3")
IR_ORDER = ("ir-los", "ir-6")


class StarshellPlacing:
    """Mixed into ``Hand``: uses its document, scene, method, typed_dice and signals."""

    def options(self) -> dict | None:
        """Where the viewer may place a starshell or IR (the engine's answer, asked once per
        position)."""
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
            options = starshell_options(d.scenario, d.viewer)
        self._options = (d.scenario, d.viewer, options)
        return options

    def method_for(self, hex_id: str) -> str | None:
        """The method by which the viewer would place a flare in ``hex_id``: the chosen one when
        legal there; on "auto" the first legal of 1, 2, 3, then IR; None when none is."""
        o = self.options()
        if o is None:
            return None
        legal = {**o["methods"], **o["ir"]["methods"]}
        if self.method != AUTO:
            return self.method if hex_id in legal.get(self.method, []) else None
        return next((k for k in STARSHELL_ORDER + IR_ORDER if hex_id in legal.get(k, [])), None)

    def _preview(self, i: int, scene_at: QPointF) -> None:
        if i < 0 or self.document.viewer is None:
            self.scene.drift.clear()
            self.previewChanged.emit()
            return
        name = self.scene.map.names[i]
        method = self.method_for(name)
        if method is not None:
            self.scene.drift.show_drift(i, method, True)
        elif self.method != AUTO:
            self.scene.drift.show_drift(i, self.method, False)
        else:
            self.scene.drift.clear()
        if self._press is not None and self._press.kind == "starshell":
            self._show_ghost(scene_at, method or self.method)
        self.previewChanged.emit()

    def _show_ghost(self, scene_at: QPointF, method: str) -> None:
        kind = "ir" if method.startswith("ir") else "starshell"
        if self._ghost is None or self._ghost.piece.type != kind:
            self._drop_ghost()
            self._ghost = CounterItem("ghost", None, api.Marker(kind, "?"), None)
            self._ghost.place(max(self.scene.counters.ppu * 0.7, 24.0), QPointF(0, 0))
            self._ghost.setOpacity(0.85)
            self._ghost.setZValue(95)
            self.scene.addItem(self._ghost)
        self._ghost.setPos(scene_at)

    def _drop_ghost(self) -> None:
        if self._ghost is not None:
            self.scene.removeItem(self._ghost)
            self._ghost = None

    def fire_at(self, i: int) -> None:
        """The viewer fires a starshell (or IR) at hex ``i``: the dice decide where it lands."""
        d = self.document
        if d.viewer is None:
            self.told.emit("Select the unit that fires the starshell first")
            return
        name = self.scene.map.names[i]
        method = self.method_for(name)
        if method is None:
            o = self.options()
            why = o["reasons"][-1] if o and not o["may_fire"] else "not a legal hex"
            chosen = "" if self.method == AUTO else f" by method {self.method}"
            self.told.emit(f"{d.viewer} may not place a starshell in {name}{chosen}: {why}")
            return
        try:
            result = d.fire_starshell(d.viewer, name, method, self.typed_dice())
        except (api.ScenarioError, ValueError) as e:
            self.told.emit(str(e))
            return
        self.scene.drift.clear()
        self.fired.emit(result)


