"""Autosave and crash recovery: unsaved work is never lost.

While the document has unsaved changes, an ``Autosaver`` writes the position to a recovery file
(atomically, like every save) a few seconds after the last change.  Saving, or closing normally,
removes it.  A recovery file still there at the next start means the program did not close
normally: the window offers it back.  The recovery file records the file it belongs to, so Save
then writes where the player expects.

Every Autosaver writes in a slot of its own, a sub-folder ``<pid>-<n>`` of the recovery folder
holding ``recovery.json`` and an ``owner`` file with the pid of the process that writes there:
two main windows, or two Starshell processes, never write over (nor, closing, delete) each
other's work.  A slot whose owner is another process still running is never offered; one whose
owner is gone (or is this process: at start-up no window of ours has written yet, so the slot
is an earlier run's that had our pid) is.  A ``recovery.json`` at the folder's top is what an
earlier version left: it is offered too.

Boards edited in the program and not saved as board files yet are written beside the
recovery file (``board-N-ID.json``) and the recovered position names them there; they still count
as unsaved after a restore (``app.night.editor.unsaved``), so saving the position asks where they go.

The window keeps one ``Autosaver`` for its document (``autosave_for``); at start-up
``offer_recovery`` asks the player, slot after slot, whether to restore what a previous run
left: the first one restored opens in the window (its Autosaver takes its slot over, so the
work is never unprotected); slots left after it are offered at the next start.

Failures are never silent: a recovery file that does not load is set aside under a numbered
name (``recovery.damaged``, ``recovery-2.damaged``...; none is overwritten) and the player told,
with a button that opens the folder; an autosave that cannot be written (a read-only or full
folder) shows in the status bar for as long as it fails, and once in a dialog.
"""
from __future__ import annotations

import itertools
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel, QMessageBox

from engine import api
from engine.api import atomic_write_json, board_to_json, read_json

from .document import Document
from .editor.unsaved import unsaved_boards
from .recovery_place import recovery_folder

AUTOSAVE_MS = 3000
RECOVERY_NAME = "recovery.json"
BOARD_FILES = "board-*.json"         # edited boards of the recovered position
KEY = "starshell_recovery_of"        # an extra key of the scenario format: the file it belongs to
OWNER = "owner"                      # in a slot: the pid of the process that writes there
_slot_numbers = itertools.count(1)


@dataclass
class Recovered:
    scenario: api.night.Scenario
    belongs_to: str | None          # the file the unsaved work was for (None: never saved)
    file: Path

    @property
    def slot(self) -> Path:
        """The folder of its files (the recovery folder itself for an earlier version's)."""
        return self.file.parent


@dataclass
class Damaged:
    """A recovery file that did not load, set aside where the player can look at it."""
    problem: str                    # the engine's message
    file: Path | None               # where it now is (None: it could not even be moved)
    folder: Path
    was: Path | None = None         # where it was found


def pending(folder: Path | None = None) -> Recovered | None:
    """The unsaved work a previous run left behind, or None (also when it was damaged: see
    ``look``).  It must never stop the program starting."""
    found = look(folder)
    return found if isinstance(found, Recovered) else None


def look(folder: Path | None = None, skip=()) -> Recovered | Damaged | None:
    """What a previous run left: the first unsaved work (an earlier version's file at the
    folder's top, then the slots of processes no longer running, oldest first), a damaged
    recovery file (now set aside under a numbered name in the folder), or None.  ``skip``:
    recovery files already dealt with (one that could not be removed is not offered twice)."""
    folder = folder or recovery_folder()
    for path in left_behind(folder):
        if path in skip:
            continue
        try:
            if not os.path.lexists(path):
                continue                # (removed meanwhile by its owner)
            data = read_json(path)
            belongs = data.get(KEY) if isinstance(data, dict) else None
            s = api.night.scenario_from_json(data, file=str(path), folder=str(path.parent))
        except (api.ScenarioError, OSError, RecursionError) as e:
            aside = set_aside(path, folder)
            if path.parent != folder:
                _remove_lock(path.parent)
            return Damaged(str(e), aside, folder, path)
        extra = {k: v for k, v in s.extra.items() if k != KEY}
        return Recovered(s.replace(extra=extra), belongs if isinstance(belongs, str) else None,
                         path)
    return None


def left_behind(folder: Path) -> list[Path]:
    """The recovery files to offer: the top one, then every slot's whose owner is not another
    running process (oldest first).  Empty slots left by a gone process are removed."""
    try:
        if not folder.is_dir():
            return []
        found = [folder / RECOVERY_NAME] if os.path.lexists(folder / RECOVERY_NAME) else []
        slots = [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:                 # (a folder name too long...): nothing to offer
        return []
    kept = []
    for slot in slots:
        if _held_elsewhere(slot):
            continue
        path = slot / RECOVERY_NAME
        try:
            kept.append((path.lstat().st_mtime, path))
        except OSError:             # no recovery file: a gone process's empty slot
            _remove_lock(slot)
            try:
                slot.rmdir()
            except OSError:         # (boards of a damaged file kept in it)
                pass
    return found + [p for _, p in sorted(kept)]


def _held_elsewhere(slot: Path) -> bool:
    """Whether the slot's owner is another process still running."""
    try:
        with open(slot / OWNER, "rb") as f:
            pid = int(f.read(32).decode("ascii").strip())
    except (OSError, ValueError, UnicodeDecodeError):
        return False                # no owner (or a damaged one): nobody holds it
    return pid != os.getpid() and pid > 0 and process_running(pid)


def process_running(pid: int) -> bool:
    """Whether a process ``pid`` runs now (a pid taken over by another program counts too)."""
    if sys.platform == "win32":     # os.kill(pid, 0) would send it Ctrl+C there
        import ctypes
        kernel32 = ctypes.windll.kernel32
        handle = kernel32.OpenProcess(0x1000, False, pid)    # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        try:
            ok = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        finally:
            kernel32.CloseHandle(handle)
        return bool(ok) and code.value == 259                # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:         # someone else's process: it runs
        return True
    except (OSError, OverflowError):
        return False
    return True


def _claim(slot: Path) -> None:
    """Make ``slot`` this process's: another process started meanwhile must not offer it."""
    slot.mkdir(parents=True, exist_ok=True)
    atomic_write_text(slot / OWNER, str(os.getpid()))


def atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="ascii")
    os.replace(tmp, path)


