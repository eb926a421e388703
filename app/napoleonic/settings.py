"""The fire position's settings in the window: its title, the optional first fire rule
(rules.md 8), the board and the chart pack (SPEC.md "Napoleonic fire position").  It only
gathers what was typed or chosen; the document makes each change one undo step and the engine
checks it (``api.napoleonic.with_settings``)."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit

from engine import api

nap = api.napoleonic


def bundled_names(folder: str) -> list[str]:
    """The ids of the fire boards or chart packs bundled with the program."""
    return sorted(p.stem for p in (nap.bundled_positions_dir() / folder).glob("*.json"))


class SettingsEditor(QGroupBox):
    """``changed``: one setting changed, as ``{"title": ...}`` (the keys of ``with_settings``)."""
    changed = Signal(dict)

    def __init__(self):
        super().__init__("The position")
        self.title = QLineEdit()
        self.first_fire = QCheckBox("first fire (optional rule)")
        self.first_fire.setToolTip("rules.md 8: infantry in line that has not fired before in the "
                                   "scenario adds 1 to its multiplier")
        self.board = QComboBox()
        self.board.setEditable(True)
        self.board.addItems(bundled_names("boards"))
        self.board.setToolTip("a bundled fire board, or a board file's path (relative to the "
                              "position's folder)")
        self.charts = QComboBox()
        self.charts.setEditable(True)
        self.charts.addItems(bundled_names("charts"))
        self.charts.setToolTip("a bundled chart pack, or a chart pack file's path")
        self.note = QLabel("")
        self.note.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow("Title", self.title)
        form.addRow("", self.first_fire)
        form.addRow("Board", self.board)
        form.addRow("Chart pack", self.charts)
        form.addRow(self.note)
        self.title.editingFinished.connect(lambda: self._say("title", self.title.text()))
        self.first_fire.toggled.connect(lambda on: self._say("first_fire", on))
        self.board.activated.connect(lambda _: self._say("board", self.board.currentText().strip()))
        self.board.lineEdit().editingFinished.connect(
            lambda: self._say("board", self.board.currentText().strip()))
        self.charts.activated.connect(lambda _: self._say("charts", self.charts.currentText().strip()))
        self.charts.lineEdit().editingFinished.connect(
            lambda: self._say("charts", self.charts.currentText().strip()))
        self._shown: dict = {}

    def _say(self, key: str, value) -> None:
        if self._shown.get(key) != value:
            self.changed.emit({key: value})

    def show_position(self, pos) -> None:
        """The position's settings in the boxes (no signal sent)."""
        self._shown = {"title": pos.title, "first_fire": pos.first_fire,
                       "board": pos.map_entries[0].board, "charts": pos.charts_ref}
        for w in (self.title, self.first_fire, self.board, self.charts):
            w.blockSignals(True)
        self.title.setText(pos.title)
        self.first_fire.setChecked(pos.first_fire)
        self.board.setCurrentText(pos.map_entries[0].board)
        self.charts.setCurrentText(pos.charts_ref)
        for w in (self.title, self.first_fire, self.board, self.charts):
            w.blockSignals(False)
        extra = f" (and {len(pos.map_entries) - 1} more boards)" if len(pos.map_entries) > 1 else ""
        self.note.setText(f"charts: {pos.charts.title}{extra}")
