"""The palette: every unit and marker type as a counter button.  Click one, then a hex: the piece
is put down there (one undo step).  Units take the side chosen above the buttons; Gunflashes
and fire markers too (the side that fired)."""
from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from engine import api

from ..scene.counter_art import draw_marker, draw_unit
from ..tools.pieces import Piece

ICON = 44


def counter_icon(kind: str, type_: str, side: int) -> QIcon:
    pix = QPixmap(ICON, ICON)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(ICON / 100.0, ICON / 100.0)
    if kind == "unit":
        draw_unit(p, api.night.Unit(type_[:3].upper(), "x", type_, "?"), side, True)
    else:
        draw_marker(p, api.night.Marker(type_, "?"), None, True)
    p.end()
    return QIcon(pix)


class Palette(QWidget):
    picked = Signal(object)          # a tools.pieces.Piece

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.side = QComboBox()
        self.side.setEditable(True)
        self.side.setObjectName("palette_side")
        self.buttons: dict[tuple[str, str], QToolButton] = {}
        top = QHBoxLayout()
        top.addWidget(QLabel("Side"))
        top.addWidget(self.side, 1)
        box = QVBoxLayout(self)
        box.addLayout(top)
        for kind, types, title in (("unit", api.night.UNIT_TYPES, "Units"),
                                   ("marker", api.night.MARKER_TYPES, "Markers")):
            box.addWidget(QLabel(f"<b>{title}</b>"))
            grid = QGridLayout()
            for k, t in enumerate(types):
                b = QToolButton()
                b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
                b.setIconSize(QSize(ICON, ICON))
                b.setText(t.replace("_", " "))
                b.setToolTip(f"Put down a {t.replace('_', ' ')}: click here, then a hex")
                b.setAutoRaise(True)
                b.clicked.connect(lambda _=False, kd=kind, ty=t: self.pick(kd, ty))
                self.buttons[(kind, t)] = b
                grid.addWidget(b, k // 4, k % 4)
            box.addLayout(grid)
        box.addStretch(1)
        for signal in (document.changed, document.dragged):
            signal.connect(self._sides)
        self.side.currentTextChanged.connect(self._icons)
        self._sides()

    def _sides(self) -> None:
        current = self.side.currentText()
        sides = api.night.game_sides(self.document.scenario)
        # a side is named freely until the position's units name both (no third side)
        self.side.setEditable(len(self.document.scenario.sides) < 2)
        if sides == [self.side.itemText(k) for k in range(self.side.count())]:
            return                  # the same sides (a drag changes the position often)
        self.side.blockSignals(True)
        self.side.clear()
        self.side.addItems(sides)
        self.side.setCurrentText(current if current else sides[0])
        self.side.blockSignals(False)
        self._icons()

    def _icons(self) -> None:
        sides = self.document.scenario.sides
        side = self.side.currentText()
        k = sides.index(side) if side in sides else 0
        for (kind, t), b in self.buttons.items():
            b.setIcon(counter_icon(kind, t, k))

    def pick(self, kind: str, type_: str) -> None:
        self.picked.emit(Piece(kind, type_, self.side.currentText().strip() or None))
