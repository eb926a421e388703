"""The night room's window: the map view in the middle, the panels docked at the side, the menus and
the file actions (Open, Save, Save As, recent files, a dropped .json file).  What the mouse does
on the map is the ``Hand``'s; the actions of play and their keys are ``actions``'."""
from __future__ import annotations

import os

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMessageBox,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app import file_kinds
from app.file_filters import NEW_BOARD_FILTER, POSITION_FILTER
from app.jobs import runner
from app.room_window import RoomWindow
from app.screen import fit_on_screen
from engine import api

from . import actions, examples
from .document import Document
from .editor import map_menu, paint_action
from .editor.board_editor import BoardEditor
from .editor.board_panel import BoardPanel
from .editor.layout_panel import LayoutPanel
from .editor.unsaved import board_file
from .editor.vasl_import import new_position_on
from .map.hand import Hand
from .map.map_scene import MapScene
from .map.view import MapView
from .panels.explanation import ExplanationPanel
from .panels.info import ScenarioPanel
from .panels.legend import LegendPanel
from .panels.palette import Palette
from .panels.piece_editor import PieceEditor
from .panels.unit import UnitPanel
from .planner import install as planner_install
from .recovery import NIGHT
from .scene.layers import layer_actions
from .screen_fit import WANTED, DockFolding, keep_on_screen
from .starshell.panel import StarshellPanel
from .tools.pieces import Piece
from .undo_words import UndoWords
from .vasl.follow import add_follow_actions, start_following
from .vasl.vsav_open import open_vsav
from .vasl.waiting import WaitingPanel


