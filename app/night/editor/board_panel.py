"""The Board panel: the brush (a terrain, ground up or down, building hexes joined or separated,
a building's upper levels), the chosen board's id and title, a new blank board, Save board as,
and the underlay of the chosen board (load, calibrate, opacity, remove)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app import style
from engine.api import MAX_UPPER_LEVELS, TERRAINS

from ..scene.terrain_art import TERRAIN_LOOKS
from .brush import Brush
from .layout_edits import entry_label

TOOLS = (("raise", "Raise ground", "Each hex passed: its ground one level up"),
         ("lower", "Lower ground", "Each hex passed: its ground one level down"),
         ("join", "Join building", "The hexes passed become one building (the first hex's, or a "
                                   "new one with the upper levels below)"),
         ("separate", "Separate", "Building hexes passed each become a building of their own"),
         ("upper", "Set upper levels", "Click a building: all its hexes get the upper levels "
                                       "below"),
         ("hexside", "Hexsides", "Click near a hexside: none, wall, hedge, bocage, cliff in turn; "
                                 "drag on: the hexsides passed get the same (rules.md 7)"))


def terrain_icon(terrain: str) -> QIcon:
    colour = (style.GROUND[0] if terrain == "open" else style.BUILDING if terrain == "building"
              else TERRAIN_LOOKS[terrain].fill if terrain in TERRAIN_LOOKS else QColor("#777"))
    pix = QPixmap(14, 14)
    pix.fill(colour)
    return QIcon(pix)


class BoardPanel(QWidget):
    def __init__(self, editor, paint_action, parent=None):
        super().__init__(parent)
        self.editor = editor
        doc = editor.document
        self.paint = QCheckBox("Paint on the map")
        self.paint.setToolTip(paint_action.toolTip() or paint_action.text())
        self.paint.toggled.connect(paint_action.setChecked)
        paint_action.toggled.connect(self.paint.setChecked)
        self.board = QComboBox()
        self.board.setObjectName("board_choice")
        self.board.activated.connect(editor.choose_board)
        self.board_id = QLineEdit()
        self.board_id.setObjectName("board_id")
        self.title = QLineEdit()
        self.title.setObjectName("board_title")
        self.board_id.editingFinished.connect(self._rename)
        self.title.editingFinished.connect(self._rename)
        self.state = QLabel()
        self.state.setWordWrap(True)
        # two lines always: the buttons below must not move when the board's state changes
        self.state.setMinimumHeight(2 * self.state.fontMetrics().lineSpacing() + 4)
        form = QFormLayout()
        form.addRow("Board", self.board)
        form.addRow("Id", self.board_id)
        form.addRow("Title", self.title)
        form.addRow("", self.state)
        grid, tools = self._brush_buttons()
        files, under = self._board_files(editor), self._underlay(editor)

        box = QVBoxLayout(self)
        box.addWidget(self.paint)
        box.addLayout(form)
        box.addWidget(QLabel("<b>Terrain</b>"))
        box.addLayout(grid)
        box.addWidget(QLabel("<b>Ground and buildings</b>"))
        box.addLayout(tools)
        box.addWidget(self.upper)
        box.addLayout(files)
        box.addWidget(QLabel("<b>Underlay: your own scan of the board</b>"))
        box.addLayout(under)
        box.addStretch(1)
        doc.changed.connect(self.refresh)       # not a drag's or a stroke's steps: the drop
        doc.fileChanged.connect(self.refresh)
        editor.boardChosen.connect(lambda _k: self.refresh())
        editor.underlays.changed.connect(lambda _b: self._show_underlay())
        self.refresh()

    def _brush_buttons(self) -> tuple[QGridLayout, QGridLayout]:
        """The terrains' buttons and the ground and building tools', one brush group; the
        upper levels' box."""
        self.brushes = QButtonGroup(self)
        self.buttons: dict[str, QToolButton] = {}
        grid = QGridLayout()
        grid.setSpacing(2)
        names = list(TERRAINS)
        for k, name in enumerate(names):
            tip = f"Paint {name.replace('_', ' ')}" + (
                " (a half-level obstacle: it blocks only lines between two ends at its ground "
                "level, rules.md 7)" if TERRAINS[name].half_level else "")
            b = self._button(name.replace("_", " "), tip, name)
            b.setIcon(terrain_icon(name))
            grid.addWidget(b, k // 3, k % 3)
        tools = QGridLayout()
        tools.setSpacing(2)
        for k, (kind, text, tip) in enumerate(TOOLS):
            tools.addWidget(self._button(text, tip, kind), k // 2, k % 2)
        self.upper = QSpinBox()
        self.upper.setRange(0, MAX_UPPER_LEVELS)
        self.upper.setValue(1)
        self.upper.setSuffix(" upper level(s)")
        self.upper.valueChanged.connect(lambda _v: self._brush())
        self.buttons["woods"].setChecked(True)
        self.brushes.buttonToggled.connect(lambda _b, on: on and self._brush())
        return grid, tools

    def _board_files(self, editor) -> QHBoxLayout:
        files = QHBoxLayout()
        self.new_button = QPushButton("New blank board\u2026")
        self.new_button.clicked.connect(lambda: editor.new_board())
        self.save_button = QPushButton("Save board as\u2026")
        self.save_button.clicked.connect(lambda: editor.save_board_as())
        files.addWidget(self.new_button)
        files.addWidget(self.save_button)
        return files

    def _underlay(self, editor) -> QGridLayout:
        """The underlay of the chosen board: load, calibrate, remove, its opacity."""
        under = QGridLayout()
        self.load_image = QPushButton("Load image\u2026")
        self.load_image.clicked.connect(lambda: editor.load_underlay())
        self.calibrate = QPushButton("Calibrate\u2026")
        self.calibrate.clicked.connect(lambda: editor.start_calibration())
        self.drop_image = QPushButton("Remove")
        self.drop_image.clicked.connect(editor.remove_underlay)
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.valueChanged.connect(
            lambda v: editor.underlays.set_opacity(editor.board.id, v / 100))
        self.image_state = QLabel()
        self.image_state.setWordWrap(True)
        under.addWidget(self.load_image, 0, 0)
        under.addWidget(self.calibrate, 0, 1)
        under.addWidget(self.drop_image, 0, 2)
        under.addWidget(QLabel("Opacity"), 1, 0)
        under.addWidget(self.opacity, 1, 1, 1, 2)
        under.addWidget(self.image_state, 2, 0, 1, 3)
        return under

    def _button(self, text: str, tip: str, key: str) -> QToolButton:
        b = QToolButton()
        b.setText(text)
        b.setToolTip(tip)
        b.setCheckable(True)
        b.setAutoRaise(True)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        b.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.brushes.addButton(b)
        self.buttons[key] = b
        return b

    # ------------------------------------------------------------------------ the brush
    def choose(self, key: str) -> None:
        """Pick a terrain or a tool as the brush (and paint with it)."""
        self.buttons[key].setChecked(True)
        self._brush()

    def _brush(self) -> None:
        key = next((k for k, b in self.buttons.items() if b.isChecked()), "woods")
        brush = (Brush("terrain", key, self.upper.value()) if key in TERRAINS
                 else Brush(key, upper_levels=self.upper.value()))
        self.editor.set_brush(brush)

    # ------------------------------------------------------------------------ the board
    def _rename(self) -> None:
        board = self.editor.board
        new_id, title = self.board_id.text().strip(), self.title.text()
        if new_id == board.id and title == board.title:
            return
        if not self.editor.rename(new_id, title):
            self.refresh()

    def refresh(self) -> None:
        s = self.editor.document.scenario
        unsaved = set(self.editor.unsaved())
        self.board.blockSignals(True)
        self.board.clear()
        for k in range(len(s.map_entries)):
            self.board.addItem(entry_label(s, k, k in unsaved))
        self.board.setCurrentIndex(self.editor.board_index)
        self.board.blockSignals(False)
        board = self.editor.board
        for edit, text in ((self.board_id, board.id), (self.title, board.title)):
            if edit.text() != text:
                edit.setText(text)
        k = self.editor.board_index
        self.state.setText("<span style='color:#ffb060'>Edits not saved to a board file: "
                           "Save board as\u2026 (saving the position asks too)</span>"
                           if k in unsaved else "Saved as it is")
        self._show_underlay()

    def _show_underlay(self) -> None:
        board_id = self.editor.board.id
        spec = self.editor.underlays.spec(board_id)
        shown = board_id in self.editor.underlays.items
        self.calibrate.setEnabled(shown)
        self.drop_image.setEnabled(spec is not None)
        self.opacity.setEnabled(spec is not None)
        self.opacity.blockSignals(True)
        self.opacity.setValue(round((spec.opacity if spec else 0.5) * 100))
        self.opacity.blockSignals(False)
        if spec is None:
            self.image_state.setText("No image")
        elif not shown:
            self.image_state.setText(f"{spec.image} cannot be read")
        else:
            calibrated = ("calibrated on " + " and ".join(p[2] for p in spec.points)
                          if len(spec.points) == 2 else "not calibrated yet")
            self.image_state.setText(f"{spec.image}: {calibrated}")
