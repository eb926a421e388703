"""New pieces and deleted ones: the palette arms a unit or marker type, the next click on the map
puts it down (one undo step, refused with the engine's message when impossible); Delete removes
the picked marker, or else the selected unit."""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from engine import api

PIECE_PREFIX = "piece:"          # a waiting support weapon or Gun, by its VASSAL id


@dataclass(frozen=True)
class Piece:
    """What the palette hands over: a unit type or a marker type, and a side."""
    kind: str                      # "unit" or "marker"
    type: str
    side: str | None
    waiting: str | None = None     # a counter of the Waiting dock (its unit id)


class PiecesTool(QObject):
    told = Signal(str)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.armed: Piece | None = None

    def put_down(self, piece: Piece, hex_index: int) -> bool:
        """``piece`` in hex ``hex_index`` (a map index); False when the engine refuses it."""
        d, s = self.document, self.document.scenario
        name = s.map.names[hex_index]
        if piece.waiting is not None:
            return self._place_waiting(piece.waiting, name)
        if piece.kind == "unit":
            uid = new_unit_id(s, piece.type)
            after = s.with_unit(api.night.Unit(uid, piece.side or "allied", piece.type, name))
            text = f"add {piece.type.replace('_', ' ')} {uid} in {name}"
        else:
            side = piece.side if api.night.MARKER_KINDS[piece.type].sided else None
            after = s.with_marker(api.night.Marker(piece.type, name, side,
                                                   extra=api.night.marker_defaults(piece.type)))
            text = f"add {piece.type.replace('_', ' ')} in {name}"
        try:
            d.edit(after, text)
        except api.ScenarioError as e:
            self.told.emit(str(e))
            return False
        if piece.kind == "unit":
            d.select(uid)
        else:
            d.pick_marker(len(after.markers) - 1)
        self.told.emit(text[0].upper() + text[1:] + " (Ctrl+Z: undo; the Edit panel edits it)")
        return True

    def _place_waiting(self, uid: str, name: str) -> bool:
        """A counter of the Waiting dock put in hex ``name`` (the engine's place_waiting; a
        support weapon or Gun, ``PIECE_PREFIX`` and its VASSAL id: place_piece)."""
        d = self.document
        piece = uid.removeprefix(PIECE_PREFIX) if uid.startswith(PIECE_PREFIX) else None
        if piece is not None:
            said = next((p["name"] for p in api.vasl.waiting_pieces(d.scenario)
                         if p["vasl_id"] == piece), piece)
        else:
            said = next((f"{w.get('name') or w['type']} ({uid})"
                         for w in api.vasl.waiting_units(d.scenario) if w["id"] == uid), uid)
        try:
            after = (api.vasl.place_piece(d.scenario, piece, name) if piece is not None
                     else api.vasl.place_waiting(d.scenario, uid, name))
            d.edit(after, f"place {said} in {name}")
        except api.ScenarioError as e:
            self.told.emit(str(e))
            return False
        if piece is None:
            d.select(uid)
        self.told.emit(f"Placed {said} in {name} (Ctrl+Z: undo)")
        return True

    def delete_picked(self) -> None:
        """Delete the picked marker, or else the selected unit (one undo step)."""
        d = self.document
        if d.marker is not None:
            d.remove_marker(d.marker)
        elif d.viewer is not None:
            u = d.scenario.unit(d.viewer)
            d.edit(d.scenario.without_unit(u.id), f"delete {u.id} from {u.hex}")


def new_unit_id(scenario: api.night.Scenario, unit_type: str) -> str:
    """A fresh id: the type's initial and the first free number (S1, L2, M3...)."""
    prefix = {"half_squad": "HS", "armor_leader": "AL", "afv": "T", "vehicle": "V",
              "observer": "O"}.get(unit_type, unit_type[0].upper())
    taken = {u.id for u in scenario.units}
    k = 1
    while f"{prefix}{k}" in taken:
        k += 1
    return f"{prefix}{k}"
