"""The player's hand on the map: what a click or a drag does (issue 7).

- Click a unit: it becomes the viewer (its night field is shown); click it again: the next unit
  of its stack.  Click a marker: it is picked for editing.  Click empty ground: nothing selected.
- Drag a unit or a marker: it follows the mouse and the overlays follow live (the Document shows
  each hex it passes, asking the engine at most once a frame); dropped, it snaps to the hex
  centre and the whole drag is one undo step.  Escape puts it back.
- Right button, Shift + drag, or the thread tool: the LOS thread from one hex to another.
- The starshell tool: hovering or dragging over the map shows the drift preview of a starshell
  (or IR) placed there; releasing fires it (``Document.fire_starshell``: the dice roll).
- A piece armed from the palette is put down where the player clicks.

No rule here: legal hexes, drift, LOS and the dice's verdicts are the engine's.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtWidgets import QApplication

from engine import api
from engine.api import los_thread

from .scene.counters import CounterItem
from .scene.geometry import centre, hex_at
from .starshell_placing import AUTO, StarshellPlacing

TOOLS = ("select", "starshell", "thread")
__all__ = ["Hand", "Piece", "AUTO", "TOOLS", "new_unit_id"]


@dataclass
class Press:
    kind: str                      # "piece", "ground", "thread", "starshell"
    at: QPointF                    # viewport point of the press
    hex: int
    item: CounterItem | None = None
    before: api.Scenario | None = None
    grab: QPointF | None = None    # scene offset from the counter's position to the mouse
    was_selected: bool = False
    dragging: bool = False
    last_hex: int = -1


@dataclass(frozen=True)
class Piece:
    """What the palette hands over: a unit type or a marker type, and a side."""
    kind: str                      # "unit" or "marker"
    type: str
    side: str | None


class Hand(StarshellPlacing, QObject):
    told = Signal(str)                 # a sentence for the status bar
    threadChanged = Signal(object)     # engine.night.thread.Thread or None
    fired = Signal(object)             # engine.night.starshells.FireResult
    toolChanged = Signal(str)
    methodChanged = Signal(str)
    previewChanged = Signal()          # the drift preview moved

    def __init__(self, document, scene, view, parent=None):
        super().__init__(parent)
        self.document, self.scene, self.view = document, scene, view
        self.tool = "select"
        self.method = AUTO
        self.armed: Piece | None = None
        self.typed_dice = lambda: None       # the window's typed-in dice, or None: roll
        self.thread = None
        self.thread_levels = (0, 0)
        self._press: Press | None = None
        self._ghost: CounterItem | None = None
        self._options = (None, None, None)   # (scenario, viewer, starshell_options)

    # ------------------------------------------------------------------------ tools
    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            raise ValueError(f"no tool {tool!r}")
        self.tool = tool
        self.armed = None
        placing = tool == "starshell"
        self.document.want_starshells(placing)
        self.scene.set_placing(placing)
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor if tool != "select"
                                       else Qt.CursorShape.ArrowCursor)
        self.toolChanged.emit(tool)
        self.previewChanged.emit()
        if placing and self.document.viewer is None:
            self.told.emit("Select a unit first: the starshell is fired by the selected unit")

    def set_method(self, method: str) -> None:
        self.method = method
        self.scene.drift.clear()
        self.methodChanged.emit(method)

    def arm(self, piece: Piece | None) -> None:
        """The next click on the map puts ``piece`` down (None: disarm)."""
        if self.tool != "select":
            self.set_tool("select")
        self.armed = piece
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor if piece
                                       else Qt.CursorShape.ArrowCursor)
        if piece is not None:
            self.told.emit(f"Click a hex to put down a {piece.type.replace('_', ' ')} "
                           "(Esc: cancel)")

    # ------------------------------------------------------------------------ mouse
    def _hex(self, pos) -> int:
        return hex_at(self.scene.map, self.view.mapToScene(pos))

    def press(self, event) -> bool:
        pos = event.position().toPoint()
        i = self._hex(pos)
        button, shift = event.button(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if button == Qt.MouseButton.RightButton or (button == Qt.MouseButton.LeftButton and (
                shift or self.tool == "thread")):
            self._press = Press("thread", event.position(), i)
            return True
        if button != Qt.MouseButton.LeftButton:
            return False
        if self.armed is not None:
            if i >= 0:
                self.put_down(self.armed, i)
            return True
        if self.tool == "starshell":
            self._press = Press("starshell", event.position(), i)
            self._preview(i, self.view.mapToScene(pos))
            return True
        item = self.view.counter_at(pos)
        if item is None:
            self._press = Press("ground", event.position(), i)
            return True
        d = self.document
        scene_at = self.view.mapToScene(pos)
        press = Press("piece", event.position(), i, item, d.scenario, scene_at - item.pos())
        if item.kind == "unit":
            press.was_selected = d.viewer == item.key
            d.select(item.key)
        else:
            d.pick_marker(item.key)
        self._press = press
        return True

    def move(self, event) -> bool:
        pos = event.position().toPoint()
        p = self._press
        i = self._hex(pos)
        if p is None:
            if self.tool == "starshell":
                self._preview(i, self.view.mapToScene(pos))
            return False
        if not p.dragging:
            if (event.position() - p.at).manhattanLength() < QApplication.startDragDistance():
                return True
            p.dragging = True
            if p.kind == "piece":
                self.document.begin_drag()
        if p.kind == "piece":
            self._drag_piece(p, i, self.view.mapToScene(pos))
        elif p.kind == "thread":
            if i >= 0 and p.hex >= 0 and i != p.last_hex:
                p.last_hex = i
                self.stretch_thread(p.hex, i)
        elif p.kind == "starshell":
            self._preview(i, self.view.mapToScene(pos))
        return False                # the view still reports the hovered hex

    def release(self, event) -> bool:
        p, self._press = self._press, None
        if p is None:
            return False
        i = self._hex(event.position().toPoint())
        if p.kind == "piece":
            if p.dragging:
                self._drop_piece(p)
            elif p.item.kind == "unit" and p.was_selected:
                self.cycle(+1)
        elif p.kind == "ground":
            self.clear_selection()
        elif p.kind == "thread":
            if not p.dragging or i == p.hex:
                self.set_thread(None)
        elif p.kind == "starshell":
            self._drop_ghost()
            if i >= 0:
                self.fire_at(i)
        return True

    def cancel(self) -> None:
        """Escape: a drag goes back where it began; tools, thread and palette are put away."""
        p, self._press = self._press, None
        if p is not None and p.kind == "piece" and p.dragging:
            self.document.show(p.before)
            self.document.finish_drag(None)
            self._snap(p.item)
        self._drop_ghost()
        self.set_thread(None)
        self.arm(None)
        if self.tool != "select":
            self.set_tool("select")

    # ------------------------------------------------------------------------ selection
    def clear_selection(self) -> None:
        self.document.select(None)
        self.document.pick_marker(None)

    def cycle(self, step: int) -> None:
        """The next (``step`` +1) or previous (-1) unit of the selected unit's stack."""
        d = self.document
        item = self.scene.counters.item("unit", d.viewer) if d.viewer else None
        if item is None:
            return
        stack = self.scene.counters.stack_of(item)
        if len(stack) > 1:
            d.select(stack[(stack.index(item) + step) % len(stack)].key)

    def delete_picked(self) -> None:
        """Delete the picked marker, or else the selected unit (one undo step)."""
        d = self.document
        if d.marker is not None:
            d.remove_marker(d.marker)
        elif d.viewer is not None:
            u = d.scenario.unit(d.viewer)
            d.edit(d.scenario.without_unit(u.id), f"delete {u.id} from {u.hex}")

    def put_down(self, piece: Piece, i: int) -> None:
        d, s = self.document, self.document.scenario
        name = s.map.names[i]
        if piece.kind == "unit":
            uid = new_unit_id(s, piece.type)
            after = s.with_unit(api.Unit(uid, piece.side or "allied", piece.type, name))
            text = f"add {piece.type.replace('_', ' ')} {uid} in {name}"
        else:
            side = piece.side if piece.type in ("gunflash", "prep_fire", "first_fire",
                                                "final_fire", "ffe") else None
            after = s.with_marker(api.Marker(piece.type, name, side))
            text = f"add {piece.type.replace('_', ' ')} in {name}"
        try:
            d.edit_checked(after, text)
        except api.ScenarioError as e:
            self.told.emit(str(e))
            return
        if piece.kind == "unit":
            d.select(uid)
        else:
            d.pick_marker(len(after.markers) - 1)
        self.arm(None)
        self.told.emit(text[0].upper() + text[1:] + " (Ctrl+Z: undo; the Edit panel edits it)")

    # ------------------------------------------------------------------------ dragging pieces
    def _drag_piece(self, p: Press, i: int, scene_at: QPointF) -> None:
        # showing the position rebuilds the counters (each at its hex centre): the dragged one
        # is put back under the mouse afterwards
        if i >= 0 and i != p.last_hex:
            p.last_hex = i
            self.document.show(moved(p.before, p.item, self.scene.map.names[i]))
        p.item.setPos(scene_at - p.grab)
        p.item.setZValue(90)

    def _drop_piece(self, p: Press) -> None:
        item = p.item
        s = self.document.scenario
        where = piece_of(s, item)
        what = item.key if item.kind == "unit" else (where.type.replace("_", " ") if where else "")
        self.document.finish_drag(p.before, f"move {what} to {where.hex if where else '?'}")
        self._snap(item)

    def _snap(self, item: CounterItem) -> None:
        piece = piece_of(self.document.scenario, item)
        if piece is not None:
            item.setPos(centre(self.scene.map, self.scene.map.index(piece.hex)))
        self.scene.counters.layout()

    # ------------------------------------------------------------------------ the LOS thread
    def stretch_thread(self, start: int, end: int) -> None:
        """The string from hex ``start`` to hex ``end`` (map indices) with the engine's verdicts.
        The viewer's level counts when it stands at the start."""
        s, m = self.document.scenario, self.scene.map
        viewer = self.document.viewer
        if viewer is None or m.index(s.unit(viewer).hex) != start:
            # the string starts at another unit: its night verdict is that unit's
            viewer = next((u.id for u in s.units if m.index(u.hex) == start), viewer)
        start_level, end_level = self.thread_levels
        if viewer is not None and m.index(s.unit(viewer).hex) == start:
            start_level = s.unit(viewer).level
        try:
            t = los_thread(s, m.names[start], m.names[end], start_level, end_level,
                           viewer_id=viewer)
        except (api.ScenarioError, api.HexIdError, ValueError) as e:
            self.told.emit(str(e))
            return
        self.set_thread(t)

    def set_thread(self, thread) -> None:
        self.thread = thread
        self.scene.thread.set_thread(thread)
        self.threadChanged.emit(thread)

    def set_thread_levels(self, start: int, end: int) -> None:
        self.thread_levels = (start, end)
        t = self.thread
        if t is not None:
            m = self.scene.map
            self.stretch_thread(m.index(t.start), m.index(t.end))

def moved(s: api.Scenario, item: CounterItem, hex_id: str) -> api.Scenario:
    """``s`` with the piece of ``item`` in ``hex_id``."""
    if item.kind == "unit":
        return s.moved(item.key, hex_id)
    return s.with_marker(s.markers[item.key].replace(hex=s.map.canonical(hex_id)), item.key)


def piece_of(s: api.Scenario, item: CounterItem):
    if item.kind == "unit":
        return next((u for u in s.units if u.id == item.key), None)
    return s.markers[item.key] if 0 <= item.key < len(s.markers) else None


def new_unit_id(s: api.Scenario, unit_type: str) -> str:
    """A fresh id: the type's initial and the first free number (S1, L2, M3...)."""
    prefix = {"half_squad": "HS", "armor_leader": "AL", "afv": "T", "vehicle": "V",
              "observer": "O"}.get(unit_type, unit_type[0].upper())
    taken = {u.id for u in s.units}
    k = 1
    while f"{prefix}{k}" in taken:
        k += 1
    return f"{prefix}{k}"
