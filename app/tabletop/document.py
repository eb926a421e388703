"""One table being looked at: the engine's Table, its file, the undo stack, the chosen shooter
and the engine's answer for it.  Every change swaps one table for another
(``app.room_document``)."""
from __future__ import annotations

from dataclasses import replace

from engine import api

from ..room_document import RoomDocument

tabletop = api.tabletop


class Document(RoomDocument):
    """The table (``table``, the ``position``), the chosen shooter and the players' choices, and
    the table's edits; the rest is ``RoomDocument``'s."""

    def __init__(self, table, path: str | None = None, parent=None):
        super().__init__(table, path, parent)
        self.shooter: str | None = None
        self.terrain_choice: int | None = None      # the terrain piece chosen (to delete it)
        self.first: str | None = None               # the order of rolls chosen (seed ex. 2)
        self.choices: dict[str, str] = {}           # whom a tied element shoots
        self._report = None
        self.undo_stack.cleanChanged.connect(self._clean_changed)

    @classmethod
    def read_position(cls, path: str):
        return tabletop.load_table(path)

    def write_position(self, position, path: str) -> None:
        tabletop.save_table(position, path)         # atomic (engine.jsonio)

    def saved(self) -> None:
        self.changed.emit()

    @classmethod
    def new(cls) -> "Document":
        """An empty table, never saved."""
        return cls(tabletop.Table(elements=(), title=""))

    @property
    def table(self):
        """The table shown (the document's position)."""
        return self.position

    def _clean_changed(self, _clean: bool) -> None:
        self.changed.emit()

    # -- state ----------------------------------------------------------------------------------
    def set_position(self, table, note: str = "") -> None:
        if self.shooter is not None and self.shooter not in table.ids():
            self.shooter = None
        if self.terrain_choice is not None and self.terrain_choice >= len(table.terrain):
            self.terrain_choice = None
        self._report = None
        super().set_position(table, note)

    def set_choice(self, first: str | None = None, element_id: str | None = None,
                   target_id: str | None = None) -> None:
        """The players' choices: the order of the rolls, whom a tied element shoots."""
        if first is not None:
            self.first = first
        if element_id is not None and target_id is not None:
            self.choices[element_id] = target_id
        self._report = None
        self.changed.emit()
    def select(self, element_id: str | None) -> None:
        if element_id is not None:
            self.table.element(element_id)          # raises api.ScenarioError if unknown
        self.shooter = element_id
        self._report = None
        self.changed.emit()

    @property
    def report(self) -> dict | None:
        """The engine's answer for the chosen shooter (SPEC.md ``shoot``), or None."""
        if self.shooter is None:
            return None
        if self._report is None:
            self._report = tabletop.shoot(self.table, self.shooter, None,
                                          self._live_choices(), self.first)
        return self._report

    def _live_choices(self) -> dict[str, str]:
        """The tie choices that still name a tie (the table may have changed since)."""
        return {k: v for k, v in self.choices.items()
                if v in tabletop.ties(self.table, k)}

    # -- edits ----------------------------------------------------------------------------------
    def place(self, element_id: str, x_bw: float, y_bw: float, facing: float, snap: bool = True) -> str:
        """Put an element down at (x, y) facing ``facing``, snapped into edge contact with a
        nearby element; refused (nothing changes) when it would overlap another base.  Returns a
        sentence for the status bar."""
        before = self.table.element(element_id)
        how = other = None
        if snap:
            x_bw, y_bw, facing, how, other = tabletop.snap(self.table, element_id, x_bw, y_bw, facing)
        after = tabletop.element_as_saved(replace(before, x=x_bw, y=y_bw, facing=facing % 360.0 % 360.0))
        trial = self.table.with_element(after)
        if any(element_id in p for p in tabletop.overlaps(trial)):
            pushed, touched = tabletop.push_flush(trial, element_id)
            if pushed is None:          # a gap too narrow for the base (rules.md 9)
                return tabletop.gap_needed(trial, element_id) + ": put back"
            after, how = tabletop.element_as_saved(pushed), "flush"
            other = ", ".join(dict.fromkeys(touched))
        if after == before:
            return ""
        moved = (after.x, after.y) != (before.x, before.y)
        self.swap(self.table.with_element(after), f"{'Move' if moved else 'Turn'} {element_id}")
        if how == "flush":
            return f"{element_id} pushed flush against {other}"
        if how:
            words = {"front": "front to front with", "behind": "behind", "beside": "beside"}
            return f"{element_id} put {words[how]} {other}"
        x_bw, y_bw = (round(v, 2) + 0.0 for v in (after.x, after.y))    # never "-0.00"
        return f"{element_id} at ({x_bw:.2f}, {y_bw:.2f}) BW, facing {after.facing:.0f}°"

    # -- the element editor (palette: add; editor: delete, type, side, visibility) ----------------
    def add_element(self, kind: str, side: str, x_bw: float, y_bw: float, facing: float = 0.0) -> str:
        """A new element of type ``kind`` for ``side``, put down at the first free place from
        (x, y) to its right; returns its id (chosen too)."""
        new_id = self.free_id()
        if len(self.table.elements) >= tabletop.MAX_ELEMENTS:
            raise api.ScenarioError(f"a table holds at most {tabletop.MAX_ELEMENTS} elements")
        for step in range(tabletop.MAX_ELEMENTS):
            element = tabletop.element_as_saved(tabletop.Element(
                id=new_id, side=side.strip() or "blue", type=kind, x=x_bw + 1.25 * step,
                y=y_bw, facing=facing % 360.0))
            trial = self.table.with_element(element)
            if not any(new_id in p for p in tabletop.overlaps(trial)):
                break
        self.swap(trial, f"Add {kind} {new_id}")
        self.select(new_id)
        return new_id

    def free_id(self) -> str:
        """The smallest number not yet an element's id, as text (a new element's id)."""
        ids = set(self.table.ids())
        return next(str(n) for n in range(1, len(ids) + 2) if str(n) not in ids)

    def put_new(self, kind: str, side: str, x_bw: float, y_bw: float,
                facing: float | None = None) -> tuple[str | None, str]:
        """A new element of type ``kind`` for ``side`` with its front's middle where the player
        clicked; facing ``facing``, or front to front with the nearest enemy, or north.  Pushed
        flush against a base it touches; refused (None and why) where it does not fit."""
        if len(self.table.elements) >= tabletop.MAX_ELEMENTS:
            return None, f"a table holds at most {tabletop.MAX_ELEMENTS} elements"
        new_id = self.free_id()
        side = side.strip() or "blue"
        element = tabletop.element_as_saved(tabletop.Element(
            id=new_id, side=side, type=kind, x=x_bw, y=y_bw,
            facing=0.0 if facing is None else facing % 360.0 % 360.0))
        trial = self.table.with_element(element)
        how = ""
        if facing is None:
            towards, enemy = tabletop.facing_to(trial, new_id, "enemy")
            if enemy is not None:
                element = replace(element, facing=towards)
                trial = trial.with_element(element)
                how = f", front to front with {enemy}"
        if any(new_id in p for p in tabletop.overlaps(trial)):
            pushed, touched = tabletop.push_flush(trial, new_id)
            if pushed is None:
                return None, tabletop.gap_needed(trial, new_id)
            trial = trial.with_element(tabletop.element_as_saved(pushed))
            how += f", flush against {', '.join(dict.fromkeys(touched))}"
        self.swap(trial, f"Add {kind} {new_id}")
        self.select(new_id)
        return new_id, f"{side} {kind} {new_id} put down{how}"

    def turn(self, element_id: str, degrees: float = 0.0, towards: str | None = None) -> str:
        """Turn an element by ``degrees`` (snapped to 15-degree steps) or ``towards`` "enemy"
        (front to front with the nearest) or "friend" (the nearest friend's facing), about the
        middle of its front; refused like a drop when it would overlap a base."""
        e = self.table.element(element_id)
        if towards is not None:
            facing, other = tabletop.facing_to(self.table, element_id, towards)
            if other is None:
                return f"no {towards} to face"
        else:
            facing = tabletop.turned(e.facing, degrees)
        return self.place(element_id, e.x, e.y, facing, snap=False)

    # -- the bound: whose it is, a shot's result, the next bound (DBA 3.0 sequence) -------------
    def set_turn(self, side: str | None) -> None:
        if side != self.table.turn:
            self.swap(replace(self.table, turn=side), f"Bound: {side or 'nobody'}")

    def end_bound(self) -> str:
        """The other side's bound: its elements have not moved yet (the ``moved`` flags clear)."""
        sides = self.table.sides()
        if not sides:
            return "no elements on the table"
        now = self.table.turn if self.table.turn in sides else sides[-1]
        nxt = sides[(sides.index(now) + 1) % len(sides)]
        els = tuple(replace(e, moved=False) for e in self.table.elements)
        self.swap(replace(self.table, turn=nxt, elements=els), f"Bound of {nxt}")
        return f"{nxt}'s bound: no element has moved yet"

    def destroy(self, element_id: str) -> str:
        e = self.table.element(element_id)
        self.swap(self.table.without(element_id), f"{element_id} destroyed")
        return f"{e.side} {e.type} {element_id} destroyed and removed"

    def recoil(self, element_id: str) -> str:
        """DBA 3.0 recoil (our reading): straight back its own base depth, facing unchanged;
        refused, saying why, when it would overlap a base."""
        e = self.table.element(element_id)
        d = e.depth_bw(self.table.bw_mm)
        fx, fy = tabletop.forward(e.facing)
        after = tabletop.element_as_saved(replace(e, x=e.x - fx * d, y=e.y - fy * d))
        trial = self.table.with_element(after)
        clash = [b if a == element_id else a for a, b in tabletop.overlaps(trial)
                 if element_id in (a, b)]
        if clash:
            return f"{element_id} cannot recoil {d:.2f} BW: {', '.join(clash)} is in the way"
        self.swap(trial, f"{element_id} recoils")
        return f"{element_id} recoils {d:.2f} BW"

    def delete(self, element_id: str) -> None:
        self.table.element(element_id)
        self.swap(self.table.without(element_id), f"Delete {element_id}")

    def change(self, element_id: str, **values) -> str:
        """Change an element's ``type``, ``side``, ``visible`` or ``moved``; refused (a sentence
        saying why, nothing changed) when its new depth would overlap another base."""
        before = self.table.element(element_id)
        after = replace(before, **values)
        if after == before:
            return ""
        trial = self.table.with_element(after)
        clash = [p for p in tabletop.overlaps(trial) if element_id in p]
        if clash:
            a, b = clash[0]
            return f"{element_id} as {after.type} would overlap {b if a == element_id else a}: not changed"
        what = ", ".join(f"{k} {v}" for k, v in values.items() if getattr(before, k) != v)
        self.swap(trial, f"Change {element_id}: {what}")
        return f"{element_id}: {what}"

    def add_terrain(self, kind: str, x_bw: float, y_bw: float) -> int:
        """A 2 x 1.5 BW piece of terrain centred on (x, y); a hill gets a crest along its middle."""
        poly = ((x_bw - 1, y_bw - 0.75), (x_bw + 1, y_bw - 0.75), (x_bw + 1, y_bw + 0.75),
                (x_bw - 1, y_bw + 0.75))
        crest = ((x_bw - 1, y_bw), (x_bw + 1, y_bw)) if kind == "hill" else None
        piece = tabletop.TerrainPiece(kind, poly, crest)
        self.swap(replace(self.table, terrain=self.table.terrain + (piece,)), f"Add {kind}")
        self.choose_terrain(len(self.table.terrain) - 1)     # told: the panel offers Delete
        return self.terrain_choice

    def change_terrain(self, index: int, piece, what: str) -> str:
        """Replace terrain piece ``index`` (moved, reshaped, turned, a crest drawn): one undo
        step; a piece the file could not hold is refused with the reason."""
        pieces = list(self.table.terrain)
        try:
            checked = tabletop.checked_piece(piece.type, piece.polygon, piece.crest)
        except api.ScenarioError as err:
            return f"{what}: refused, {err.problem}"
        if checked == pieces[index]:
            return ""
        pieces[index] = checked
        self.swap(replace(self.table, terrain=tuple(pieces)), f"{what} {checked.type}")
        self.terrain_choice = index
        return f"{what} the {checked.type}"

    def delete_terrain(self, index: int) -> None:
        pieces = list(self.table.terrain)
        kind = pieces.pop(index).type
        self.swap(replace(self.table, terrain=tuple(pieces)), f"Delete {kind}")

    def choose_terrain(self, index: int | None) -> None:
        self.terrain_choice = index
        self.changed.emit()
