"""The fire window's edits of the position (the Units and Position tabs): a unit placed on a
hex or stacked on a counter, chosen, changed, deleted; the settings changed; a warning before two
sides share a hex.  Each edit is one undo step of the ``Document``; the engine checks it."""
from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMessageBox

from app import hex_geometry
from engine import api

from .scene import unit_words

nap = api.napoleonic


def mixed_sides(pos, hex_id: str, side: str, uid: str | None = None) -> list:
    """The units of another side than ``side`` in ``hex_id`` (not unit ``uid`` itself)."""
    return [u for u in pos.units_in(hex_id) if u.side != side and u.id != uid]


class UnitEditing:
    """For ``FireWindow``: needs ``document``, ``pos``, ``scene``, ``editor``, ``position_editor``."""

    def place_or_choose(self, point: QPointF) -> None:
        """The Units tab: Place on, a click on a counter or a hex places the palette's unit in
        that hex (stacked under any there); Place off, a click on a counter chooses it."""
        unit = next((getattr(it, "unit", None) for it in self.scene.items(point)
                     if getattr(it, "unit", None) is not None), None)
        if not self.editor.place.isChecked():
            self.choose(unit.id if unit is not None else None)
            return
        if unit is not None:
            hex_id = unit.hex
        else:
            i = hex_geometry.hex_at(self.pos.map, point)
            if i < 0:
                return
            hex_id = self.pos.map.names[i]
        side = self.editor.side.currentText().strip()
        fields = self.editor.fields(nap.free_id(self.pos, side), hex_id)
        if not self.sides_may_share(hex_id, side):
            return
        if self._edit(lambda: self.document.add_unit(fields), fields["id"]):
            self.editor.uid.clear()                 # the next unit gets its own id
            self.editor.name.clear()

    def sides_may_share(self, hex_id: str, side: str, uid: str | None = None) -> bool:
        """Before two sides share a hex: ask (No, the default, leaves the hex as it is)."""
        others = mixed_sides(self.pos, hex_id, side, uid)
        if not others:
            return True
        sides = sorted({u.side for u in others})
        answer = QMessageBox.question(
            self, "Two sides in one hex",
            f"{hex_id} holds {', '.join(sides)} units ({', '.join(u.id for u in others)}). Put a "
            f"{side} unit there too, both sides in one hex?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            self.say(f"not placed: {hex_id} holds the other side's units")
            return False
        return True

    def choose(self, uid: str | None) -> None:
        self.selected = uid
        self.editor.choose(None if uid is None else self.pos.unit(uid))
        self.scene.choose(uid)
        self.editor.list_units(self.pos.units, unit_words, uid)

    def apply_edit(self) -> None:
        if self.selected is None:
            return
        unit = self.pos.unit(self.selected)
        fields = self.editor.fields(unit.id, unit.hex)
        if fields["side"] != unit.side and not self.sides_may_share(unit.hex, fields["side"],
                                                                     unit.id):
            return
        self._edit(lambda: self.document.change_unit(unit.id, fields), fields["id"])

    def delete_chosen(self) -> None:
        if self.selected is not None:
            uid = self.selected
            self._edit(lambda: self.document.remove_unit(uid), None)

    def change_settings(self, changes: dict) -> None:
        """A setting of the Position tab changed: one undo step, or the refusal said."""
        try:
            self.document.set_settings(**changes)
        except api.ScenarioError as e:
            self.position_editor.show_position(self.pos)
            self.position_editor.note.setText(f"refused: {e}")
            self.say(f"refused: {e}")

    def _edit(self, do, chosen: str | None) -> bool:
        """One edit through the document; the engine's refusal in the status bar."""
        try:
            do()
        except api.ScenarioError as e:
            self.say(f"refused: {e}", 15000)
            return False
        self.choose(chosen if chosen and any(u.id == chosen for u in self.pos.units) else None)
        return True
