"""The fire room's unit palette and editor: the unit to place (side, nation, troop, arm,
formation, increments, printed value, facing), and the unit chosen on the map to change or
delete.  It only gathers the fields as the file writes them; the engine checks them
(``api.napoleonic.with_unit``) and the document makes each edit one undo step."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from engine import api

nap = api.napoleonic
FACINGS = ["none"] + [f"{d} {nap.DIRECTIONS[d]}" for d in range(1, 7)]


def _combo(items, editable: bool = True) -> QComboBox:
    box = QComboBox()
    box.addItems(items)
    box.setEditable(editable)
    return box


class UnitEditor(QGroupBox):
    """The palette: "Place units" on, a click on an empty hex adds the unit described here; a
    click on a counter chooses it (its fields shown), to change or delete."""
    apply_clicked = Signal()
    delete_clicked = Signal()

    def __init__(self):
        super().__init__("Units: place, change, delete")
        self.place = QPushButton("Place units (click a hex)")
        self.place.setCheckable(True)
        self.place.setToolTip("On: a click on a hex places this unit (stacked on any there); a click "
                              "on a counter chooses it. Off: clicks choose targets and firers.")
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
        for label, w in (("Side", self.side), ("Nation", self.nation), ("Troop", self.troop),
                         ("Arm", self.arm), ("Formation", self.formation),
                         ("Increments", self.increments), ("Printed", self.printed),
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
        self.choose(None)

    def fields(self, uid: str, hex_id: str) -> dict:
        """The unit described, as the file writes it."""
        d = {"id": uid, "side": self.side.currentText().strip(),
             "nation": self.nation.currentText().strip() or self.side.currentText().strip(),
             "troop": self.troop.currentText().strip(), "arm": self.arm.currentText(),
             "formation": self.formation.currentText().strip(),
             "increments": self.increments.value(), "printed": self.printed.value(), "hex": hex_id}
        if self.facing.currentIndex() > 0:
            d["facing"] = self.facing.currentIndex()
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
            self.chosen.setText("no unit chosen: with Place on, click a counter")
            return
        self.chosen.setText(f"chosen: {unit.id} in {unit.hex}")
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
