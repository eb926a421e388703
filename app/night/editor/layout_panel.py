"""The Map panel: the boards of the map and where they lie.  Add a bundled board, a board file or
an imported VASL board; move the chosen board to another slot, turn it half round, remove it;
the position's terrain SSRs (``ssr_panel``) and the chosen board's overlays (``overlay_panel``).
Each change is one undo step; units and markers keep their hexes, and those whose board leaves
are listed to the player (``BoardEditor.report``)."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine import api
from engine.api import bundled_boards_dir

from .layout_edits import entry_label
from .overlay_panel import OverlayPanel
from .ssr_panel import SsrPanel


class LayoutPanel(QWidget):
    def __init__(self, editor, import_vasl, parent=None):
        super().__init__(parent)
        self.editor = editor
        self.boards = QListWidget()
        self.boards.setObjectName("map_boards")
        self.boards.currentRowChanged.connect(self._chosen)
        self.column, self.row = QSpinBox(), QSpinBox()
        for spin, prefix in ((self.column, "column "), (self.row, "row ")):
            spin.setRange(0, api.night.MAX_MAP_SLOT)
            spin.setPrefix(prefix)
        self.move_button = QPushButton("Move to slot")
        self.move_button.clicked.connect(
            lambda: editor.move(self.current, (self.column.value(), self.row.value())))
        self.rotate_button = QPushButton("Rotate 180\u00b0")
        self.rotate_button.clicked.connect(lambda: editor.rotate(self.current))
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(lambda: editor.remove(self.current))
        self.bundled = QComboBox()
        self.bundled.setObjectName("bundled_boards")
        for path in sorted(bundled_boards_dir().glob("*.json"),
                           key=lambda p: (not p.stem.isdigit(), p.stem.zfill(4))):
            self.bundled.addItem(f"board {path.stem} (bundled stand-in)", path.stem)
        add = QPushButton("Add")
        add.clicked.connect(lambda: editor.add_bundled(self.bundled.currentData()))
        add_file = QPushButton("Add a board file\u2026")
        add_file.clicked.connect(lambda: editor.add_file())
        vasl = QPushButton("Import a VASL board\u2026")
        vasl.clicked.connect(import_vasl)
        new = QPushButton("New blank board\u2026")
        new.clicked.connect(lambda: editor.new_board())

        slot = QGridLayout()
        slot.addWidget(self.column, 0, 0)
        slot.addWidget(self.row, 0, 1)
        slot.addWidget(self.move_button, 0, 2)
        slot.addWidget(self.rotate_button, 1, 0, 1, 2)
        slot.addWidget(self.remove_button, 1, 2)
        adding = QHBoxLayout()
        adding.addWidget(self.bundled, 1)
        adding.addWidget(add)
        box = QVBoxLayout(self)
        box.addWidget(QLabel("<b>Boards on the map</b> (slots: column east, row south)"))
        box.addWidget(self.boards)
        box.addLayout(slot)
        self.ssr = SsrPanel(editor)         # the position's terrain SSRs (rules.md 11.2)
        box.addWidget(self.ssr)
        self.overlays = OverlayPanel(editor)   # the chosen board's overlays (rules.md 11.3)
        box.addWidget(self.overlays)
        box.addWidget(QLabel("<b>Add a board</b> (it goes east of the last one; move it after)"))
        box.addLayout(adding)
        box.addWidget(add_file)
        box.addWidget(vasl)
        box.addWidget(new)
        box.addStretch(1)
        editor.document.changed.connect(self.refresh)   # not a drag's steps: the drop
        editor.boardChosen.connect(self._show_chosen)
        self.refresh()

    @property
    def current(self) -> int:
        return max(self.boards.currentRow(), 0)

    def _chosen(self, row: int) -> None:
        if row >= 0 and row != self.editor.board_index:
            self.editor.choose_board(row)
        self._show_slot()

    def _show_chosen(self, k: int) -> None:
        if self.boards.currentRow() != k:
            self.boards.setCurrentRow(k)
        self._show_slot()

    def _show_slot(self) -> None:
        entries = self.editor.document.scenario.map_entries
        e = entries[min(self.current, len(entries) - 1)]
        self.column.setValue(e.at[0])
        self.row.setValue(e.at[1])
        self.rotate_button.setText("Turn back (unrotate)" if e.rotated else "Rotate 180\u00b0")
        self.remove_button.setEnabled(len(entries) > 1)

    def refresh(self) -> None:
        s = self.editor.document.scenario
        unsaved = set(self.editor.unsaved())
        self.boards.blockSignals(True)
        self.boards.clear()
        for k in range(len(s.map_entries)):
            self.boards.addItem(entry_label(s, k, k in unsaved))
        self.boards.setCurrentRow(min(self.editor.board_index, len(s.map_entries) - 1))
        self.boards.blockSignals(False)
        self._show_slot()
