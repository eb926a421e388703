"""File > Import VASL board (the app's part): choose a board file of VASL (``bd02``...),
convert it (``engine.importers.vasl.import_board``), save the Starshell board file where the player says
(by default next to the position, ``bd02.json``), show what could not be imported, and offer to
put the board on the map: added in a free slot, or in place of the map's board of the same id
(the bundled stand-in, typically).

The conversion runs through the app's job runner (``app.jobs``) behind a progress dialog with
Cancel: the window keeps painting, and a large or hostile file can be stopped (the engine bounds
every size as well)."""
from __future__ import annotations

import os
import threading
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.file_filters import BOARD_FILTER, VASL_BOARD_FILTER
from app.jobs import Cancelled, on_gui_thread, run_in_dialog, runner
from engine import api
from engine.api import save_board

from .layout_edits import free_slot, slot_words


def import_vasl_board(editor, source: str | None = None) -> str | None:
    """The whole act; returns the board file written, or None when the player stopped or the
    file was refused (the engine's message is shown).  ``source``: the archive (else asked)."""
    saved = convert_and_save(editor, source)
    if saved is None:
        return None
    board, target, report = saved
    offer_on_map(editor, board, target, report)
    return target


def new_position_on(editor, source: str) -> bool:
    """File > Open or File > New on a VASL board archive (``bd05``): offer to import it, save
    the board file, and start a new position on it alone; False when the player declined or
    the archive was refused (the engine's message is shown)."""
    w = editor.window
    name = os.path.basename(source)
    answer = QMessageBox.question(
        w, "A VASL board",
        f"{name} is a VASL board, not a Starshell file. Import it (Starshell keeps its terrain "
        "as a board file of its own) and start a new position on it?\n\n(To add a VASL board "
        "to the map already open, use File > Import VASL board.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes)
    if answer != QMessageBox.StandardButton.Yes:
        return False
    saved = convert_and_save(editor, source)
    if saved is None:
        return False
    board, target, report = saved
    if not w.open_path(target, confirmed=True):     # a board file: a new position on it alone
        return False
    if report:
        w.say(f"Board {board.id} imported as {target}; not imported or approximated: "
              f"{len(report)} item(s) (File > Import VASL board lists them)", 15000)
    return True


def convert_and_save(editor, source: str | None = None):
    """The archive converted and its board file saved where the player says: (board, the file
    written, the report), or None when stopped or refused (the message shown)."""
    w = editor.window
    if source is None:
        source, _ = QFileDialog.getOpenFileName(w, "Import a VASL board", w.settings.value(
            "vasl/folder", os.path.expanduser("~")), VASL_BOARD_FILTER)
    if not source:
        return None
    w.settings.setValue("vasl/folder", os.path.dirname(source))
    job = ImportJob(source)
    outcome = job.run(w)
    if outcome is None:                 # cancelled
        w.statusBar().showMessage("VASL import cancelled", 10000)
        return None
    if isinstance(outcome, str):
        w.show_error("Cannot import this VASL board", outcome)
        return None
    board, report = outcome
    stem = Path(source).name.split(".")[0] or f"bd{board.id}"
    target, _ = QFileDialog.getSaveFileName(w, f"Save the imported board {board.id} as",
                                            os.path.join(editor.default_folder(), f"{stem}.json"),
                                            BOARD_FILTER)
    if not target:
        return None
    if not target.lower().endswith(".json"):
        target += ".json"
    target = str(Path(target).resolve())
    if not os.path.isdir(os.path.dirname(target)):     # else the error names a temporary file
        w.show_error("Cannot save the board",
                     f"{target}: the folder {os.path.dirname(target)} does not exist")
        return None
    try:
        save_board(board, target)
    except (OSError, api.ScenarioError) as e:
        w.show_error("Cannot save the board", str(e))
        return None
    board = replace(board, path=target)     # its picture (SPEC.md "image") lies beside it
    editor.tell(f"Imported VASL board {board.id} as {target}")
    return board, target, report


def offer_on_map(editor, board, target: str, report: list[str]) -> bool:
    """Show the import's report and offer to put the board on the map (one undo step)."""
    s = editor.document.scenario
    notes = ("\n\nNot imported or approximated:\n" + "\n".join(f"\u2022 {line}" for line in report)
             if report else "\n\nEverything was imported.")
    replacing = board.id in s.map.board_ids
    at = None if replacing else free_slot(s)
    offer = (f"Put it on the map in place of board {board.id}?" if replacing
             else f"Add it to the map {slot_words(s, at)}?")
    answer = QMessageBox.question(
        editor.window, "VASL board imported",
        f"Board {board.id} was saved as {target}.{notes}\n\n{offer}",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes)
    if answer != QMessageBox.StandardButton.Yes:
        return False
    if replacing:
        return editor.apply_layout(lambda s: api.night.with_board(s, board, ref=target),
                              f"board {board.id} from VASL", "Board replaced")
    return editor.apply_layout(lambda s: api.night.add_board(s, target, board, at),
                          f"add VASL board {board.id} at {list(at)}", "Board added")


class ImportJob(QObject):
    """One conversion through the job runner, shown by a progress dialog whose Cancel stops it.

    ``run`` returns (board, report), the error message (str), or None when cancelled."""

    progressed = Signal(int)            # per mille

    def __init__(self, source: str):
        super().__init__()
        self.source = source
        self.outcome = None
        self._cancel = threading.Event()
        self._job = None
        self._report = None

    def cancel(self) -> None:
        """Cancel pressed (or asked from the conversion itself: it stops at its next report)."""
        self._cancel.set()
        job = self._job
        if job is not None and on_gui_thread(self):
            job.cancel()

    def _progress(self, fraction: float) -> None:      # on the runner's thread
        if self._cancel.is_set():
            raise api.vasl.ImportCancelled()
        self._report(fraction)

    def _work(self, progress):                          # on the runner's thread
        self._report = progress
        try:
            return api.vasl.import_board(self.source, progress=self._progress)
        except api.vasl.ImportCancelled:
            raise Cancelled() from None
        except api.ScenarioError as e:
            return str(e)
        except MemoryError:
            return f"{self.source}: too large to import (out of memory)"
        except Cancelled:
            raise
        except Exception as e:           # never a traceback: the file is named
            return f"{self.source}: cannot be imported ({type(e).__name__}: {e})"

    def run(self, parent):
        name = os.path.basename(self.source)
        self._job = job = runner().submit(self._work, progress=True,
                                          text=f"Importing the VASL board {name}")
        job.progressed.connect(self._progressed)
        run_in_dialog(parent, job, "Import a VASL board", f"Importing {name}...")
        self.outcome = None if job.state != "done" or self._cancel.is_set() else job.result()
        return self.outcome

    def _progressed(self, text: str, fraction: float) -> None:
        if fraction >= 0:
            self.progressed.emit(int(1000 * fraction))
