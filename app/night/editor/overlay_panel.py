"""The chosen board's overlays in the Map panel (rules.md 11.3): listed with what became of each
(drawn and laid, or why not: no overlay file, a record that cannot be placed), added from the
overlays of the VASL boards folder (decoded beside the board, with how much of it was read),
moved to other hexes and removed; each change one undo step of the Document
(``api.night.with_overlays``)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine import api

from ..vasl.vsav_open import boards_folder
from .unsaved import board_file


def overlay_words(overlay: dict) -> str:
    """"x1 B4-B5", and why it is not drawn when it is not."""
    text = f"{overlay['name']} {overlay['hex1']}-{overlay['hex2']}"
    return text + (f" \u2013 not laid: {overlay['problem']}" if "problem" in overlay else "")


def overlay_folder(scenario: api.night.Scenario, index: int) -> Path | None:
    """Where an overlay added to slot ``index`` is kept decoded: beside its board file (the
    loader looks there, rules.md 11.3), else beside the position; None when neither has a
    folder."""
    path = board_file(scenario.map_entries[index].board, scenario.folder)
    if path is not None:
        return path.resolve().parent
    return Path(scenario.folder) if scenario.folder else None


class OverlayPanel(QWidget):
    def __init__(self, editor, parent=None):
        super().__init__(parent)
        self.editor = editor
        self.title = QLabel()
        self.list = QListWidget()
        self.list.setObjectName("overlays")
        self.list.setMaximumHeight(90)
        self.list.currentRowChanged.connect(self._picked)
        self.name = QComboBox()
        self.name.setObjectName("overlay_name")
        self.name.setEditable(True)
        self.hex1, self.hex2 = QLineEdit(), QLineEdit()
        for edit, text in ((self.hex1, "hex 1 (e.g. B4)"), (self.hex2, "hex 2 (e.g. B5)")):
            edit.setPlaceholderText(text)
        add, move, remove = QPushButton("Add overlay"), QPushButton("Move"), QPushButton("Remove")
        add.clicked.connect(lambda: self.add(self.name.currentText().strip(),
                                             self.hex1.text().strip(), self.hex2.text().strip()))
        move.clicked.connect(lambda: self.move(self.list.currentRow(), self.hex1.text().strip(),
                                               self.hex2.text().strip()))
        remove.clicked.connect(lambda: self.remove(self.list.currentRow()))
        self.read = QLabel()
        self.read.setObjectName("overlay_read")
        self.read.setWordWrap(True)
        grid = QGridLayout()
        grid.addWidget(self.name, 0, 0)
        grid.addWidget(self.hex1, 0, 1)
        grid.addWidget(self.hex2, 0, 2)
        grid.addWidget(add, 1, 0)
        grid.addWidget(move, 1, 1)
        grid.addWidget(remove, 1, 2)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.title)
        box.addWidget(self.list)
        box.addLayout(grid)
        box.addWidget(self.read)
        editor.document.changed.connect(self.refresh)
        editor.boardChosen.connect(lambda _k: self.refresh())
        self.refresh()

    @property
    def index(self) -> int:
        n = len(self.editor.document.scenario.map_entries)
        return min(self.editor.board_index, n - 1)

    def fill_names(self) -> None:
        """The overlays the VASL boards folder holds (rules.md 11.3)."""
        folder = boards_folder(self.editor.settings)
        names = api.vasl.overlay_names(folder) if folder else []
        text = self.name.currentText()
        self.name.clear()
        self.name.addItems(names)
        self.name.setEditText(text)

    def refresh(self) -> None:
        s = self.editor.document.scenario
        k = self.index
        board_id = s.map.placements[k].board.id
        self.title.setText(f"<b>Overlays of board {board_id}</b> (VASL's, laid after the SSRs)")
        shown = api.night.overlay_pictures(s, k) if s.map_entries[k].overlays else []
        self.list.clear()
        for o in shown:
            item = QListWidgetItem(overlay_words(o))
            if "problem" in o:
                item.setForeground(Qt.GlobalColor.red)
            self.list.addItem(item)
        if self.name.count() == 0:
            self.fill_names()

    def _picked(self, row: int) -> None:
        overlays = self.editor.document.scenario.map_entries[self.index].overlays
        if 0 <= row < len(overlays):
            name, hex1, hex2 = overlays[row]
            self.name.setEditText(name)
            self.hex1.setText(hex1)
            self.hex2.setText(hex2)

    def _set(self, overlays, text: str) -> bool:
        d, k = self.editor.document, self.index
        try:
            result = d.call(api.night.with_overlays, d.scenario, k, overlays)
        except api.ScenarioError as e:
            self.editor.failed.emit("Cannot lay the overlay", str(e))
            return False
        d.edit(result.scenario, text)
        self.editor.tell(text + " (Ctrl+Z: undo)")
        self.editor.report("Overlays", result.report)
        return True

    def _fetch(self, name: str) -> bool:
        """Overlay ``name`` decoded beside the board from the VASL boards folder's archive, when
        no file of it is there yet; how much of it was read is shown (rules.md 11.3)."""
        s, k = self.editor.document.scenario, self.index
        try:
            if api.night.slot_overlay(s, k, name) is not None:
                return True
        except api.ScenarioError:
            pass                    # a damaged file: read the archive again over it
        folder, dest = boards_folder(self.editor.settings), overlay_folder(s, k)
        if folder is None or dest is None:
            self.editor.failed.emit("Cannot lay the overlay", f"overlay {name}: no file of it "
                                    "beside the board, and " + (
                                        "no VASL boards folder chosen to read it from"
                                        if folder is None else "the board has no folder"))
            return False
        try:
            _path, report = self.editor.document.call(api.vasl.write_overlay, folder, name, dest)
        except (api.ScenarioError, OSError) as e:
            self.editor.failed.emit("Cannot read the overlay", str(e))
            return False
        self.read.setText("\n".join(report.lines()))
        return True

    def add(self, name: str, hex1: str, hex2: str = "") -> bool:
        if not name or not hex1:
            self.editor.tell("An overlay needs its name and its hex (and a second hex)")
            return False
        hex2 = hex2 or hex1
        if not self._fetch(name):
            return False
        k = self.index
        overlays = self.editor.document.scenario.map_entries[k].overlays
        board_id = self.editor.document.scenario.map.placements[k].board.id
        return self._set(overlays + ((name, hex1, hex2),),
                         f"overlay {name} at {hex1}-{hex2} on board {board_id}")

    def move(self, row: int, hex1: str, hex2: str = "") -> bool:
        overlays = list(self.editor.document.scenario.map_entries[self.index].overlays)
        if not 0 <= row < len(overlays) or not hex1:
            return False
        name = overlays[row][0]
        overlays[row] = (name, hex1, hex2 or hex1)
        return self._set(overlays, f"overlay {name} moved to {hex1}-{hex2 or hex1}")

    def remove(self, row: int) -> bool:
        overlays = list(self.editor.document.scenario.map_entries[self.index].overlays)
        if not 0 <= row < len(overlays):
            return False
        name = overlays.pop(row)[0]
        return self._set(overlays, f"overlay {name} removed")
