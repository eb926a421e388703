"""The Napoleonic fire room's window: the map, the computation panel (``report``), the chart of
results (``chart``), rolls, the turn's segments, undo, save, PNG; the position and its edits are
the ``Document``'s, the editing of units and settings ``editing``'s.

What a click on the map does depends on the tab, and the status bar says it: on the Attack tab
(and the others but Units), a click on a hex holding units makes it the target, firers with LOS
are outlined (yellow: they fire; grey dashes: left out), the others dimmed with the reason on
hover, and a click on a firer leaves it out or adds it.  On the Units tab a click places a unit
("Place units" on) or chooses one.  The panel shows the computation step by step and the chance
of every result; a roll (the computer's or the dice typed in) records the attack, undoably, the
owner spreading its losses; "Next segment" goes on with the turn."""
from __future__ import annotations

import html

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import hex_geometry
from app.screen import fit_on_screen
from engine import api

from ..file_filters import FIRE_FILTER
from ..file_kinds import FIRE_POSITION
from ..map_view import ZoomView
from ..render import write_png
from ..room_window import RoomWindow, edit_menu
from .chart import OutcomeChart
from .document import Document
from .editing import UnitEditing
from .editor import UnitEditor
from .losses import LossesDialog
from .panels import legend_html, legend_label, worked_examples
from .recovery import FIRE
from .report import attack_html
from .scene import FireScene, unit_words
from .settings import SettingsEditor

nap = api.napoleonic


class FireView(ZoomView):
    """The fire map on the shared ``ZoomView``: a click picks a target or a firer, hovering
    says the hex."""
    clicked = Signal(QPointF)
    hovered = Signal(QPointF)

    def __init__(self, scene):
        super().__init__(scene)
        self.setDragMode(ZoomView.DragMode.NoDrag)
        self.setMouseTracking(True)

    def mouseMoveEvent(self, event) -> None:
        self.hovered.emit(self.mapToScene(event.position().toPoint()))
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mousePressEvent(event)


UNITS_TAB, POSITION_TAB = 1, 2
MODES = {"attack": "Clicks: choose the target hex, then click firers in or out",
         "place": "Clicks: PLACE a unit on a hex, or stack it on a counter (Units tab)",
         "choose": "Clicks: choose a unit to change or delete (Units tab)"}


