"""The position panel: the scenario's NVR, phase, attacker, first-starshell state, and the choice
of the viewer (the unit whose night field the map shows)."""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QVBoxLayout, QWidget

PHASE_NAMES = {"RPh": "Rally Phase", "PFPh": "Prep Fire Phase", "MPh": "Movement Phase",
               "DFPh": "Defensive Fire Phase", "AFPh": "Advancing Fire Phase",
               "RtPh": "Rout Phase", "APh": "Advance Phase", "CCPh": "Close Combat Phase"}
STARSHELL_WORDS = {"never": "none fired yet",
                   "this_turn": "the first was fired this player turn",
                   "earlier": "the first was fired in an earlier player turn"}
NOBODY = "(nobody: lights only)"


def unit_line(u) -> str:
    return f"{u.id}  \u2013  {u.side} {u.type.replace('_', ' ')} in {u.hex}"


class ScenarioPanel(QWidget):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.viewer = QComboBox()
        self.viewer.setObjectName("viewer")
        self.viewer.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.viewer.setMinimumContentsLength(14)
        self.viewer.activated.connect(self._viewer_chosen)
        self.rows = {name: QLabel() for name in ("file", "boards", "nvr", "phase", "attacker",
                                                  "starshells", "pieces")}
        form = QFormLayout()
        for name, label in (("file", "File"), ("boards", "Boards"), ("nvr", "NVR"),
                            ("phase", "Phase"), ("attacker", "Attacker"),
                            ("starshells", "Starshells"), ("pieces", "On the map")):
            self.rows[name].setWordWrap(True)
            form.addRow(label, self.rows[name])
        form.addRow("Viewer", self.viewer)
        box = QVBoxLayout(self)
        box.addWidget(self.title)
        box.addLayout(form)
        document.scenarioChanged.connect(self.refresh)
        document.fileChanged.connect(self.refresh)
        document.selectionChanged.connect(self._show_viewer)
        self.refresh()

    def refresh(self) -> None:
        s, d = self.document.scenario, self.document
        self.title.setText(f"<b>{escape(s.title) or 'Untitled position'}</b>")
        self.rows["file"].setText(escape(d.path) if d.path else "<i>not saved</i>")
        self.rows["boards"].setText(", ".join(
            f"{p.board.id}{' (rotated)' if p.rotated else ''}" for p in s.map.placements))
        self.rows["nvr"].setText(f"{s.nvr} hex{'es' if s.nvr != 1 else ''} (E1.1)")
        self.rows["phase"].setText(f"{s.phase} \u2013 {PHASE_NAMES.get(s.phase, '')}")
        self.rows["attacker"].setText(escape(s.attacker))
        self.rows["starshells"].setText(STARSHELL_WORDS.get(s.starshells_used, s.starshells_used))
        self.rows["pieces"].setText(f"{len(s.units)} units, {len(s.markers)} markers")
        self.viewer.blockSignals(True)
        self.viewer.clear()
        self.viewer.addItem(NOBODY, None)
        for u in s.units:
            self.viewer.addItem(unit_line(u), u.id)
        self.viewer.blockSignals(False)
        self._show_viewer()

    def _show_viewer(self) -> None:
        k = self.viewer.findData(self.document.viewer) if self.document.viewer else 0
        self.viewer.setCurrentIndex(max(k, 0))

    def _viewer_chosen(self, k: int) -> None:
        self.document.select(self.viewer.itemData(k))
