"""Autosave and crash recovery: unsaved work is never lost.

While the document has unsaved changes, an ``Autosaver`` writes the position to a recovery file
(atomically, like every save) a few seconds after the last change.  Saving, or closing normally,
removes it.  A recovery file still there at the next start means the program did not close
normally: the window offers it back.  The recovery file records the file it belongs to, so Save
then writes where the player expects.

Boards edited in the program and not saved as board files yet are written beside the
recovery file (``board-N-ID.json``) and the recovered position names them there; they still count
as unsaved after a restore (``app.editor.unsaved``), so saving the position asks where they go.

The window keeps one ``Autosaver`` for its document (``autosave_for``); at start-up
``offer_recovery`` asks the player whether to restore what a previous run left.

Failures are never silent: a recovery file that does not load is set aside under a numbered
name (``recovery.damaged``, ``recovery-2.damaged``...; none is overwritten) and the player told,
with a button that opens the folder; an autosave that cannot be written (a read-only or full
folder) shows in the status bar for as long as it fails, and once in a dialog.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel, QMessageBox

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


@dataclass
class Damaged:
    """A recovery file that did not load, set aside where the player can look at it."""
    problem: str                    # the engine's message
    file: Path | None               # where it now is (None: it could not even be moved)
    folder: Path


def pending(folder: Path | None = None) -> Recovered | None:
    """The unsaved work a previous run left behind, or None (also when it was damaged: see
    ``look``).  It must never stop the program starting."""
    found = look(folder)
    return found if isinstance(found, Recovered) else None


def look(folder: Path | None = None) -> Recovered | Damaged | None:
    """What a previous run left: its unsaved work, a damaged recovery file (now set aside under
    a numbered name), or None."""
    folder = folder or recovery_folder()
    path = folder / RECOVERY_NAME
    try:
        if not os.path.lexists(path):
            return None
        data = read_json(path)
        belongs = data.get(KEY) if isinstance(data, dict) else None
        s = scenario_from_json(data, file=str(path), folder=str(path.parent))
    except (api.ScenarioError, OSError, RecursionError) as e:
        return Damaged(str(e), set_aside(path), folder)
    extra = {k: v for k, v in s.extra.items() if k != KEY}
    return Recovered(s.replace(extra=extra), belongs if isinstance(belongs, str) else None, path)


def set_aside(path: Path) -> Path | None:
    """Rename a damaged recovery file ``recovery.damaged``, or ``recovery-N.damaged`` with the
    first N free: every damaged file is kept.  None when it cannot be moved."""
    for n in range(1, 10_000):
        name = "recovery.damaged" if n == 1 else f"recovery-{n}.damaged"
        target = path.with_name(name)
        if os.path.lexists(target):
            continue
        try:
            os.link(path, target)       # never over another file (a rename would be)
            os.unlink(path)
            return target
        except FileExistsError:
            continue
        except OSError:
            try:                        # a file system without hard links
                os.replace(path, target)
                return target
            except OSError:
                return None
    return None


def tell_damaged(parent, damaged: Damaged) -> None:
    """Tell the player a recovery file was damaged, where it now is, and offer its folder."""
    where = (f"It was kept as {damaged.file}." if damaged.file is not None
             else "It could not be moved aside.")
    answer = QMessageBox.warning(
        parent, "Recovery file damaged",
        f"Starshell did not close normally last time, but the unsaved work it kept could not "
        f"be read:\n\n{damaged.problem}\n\n{where}",
        QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Ok,
        QMessageBox.StandardButton.Ok)
    if answer == QMessageBox.StandardButton.Open:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(damaged.folder)))


def discard(folder: Path | None = None) -> None:
    folder = folder or recovery_folder()
    try:
        boards = sorted(folder.glob(BOARD_FILES)) if folder.is_dir() else []
    except OSError:                 # (a folder name too long...): nothing there to remove
        boards = []
    for path in [folder / RECOVERY_NAME] + boards:
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
    found = look(folder)
    if isinstance(found, Damaged):
        tell_damaged(parent, found)
        return None
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
    document.take_unsaved(found.scenario, found.belongs_to)
    return document


def autosave_for(window) -> "Autosaver":
    """The window's autosaver, made anew when the window holds another document."""
    old = getattr(window, "autosaver", None)
    if old is not None and old.document is window.document:
        return old
    if old is not None:
        old.detach()
    window.autosaver = Autosaver(window.document)
    _show_failures(window, window.autosaver)
    if not window.document.undo_stack.isClean():
        window.autosaver.write_now()
    return window.autosaver


def _show_failures(window, saver: "Autosaver") -> None:
    """An autosave that fails shows in the window's status bar while it fails, and the first
    failure in a dialog: unsaved work is then unprotected and the player must know."""
    label = getattr(window, "autosave_warning", None)
    if label is None:
        label = QLabel()
        label.setStyleSheet("color: #c00000; font-weight: bold")
        window.statusBar().addPermanentWidget(label)
        label.hide()
        window.autosave_warning = label

    def failed(text: str) -> None:
        label.setText("Autosave failed: unsaved work is not protected")
        label.setToolTip(text)
        label.show()
        if not getattr(window, "autosave_warned", False):
            window.autosave_warned = True
            QMessageBox.warning(window, "Autosave failed",
                                f"Unsaved changes cannot be kept for recovery after a crash:\n\n"
                                f"{text}\n\nSave your work. Starshell keeps trying, and the "
                                "status bar says so until it succeeds.")

    saver.signals.failed.connect(failed)
    saver.signals.written.connect(label.hide)


class AutosaveSignals(QObject):
    failed = Signal(str)        # the message: the recovery file could not be written
    written = Signal()          # written (or nothing to write)


class Autosaver:
    """Writes the document's unsaved work to the recovery file, and removes it once saved.

    A plain object (not a QObject child of the document): Qt may emit the undo stack's signals
    while the document is being destroyed, and a plain callable is always there to receive them.
    """

    def __init__(self, document, folder: Path | None = None, interval_ms: int = AUTOSAVE_MS):
        self.document = document
        self.folder = Path(folder) if folder else recovery_folder()
        self.last_error: str | None = None
        self.signals = AutosaveSignals(document)
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
        except (OSError, api.ScenarioError) as e:     # autosave must never break editing
            self.last_error = str(e)
            if isinstance(e, OSError) and e.filename:
                self.last_error = f"{e.filename}: {e.strerror or e}"
            self.signals.failed.emit(self.last_error)
            return
        if self.last_error is not None:
            self.last_error = None
            self.signals.written.emit()

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
