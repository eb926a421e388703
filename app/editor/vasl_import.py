"""File > Import VASL board (issue 9, the app's part): choose a board file of VASL (``bd02``...),
convert it (``engine.importers.vasl.import_board``), save the Starshell board file where the player says
(by default next to the position, ``bd02.json``), show what could not be imported, and offer to
put the board on the map: added in a free slot, or in place of the map's board of the same id
(the bundled stand-in, typically)."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine import api
from engine.api import add_board, import_board, save_board, with_board

from .board_editor import BOARD_FILTER
from .layout_edits import free_slot

VASL_FILTER = "VASL boards (bd*);;All files (*)"


def import_vasl_board(editor) -> str | None:
    """The whole act; returns the board file written, or None when the player stopped or the
    file was refused (the engine's message is shown)."""
    w = editor.window
    source, _ = QFileDialog.getOpenFileName(w, "Import a VASL board", w.settings.value(
        "vasl/folder", os.path.expanduser("~")), VASL_FILTER)
    if not source:
        return None
    w.settings.setValue("vasl/folder", os.path.dirname(source))
    try:
        board, report = import_board(source)
    except (api.ScenarioError, OSError) as e:
        w.show_error("Cannot import this VASL board", str(e))
        return None
    stem = Path(source).name.split(".")[0] or f"bd{board.id}"
    target, _ = QFileDialog.getSaveFileName(w, f"Save the imported board {board.id} as",
                                            os.path.join(editor.default_folder(), f"{stem}.json"),
                                            BOARD_FILTER)
    if not target:
        return None
    if not target.lower().endswith(".json"):
        target += ".json"
    target = str(Path(target).resolve())
    try:
        save_board(board, target)
    except (OSError, api.ScenarioError) as e:
        w.show_error("Cannot save the board", str(e))
        return None
    w.statusBar().showMessage(f"Imported VASL board {board.id} as {target}", 15000)
    offer_on_map(editor, board, target, report)
    return target


def offer_on_map(editor, board, target: str, report: list[str]) -> bool:
    """Show the import's report and offer to put the board on the map (one undo step)."""
    s = editor.document.scenario
    notes = ("\n\nNot imported or approximated:\n" + "\n".join(f"\u2022 {line}" for line in report)
             if report else "\n\nEverything was imported.")
    replacing = board.id in s.map.board_ids
    at = None if replacing else free_slot(s)
    offer = (f"Put it on the map in place of board {board.id}?" if replacing
             else f"Add it to the map in slot {list(at)}?")
    answer = QMessageBox.question(
        editor.window, "VASL board imported",
        f"Board {board.id} was saved as {target}.{notes}\n\n{offer}",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes)
    if answer != QMessageBox.StandardButton.Yes:
        return False
    if replacing:
        return editor.apply_layout(lambda s: with_board(s, board, ref=target),
                              f"board {board.id} from VASL", "Board replaced")
    return editor.apply_layout(lambda s: add_board(s, target, board, at),
                          f"add VASL board {board.id} at {list(at)}", "Board added")
