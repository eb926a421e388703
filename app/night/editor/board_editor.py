"""The board editor: what the Map menu and the Board and Map panels do.

- Paint mode: the brush (``PaintTool``) stands in for the hand on the map; the night overlays
  follow every stroke (the Document asks the engine after each change).
- Board edits: id and title, a new blank board, saving a board as a board file (the map entry
  then names that file: ``engine.night.layout.with_board(ref=path)``).
- Layout edits: add a bundled board or a board file, move, rotate, remove; whatever a change
  does to units and markers (``LayoutResult.report``) is shown to the player.
- Unsaved boards: saving the position first asks to save every board that exists only in memory
  (``save_boards_first``), since the position file only names its boards' files.
- Underlays: a scan of a board to trace over (``underlay``).
Every change is one undo step of the Document.
"""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from app.file_filters import BOARD_FILTER, IMAGE_FILTER
from engine import api
from engine.api import BOARD_ID_RE, bundled_board, load_board, save_board

from ..recovery_place import recovery_folder
from .brush import Brush, blank_board, renamed
from .layout_edits import free_slot, new_board_ref, slot_words
from .paint_tool import PaintTool
from .underlay import CalibrationClicks, Underlays
from .unsaved import board_file, unsaved_boards
from .vasl_import import import_vasl_board


