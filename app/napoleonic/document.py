"""One fire position being looked at: the engine's Position, its file, the undo stack and the
position's edits (an attack recorded, another segment).  Every change swaps one position for another
(``app.room_document``); ``changed`` says the position changed."""
from __future__ import annotations

import random

from engine import api

from ..room_document import RoomDocument

nap = api.napoleonic


class Document(RoomDocument):
    """The fire position (``position``) and its edits; the rest is ``RoomDocument``'s."""

    def __init__(self, position, path: str | None = None, dice=None, parent=None):
        super().__init__(position, path, parent)
        self.dice = dice or (lambda: (random.randint(1, 6), random.randint(1, 6)))

    @classmethod
    def read_position(cls, path: str):
        return nap.load_position(path)

    def write_position(self, position, path: str) -> None:
        nap.save_position(position, path)       # atomic (engine.jsonio)

    # -- edits ----------------------------------------------------------------------------------
    def record_attack(self, assessment, note: str, spread: dict | None = None) -> None:
        """The attack ``assessment`` (rolled) recorded on the position, its losses spread as
        ``spread`` says (the owner's choice; None: the top unit first): one undo step."""
        after, applied = nap.record(self.position, assessment, spread)
        words = nap.applied_words(applied)
        if assessment.result and assessment.defender:
            words += nap.unmarked(self.position, assessment.defender, assessment.result)
        if words:
            note += ". " + "; ".join(words)
        self.swap(after, f"fire at {assessment.target}", note)

    def add_unit(self, fields: dict) -> None:
        """A new unit (the file's keys); raises api.ScenarioError naming the key at fault."""
        self.swap(nap.with_unit(self.position, fields), f"place {fields.get('id')}")

    def change_unit(self, uid: str, fields: dict) -> None:
        self.swap(nap.with_unit(self.position, fields, replacing=uid), f"change {uid}")

    def remove_unit(self, uid: str) -> None:
        self.swap(nap.without_unit(self.position, uid), f"delete {uid}")

    def set_segment(self, segment: str) -> None:
        """Another segment, the record of the one left kept (rules.md 8): one undo step."""
        if segment != self.position.segment:
            self.swap(nap.with_segment(self.position, segment), f"{segment} segment")

    def next_segment(self) -> None:
        """The next segment (after the last, a new turn): one undo step."""
        after = nap.next_segment(self.position)
        new = after.segment == nap.SEGMENTS[0]
        self.swap(after, "new turn" if new else f"{after.segment} segment",
                  "A new turn: nobody has fired yet" if new else
                  f"The {after.segment} segment")

    def new_turn(self) -> None:
        self.swap(nap.new_turn(self.position), "new turn", "A new turn: nobody has fired yet")

    def set_settings(self, **changes) -> None:
        """The title, first fire, board or chart pack changed (raises api.ScenarioError naming
        the place when the position would not hold): one undo step."""
        after = nap.with_settings(self.position, **changes)
        self.swap(after, "change " + ", ".join(k.replace("_", " ") for k in changes))