class NightWindow(RoomWindow):
    """Builds every part of the window and hands each its collaborators: the scene and view, the
    hand and its tools, the panels (docks addressed by name, ``dock``), the board editor, the
    menus and their actions.  Parts report to the status bar through their ``told`` signals.
    ``open_other``: the door to every room (``app.rooms.open_window``) for another game's file.
    Save, the title, close, autosave, recovery and recent files are ``RoomWindow``'s."""
    document_class = Document
    view_class = MapView
    file_filter = POSITION_FILTER
    format = file_kinds.POSITION.format
    recovery = NIGHT
    default_name = "position.json"
    export_kinds = ("png", "svg")           # the map view draws itself as an SVG too
    save_title = "Save the position as"
    room_title = "Starshell"

    def __init__(self, document, settings: QSettings | None = None, parent=None, *,
                 open_other=None):
        super().__init__(document, open_other=open_other, settings=settings, parent=parent)
        self.docks: dict[str, QDockWidget] = {}
        self.help_dialog = None

        # the map, and the hand that clicks and drags on it
        self.scene = MapScene(document, self)
        self.view = self.view_class(self.scene)
        self.view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCentralWidget(self.view)
        self.hand = Hand(document, self.scene, self.view, self)
        self.view.hand = self.hand
        self.layer_actions = layer_actions(self, self.scene.set_layer_visible)

        # the panels and the board editor
        self.scenario_panel = ScenarioPanel(document)
        self.unit_panel = UnitPanel(document)
        self.explanation = ExplanationPanel(document)
        self.legend = LegendPanel(self.layer_actions)
        self.editor = PieceEditor(document)
        self.palette = Palette(document)
        self.waiting = WaitingPanel(document)
        self.starshell_panel = StarshellPanel(document, self.hand.starshell)
        self.hand.starshell.set_dice_source(self.starshell_panel.typed_dice)
        self.board_editor = BoardEditor(document, self.scene, self.view, self.hand,
                                        self.settings, self)
        self.paint_action = paint_action(self.board_editor, self)
        self.import_vasl_action = QAction("&Import VASL board\u2026", self)
        self.import_vasl_action.triggered.connect(self.board_editor.import_vasl)
        self.layout_panel = LayoutPanel(self.board_editor, self.board_editor.import_vasl)
        self.board_panel = BoardPanel(self.board_editor, self.paint_action)
        self._build_docks()

        # the status bar, the menus
        self.where = QLabel()
        self._where_hex = -1                # the hex the mouse is over (-1: none)
        self.table_label = QLabel()         # the map's LOS table building ("LOS table 40 %")
        self.table_label.hide()
        self.statusBar().addPermanentWidget(self.table_label)
        self.statusBar().addPermanentWidget(self.where)
        # a board picture too large or unreadable: said, its terrain drawn without it
        self.scene.picturesRefused.connect(lambda text: self.say(text, 30000))
        self._build_menus()
        self._connect()
        # best starshell, threat map, routes
        self.planner_ui = planner_install.install(
            document=document, scene=self.scene, view=self.view, planner=self.hand.planner,
            starshell_tool=self.hand.starshell, starshell_panel=self.starshell_panel,
            explanation=self.explanation, view_menu=self.view_menu, tools_menu=self.tools_menu,
            status=planner_install.Status(self.say, self.show_error, self.statusBar(), self))
        self.say("Click a unit to see its night field \u2013 drag it to move it \u2013 right-drag: "
                 "LOS thread \u2013 S: place a starshell \u2013 wheel: zoom \u2013 F1: all keys",
                 15000)
        if self.scene.picture_notes:                    # said over the hint
            self.say(" ".join(self.scene.picture_notes), 30000)
        self.start()
        self._docks_hold_their_panels()
        self._fitted = fit_on_screen(self, WANTED).size()    # within a small screen, not off its edge
        QTimer.singleShot(0, self.view, self.view.fit_map)     # not once the view is gone

    # ------------------------------------------------------------------------ building
    def _dock(self, title: str, widget: QWidget, name: str) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(widget)
        dock.setWidget(scroll)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
        self.docks[name] = dock
        return dock

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._fitted is not None:    # the first time: its frame known now, and the size is
            if self.size() == self._fitted:     # still ours (not one its caller asked for)
                keep_on_screen(self)
            self._fitted = None

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        size = event.size()
        self.dock_folding.fit(size.width(), size.height())     # low: the side panels in one pile

    def dock(self, name: str) -> QDockWidget:
        """The dock called ``name``: position, edit, palette, map_layout, board_editor,
        explanation, legend, starshell."""
        return self.docks[name]

    def _build_docks(self) -> None:
        position = QWidget()
        box = QVBoxLayout(position)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.scenario_panel)
        box.addWidget(self.unit_panel)
        piles = ((("Position", position, "position"), ("Edit", self.editor, "edit"),
                  ("Palette", self.palette, "palette"), ("Waiting", self.waiting, "waiting"),
                  ("Map", self.layout_panel, "map_layout"),
                  ("Board", self.board_panel, "board_editor")),
                 (("Explanation", self.explanation, "explanation"),
                  ("Legend", self.legend, "legend"),
                  ("Starshell", self.starshell_panel, "starshell")))
        for tabs in piles:
            first = self._dock(*tabs[0])
            for tab in tabs[1:]:
                self.tabifyDockWidget(first, self._dock(*tab))
            first.raise_()
        self.dock_folding = DockFolding(self, [[self.docks[name] for *_, name in tabs]
                                               for tabs in piles])


    def _docks_hold_their_panels(self) -> None:
        """Each dock no narrower than its panel and scrollbar: in a small window the NVR box
        and the lists never run under the scrollbar, nor lose their place when it comes, and
        no panel's words run off its right edge (the parts added by the features counted)."""
        for dock in self.docks.values():
            scroll = dock.widget()
            scroll.setMinimumWidth(scroll.widget().minimumSizeHint().width()
                                   + 2 * scroll.frameWidth()
                                   + scroll.verticalScrollBar().sizeHint().width())

    def _action(self, menu, text: str, slot, shortcut=None) -> QAction:
        a = menu.addAction(text)
        a.triggered.connect(slot)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        return a

    def _build_menus(self) -> None:
        bar = self.menuBar()
        f = self.file_menu = bar.addMenu("&File")
        self.file_actions = [
            self._action(f, "&New on a board\u2026", self.new_dialog, QKeySequence.StandardKey.New),
            self._action(f, "&Open\u2026", self.open_dialog, QKeySequence.StandardKey.Open)]
        self.add_recent_menu(f)
        # the bundled positions, read-only: Save asks for a name of the player's own
        self.examples_menu = f.addMenu("Open &worked example")
        self.examples_menu.aboutToShow.connect(
            lambda: examples.fill_menu(self.examples_menu, self.open_path))
        self.file_actions += [
            self._action(f, "&Save", self.save, QKeySequence.StandardKey.Save),
            self._action(f, "Save &As\u2026", self.save_as, QKeySequence.StandardKey.SaveAs)]
        f.addAction(self.import_vasl_action)
        add_follow_actions(f, parent=self, document=self.document, save=self.save,     # File >
                           start=lambda path: start_following(self, path))      # Follow VASL save
        f.addSeparator()                    # actions.build puts Export before Quit
        self.quit_action = self._action(f, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        e = self.edit_menu = bar.addMenu("&Edit")
        stack = self.document.undo_stack
        for a, keys, words in (
                (stack.createUndoAction(self, "&Undo"), QKeySequence.StandardKey.Undo,
                 "Undo the last change (a whole drag, a whole starshell)"),
                (stack.createRedoAction(self, "&Redo"), QKeySequence.StandardKey.Redo,
                 "Redo")):
            a.setShortcuts(QKeySequence.keyBindings(keys))
            a.setProperty("help", words)        # the menu's text names the change
            e.addAction(a)
            self.file_actions.append(a)
        self.file_actions.append(self.quit_action)
        v = self.view_menu = bar.addMenu("&View")
        self._action(v, "&Fit to map", self.view.fit_map, "Ctrl+0")
        zoom_in = self._action(v, "Zoom &in", lambda: self.view.zoom_by(1.25))
        zoom_in.setShortcuts(QKeySequence.keyBindings(QKeySequence.StandardKey.ZoomIn)
                             + [QKeySequence("Ctrl+=")])      # the + key without Shift
        self._action(v, "Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut)
        v.addSeparator()
        for a in self.layer_actions.values():
            v.addAction(a)
        key = v.addAction("Caption and key on the map")
        key.setCheckable(True)
        key.toggled.connect(self.view.show_key)
        v.addSeparator()
        for dock in self.docks.values():
            v.addAction(dock.toggleViewAction())
        self.map_menu = map_menu(self.board_editor, self.paint_action, self)
        bar.addMenu(self.map_menu)
        self.tools_menu = bar.addMenu("&Tools")
        self.help_menu = bar.addMenu("&Help")
        menus = actions.Menus(file=self.file_menu, edit=self.edit_menu, view=self.view_menu,
                              tools=self.tools_menu, help=self.help_menu,
                              quit_action=self.quit_action)
        play = actions.build(self, self.hand, self.document, self.view, menus,
                             actions.Speech(self.say, self.show_error, self.show_help))
        self.play_actions, self.tool_actions = play.actions, play.tools
        self.method_actions, self.side_menu = play.methods, play.side_menu
        self.addAction(self.paint_action)

    def _connect(self) -> None:
        d, hand, view = self.document, self.hand, self.view
        view.zoomChanged.connect(self.scene.counters.set_pixels_per_unit)
        view.fileDropped.connect(self.open_path)
        self.scene.mapChanged.connect(view.refit_if_moved)
        self.setAcceptDrops(True)           # a .json dropped anywhere on the window opens
        view.hexHovered.connect(self.scene.set_hovered)
        view.hexHovered.connect(self.explanation.show_hex)
        view.hexHovered.connect(self._show_where)
        for changed in (d.selectionChanged, d.changed, d.dragged):    # its range from whom, now
            changed.connect(lambda: self._show_where(self._where_hex))
        hand.told.connect(lambda text: self.say(text, 10000))
        self.board_editor.told.connect(lambda text: self.say(text, 15000))
        self.editor.refused.connect(lambda text: self.say(text, 10000))
        self.board_editor.failed.connect(self.show_error)
        hand.threads.threadChanged.connect(self.explanation.show_thread)
        hand.starshell.fired.connect(self._fired)
        hand.starshell.methodChanged.connect(self._method_changed)
        hand.toolChanged.connect(lambda tool: tool == "starshell" and self.dock("starshell").raise_())
        self.palette.picked.connect(hand.arm)
        self.waiting.picked.connect(hand.arm)
        view.waitingDropped.connect(self._waiting_dropped)
        self.waiting.picked.connect(lambda piece: self.board_editor.set_mode("play"))
        self.palette.picked.connect(lambda piece: piece and self.board_editor.set_mode("play"))
        starshell_tool = self.tool_actions["starshell"]
        self.starshell_panel.tool.toggled.connect(starshell_tool.setChecked)
        starshell_tool.toggled.connect(self.starshell_panel.tool.setChecked)
        self.undo_words = UndoWords(self.say, self.statusBar(), d.undo_stack)
        d.engineFailed.connect(self._engine_failed)
        d.busyChanged.connect(self._busy)
        runner().busyChanged.connect(self._jobs_busy)
        d.tableChanged.connect(self._table_progress)

    def show_help(self) -> None:
        """The list of every key and mouse gesture (F1)."""
        self.help_dialog = actions.show_help(self, self.menuBar(), self.help_dialog)

    # ------------------------------------------------------------------------ files
    def open_dialog(self) -> None:
        if not self.may_discard():
            return
        start = os.path.dirname(self.document.path) if self.document.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open a scenario", start, file_kinds.OPEN_FILTER)
        if path:
            self.open_path(path, confirmed=True)

    def new_dialog(self) -> None:
        """File > New: a new position on one board file (an imported VASL board, a bundled
        one); the Map menu adds more boards, the Palette units."""
        if not self.may_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, "A new position: its first board",
                                              self.boards_start(), NEW_BOARD_FILTER)
        if path:
            self.open_path(path, confirmed=True)

    def boards_start(self) -> str:
        """Where File > New looks for a board: beside the map's first board file, else among
        the bundled boards (a scenarios folder holds none)."""
        s = self.document.scenario
        for entry in s.map_entries:
            path = board_file(entry.board, s.folder)
            if path is not None and path.parent.is_dir():
                return str(path.resolve().parent)
        return str((api.assets_dir() / "boards").resolve())

    def open_path(self, path: str, confirmed: bool = False) -> bool:
        """Open ``path`` (its kind: ``app.file_kinds``): a position here, a board or a VASL
        saved game as a new position here, another room's file in its own window; a bad file
        shows the engine's message and keeps the current position."""
        try:
            kind = file_kinds.kind_of(path)
        except api.ScenarioError as e:
            self._error("Cannot open this scenario", str(e))
            return False
        if kind is not None and kind.room != file_kinds.NIGHT and self.open_other is not None:
            if super().open_path(path):             # another game's file: its own window
                self.say(f"Opened {path} in its own window")
                return True
            return False
        if not confirmed and not self.may_discard():
            return False
        if kind is file_kinds.VSAV:                 # a VASL saved game: a new, unsaved position
            return open_vsav(self, path)
        if kind is file_kinds.VASL_BOARD:           # an archive: offered to import, then new
            return new_position_on(self.board_editor, path)
        try:
            if kind is file_kinds.BOARD:            # a board file: a new position on it alone
                self.document.take_unsaved(self.document.call(api.night.board_position, path))
                self.document.undo_stack.setClean()     # nothing on it to lose yet
                self.say(f"A new position on the board file {path}: add units from the Palette")
                return True
            self.document.load(path)
        except (api.ScenarioError, ValueError, OSError) as e:
            self._error("Cannot open this scenario", str(e))
            return False
        self.recent.add(path)
        self.say(f"Opened {path}")
        return True

    def before_write(self, path: str) -> bool:
        return self.board_editor.save_boards_first(path)   # edited boards go to files first

    def unsaved_question(self) -> str:
        d = self.document
        if d.came_from is not None and d.path is None:      # a fresh import, never saved
            return (f"This position came from {os.path.basename(d.came_from)} and is not "
                    f"saved yet{'' if d.undo_stack.index() == 0 else ' (and has changed since)'}."
                    " Save it first?")
        return "The position has changed. Save it first?"

    def _error(self, title: str, text: str) -> None:
        self.say(text, 15000)
        QMessageBox.warning(self, title, text)

    show_error = _error

    # ------------------------------------------------------------------------ play
    def _method_changed(self, method: str) -> None:
        self.method_actions[method].setChecked(True)
        self.starshell_panel.show_method(method)

    def _fired(self, result) -> None:
        self.dock("starshell").raise_()
        stack = self.document.undo_stack
        self.say(stack.text(stack.index() - 1), 10000)

    def _show_where(self, i: int) -> None:
        """The status bar: the hex under the mouse, its terrain and level, and its range from
        the selected unit."""
        m, d = self.scene.map, self.document
        self._where_hex = i
        if i < 0 or m is None or i >= len(m.names):
            self.where.clear()
            return
        text = m.describe(i)
        if d.viewer is not None:
            u = d.scenario.unit(d.viewer)
            text += f" \u2013 range {int(m.distance(m.index(u.hex), i))} from {u.id}"
        # of a fixed size, grown and never shrunk: a new text (each hex a drag crosses) does
        # not lay the status bar out again
        label = self.where
        if text == label.text():
            return                  # asked again (the mouse's hex, then the moved position)
        need = label.fontMetrics().horizontalAdvance(text) + 2 * label.margin() + 8
        if need > label.minimumWidth():
            label.setFixedSize(need, label.sizeHint().height())
        label.setText(text)

    def _waiting_dropped(self, uid: str, hex_index: int) -> None:
        """A Waiting dock's counter dropped on the map: put in that hex (one undo step)."""
        self.hand.arm(None)
        if hex_index >= 0:
            self.hand.pieces.put_down(Piece("unit", "", None, waiting=uid), hex_index)

    def _busy(self, text: str) -> None:
        """A wait over 0.2 s: the status bar says what is being worked out, the map shows a busy
        cursor; both go when the answers are in."""
        vp = self.view.viewport()
        if text:
            if not getattr(self, "_busy_said", ""):
                self._cursor_before = vp.cursor() if vp.testAttribute(
                    Qt.WidgetAttribute.WA_SetCursor) else None
            vp.setCursor(Qt.CursorShape.BusyCursor)
            if not getattr(self, "_busy_said", ""):     # what it covers comes back after
                self._busy_covered = self.statusBar().currentMessage()
            self._busy_said = text
            self.statusBar().showMessage(text)
            return
        if self.statusBar().currentMessage() == getattr(self, "_busy_said", ""):
            covered = getattr(self, "_busy_covered", "")     # ("Undone: ..." after Ctrl+Z)
            if covered:
                self.say(covered, 8000)
            else:
                self.statusBar().clearMessage()
        self._busy_said = self._busy_covered = ""
        before = getattr(self, "_cursor_before", None)
        if before is not None:
            vp.setCursor(before)
        else:
            vp.unsetCursor()

    def _jobs_busy(self, text: str) -> None:
        """Another job (the planner's...) worked out for over 0.2 s: said as a field's wait."""
        if not self.document.busy_text:
            self._busy(text)

    def _table_progress(self, text: str) -> None:
        """The map's LOS table builds in the background: its share beside the hex readout."""
        self.table_label.setText(text)
        self.table_label.setVisible(bool(text))

    def _engine_failed(self, text: str) -> None:
        self.say(text, 10000)

    def title_name(self) -> str:
        d = self.document
        return os.path.basename(d.path) if d.path else (d.scenario.title or "untitled")

    def save_start(self) -> str:
        """Save As of a VASL saved game never saved: beside the save, under its name."""
        d = self.document
        if d.path is None and d.came_from is not None:
            stem = os.path.splitext(os.path.basename(d.came_from))[0]
            return os.path.join(os.path.dirname(os.path.abspath(d.came_from)), stem + ".json")
        return super().save_start()

    def dragEnterEvent(self, event):
        if MapView.json_file(event):
            event.acceptProposedAction()

    def dropEvent(self, event):
        path = MapView.json_file(event)
        if path:
            event.acceptProposedAction()
            self.open_path(path)

    def closing(self) -> None:
        self.document.close()           # answers still on their way are dropped