class FireWindow(UnitEditing, RoomWindow):
    """Builds its parts on the ``document`` (position, undo stack, edits) and holds the attack
    being put together: the target, the firers toggled, the engine's assessment.  Save, the
    title, close, autosave and recovery are ``RoomWindow``'s."""
    document_class = Document
    view_class = FireView
    file_filter = FIRE_FILTER
    format = FIRE_POSITION.format
    recovery = FIRE
    default_name = "fire.json"
    save_title = "Save the position"
    room_title = "Starshell fire"
    unsaved_title = "Unsaved attacks"
    unsaved_text = "Save the position before closing?"

    def __init__(self, document, *, open_other=None, settings=None):
        super().__init__(document, open_other=open_other, settings=settings)
        self.target: str | None = None
        self.choice: dict[str, bool] = {}          # firers toggled in (True) or out (False)
        self.assessment = None
        pos = document.position
        document.changed.connect(self._position_changed)
        self.scene = FireScene(pos)
        self.view = self.view_class(self.scene)
        self.view.clicked.connect(self.click)
        self.view.hovered.connect(self.hover)
        self.selected: str | None = None           # the unit chosen in the editor
        self.editor = UnitEditor()
        self.editor.apply_clicked.connect(self.apply_edit)
        self.editor.delete_clicked.connect(self.delete_chosen)
        self.editor.listed.connect(self.choose)
        self.position_editor = SettingsEditor()
        self.position_editor.show_position(pos)
        self.position_editor.changed.connect(self.change_settings)
        self.mode = QLabel("")
        self.legend = legend_label(pos)
        self.text = QTextBrowser()
        self.chart = OutcomeChart()
        self.kind = QComboBox()
        self.kind.addItems(list(nap.KINDS))
        self.kind.setToolTip("intentional fire, or artillery's inadvertent hits: bouncing roundshot "
                             "(18.9) / howitzer scatter (18.15), which may hit an attacked hex again")
        self.kind.currentTextChanged.connect(lambda _: self.refresh())
        self.segment = QComboBox()
        self.segment.addItems(list(nap.SEGMENTS))
        self.segment.setCurrentText(pos.segment)
        self.segment.currentTextChanged.connect(self.set_segment)
        self.next_button = QPushButton("Next segment")
        self.next_button.setToolTip("the next segment; after the assault segment, a new turn "
                                    "(each segment's record is kept until then)")
        self.next_button.clicked.connect(self.document.next_segment)
        self.turn_button = QPushButton("New turn")
        self.turn_button.clicked.connect(self.document.new_turn)
        self.record_label = QLabel("")
        self.record_label.setWordWrap(True)
        self.tens, self.units = QSpinBox(), QSpinBox()
        for sb in (self.tens, self.units):
            sb.setRange(1, 6)
        self.roll_typed = QPushButton("Roll these dice")
        self.roll_typed.clicked.connect(lambda: self.roll((self.tens.value(), self.units.value())))
        self.roll_computer = QPushButton("Computer rolls")
        self.roll_computer.clicked.connect(lambda: self.roll(None))
        self.result = QLabel("")
        self.result.setWordWrap(True)
        self._tabs(self._attack_panel())
        self.statusBar().addPermanentWidget(self.mode)
        self._menus()
        self.statusBar().showMessage("Click a hex holding units to make it the target; hover a hex "
                                     "for its terrain")
        fit_on_screen(self, (1400, 820))     # within a small screen, not off its edge
        self.choose(None)
        self.show_mode()
        self.refresh()
        self.start()

    def _attack_panel(self) -> QWidget:
        """The Attack tab: the segment and the turn, the computation, the results, the dice."""
        side = QWidget()
        lay = QVBoxLayout(side)
        row = QHBoxLayout()
        row.addWidget(QLabel("Segment"))
        row.addWidget(self.segment)
        row.addWidget(QLabel("Fire"))
        row.addWidget(self.kind)
        lay.addLayout(row)
        turn = QHBoxLayout()
        turn.addWidget(self.next_button)
        turn.addWidget(self.turn_button)
        turn.addStretch(1)
        lay.addLayout(turn)
        lay.addWidget(self.record_label)
        lay.addWidget(self.text, 3)
        lay.addWidget(QLabel("Results of the column (chance in 36ths)"))
        lay.addWidget(self.chart, 1)
        self.chart.setMinimumHeight(120)
        dice = QHBoxLayout()
        dice.addWidget(QLabel("Dice (tens, units)"))
        dice.addWidget(self.tens)
        dice.addWidget(self.units)
        dice.addWidget(self.roll_typed)
        dice.addWidget(self.roll_computer)
        lay.addLayout(dice)
        lay.addWidget(self.result)
        return side

    def _tabs(self, attack: QWidget) -> None:
        """The map beside the tabs: the attack, the units' palette and editor, the legend."""
        tools = QWidget()
        tlay = QVBoxLayout(tools)
        tlay.addWidget(self.editor)
        tlay.addStretch(1)
        self.tabs = QTabWidget()
        self.tabs.addTab(attack, "Attack")
        self.tabs.addTab(tools, "Units")
        setting = QWidget()
        slay = QVBoxLayout(setting)
        slay.addWidget(self.position_editor)
        slay.addStretch(1)
        self.tabs.addTab(setting, "Position")
        legend = QScrollArea()
        legend.setWidget(self.legend)
        legend.setWidgetResizable(True)
        self.tabs.addTab(legend, "Legend")
        self.editor.place.toggled.connect(self._place_toggled)
        self.tabs.currentChanged.connect(self._tab_changed)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.setCentralWidget(split)

    def _place_toggled(self, on: bool) -> None:
        if on:                          # the palette describes a new unit: none is chosen
            self.tabs.setCurrentIndex(UNITS_TAB)
            self.choose(None)
        self.show_mode()

    def _tab_changed(self, index: int) -> None:
        """Placing belongs to the Units tab: leaving it turns placing off."""
        if index != UNITS_TAB and self.editor.place.isChecked():
            self.editor.place.setChecked(False)
        self.show_mode()

    def click_mode(self) -> str:
        """What a click on the map does now: ``attack``, ``place`` or ``choose``."""
        if self.tabs.currentIndex() != UNITS_TAB:
            return "attack"
        return "place" if self.editor.place.isChecked() else "choose"

    def show_mode(self) -> None:
        mode = self.click_mode()
        self.mode.setText(MODES[mode])
        colour = {"place": "#2e7d32", "choose": "#5a4a9c"}.get(mode, "#3a4150")
        self.mode.setStyleSheet(f"background:{colour}; color:white; padding:2px 6px;")

    # ------------------------------------------------------------------ menus and files
    def _menus(self) -> None:
        def act(menu, text, slot, key=None):
            a = QAction(text, self)
            if key is not None:
                a.setShortcut(key)
            a.triggered.connect(slot)
            menu.addAction(a)
            return a
        f = self.menuBar().addMenu("&File")
        act(f, "&New position", self.new_position, QKeySequence.StandardKey.New)
        act(f, "&Open...", self.open_dialog, QKeySequence.StandardKey.Open)
        worked = f.addMenu("Open &worked example")
        for title, path in worked_examples():
            act(worked, title, lambda _=False, p=path: self.open_example(p))
        self.add_recent_menu(f)
        act(f, "&Save", self.save, QKeySequence.StandardKey.Save)
        act(f, "Save &as...", self.save_as, QKeySequence.StandardKey.SaveAs)
        self.add_export_actions(f)
        act(f, "&Close", self.close, QKeySequence.StandardKey.Close)
        edit_menu(self, self.document.undo_stack)
        t = self.menuBar().addMenu("F&ire")
        act(t, "Computer &rolls", lambda: self.roll(None), QKeySequence("R"))
        act(t, "Clear the &target", lambda: self.set_target(None), QKeySequence("Esc"))
        act(t, "&Next segment", self.document.next_segment, QKeySequence("N"))
        act(t, "New &turn", self.document.new_turn)

    def title_name(self) -> str:
        return f"{super().title_name()} - {self.pos.title}"

    def open_example(self, path) -> "FireWindow":
        """A bundled position in a window of its own, untitled: Save asks where (never over the
        program's own file)."""
        return self.another(Document(nap.load_position(path), None))

    def new_position(self) -> "FireWindow":
        """A position from nothing: the sample board and charts, no unit, placing on."""
        other = self.another(Document(nap.blank_position(), None))
        other.tabs.setCurrentIndex(UNITS_TAB)
        other.editor.place.setChecked(True)
        return other

    def export_scene_rect(self) -> QRectF:
        """File > Export draws the whole map as the view shows it (target, firers, lines),
        wherever the view is scrolled."""
        return self.scene.sceneRect()

    # ------------------------------------------------------------------ the attack
    def click(self, point: QPointF) -> None:
        if self.click_mode() != "attack":
            self.place_or_choose(point)
            return
        if self.target is not None:
            # a firer that may fire is clicked in or out; a click on any other counter
            # (one that cannot fire: it has fired, it has no LOS) targets its hex
            candidates = {f.id for f in self._candidates().firers if f.can_fire and f.los}
            for item in self.scene.items(point):
                uid = getattr(getattr(item, "unit", None), "id", None)
                if uid in candidates:
                    self.toggle(uid)
                    return
        i = hex_geometry.hex_at(self.pos.map, point)
        hex_id = self.pos.map.names[i] if i >= 0 else None
        self.set_target(hex_id if hex_id and self.pos.units_in(hex_id) else None)

    def hover(self, point: QPointF) -> None:
        """The hex under the pointer in words: its terrain, what it does, its units."""
        i = hex_geometry.hex_at(self.pos.map, point)
        if i >= 0:
            self.statusBar().showMessage(nap.describe_hex(self.pos, self.pos.map.names[i]))

    def set_target(self, hex_id: str | None) -> None:
        if hex_id != self.target:
            self.choice = {}
        self.target = hex_id
        self.refresh()

    def toggle(self, uid: str) -> None:
        """A firer in or out of the attack; a unit without LOS stays out (rules.md 8)."""
        f = next(f for f in self._candidates().firers if f.id == uid)
        if not (f.can_fire and f.los):
            self.result.setText(f"{uid} cannot fire at {self.target}: {'; '.join(f.reasons)}")
            return
        self.choice[uid] = not self.choice.get(uid, f.counted or f.offered)
        self.refresh()

    def _candidates(self):
        return nap.assess(self.pos, self.target, kind=self.kind.currentText())

    def firers(self) -> list[str]:
        """The units that fire: the engine's choice, with the player's toggles."""
        return nap.chosen_firers(self._candidates(), self.choice)

    def _chosen(self, dice=None):
        """The engine's attack by the firers chosen, and every candidate as drawn (rules.md 8)."""
        if self.target is None:
            return None
        return nap.choose_attack(self.pos, self.target, self.choice, dice, self.kind.currentText())

    def compute(self, dice=None):
        """The attack the player put together (None: no target)."""
        chosen = self._chosen(dice)
        return None if chosen is None else chosen.attack

    def refresh(self) -> None:
        try:
            chosen = self._chosen()
        except api.ScenarioError as e:        # a chart pack without a row for this hex
            self.assessment = None
            self.scene.show_assessment(None, None, self.choice)
            self.text.setHtml(f"<p style='color:#ff7a6a'>{html.escape(str(e))}</p>")
            self.chart.set_outcomes({})
            self.roll_typed.setEnabled(False)
            self.roll_computer.setEnabled(False)
            return
        # every candidate is shown (dimmed when it cannot fire), even those left out
        a = self.assessment = None if chosen is None else chosen.attack
        view_a = None if chosen is None else chosen.shown
        self.scene.show_assessment(self.target, view_a, self.choice)
        self.text.setHtml(attack_html(a, view_a, self.pos))
        self.chart.set_outcomes(a.outcomes if a is not None else {}, None)
        able = a is not None and a.allowed
        self.roll_typed.setEnabled(able)
        self.roll_computer.setEnabled(able)
        self.result.setText(self.document.note)
        self.record_label.setText(record_words(self.pos))

    def roll(self, dice) -> None:
        if self.target is None:
            return
        dice = dice or self.document.dice()
        chosen = self._chosen(dice)
        a = None if chosen is None else chosen.attack
        if a is None or not a.allowed:
            self.result.setText("refused: " + "; ".join(a.reasons if a else []))
            return
        shown = chosen.shown
        res = f"{a.result or '-'}, {nap.result_words(a.result or '')}"
        note = (f"{a.target}: {', '.join(f.id for f in a.counted())} fire {nap.fmt(a.fire)} at "
                f"{a.column}; dice {a.roll}, {'+' if a.drm >= 0 else ''}{a.drm} -> {a.modified}: {res}")
        self.document.record_attack(a, note, self.spread_losses(a))
        # the panel shows the attack just rolled, as the bars do (not the next one, refused)
        nxt = self.assessment               # the next attack on it, as refresh found it
        self.text.setHtml(attack_html(a, shown, self.pos, rolled=self.document.note,
                                      now=None if nxt is None or nxt.allowed else nxt.reasons))
        self.chart.set_outcomes(a.outcomes, a.result)

    def spread_losses(self, attack) -> dict | None:
        """The owner's spread of the attack's losses (rules.md 10): asked when more than one
        unit could take them; None: the top unit first, the default."""
        if not attack.result or attack.defender is None:
            return None
        lost, _ = nap.parse_result(attack.result)
        if lost == 0 or len(nap.loss_takers(self.pos, attack.defender)) < 2:
            return None
        dialog = LossesDialog(self.pos, attack.defender, attack.result, self)
        dialog.exec()
        return dialog.spread()

    def set_segment(self, segment: str) -> None:
        self.document.set_segment(segment)

    @property
    def pos(self):
        """The position shown (the document's)."""
        return self.document.position

    @property
    def path(self) -> str | None:
        return self.document.path

    def _position_changed(self) -> None:
        pos = self.pos
        self.scene.set_position(pos)
        self.legend.setText(legend_html(pos))
        if self.selected is not None and not any(u.id == self.selected for u in pos.units):
            self.choose(None)
        if self.target is not None and not pos.units_in(self.target):
            self.target = None
        self.position_editor.show_position(pos)
        self.editor.list_units(pos.units, unit_words, self.selected)
        if self.segment.currentText() != pos.segment:
            self.segment.blockSignals(True)
            self.segment.setCurrentText(pos.segment)
            self.segment.blockSignals(False)
        self.refresh()


