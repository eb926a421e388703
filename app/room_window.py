"""What every room's window does alike: ask before unsaved work is dropped, open a file of any
room (File > Open; the window is handed ``open_other``, a door to every room, by ``app.rooms``),
an Edit menu on the undo stack; the bundled examples are never saved over (Save asks where,
starting in the player's documents folder)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from engine import api

from .file_filters import OPEN_FILTER


def file_format(path: str) -> str | None:
    """The ``format`` a JSON file names, or None for a file that is not JSON (a VASL saved game,
    which the night room imports).  Raises api.ScenarioError for a JSON file that cannot be read."""
    if not str(path).lower().endswith(".json"):
        return None
    return api.file_format(path)


TITLE_BYTES = 64 * 1024          # only the start of a bundled file is read for its title


def bundled_examples(folder: Path, first: str = "") -> list[tuple[str, Path]]:
    """(menu text: the file's title, path) of each bundled file of ``folder``, the one named
    ``first`` first, then by name."""
    out = []
    for p in sorted(folder.glob("*.json"), key=lambda p: (p.stem != first, p.stem)):
        title = p.stem
        try:
            with open(p, "rb") as f:
                title = json.loads(f.read(TITLE_BYTES)).get("title") or p.stem
        except (OSError, ValueError, AttributeError):
            pass                # a title is a nicety: the file name will do
        out.append((title, p))
    return out


def is_bundled(path) -> bool:
    """True for a file of the bundled assets (saving over it would change the program)."""
    if path is None:
        return False
    try:
        return Path(path).resolve().is_relative_to(api.assets_dir().resolve())
    except (OSError, ValueError):
        return False


def documents_folder() -> str:
    """The user's documents folder, or the home folder when it does not exist (a file dialog
    started in a missing folder opens in the current one instead, often the program's own)."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return docs if docs and os.path.isdir(docs) else os.path.expanduser("~")


def save_as_start(path, name: str) -> str:
    """Where Save As starts: beside the file's own path, or for a bundled example (or a file
    never saved: ``name``) in the documents folder."""
    if path is None:
        return os.path.join(documents_folder(), name)
    if is_bundled(path):
        return os.path.join(documents_folder(), os.path.basename(path))
    return str(path)


def open_elsewhere(window, start: str) -> None:
    """File > Open of a room's window: the file chosen opens in a window of the room its format
    picks (``window.open_other``, given by ``app.rooms``), kept alive by ``window.room_windows``;
    a refused file shows the engine's message."""
    path, _ = QFileDialog.getOpenFileName(window, "Open a file", start, OPEN_FILTER)
    if not path:
        return
    if window.open_other is None:
        QMessageBox.warning(window, "Open", f"{path}: this window opens no other file")
        return
    try:
        other = window.open_other(path)
    except (api.ScenarioError, OSError) as e:
        QMessageBox.warning(window, "Open", str(e))
        return
    window.room_windows = [*getattr(window, "room_windows", []), other]
    other.show()


def edit_menu(window, undo_stack) -> None:
    """An Edit menu with the undo stack's Undo and Redo on their standard keys."""
    menu = window.menuBar().addMenu("&Edit")
    for action, keys in ((undo_stack.createUndoAction(window, "&Undo"), QKeySequence.StandardKey.Undo),
                         (undo_stack.createRedoAction(window, "&Redo"), QKeySequence.StandardKey.Redo)):
        action.setShortcut(keys)
        menu.addAction(action)


def may_discard(window, clean: bool, title: str, text: str, save) -> bool:
    """True when there is nothing unsaved (``clean``), or the player saves (``save()`` returns
    True once written) or drops it; False when they cancel or the save fails."""
    if clean:
        return True
    answer = QMessageBox.question(
        window, title, text,
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)      # Enter neither writes nor drops anything
    if answer == QMessageBox.StandardButton.Save:
        return save()
    return answer == QMessageBox.StandardButton.Discard


def close_event(window, event, clean: bool, title: str, text: str, save) -> None:
    """A room window's ``closeEvent``: closes unless the player keeps the unsaved work open."""
    if may_discard(window, clean, title, text, save):
        event.accept()
    else:
        event.ignore()
