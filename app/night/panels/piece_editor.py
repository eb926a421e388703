"""Edit the selected unit or the picked marker: every property the scenario file knows.

Each change is one undo step (``Document.edit``); the engine checks the whole position
first, and an impossible one (a unit both BU and CE, a squad that is tracked...) is refused with
the engine's own message, the widgets going back to the position as it is.
"""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app import style
from engine import api

from ..scene.counter_art import counter_name

UNIT_FLAGS = (("bu", "BU (buttoned up)"), ("ce", "CE (crew exposed)"), ("tracked", "tracked"),
              ("motorized", "motorized"), ("concealed", "concealed"), ("broken", "broken"),
              ("pinned", "pinned"), ("bypass", "bypassing light jungle"),
              ("ir", "fires IR (mortar)"))
NO_SIDE = "(none)"
# a vehicle's motion this phase in whole words (E1.14: seen farther when it entered a hex or
# changed its covered arc)
MOVING_WORDS = {"entered": "entered a hex", "changed_ca": "changed its covered arc (CA)",
                "started": "started moving", "stopped": "stopped", "delay": "delayed"}
FIELD_WORDS = {"id": "Id", "name": "Name", "side": "Side", "type": "Type", "hex": "Hex", "level": "Level",
               "moving": "Moving", "radius": "Radius", **dict(UNIT_FLAGS)}


def refusal(error: api.ScenarioError, kind: str, piece) -> str:
    """The engine's refusal in words: the field it names (``units[0].bu`` -> "BU (buttoned
    up)"), or the piece, then the problem."""
    field = (error.place or "").rsplit(".", 1)[-1] if "." in (error.place or "") else ""
    if field in FIELD_WORDS:
        return f"{FIELD_WORDS[field]}: {error.problem}"
    name = f"Unit {piece.id}" if kind == "unit" else f"The {words(piece.type)}"
    return f"{name}: {error.problem}"


def words(name: str) -> str:
    return name.replace("_", " ")


