"""The tabletop's element palette and editor, the players' choices and the legend: a panel
beside the table.  Every edit goes through the Document (one undo step each); the rules'
answers come from ``engine.api.tabletop``."""
from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine import api

from .document import Document
from .scene import BLOCK, LEGAL, MUST, SUPPORT
from .terrain_items import TERRAIN_COLOURS

tabletop = api.tabletop
ORDER_TEXT = {"shot": "its own shot first", "defensive": "its defensive roll first"}
FACINGS = (("front to front with the enemy", None), ("north", 0.0), ("east", 90.0),
           ("south", 180.0), ("west", 270.0))


def legend_html() -> str:
    """The colours of the table, in words."""
    def row(colour, text):
        return (f"<tr><td style='background:{colour.name()}'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
                f"<td>{html.escape(text)}</td></tr>")
    rows = [row(MUST, "the chosen shooter; the target it must shoot"),
            row(LEGAL, "a legal target and the two shot lines"),
            row(BLOCK, "what blocks a shot (an element, a gap under one element wide)"),
            row(SUPPORT, "a supporting element (-1 to the target)")]
    rows += [row(c, tabletop.TERRAIN_KINDS[k].name) for k, c in TERRAIN_COLOURS.items()]
    return ("<table cellspacing='2'>" + "".join(rows) + "</table><p>A white edge is an "
            "element's front; grey dots: not in front of the shooter.</p>")


