"""The main window: the map view in the middle, the panels docked at the side, the menus and
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
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from engine import api

from . import actions
from .editor import install as install_board_editor
from .hand import Hand
from .layers import layer_actions
from .panels.editor import PieceEditor
from .panels.explanation import ExplanationPanel
from .panels.fire import StarshellPanel
from .panels.info import ScenarioPanel
from .panels.legend import LegendPanel
from .panels.palette import Palette
from .panels.unit import UnitPanel
from .recent import RecentFiles
from .recovery import autosave_for
from .rooms import room_for
from .scene.map_scene import MapScene
from .view import MapView

FILTER = "Starshell scenarios (*.json);;All files (*)"


class MainWindow(QMainWindow):
    def __init__(self, document, settings: QSettings | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        if document.parent() is None:
            document.setParent(self)        # the window's position lives as long as the window
        self.settings = settings if settings is not None else QSettings()
        self.recent = RecentFiles(self.settings)
        self.room_windows: list[QMainWindow] = []
        self.scene = MapScene(document, self)
        self.view = MapView(self.scene)
        self.view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCentralWidget(self.view)
        self.hand = Hand(document, self.scene, self.view, self)
        self.view.hand = self.hand
        self.layer_actions = layer_actions(self, self.scene.set_layer_visible)
        self.view.zoomChanged.connect(self.scene.counters.set_pixels_per_unit)
        self.view.fileDropped.connect(self.open_path)
        self.scene.mapChanged.connect(self.view.refit_if_moved)
        self.setAcceptDrops(True)           # a .json dropped anywhere on the window opens
        self._build_docks()
        self.view.hexHovered.connect(self.scene.set_hovered)
        self.view.hexHovered.connect(self.explanation.show_hex)
        self.view.hexHovered.connect(self._show_where)
        self.hand.told.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.hand.threadChanged.connect(self.explanation.show_thread)
        self.hand.fired.connect(self._fired)
        self.palette.picked.connect(self.hand.arm)
        self.editor.refused.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.where = QLabel()
        self.statusBar().addPermanentWidget(self.where)
        self._build_menus()
        actions.build(self)
        self.starshell_panel = StarshellPanel(document, self.hand, self.tool_actions["starshell"])
        self.starshell_dock = self._dock("Starshell", self.starshell_panel, "starshell")
        self.tabifyDockWidget(self.docks[1], self.starshell_dock)
        self.docks[1].raise_()
        self.hand.methodChanged.connect(self._method_changed)
        self.hand.toolChanged.connect(
            lambda tool: tool == "starshell" and self.starshell_dock.raise_())
        document.fileChanged.connect(self._update_title)
        document.undo_stack.cleanChanged.connect(self._clean_changed)
        document.engineFailed.connect(self._engine_failed)
        self.statusBar().showMessage(
            "Click a unit to see its night field \u2013 drag it to move it \u2013 right-drag: "
            "LOS thread \u2013 S: place a starshell \u2013 wheel: zoom \u2013 F1: all keys", 15000)
        install_board_editor(self)          # Map menu, Map and Board panels (issue 10)
        autosave_for(self)                  # unsaved work survives a crash (issue 8)
        self._update_title()
        self.resize(1500, 900)
        QTimer.singleShot(0, self.view.fit_map)

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
        return dock

    def _build_docks(self) -> None:
        position = QWidget()
        box = QVBoxLayout(position)
        box.setContentsMargins(0, 0, 0, 0)
        self.scenario_panel = ScenarioPanel(self.document)
        self.unit_panel = UnitPanel(self.document)
        box.addWidget(self.scenario_panel)
        box.addWidget(self.unit_panel)
        self.explanation = ExplanationPanel(self.document)
        self.legend = LegendPanel(self.layer_actions)
        self.editor = PieceEditor(self.document)
        self.palette = Palette(self.document)
        self.docks = [self._dock("Position", position, "position"),
                      self._dock("Explanation", self.explanation, "explanation"),
                      self._dock("Legend", self.legend, "legend"),
                      self._dock("Edit", self.editor, "edit"),
                      self._dock("Palette", self.palette, "palette")]
        self.tabifyDockWidget(self.docks[0], self.docks[3])
        self.tabifyDockWidget(self.docks[0], self.docks[4])
        self.tabifyDockWidget(self.docks[1], self.docks[2])
        self.docks[0].raise_()
        self.docks[1].raise_()

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
            self._action(f, "&Open\u2026", self.open_dialog, QKeySequence.StandardKey.Open)]
        self.recent_menu = f.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.file_actions += [
            self._action(f, "&Save", self.save, QKeySequence.StandardKey.Save),
            self._action(f, "Save &As\u2026", self.save_as, QKeySequence.StandardKey.SaveAs)]
        f.addSeparator()
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
        self._action(v, "Zoom &in", lambda: self.view.zoom_by(1.25), QKeySequence.StandardKey.ZoomIn)
        self._action(v, "Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut)
        v.addSeparator()
        for a in self.layer_actions.values():
            v.addAction(a)
        key = v.addAction("Caption and key on the map")
        key.setCheckable(True)
        key.toggled.connect(self.view.show_key)
        v.addSeparator()
        for dock in self.docks:
            v.addAction(dock.toggleViewAction())
        self.tools_menu = bar.addMenu("&Tools")
        self.help_menu = bar.addMenu("&Help")

    # ------------------------------------------------------------------------ files
    def open_dialog(self) -> None:
        if not self._may_discard():
            return
        start = os.path.dirname(self.document.path) if self.document.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open a scenario", start, FILTER)
        if path:
            self.open_path(path, confirmed=True)

    def open_path(self, path: str, confirmed: bool = False) -> bool:
        """Open ``path``; a bad file shows the engine's message and keeps the current position."""
        if not confirmed and not self._may_discard():
            return False
        try:
            room = room_for(path)
            if room is not None:              # another game's file opens in its own window
                other = room.open_window(path)
                self.room_windows.append(other)   # kept alive beside this one
                other.show()
                self.recent.add(path)
                self.statusBar().showMessage(f"Opened {path} in its own window", 5000)
                return True
            self.document.load(path)
        except (api.ScenarioError, ValueError, OSError) as e:
            self._error("Cannot open this scenario", str(e))
            return False
        self.recent.add(path)
        self.statusBar().showMessage(f"Opened {path}", 5000)
        return True

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = self.document.path or os.path.join(os.path.expanduser("~"), "position.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save the position as", start, FILTER)
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        return self._save_to(path)

    def _save_to(self, path: str) -> bool:
        if not self.board_editor.save_boards_first(path):   # edited boards go to files first
            return False
        try:
            self.document.save(path)
        except (api.ScenarioError, ValueError, OSError) as e:
            self._error("Cannot save", str(e))
            return False
        self.recent.add(path)
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent.paths():
            a = self.recent_menu.addAction(path)
            a.triggered.connect(lambda _=False, p=path: self._open_recent(p))
        if not self.recent.paths():
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear the list").triggered.connect(self.recent.clear)

    def _open_recent(self, path: str) -> None:
        if not os.path.exists(path):
            self.recent.remove(path)
        self.open_path(path)

    def _may_discard(self) -> bool:
        """True when there are no unsaved changes, or the player saves or drops them."""
        if self.document.undo_stack.isClean():
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", "The position has changed. Save it first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def _error(self, title: str, text: str) -> None:
        self.statusBar().showMessage(text, 15000)
        QMessageBox.warning(self, title, text)

    show_error = _error

    # ------------------------------------------------------------------------ play
    def choose_method(self, method: str) -> None:
        """The placement method of the next starshell (or IR)."""
        self.hand.set_method(method)

    def _method_changed(self, method: str) -> None:
        self.method_actions[method].setChecked(True)
        combo = self.starshell_panel.method
        combo.setCurrentIndex(combo.findData(method))

    def _fired(self, result) -> None:
        self.starshell_dock.raise_()
        self.statusBar().showMessage(self.document.undo_stack.text(
            self.document.undo_stack.index() - 1), 10000)

    def _show_where(self, i: int) -> None:
        """The status bar: the hex under the mouse, its terrain and level, and its range from
        the selected unit."""
        m, d = self.scene.map, self.document
        if i < 0 or m is None:
            self.where.clear()
            return
        text = m.describe(i)
        if d.viewer is not None:
            u = d.scenario.unit(d.viewer)
            text += f" \u2013 range {int(m.distance(m.index(u.hex), i))} from {u.id}"
        self.where.setText(text)

    def _clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def _engine_failed(self, text: str) -> None:
        self.statusBar().showMessage(text, 10000)

    def _update_title(self) -> None:
        d = self.document
        name = os.path.basename(d.path) if d.path else (d.scenario.title or "untitled")
        self.setWindowTitle(f"{name}[*] \u2013 Starshell")
        self.setWindowModified(not d.undo_stack.isClean())

    def dragEnterEvent(self, event):
        if MapView.json_file(event):
            event.acceptProposedAction()

    def dropEvent(self, event):
        path = MapView.json_file(event)
        if path:
            event.acceptProposedAction()
            self.open_path(path)

    def closeEvent(self, event):
        if self._may_discard():
            self.autosaver.finish()
            event.accept()
        else:
            event.ignore()
