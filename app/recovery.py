"""Autosave and crash recovery (issue 8): unsaved work is never lost.

While the document has unsaved changes, an ``Autosaver`` writes the position to a recovery file
(atomically, like every save) a few seconds after the last change.  Saving, or closing normally,
removes it.  A recovery file still there at the next start means the program did not close
normally: the window offers it back.  The recovery file records the file it belongs to, so Save
then writes where the player expects.

Boards edited in the program and not saved as board files yet (issue 10) are written beside the
recovery file (``board-N-ID.json``) and the recovered position names them there; they still count
as unsaved after a restore (``app.editor.unsaved``), so saving the position asks where they go.

The window keeps one ``Autosaver`` for its document (``autosave_for``); at start-up
``offer_recovery`` asks the player whether to restore what a previous run left.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox

from engine import api
from engine.api import atomic_write_json, board_to_json, read_json, scenario_from_json, scenario_to_json

from .editor.unsaved import unsaved_boards

AUTOSAVE_MS = 3000
RECOVERY_NAME = "recovery.json"
BOARD_FILES = "board-*.json"         # edited boards of the recovered position
KEY = "starshell_recovery_of"        # an extra key of the scenario format: the file it belongs to


def recovery_folder() -> Path:
    """Where recovery files live: ``STARSHELL_RECOVERY_DIR`` or the user's app data folder."""
    env = os.environ.get("STARSHELL_RECOVERY_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".starshell") / "recovery"


@dataclass
class Recovered:
    scenario: api.Scenario
    belongs_to: str | None          # the file the unsaved work was for (None: never saved)
    file: Path


def pending(folder: Path | None = None) -> Recovered | None:
    """The unsaved work a previous run left behind, or None.  A damaged recovery file is set
    aside (renamed ``.damaged``) and None returned: it must never stop the program starting."""
    path = (folder or recovery_folder()) / RECOVERY_NAME
    if not path.is_file():
        return None
    try:
        data = read_json(path)
        belongs = data.get(KEY) if isinstance(data, dict) else None
        s = scenario_from_json(data, file=str(path), folder=str(path.parent))
    except api.ScenarioError:
        try:
            os.replace(path, path.with_suffix(".damaged"))
        except OSError:
            pass
        return None
    extra = {k: v for k, v in s.extra.items() if k != KEY}
    return Recovered(s.replace(extra=extra), belongs if isinstance(belongs, str) else None, path)


def discard(folder: Path | None = None) -> None:
    folder = folder or recovery_folder()
    for path in [folder / RECOVERY_NAME] + (sorted(folder.glob(BOARD_FILES))
                                            if folder.is_dir() else []):
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError:             # a file in use (Windows): the next write replaces it
            pass


def offer_recovery(parent=None, folder: Path | None = None):
    """At start-up: when a previous run left unsaved work, ask whether to restore it.  Returns a
    Document on the restored position (its file: the one the work belongs to; not clean, so the
    title shows unsaved changes), or None (nothing left, or the player declined: then the
    recovery file is removed)."""
    found = pending(folder)
    if found is None:
        return None
    what = (f"the position {found.belongs_to}" if found.belongs_to
            else "a position that was never saved")
    answer = QMessageBox.question(
        parent, "Restore unsaved work?",
        f"Starshell did not close normally last time. Unsaved changes to {what} were kept.\n\n"
        "Restore them? (No: they are deleted.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes)
    if answer != QMessageBox.StandardButton.Yes:
        discard(folder)
        return None
    return restored_document(found)


def restored_document(found: Recovered):
    from .document import Document
    document = Document(found.scenario, found.belongs_to)
    document.undo_stack.resetClean()        # unsaved: the title says so, closing asks
    return document


def autosave_for(window) -> "Autosaver":
    """The window's autosaver, made anew when the window holds another document."""
    old = getattr(window, "autosaver", None)
    if old is not None and old.document is window.document:
        return old
    if old is not None:
        old.detach()
    window.autosaver = Autosaver(window.document)
    if not window.document.undo_stack.isClean():
        window.autosaver.write_now()
    return window.autosaver


class Autosaver:
    """Writes the document's unsaved work to the recovery file, and removes it once saved.

    A plain object (not a QObject child of the document): Qt may emit the undo stack's signals
    while the document is being destroyed, and a plain callable is always there to receive them.
    """

    def __init__(self, document, folder: Path | None = None, interval_ms: int = AUTOSAVE_MS):
        self.document = document
        self.folder = Path(folder) if folder else recovery_folder()
        self.last_error: str | None = None
        self._timer = QTimer(document)
        self._timer.setSingleShot(True)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.write_now)
        # after a push or an undo the stack knows whether the position is saved (during the
        # command's redo it does not yet), so follow its index rather than the scenario
        document.undo_stack.indexChanged.connect(self._changed)
        document.undo_stack.cleanChanged.connect(self._clean_changed)

    @property
    def file(self) -> Path:
        return self.folder / RECOVERY_NAME

    def _changed(self, *_) -> None:
        try:
            if not self.document.undo_stack.isClean():
                self._timer.start()
        except RuntimeError:        # the stack says goodbye while the window is destroyed
            pass

    def _clean_changed(self, clean: bool) -> None:
        if not clean:
            return
        try:
            self._timer.stop()
        except RuntimeError:        # (as above): not a save, nothing to remove
            return
        discard(self.folder)

    def write_now(self) -> None:
        """Write the recovery file now (when there is unsaved work)."""
        if self.document.undo_stack.isClean():
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            s = self.document.scenario
            data = scenario_to_json(s, self.folder)
            for k in unsaved_boards(s, self.folder):
                board = s.map.placements[k].board
                path = self.folder / f"board-{k}-{board.id}.json"
                atomic_write_json(path, board_to_json(board), backup=False)
                data["map"][k]["board"] = str(path.resolve())
            data[KEY] = (str(Path(self.document.path).resolve()) if self.document.path
                         else None)
            atomic_write_json(self.file, data, backup=False)
            self.last_error = None
        except (OSError, api.ScenarioError) as e:     # autosave must never break editing
            self.last_error = str(e)

    def finish(self) -> None:
        """A normal close: nothing to recover."""
        self._timer.stop()
        discard(self.folder)

    def detach(self) -> None:
        """Stop following the document (another one replaces it in the window)."""
        self._timer.stop()
        for signal, slot in ((self.document.undo_stack.indexChanged, self._changed),
                             (self.document.undo_stack.cleanChanged, self._clean_changed)):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