def _remove_lock(slot: Path) -> None:
    try:
        (slot / OWNER).unlink()
    except OSError:
        pass


def set_aside(path: Path, folder: Path | None = None) -> Path | None:
    """Rename a damaged recovery file ``recovery.damaged``, or ``recovery-N.damaged`` with the
    first N free, in ``folder`` (by default its own): every damaged file is kept.  None when it
    cannot be moved."""
    folder = folder or path.parent
    for n in range(1, 10_000):
        name = "recovery.damaged" if n == 1 else f"recovery-{n}.damaged"
        target = folder / name
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


def discard(folder: Path | None = None, slot: Path | None = None) -> None:
    """Remove one slot's recovery files and the slot (``slot``: an Autosaver's own), or, with
    no slot, an earlier version's at the top of ``folder``.  Other slots are never touched."""
    top = folder or recovery_folder()
    where = slot or top
    try:
        boards = sorted(where.glob(BOARD_FILES)) if where.is_dir() else []
    except OSError:                 # (a folder name too long...): nothing there to remove
        boards = []
    for path in [where / RECOVERY_NAME] + boards + ([where / OWNER] if slot else []):
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError:             # a file in use (Windows): the next write replaces it
            pass
    if slot is not None:
        try:
            slot.rmdir()
        except OSError:             # (not empty, or already gone)
            pass


def _discard_found(found: Recovered, folder: Path | None) -> None:
    top = folder or recovery_folder()
    discard(top, None if found.slot == top else found.slot)


def offer_recovery(parent=None, folder: Path | None = None):
    """At start-up: when previous runs left unsaved work, ask, one slot after another, whether to
    restore it.  Returns a Document on the first restored position (its file: the one the work
    belongs to; not clean, so the title shows unsaved changes), or None (nothing left, or the
    player declined each: a declined one is removed).  Slots after the restored one stay for
    the next start; damaged ones are set aside and told."""
    seen: set[Path] = set()
    while True:
        found = look(folder, seen)
        if found is None:
            return None
        seen.add(found.was if isinstance(found, Damaged) else found.file)
        if isinstance(found, Damaged):
            tell_damaged(parent, found)
            continue
        what = (f"the position {found.belongs_to}" if found.belongs_to
                else "a position that was never saved")
        answer = QMessageBox.question(
            parent, "Restore unsaved work?",
            f"Starshell did not close normally last time. Unsaved changes to {what} were kept."
            "\n\nRestore them? (No: they are deleted. Other unsaved work kept is offered after "
            "this, or at the next start.)",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            _discard_found(found, folder)
            continue
        return restored_document(found, folder)


def restored_document(found: Recovered, folder: Path | None = None):
    """The Document of restored work.  Its slot becomes this process's at once, and the
    document's Autosaver writes on in it (``recovery_slot``); an earlier version's file moves
    to a new slot first."""
    document = Document(found.scenario, found.belongs_to)
    document.take_unsaved(found.scenario, found.belongs_to)
    top = folder or recovery_folder()
    try:
        if found.slot == top:           # an earlier version's: its boards are in memory now
            slot = new_slot(top)
            _claim(slot)
            os.replace(found.file, slot / RECOVERY_NAME)
            for board in top.glob(BOARD_FILES):
                os.replace(board, slot / board.name)
        else:
            slot = found.slot
            _claim(slot)
    except OSError:                     # the window's Autosaver writes a slot of its own
        return document
    document.recovery_slot = slot
    return document


def new_slot(folder: Path) -> Path:
    """A slot name no Autosaver of this process, nor an earlier run with our pid, has taken."""
    while True:
        slot = folder / f"{os.getpid()}-{next(_slot_numbers)}"
        try:
            if not os.path.lexists(slot):
                return slot
        except OSError:
            return slot


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
        taken = getattr(document, "recovery_slot", None)     # restored: writes on in its slot
        self.slot_name = (taken.name if taken is not None and taken.parent == self.folder
                          else new_slot(self.folder).name)
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
    def slot(self) -> Path:
        """The folder of this Autosaver's own files, in the recovery folder."""
        return self.folder / self.slot_name

    @property
    def file(self) -> Path:
        return self.slot / RECOVERY_NAME

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
        discard(self.folder, self.slot)

    def write_now(self) -> None:
        """Write the recovery file now (when there is unsaved work)."""
        if self.document.undo_stack.isClean():
            return
        try:
            _claim(self.slot)
            s = self.document.scenario
            data = api.night.scenario_to_json(s, self.slot)
            for k in unsaved_boards(s, self.slot):
                board = s.map.placements[k].board
                path = self.slot / f"board-{k}-{board.id}.json"
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
        discard(self.folder, self.slot)

    def detach(self) -> None:
        """Stop following the document (another one replaces it in the window): its unsaved
        work was saved or given up, so its slot goes."""
        self._timer.stop()
        discard(self.folder, self.slot)
        for signal, slot in ((self.document.undo_stack.indexChanged, self._changed),
                             (self.document.undo_stack.cleanChanged, self._clean_changed)):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