class BoardEditor(QObject):
    modeChanged = Signal(str)        # "play", "paint" or "calibrate"
    boardChosen = Signal(int)        # the board the panels edit (index into the map's boards)
    told = Signal(str)               # a sentence for the status bar
    failed = Signal(str, str)        # (title, message) of a refused change

    def __init__(self, document, scene, view, hand, settings, window):
        """``window``: the widget the editor's dialogs belong to (and its parent)."""
        super().__init__(window)
        self.window, self.settings = window, settings
        self.document, self.scene, self.view, self.hand = document, scene, view, hand
        self.paint = PaintTool(self.document, self.scene, self.view, self.hand, self)
        self.underlays = Underlays(self.scene, settings, self)
        self.mode = "play"
        self.board_index = 0
        self._calibration: CalibrationClicks | None = None
        self.paint.told.connect(self.tell)
        self.paint.painted.connect(self.choose_board_id)     # the panel shows what was painted
        self.hand.toolChanged.connect(lambda _tool: self.set_mode("play"))
        for signal in (self.document.changed, self.document.dragged):
            signal.connect(self._clamp_board)

    # ------------------------------------------------------------------------ talking
    def tell(self, text: str) -> None:
        self.told.emit(text)

    def report(self, title: str, lines: list[str]) -> None:
        """What a layout change did to units and markers: the status bar and a message."""
        if not lines:
            return
        self.tell("; ".join(lines))
        QMessageBox.information(self.window, title, "\n".join(f"\u2022 {line}" for line in lines)
                                + "\n\nUndo (Ctrl+Z) puts them back.")

    def _refused(self, title: str, error: Exception) -> None:
        self.failed.emit(title, str(error))

    def import_vasl(self) -> str | None:
        """File > Import VASL board (``vasl_import``)."""
        return import_vasl_board(self)

    def _valid_id(self, board_id: str, title: str) -> bool:
        if BOARD_ID_RE.match(board_id):
            return True
        self._refused(title, ValueError(f"board id {board_id!r} must be digits, or a lower-case "
                                        "letter followed by lower-case letters and digits"))
        return False

    # ------------------------------------------------------------------------ modes
    def set_mode(self, mode: str) -> None:
        """"play" (the hand), "paint" (the brush) or "calibrate" (clicks on the underlay)."""
        if mode == self.mode:
            return
        self.paint.finish()
        self._calibration = None if mode != "calibrate" else self._calibration
        self.mode = mode
        stand_in = {"play": self.hand, "paint": self.paint,
                    "calibrate": self._calibration or self.hand}[mode]
        self.view.hand = stand_in
        self.view.viewport().setCursor(Qt.CursorShape.ArrowCursor if mode == "play"
                                       else Qt.CursorShape.CrossCursor)
        if mode == "paint":
            self.tell(f"Painting: {self.paint.brush.describe()} \u2013 click or drag over hexes "
                      "(one drag, one undo step); right-drag: the LOS thread")
        self.modeChanged.emit(mode)

    def set_painting(self, on: bool) -> None:
        self.set_mode("paint" if on else "play")

    def set_brush(self, brush: Brush) -> None:
        self.paint.brush = brush
        if self.mode == "paint":
            self.tell(f"Painting: {brush.describe()}")

    # ------------------------------------------------------------------------ the chosen board
    @property
    def board(self):
        return self.document.scenario.map.placements[self.board_index].board

    def choose_board(self, index: int) -> None:
        n = len(self.document.scenario.map.placements)
        self.board_index = max(0, min(index, n - 1))
        self.boardChosen.emit(self.board_index)

    def _clamp_board(self) -> None:
        n = len(self.document.scenario.map.placements)
        if self.board_index >= n:
            self.choose_board(n - 1)

    def choose_board_id(self, board_id: str) -> None:
        ids = self.document.scenario.map.board_ids
        if board_id in ids:
            self.choose_board(ids.index(board_id))

    # ------------------------------------------------------------------------ board edits
    def rename(self, board_id: str | None = None, title: str | None = None) -> bool:
        """The chosen board under another id and/or title (hex ids on it follow)."""
        old = self.board
        new = renamed(old, board_id, title)
        if new.id == old.id and new.title == old.title:
            return True
        if not self._valid_id(new.id, "Cannot rename the board"):
            return False
        try:
            s = self.document.scenario
            result = self.document.call(lambda: api.night.with_board(s, new, replacing=old.id))
        except api.ScenarioError as e:
            self._refused("Cannot rename the board", e)
            return False
        what = f"board {old.id}: id {new.id}" if new.id != old.id else f"board {old.id}: title"
        self.document.edit(result.scenario, what)
        self.report("Board renamed", result.report)
        return True

    def new_board(self, board_id: str | None = None) -> bool:
        """A blank board of open ground, added to the map in a free slot, ready to paint."""
        s = self.document.scenario
        if board_id is None:
            taken = set(s.map.board_ids)
            k = 1
            while f"b{k}" in taken:
                k += 1
            board_id, ok = QInputDialog.getText(self.window, "New blank board",
                                                "Board id (digits, or a lower-case letter "
                                                "then letters and digits):", text=f"b{k}")
            if not ok or not board_id.strip():
                return False
            board_id = board_id.strip()
        if not self._valid_id(board_id, "Cannot make the board"):
            return False
        try:
            at = free_slot(s)
            result = self.document.call(api.night.add_board, s, new_board_ref(board_id),
                                        blank_board(board_id), at)
        except api.ScenarioError as e:
            self._refused("Cannot make the board", e)
            return False
        self.document.edit(result.scenario, f"new blank board {board_id} at {list(at)}")
        self.choose_board_id(board_id)
        self.tell(f"New board {board_id} {slot_words(s, at)}: paint it (Map > Paint terrain), "
                  "then save it as a board file")
        return True

    def default_folder(self, board_index: int | None = None) -> str:
        """Where files are offered: next to the position, else next to board ``board_index``'s file."""
        d = self.document
        if d.path:
            return os.path.dirname(os.path.abspath(d.path))
        if board_index is not None:
            path = board_file(d.scenario.map_entries[board_index].board, d.scenario.folder)
            if path is not None:
                return str(path.resolve().parent)
        return os.path.expanduser("~")

    def save_board_as(self, index: int | None = None, path: str | None = None,
                      folder: str | None = None) -> bool:
        """Save a board of the map (default: the chosen one) as a board file, without the
        position's terrain SSRs; the map entry then names that file (one undo step)."""
        k = self.board_index if index is None else index
        s = self.document.scenario
        board, entry = s.map.placements[k].board, s.map_entries[k]
        if path is None:
            start = os.path.join(folder or self.default_folder(k), f"board-{board.id}.json")
            path, _ = QFileDialog.getSaveFileName(self.window, f"Save board {board.id} as",
                                                  start, BOARD_FILTER)
            if not path:
                return False
        if not path.lower().endswith(".json"):
            path += ".json"
        target = Path(path).resolve()
        # the position's terrain SSRs belong to it, not to the board file (rules.md 11.2)
        bare = api.night.board_without_rules(s, k)
        try:
            save_board(bare or board, target)
        except (OSError, api.ScenarioError) as e:
            self._refused("Cannot save the board", e)
            return False
        same = board_file(entry.board, s.folder)
        ref = entry.board if same is not None and same.resolve() == target else str(target)
        if ref != entry.board:
            result = self.document.call(lambda: api.night.with_board(s, board, ref=ref))
            self.document.edit(result.scenario, f"board {board.id} saved as {target.name}")
        rules = tuple(s.ssr) + tuple(entry.ssr)
        self.tell(f"Saved board {board.id} as {target}" + (
            "" if not rules else " without the position's SSRs" if bare is not None else
            ", with the position's SSRs in it (it was edited on the map under them)"))
        return True

    def unsaved(self) -> list[int]:
        """The map's boards that exist only in memory (indices); a board restored from the
        recovery folder is one of them."""
        return unsaved_boards(self.document.scenario, recovery_folder())

    def save_boards_first(self, scenario_path: str) -> bool:
        """Before the position is saved to ``scenario_path``: boards with edits not saved are
        saved as board files first, or the position is not saved (the player chooses)."""
        pending = self.unsaved()
        if not pending:
            return True
        s = self.document.scenario
        ids = ", ".join(s.map.placements[k].board.id for k in pending)
        answer = QMessageBox.question(
            self.window, "Save the edited boards first",
            f"Board(s) {ids} have edits that are not in a board file yet. A position file only "
            "names the files of its boards, so they are saved first, each as a board file "
            "(you choose where). Save them now?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if answer != QMessageBox.StandardButton.Save:
            self.tell("Not saved: the edited boards would have been lost")
            return False
        folder = os.path.dirname(os.path.abspath(scenario_path))
        ids = [s.map.placements[k].board.id for k in pending]
        for board_id in ids:
            k = self.document.scenario.map.board_ids.index(board_id)
            if not self.save_board_as(k, folder=folder):
                return False
        return True

    # ------------------------------------------------------------------------ layout edits
    def apply_layout(self, make, text: str, title: str) -> bool:
        try:
            result = self.document.call(make, self.document.scenario)     # engine thread
        except (api.ScenarioError, IndexError) as e:
            self._refused(title, e)
            return False
        # a title that named the old boards names the new ones
        self.document.edit(api.night.retitled(self.document.scenario, result.scenario), text)
        self.tell(text[0].upper() + text[1:] + " (Ctrl+Z: undo)")
        self.report(title, result.report)
        return True

    def add_bundled(self, board_id: str, at: tuple[int, int] | None = None,
                    rotated: bool = False) -> bool:
        try:
            board = bundled_board(board_id)
            at = at or free_slot(self.document.scenario)
        except api.ScenarioError as e:
            self._refused("Cannot add the board", e)
            return False
        return self.apply_layout(lambda s: api.night.add_board(s, board_id, board, at, rotated),
                            f"add board {board_id} at {list(at)}", "Board added")

    def add_file(self, path: str | None = None, at: tuple[int, int] | None = None) -> bool:
        """Add a board file to the map (asks which when ``path`` is None)."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self.window, "Add a board file to the map",
                                                  self.default_folder(), BOARD_FILTER)
            if not path:
                return False
        try:
            board = self.document.call(load_board, path)
            at = at or free_slot(self.document.scenario)
        except (api.ScenarioError, OSError) as e:
            self._refused("Cannot add the board", e)
            return False
        ref = str(Path(path).resolve())
        return self.apply_layout(lambda s: api.night.add_board(s, ref, board, at),
                            f"add board {board.id} at {list(at)}", "Board added")

    def move(self, index: int, at: tuple[int, int]) -> bool:
        b = self.document.scenario.map.placements[index].board.id
        return self.apply_layout(lambda s: api.night.move_board(s, index, at=tuple(at)),
                            f"move board {b} to {list(at)}", "Board moved")

    def rotate(self, index: int) -> bool:
        """Turn a board half round (180 degrees), or back."""
        s = self.document.scenario
        b, turned = s.map.placements[index].board.id, not s.map_entries[index].rotated
        return self.apply_layout(lambda s: api.night.move_board(s, index, rotated=turned),
                            f"rotate board {b}" if turned else f"unrotate board {b}",
                            "Board rotated")

    def remove(self, index: int) -> bool:
        b = self.document.scenario.map.placements[index].board.id
        return self.apply_layout(lambda s: api.night.remove_board(s, index), f"remove board {b}",
                            f"Board {b} removed")

    # ------------------------------------------------------------------------ underlays
    def load_underlay(self, path: str | None = None) -> bool:
        board_id = self.board.id
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self.window, f"An image of board {board_id} to trace over",
                os.path.expanduser("~"), IMAGE_FILTER)
            if not path:
                return False
        try:
            self.underlays.load(board_id, path)
        except ValueError as e:
            self._refused("Cannot show the image", e)
            return False
        self.tell(f"Underlay on board {board_id}: calibrate it (Map > Calibrate the underlay) "
                  "by clicking two hex centre dots on the image")
        return True

    def start_calibration(self) -> bool:
        board_id = self.board.id
        if board_id not in self.underlays.items:
            self.tell(f"Board {board_id} has no underlay image: load one first")
            return False
        self.set_mode("play")
        clicks = CalibrationClicks(self.underlays, board_id, self.view, self.hand, self)
        clicks.told.connect(self.tell)
        clicks.done.connect(lambda _ok: self.set_mode("play"))
        self._calibration = clicks
        self.set_mode("calibrate")
        self.tell(f"Calibrating board {board_id}'s underlay: click a hex's centre dot on the "
                  "image and name the hex; then a second one, far from the first")
        return True

    def remove_underlay(self) -> None:
        self.underlays.remove(self.board.id)
