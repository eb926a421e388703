"""The position panel: the scenario's NVR, phase, attacker and first-starshell state, each editable
(one undo step per change), and the choice of the viewer (the unit whose night field the map
shows)."""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine import api

PHASE_NAMES = {"RPh": "Rally Phase", "PFPh": "Prep Fire Phase", "MPh": "Movement Phase",
               "DFPh": "Defensive Fire Phase", "AFPh": "Advancing Fire Phase",
               "RtPh": "Rout Phase", "APh": "Advance Phase", "CCPh": "Close Combat Phase"}
STARSHELL_WORDS = {"never": "none fired yet",
                   "this_turn": "the first was fired this player turn",
                   "earlier": "the first was fired in an earlier player turn"}
NOBODY = "(nobody: lights only)"


def unit_line(unit) -> str:
    return f"{unit.id}  \u2013  {unit.side} {unit.type.replace('_', ' ')} in {unit.hex}"


class ScenarioPanel(QWidget):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.title = QLineEdit()            # the position's name: the player renames it
        self.title.setObjectName("title")
        self.title.setPlaceholderText("Untitled position")
        self.title.setToolTip("The position's title: type a new one and press Enter")
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.title.editingFinished.connect(lambda: self._set("title", self.title.text().strip()))
        self.viewer = QComboBox()
        self.viewer.setObjectName("viewer")
        self.viewer.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.viewer.setMinimumContentsLength(14)
        self.viewer.activated.connect(self._viewer_chosen)
        self.rows = {name: QLabel() for name in ("file", "boards", "pieces")}
        for label in self.rows.values():
            label.setWordWrap(True)
        self.day = QCheckBox("day")    # rules.md 11.5: a day position has the night rules off
        self.day.setObjectName("day_position")
        self.day.setToolTip("A day position: the night rules (E1) off, every unit sees what its "
                            "daytime LOS allows (a VASL save that says Night: No opens so)")
        self.nvr = QSpinBox()
        self.nvr.setRange(0, 99)
        self.nvr.setSuffix(" hexes (E1.1)")
        # its own width wherever the panel's edge is: it keeps its place when the dock's
        # scrollbar comes and goes
        self.nvr.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.phase = QComboBox()
        for ph in api.night.PHASES:
            self.phase.addItem(f"{ph} \u2013 {PHASE_NAMES[ph]}", ph)
        self.attacker = QComboBox()
        self.attacker.setEditable(True)
        self.starshells = QComboBox()
        for used in api.night.STARSHELLS_USED:
            self.starshells.addItem(STARSHELL_WORDS[used], used)
        for combo in (self.phase, self.attacker, self.starshells):
            # narrower than their longest text when the dock is narrow (the list shows it
            # whole): the panel never runs under the dock's scrollbar
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        self.phase_begun = QCheckBox("phase begun (E1.921)")
        self.phase_begun.setToolTip("The phase has begun: after the first player turn of "
                                    "starshells, most units fire them only at the start of a "
                                    "phase (E1.921)")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#ff8080")
        self._filling = False
        form = QFormLayout()
        for label, widget in (("File", self.rows["file"]), ("Boards", self.rows["boards"]),
                              ("NVR", self._beside(self.nvr, self.day)), ("Phase", self.phase),
                              ("", self.phase_begun),
                              ("Attacker", self.attacker), ("Starshells", self.starshells),
                              ("On the map", self.rows["pieces"]), ("Viewer", self.viewer)):
            form.addRow(label, widget)
        self.nvr.valueChanged.connect(lambda v: self._set("nvr", v))
        self.day.clicked.connect(lambda on: self._set("night", not on))
        self.phase.activated.connect(lambda _: self._set("phase", self.phase.currentData()))
        self.attacker.activated.connect(lambda _: self._set("attacker", self.attacker.currentText()))
        self.starshells.activated.connect(
            lambda _: self._set("starshells_used", self.starshells.currentData()))
        self.phase_begun.toggled.connect(lambda on: self._set("phase_start", not on))
        box = QVBoxLayout(self)
        box.addWidget(self.title)
        box.addLayout(form)
        box.addWidget(self.error)
        document.changed.connect(self.refresh)      # not a drag's steps: the drop
        document.fileChanged.connect(self.refresh)
        document.selectionChanged.connect(self._show_viewer)
        self.refresh()

    def refresh(self) -> None:
        s, d = self.document.scenario, self.document
        if not self.title.hasFocus() or self.title.text().strip() == s.title:
            self.title.setText(s.title)
        self.rows["file"].setText(escape(d.path) if d.path else "<i>not saved</i>")
        self.rows["boards"].setText(", ".join(
            f"{p.board.id}{' (rotated)' if p.rotated else ''}" for p in s.map.placements))
        self._filling = True
        self.nvr.setValue(s.nvr)
        self.day.setChecked(not s.night)
        for night_only in (self.nvr, self.starshells, self.phase_begun):
            night_only.setEnabled(s.night)          # rules.md 11.5: off in a day position
        self.phase.setCurrentIndex(self.phase.findData(s.phase))
        self.attacker.clear()
        for side in dict.fromkeys(s.sides + [s.attacker]):
            self.attacker.addItem(side)
        self.attacker.setCurrentText(s.attacker)
        self.starshells.setCurrentIndex(self.starshells.findData(s.starshells_used))
        self.phase_begun.setChecked(s.extra.get("phase_start", True) is False)
        self._filling = False
        self.rows["pieces"].setText(f"{len(s.units)} units, {len(s.markers)} markers")
        self.viewer.blockSignals(True)
        self.viewer.clear()
        self.viewer.addItem(NOBODY, None)
        for u in s.units:
            self.viewer.addItem(unit_line(u), u.id)
        self.viewer.blockSignals(False)
        self._show_viewer()

    @staticmethod
    def _beside(*widgets) -> QWidget:
        """Widgets side by side in one row of the form, at their own sizes."""
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            line.addWidget(w)
        line.addStretch(1)
        return row

    def _set(self, key: str, value) -> None:
        """One setting of the position changed: one undo step, checked by the engine."""
        if self._filling:
            return
        s = self.document.scenario
        if key == "phase_start":
            extra = {k: v for k, v in s.extra.items() if k != "phase_start"}
            if value is False:
                extra["phase_start"] = False
            if extra == s.extra:
                return
            after = s.replace(extra=extra)
        else:
            if getattr(s, key) == value:
                return
            after = s.replace(**{key: value})
        self.error.clear()
        try:
            self.document.edit(after, f"{key.replace('_', ' ')}: {value}")
        except api.ScenarioError as e:
            self.error.setText(str(e))
            self.refresh()

    def _show_viewer(self) -> None:
        k = self.viewer.findData(self.document.viewer) if self.document.viewer else 0
        self.viewer.setCurrentIndex(max(k, 0))

    def _viewer_chosen(self, k: int) -> None:
        self.document.select(self.viewer.itemData(k))