def record_words(pos) -> str:
    """This segment's record in words: who has fired (at which hex), which hexes were attacked."""
    fired = ", ".join(f"{u} (at {h})" for u, h in pos.fired_now) or "nobody yet"
    attacked = ", ".join(pos.attacked) or "none"
    return f"The {pos.segment} segment: fired {fired}; hexes attacked {attacked}"


def open_window(path: str, *, select: str | None = None, recover: bool = False,
                open_other=None) -> FireWindow:
    """A window on the fire position ``path`` (raises api.ScenarioError naming file and place);
    ``open_other``: how File > Open reaches the other rooms.  ``select`` and ``recover`` are
    the door's: this room opens on no target; ``recover``: first offer the unsaved fire work a
    crash left (it opens instead of ``path`` when restored)."""
    window = FireWindow.recovered(open_other=open_other) if recover else None
    return window or FireWindow(Document.open_file(path), open_other=open_other)


def open_recovered(*, open_other=None) -> FireWindow | None:
    """A window on the fire work a crash left, if the player restores it (``app.rooms``)."""
    return FireWindow.recovered(open_other=open_other)


def save_screenshot(path: str, out: str, width: int, height: int,
                    select: str | None = None) -> None:
    """The window on ``path`` rendered headless to exactly width x height pixels; ``select``: a
    target hex (or a unit, whose hex is the target)."""
    w = open_window(path)
    if select:
        pos = w.pos
        try:
            hex_id = pos.map.canonical(select)
        except api.HexIdError:
            hex_id = pos.unit(select).hex
        w.set_target(hex_id)
    w.resize(width, height)
    w.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    w.show()
    w.view.fit()
    QApplication.processEvents()            # the status bar's first message drawn
    img = w.grab().toImage()                # the whole window: the map and the attack's panel
    if img.width() != width or img.height() != height:
        img = img.scaled(width, height, Qt.AspectRatioMode.IgnoreAspectRatio,
                         Qt.TransformationMode.SmoothTransformation)
    w.close()
    write_png(img, out)
