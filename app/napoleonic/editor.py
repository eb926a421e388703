"""The fire room's unit palette and editor: the unit to place (its id or an automatic one, a
name, side, nation, troop, arm, formation, increments, the increments that fire, printed value,
facing), and the unit chosen on the map or in the list to change or delete.  It only gathers
the fields as the file writes them; the engine checks them
(``api.napoleonic.with_unit``) and the document makes each edit one undo step."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from engine import api

nap = api.napoleonic
PLACE_ON = "Place units: ON"           # what a click does is said in the status bar too
PLACE_OFF = "Place units: off"
PLACE_STYLE = ("QPushButton:checked { background: #2e7d32; color: white; font-weight: bold; "
               "border: 2px solid #a5d6a7; }")
FACINGS = ["none"] + [f"{d} {nap.DIRECTIONS[d]}" for d in range(1, 7)]


def _combo(items, editable: bool = True) -> QComboBox:
    box = QComboBox()
    box.addItems(items)
    box.setEditable(editable)
    return box


class UnitEditor(QGroupBox):
    """The palette: "Place units" on, a click on a hex or on a counter adds the unit described
    here to that hex (stacked under any there); off, a click on a counter (or a line of the
    list) chooses it (its fields shown), to change or delete."""
    apply_clicked = Signal()
    delete_clicked = Signal()
    listed = Signal(str)                  # a unit chosen in the list

    def __init__(self):
        super().__init__("Units: place, change, delete")
        self.place = QPushButton(PLACE_OFF)
        self.place.setCheckable(True)
        self.place.setStyleSheet(PLACE_STYLE)
        self.place.setToolTip("On: a click on a hex, or on a counter, places this unit there "
                              "(stacked under any there). Off: a click on a counter chooses it. "
                              "Leaving this tab turns placing off.")
        self.place.toggled.connect(lambda on: self.place.setText(PLACE_ON if on else PLACE_OFF))
        self.uid = QLineEdit()
        self.uid.setPlaceholderText("automatic (side's letter and a number)")
        self.name = QLineEdit()
        self.name.setPlaceholderText("optional, e.g. 2/95th Rifles")
        self.firing = QSpinBox()
        self.firing.setRange(-1, 999)
        self.firing.setSpecialValueText("all")
        self.firing.setValue(-1)
        self.firing.setToolTip("the increments that fire (rules.md 8: only they count in line, "
                               "square and skirmish)")
        self.units = QListWidget()
        self.units.setMaximumHeight(140)
        self.units.itemClicked.connect(lambda it: self.listed.emit(it.data(Qt.ItemDataRole.UserRole)))
        self.side = _combo(["french", "british", "austrian", "prussian", "russian"])
        self.nation = _combo(["french", "british", "austrian", "prussian", "russian"])
        self.side.currentTextChanged.connect(self.nation.setCurrentText)
        self.troop = _combo(["line", "light", "guard", "grenadier", "rifles", "dragoons", "foot"])
        self.arm = _combo(list(nap.ARMS), editable=False)
        self.formation = _combo(list(nap.FORMATIONS) + ["unlimbered", "limbered"])
        self.increments = QSpinBox()
        self.increments.setRange(0, 999)
        self.increments.setValue(4)
        self.printed = QSpinBox()
        self.printed.setRange(0, 10000)
        self.printed.setValue(6)
        self.facing = _combo(FACINGS, editable=False)
        self.fired = QCheckBox("has fired (first fire spent)")
        self.artillery_leader = QCheckBox("leader with an artillery bonus")
        self.chosen = QLabel("no unit chosen")
        self.apply = QPushButton("Apply to the chosen unit")
        self.delete = QPushButton("Delete the chosen unit")
        self.apply.clicked.connect(self.apply_clicked)
        self.delete.clicked.connect(self.delete_clicked)
        form = QFormLayout()
        for label, w in (("Id", self.uid), ("Name", self.name), ("Side", self.side),
                         ("Nation", self.nation), ("Troop", self.troop),
                         ("Arm", self.arm), ("Formation", self.formation),
                         ("Increments", self.increments),
                         ("Increments firing", self.firing), ("Printed", self.printed),
                         ("Facing", self.facing)):
            form.addRow(label, w)
        lay = QVBoxLayout(self)
        lay.addWidget(self.place)
        lay.addLayout(form)
        lay.addWidget(self.fired)
        lay.addWidget(self.artillery_leader)
        lay.addWidget(self.chosen)
        row = QHBoxLayout()
        row.addWidget(self.apply)
        row.addWidget(self.delete)
        lay.addLayout(row)
        lay.addWidget(QLabel("Units (click one to choose it)"))
        lay.addWidget(self.units)
        self.choose(None)

    def list_units(self, units, words, chosen: str | None) -> None:
        """The position's units, one line each (``words``: a unit in words)."""
        self.units.clear()
        for u in units:
            item = QListWidgetItem(words(u))
            item.setData(Qt.ItemDataRole.UserRole, u.id)
            self.units.addItem(item)
            if u.id == chosen:
                self.units.setCurrentItem(item)

    def fields(self, uid: str, hex_id: str) -> dict:
        """The unit described, as the file writes it (``uid``: its id when the Id box is
        empty)."""
        d = {"id": self.uid.text().strip() or uid, "side": self.side.currentText().strip(),
             "nation": self.nation.currentText().strip() or self.side.currentText().strip(),
             "troop": self.troop.currentText().strip(), "arm": self.arm.currentText(),
             "formation": self.formation.currentText().strip(),
             "increments": self.increments.value(), "printed": self.printed.value(), "hex": hex_id}
        if self.facing.currentIndex() > 0:
            d["facing"] = self.facing.currentIndex()
        if self.firing.value() >= 0:
            d["firing"] = self.firing.value()
        if self.name.text().strip():
            d["name"] = self.name.text().strip()
        if self.fired.isChecked():
            d["fired"] = True
        if self.artillery_leader.isChecked():
            d["artillery_leader"] = True
        return d

    def choose(self, unit) -> None:
        """Show ``unit``'s fields (None: nothing chosen)."""
        self.apply.setEnabled(unit is not None)
        self.delete.setEnabled(unit is not None)
        if unit is None:
            self.chosen.setText("no unit chosen: with Place off, click a counter")
            self.uid.clear()
            return
        self.chosen.setText(f"chosen: {unit.id} in {unit.hex}")
        self.uid.setText(unit.id)
        self.name.setText(str(unit.extra.get("name", "")))
        self.firing.setValue(-1 if unit.firing is None else unit.firing)
        self.side.setCurrentText(unit.side)
        self.nation.setCurrentText(unit.nation)
        self.troop.setCurrentText(unit.troop)
        self.arm.setCurrentText(unit.arm)
        self.formation.setCurrentText(unit.formation)
        self.increments.setValue(unit.increments)
        self.printed.setValue(unit.printed)
        self.facing.setCurrentIndex(unit.facing or 0)
        self.fired.setChecked(unit.fired)
        self.artillery_leader.setChecked(unit.artillery_leader)