class PieceEditor(QWidget):
    refused = Signal(str)               # the engine's message for an impossible edit

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self._filling = False
        self.heading = QLabel()
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#ff8080")
        self.id = QLineEdit()
        self.name = QLineEdit()         # the counter's own name ("4-6-7"), SPEC.md's unit "name"
        self.name.setPlaceholderText("none: the counter shows its id")
        self.side = QComboBox()
        self.type = QComboBox()
        self.level = QSpinBox()
        self.level.setRange(-1, 6)
        self.moving = QComboBox()
        self.moving.addItem("not moving", None)
        for m in api.night.MOVING:
            self.moving.addItem(MOVING_WORDS.get(m, words(m)), m)
        self.moving.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.radius = QSpinBox()
        self.radius.setRange(0, 12)
        self.smoke = QComboBox()        # rules.md 11.4: which smoke counter (its hindrance)
        for code, (name, hindrance, _height) in api.night.SMOKE_KINDS.items():
            self.smoke.addItem(f"{name} (+{hindrance})", code)
        self.flags = {name: QCheckBox(label) for name, label in UNIT_FLAGS}
        self.delete = QPushButton("Delete")
        self.form = QFormLayout()
        self.form.addRow("Id", self.id)
        self.form.addRow("Name", self.name)
        self.form.addRow("Side", self.side)
        self.form.addRow("Type", self.type)
        self.form.addRow("Level", self.level)
        self.form.addRow("Moving", self.moving)
        self.form.addRow("Radius", self.radius)
        self.form.addRow("Smoke", self.smoke)
        grid = QGridLayout()
        for k, box in enumerate(self.flags.values()):
            grid.addWidget(box, k // 2, k % 2)
        box = QVBoxLayout(self)
        box.addWidget(self.heading)
        box.addLayout(self.form)
        box.addLayout(grid)
        box.addWidget(self.delete)
        box.addWidget(self.error)
        box.addStretch(1)               # in a tall dock the fields stay together at the top
        self.id.editingFinished.connect(lambda: self._changed("id"))
        self.name.editingFinished.connect(lambda: self._changed("name"))
        self.side.activated.connect(lambda _: self._changed("side"))
        self.type.activated.connect(lambda _: self._changed("type"))
        self.level.valueChanged.connect(lambda _: self._changed("level"))
        self.moving.activated.connect(lambda _: self._changed("moving"))
        self.radius.valueChanged.connect(lambda _: self._changed("radius"))
        self.smoke.activated.connect(lambda _: self._changed("smoke"))
        for name, flag in self.flags.items():
            flag.toggled.connect(lambda _on, n=name: self._changed(n))
        for signal in (document.changed, document.selectionChanged):    # the drop, not the steps
            signal.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------------------ what is shown
    def piece(self):
        d = self.document
        if d.marker is not None:
            return "marker", d.scenario.markers[d.marker]
        if d.viewer is not None:
            return "unit", d.scenario.unit(d.viewer)
        return None, None

    def refresh(self) -> None:
        kind, piece = self.piece()
        self._filling = True
        self.error.clear()
        for w in [self.id, self.name, self.side, self.type, self.level, self.moving, self.radius,
                  self.delete, *self.flags.values()]:
            w.setVisible(kind is not None)
        for row in range(self.form.rowCount()):
            self.form.setRowVisible(row, kind is not None)
        smoke = kind == "marker" and piece.type == "smoke"
        self.form.setRowVisible(self.smoke, smoke)
        self.smoke.setVisible(smoke)
        if smoke:
            self.smoke.setCurrentIndex(self.smoke.findData(
                piece.extra.get("kind", api.night.DEFAULT_SMOKE)))
        if kind is None:
            self.heading.setText(f"<span style='color:{style.TEXT_DIM}'>Select a unit or "
                                 "click a marker to edit it.</span>")
        elif kind == "unit":
            self._fill_unit(piece)
        else:
            self._fill_marker(piece)
        self._filling = False

    def _fill_sides(self, current: str | None, allow_none: bool) -> None:
        self.side.clear()
        if allow_none:
            self.side.addItem(NO_SIDE)
        for s in api.night.game_sides(self.document.scenario):    # the game's two sides
            self.side.addItem(s)
        if current is not None and self.side.findText(current) < 0:
            self.side.addItem(current)
        self.side.setCurrentIndex(self.side.findText(current if current is not None else NO_SIDE))

    def _fill_unit(self, u) -> None:
        self.heading.setText(f"<b>Unit {u.id}</b> in {u.hex}")
        self.id.setText(u.id)
        self.name.setText(counter_name(u))
        self.form.setRowVisible(self.name, True)
        self._fill_sides(u.side, False)
        self.type.clear()
        for t in api.night.UNIT_TYPES:
            self.type.addItem(words(t), t)
        self.type.setCurrentIndex(self.type.findData(u.type))
        self.level.setValue(u.level)
        self.moving.setCurrentIndex(max(self.moving.findData(u.moving), 0))
        self.form.setRowVisible(self.radius, False)
        self.radius.setVisible(False)
        applies = api.night.unit_properties(u.type)          # no BU, CE or IR for a leader...
        self.form.setRowVisible(self.moving, "moving" in applies)
        values = {"ce": u.is_ce, "motorized": u.is_motorized}
        for name, box in self.flags.items():
            box.setChecked(values.get(name, getattr(u, name)))
            box.setVisible(name in applies)

    def _fill_marker(self, mk) -> None:
        self.heading.setText(f"<b>Marker: {words(mk.type)}</b> in {mk.hex}")
        for w in (self.id, self.name, self.level, self.moving):
            self.form.setRowVisible(w, False)
        for w in (self.id, self.name, self.level, self.moving, *self.flags.values()):
            w.setVisible(False)
        self._fill_sides(mk.side, True)
        self.type.clear()
        for t in api.night.MARKER_TYPES:
            self.type.addItem(words(t), t)
        self.type.setCurrentIndex(self.type.findData(mk.type))
        has_radius = mk.type in api.night.RADIUS_MARKERS
        self.form.setRowVisible(self.radius, has_radius)
        self.radius.setVisible(has_radius)
        self.radius.setValue(mk.light_radius if has_radius else 0)

    # ------------------------------------------------------------------------ editing
    def _changed(self, what: str) -> None:
        if self._filling:
            return
        kind, piece = self.piece()
        if kind is None:
            return
        d = self.document
        s = d.scenario
        try:
            if kind == "unit":
                after, text = self._unit_edit(s, piece, what)
            else:
                after, text = self._marker_edit(s, piece, what)
            if after is None:
                return
            d.edit(after, text)
        except api.ScenarioError as e:
            self.refresh()
            text = refusal(e, kind, piece)
            self.error.setText(text)
            self.refused.emit(text)
            return
        if kind == "unit" and what == "id":
            d.select(self.id.text().strip())

    def _unit_edit(self, s, u, what: str):
        if what == "id":
            new = self.id.text().strip()
            if new == u.id:
                return None, ""
            if not new or any(v.id == new for v in s.units):
                raise api.ScenarioError(f"unit id {new!r} is empty or already used")
            units = tuple(u.replace(id=new) if v.id == u.id else v for v in s.units)
            return s.replace(units=units), f"rename {u.id} to {new}"
        if what == "name":
            return self._name_edit(s, u)
        if what == "side":
            value = self.side.currentText().strip()
        elif what == "type":
            value = self.type.currentData()
        elif what == "level":
            value = self.level.value()
        elif what == "moving":
            value = self.moving.currentData()
        else:
            value = self.flags[what].isChecked()
        if value == getattr(u, what) and what not in ("ce", "motorized"):
            return None, ""
        new = u.replace(**{what: value})
        said = MOVING_WORDS.get(value, "not moving") if what == "moving" else words(str(value))
        return s.with_unit(new), f"{u.id}: {words(what)} {said}"

    def _name_edit(self, s, u):
        """The counter's name changed (empty: none, the counter shows its id)."""
        new = " ".join(self.name.text().split())
        if new == counter_name(u):
            return None, ""
        extra = {k: v for k, v in u.extra.items() if k != "name"}
        if new:
            extra["name"] = new
        said = f"name {new}" if new else "no name"
        return s.with_unit(u.replace(extra=extra)), f"{u.id}: {said}"

    def _marker_edit(self, s, mk, what: str):
        k = self.document.marker
        if what == "side":
            text = self.side.currentText().strip()
            new = mk.replace(side=None if text in ("", NO_SIDE) else text)
        elif what == "type":
            t = self.type.currentData()
            if t == mk.type:
                return None, ""
            # a new type starts with the keys it needs (rubble: its material), none of the old
            new = mk.replace(type=t, radius=mk.radius if t in api.night.RADIUS_MARKERS else None,
                             extra=api.night.marker_defaults(t))
            return s.with_marker(new, k), f"{words(mk.type)} in {mk.hex}: {words(t)}"
        elif what == "radius":
            new = mk.replace(radius=self.radius.value())
        elif what == "smoke":           # rules.md 11.4: the counter's kind sets its hindrance
            code = self.smoke.currentData()
            if code == mk.extra.get("kind", api.night.DEFAULT_SMOKE):
                return None, ""
            new = mk.replace(extra={**mk.extra, "kind": code})
            return s.with_marker(new, k), f"smoke in {mk.hex}: {api.night.marker_label(new)}"
        else:
            return None, ""
        if new == mk:
            return None, ""
        return s.with_marker(new, k), f"{words(mk.type)} in {mk.hex}: {words(what)}"