class EditorPanel(QWidget):
    """Palette (add), editor of the chosen element (type, side, visible, moved, delete), terrain
    (add, delete), the players' choices (order of rolls, ties) and the legend."""

    def __init__(self, document: Document, centre, status, draw_crest=lambda: None):
        super().__init__()
        self.document, self.centre, self.status = document, centre, status
        self.draw_crest = draw_crest
        self._filling = False
        lay = QVBoxLayout(self)
        lay.addWidget(self._palette_box())
        lay.addWidget(self._bound_box())
        chosen = QGroupBox("Chosen element")
        cl = QFormLayout(chosen)
        self.chosen_label = QLabel("none: click an element")
        self.type = self._types()
        self.type.activated.connect(lambda _i: self.change(type=self.type.currentData()))
        self.side = QComboBox()
        self.side.setEditable(True)
        self.side.lineEdit().editingFinished.connect(self.change_side)
        self.side.activated.connect(lambda _i: self.change_side())
        self.visible = QCheckBox("visible to the enemy")
        self.visible.clicked.connect(lambda on: self.change(visible=on))
        self.moved = QCheckBox("moved this bound")
        self.moved.clicked.connect(lambda on: self.change(moved=on))
        self.delete_button = QPushButton("Delete element")
        self.delete_button.clicked.connect(self.delete)
        cl.addRow(self.chosen_label)
        cl.addRow("Type", self.type)
        cl.addRow("Side", self.side)
        cl.addRow(self.visible)
        cl.addRow(self.moved)
        cl.addRow(self.delete_button)
        lay.addWidget(chosen)
        ground = QGroupBox("Terrain")
        gl = QGridLayout(ground)
        self.terrain_kind = QComboBox()
        for code, kind in tabletop.TERRAIN_KINDS.items():
            self.terrain_kind.addItem(kind.name, code)
        self.add_terrain_button = QPushButton("Add")
        self.add_terrain_button.clicked.connect(self.add_terrain)
        self.delete_terrain_button = QPushButton("Delete chosen")
        self.delete_terrain_button.clicked.connect(self.delete_terrain)
        self.crest_button = QPushButton("Draw its crest")
        self.crest_button.setToolTip("A hill's crest: click its points on the table, Enter ends")
        self.crest_button.clicked.connect(lambda: self.draw_crest())
        gl.addWidget(self.terrain_kind, 0, 0)
        gl.addWidget(self.add_terrain_button, 0, 1)
        gl.addWidget(self.delete_terrain_button, 1, 0)
        gl.addWidget(self.crest_button, 1, 1)
        lay.addWidget(ground)
        choices = QGroupBox("The players' choices")
        self.choices_layout = QFormLayout(choices)
        self.first = QComboBox()
        self.first.activated.connect(lambda _i: document.set_choice(first=self.first.currentData()))
        self.choices_layout.addRow("The player whose turn it is rolls", self.first)
        self.tie_boxes: list[QComboBox] = []
        lay.addWidget(choices)
        legend = QGroupBox("Legend")
        ll = QVBoxLayout(legend)
        self.legend = QLabel(legend_html())
        self.legend.setWordWrap(True)
        ll.addWidget(self.legend)
        lay.addWidget(legend)
        lay.addStretch(1)
        document.changed.connect(self.refresh)
        self.refresh()

    def _palette_box(self) -> QGroupBox:
        """The palette: type, side, facing; placing by clicks or in the middle of the view."""
        palette = QGroupBox("Add an element")
        pl = QFormLayout(palette)
        self.new_type = self._types()
        self.new_side = QComboBox()
        self.new_side.setEditable(True)
        self.new_facing = QComboBox()
        for text, value in FACINGS:
            self.new_facing.addItem(text, value)
        self.place_button = QPushButton("Place by clicking the table")
        self.place_button.setCheckable(True)
        self.place_button.setToolTip("While on, each click on the table puts a new element "
                                     "there, its front's middle where you click (Esc: off)")
        self.place_button.toggled.connect(self.placing_toggled)
        self.add_button = QPushButton("Add in the middle of the view")
        self.add_button.clicked.connect(self.add)
        pl.addRow("Type", self.new_type)
        pl.addRow("Side", self.new_side)
        pl.addRow("Facing", self.new_facing)
        pl.addRow(self.place_button)
        pl.addRow(self.add_button)
        return palette

    def _bound_box(self) -> QGroupBox:
        """Whose bound it is, the result of the chosen shot, the next bound."""
        bound = QGroupBox("The bound")
        bl = QFormLayout(bound)
        self.turn = QComboBox()
        self.turn.activated.connect(lambda _i: self.document.set_turn(self.turn.currentData()))
        self.end_bound_button = QPushButton("End the bound")
        self.end_bound_button.clicked.connect(lambda: self.status(self.document.end_bound()))
        self.recoil_button = QPushButton("Recoils")
        self.recoil_button.clicked.connect(lambda: self.result("recoil"))
        self.destroy_button = QPushButton("Destroyed")
        self.destroy_button.clicked.connect(lambda: self.result("destroy"))
        self.result_target = QComboBox()
        row = QHBoxLayout()
        for w in (self.result_target, self.recoil_button, self.destroy_button):
            row.addWidget(w)
        bl.addRow("Whose bound", self.turn)
        bl.addRow("Result", row)
        bl.addRow(self.end_bound_button)
        return bound

    @staticmethod
    def _types() -> QComboBox:
        box = QComboBox()
        for code, troop in tabletop.TROOPS.items():
            box.addItem(f"{code}: {troop.name}", code)
        return box

    # -- edits --------------------------------------------------------------------------------
    def add(self) -> None:
        x, y = self.centre()
        new_id = self.document.add_element(self.new_type.currentData(),
                                           self.new_side.currentText(), x, y)
        self.status(f"added {new_id}")

    def palette(self):
        """(type, side, facing) while placing by clicking, else None (the scene asks)."""
        if not self.place_button.isChecked():
            return None
        return (self.new_type.currentData(), self.new_side.currentText(),
                self.new_facing.currentData())

    def placing_toggled(self, on: bool) -> None:
        self.status(f"Click the table to put down a {self.new_side.currentText()} "
                    f"{self.new_type.currentData()} (Esc ends)" if on else "Placing ended")

    def result(self, what: str) -> None:
        target = self.result_target.currentData()
        if target is None:
            self.status("Choose a shooter first: its targets are offered")
            return
        doc = self.document
        self.status(doc.recoil(target) if what == "recoil" else doc.destroy(target))

    def change(self, **values) -> None:
        if self._filling or self.document.shooter is None:
            return
        message = self.document.change(self.document.shooter, **values)
        if message:
            self.status(message)
        self.refresh()                      # a refused change shows the element as it is

    def change_side(self) -> None:
        side = self.side.currentText().strip()
        if side:
            self.change(side=side)

    def delete(self) -> None:
        if self.document.shooter is not None:
            gone = self.document.shooter
            self.document.delete(gone)
            self.status(f"deleted {gone}")

    def add_terrain(self) -> None:
        x, y = self.centre()
        self.document.add_terrain(self.terrain_kind.currentData(), x, y)

    def delete_terrain(self) -> None:
        if self.document.terrain_choice is not None:
            self.document.delete_terrain(self.document.terrain_choice)

    # -- showing the state ----------------------------------------------------------------------
    def refresh(self) -> None:
        """The boxes from the document (without sending edits back)."""
        self._filling = True
        doc = self.document
        sides = doc.table.sides() or ["blue", "red"]
        for box in (self.new_side, self.side):
            text = box.currentText()
            box.clear()
            box.addItems(sorted(set(sides) | {"blue", "red"}))
            if text:
                box.setCurrentText(text)
        e = doc.table.element(doc.shooter) if doc.shooter is not None else None
        for w in (self.type, self.side, self.visible, self.moved, self.delete_button):
            w.setEnabled(e is not None)
        if e is not None:
            self.chosen_label.setText(f"{e.id}: {tabletop.TROOPS[e.type].name}")
            self.type.setCurrentIndex(self.type.findData(e.type))
            self.side.setCurrentText(e.side)
            self.visible.setChecked(e.visible)
            self.moved.setChecked(e.moved)
        else:
            self.chosen_label.setText("none: click an element")
        self.delete_terrain_button.setEnabled(doc.terrain_choice is not None)
        self.crest_button.setEnabled(doc.terrain_choice is not None and
                                     doc.table.terrain[doc.terrain_choice].type == "hill")
        self.turn.clear()
        for side in doc.table.sides():
            self.turn.addItem(side, side)
        self.turn.setCurrentIndex(self.turn.findData(doc.table.turn))
        self.result_target.clear()
        rep = doc.report
        for tid in (rep or {}).get("resolution", {}):      # the targets of the chosen shot
            self.result_target.addItem(tid, tid)
        if rep is not None and rep["must_shoot"]:
            self.result_target.setCurrentIndex(self.result_target.findData(rep["must_shoot"][0]))
        for w in (self.recoil_button, self.destroy_button):
            w.setEnabled(self.result_target.count() > 0)
        self._fill_choices()
        self._filling = False

    def _fill_choices(self) -> None:
        for box in self.tie_boxes:
            self.choices_layout.removeRow(box)
        self.tie_boxes = []
        rep = self.document.report
        self.first.clear()
        orders = set()
        for res in (rep or {}).get("resolution", {}).values():
            orders.update(res["order"]["choices"])
            current = res["order"]["first"]
        for key in ("shot", "defensive"):
            if key in orders:
                self.first.addItem(ORDER_TEXT[key], key)
        self.first.setEnabled(len(orders) > 1)
        if orders:
            self.first.setCurrentIndex(self.first.findData(current))
        seen = set()
        for tid, res in (rep or {}).get("resolution", {}).items():
            among = res["target_may_shoot"]
            if len(among) > 1 and tid not in seen:
                seen.add(tid)
                box = QComboBox()
                for a in among:
                    box.addItem(a, a)
                box.setCurrentIndex(box.findData(res["target_shoots"]))
                box.activated.connect(lambda _i, b=box, t=tid: self.document.set_choice(
                    element_id=t, target_id=b.currentData()))
                self.choices_layout.addRow(f"{tid} shoots", box)
                self.tie_boxes.append(box)
