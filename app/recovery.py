"""Autosave and crash recovery shared by every room: unsaved work is never lost.

While a document has unsaved changes, an ``Autosaver`` writes it to a recovery file (atomically,
like every save) a few seconds after the last change.  Saving, or closing normally, removes it.
A recovery file still there at the next start means the program did not close normally: the
room's window offers it back.  The file records the file it belongs to (``KEY``), so Save then
writes where the player expects.

Every Autosaver writes in a slot of its own, a sub-folder ``<pid>-<n>`` of the recovery folder
holding ``recovery.json`` and an ``owner`` file that the process writing there holds locked for
as long as it runs (``api.hold_owner``; the pid in it is for a reader): two windows, or two
Starshell processes, never write over (nor, closing, delete) each other's work.  A slot whose
owner file another running Starshell holds is never offered; one whose owner is gone (its lock
died with it, whatever process took its pid since, pid 1 too), or is this process (at start-up
no window of ours has written yet), is.

Each room says what it keeps with a ``RoomRecovery``: the ``format`` its recovery files carry
(a room never offers, nor sets aside, another room's), how a document becomes JSON and how the
JSON becomes a document again.  The night room (``app.night.recovery``) adds its edited boards.

Failures are never silent: a recovery file that does not load is set aside under a numbered name
(``recovery.damaged``, ``recovery-2.damaged``...; none is overwritten) and the player told; an
autosave that cannot be written shows in the status bar for as long as it fails, and once in a
dialog.  Nothing in a recovery file can stop the program starting.
"""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QStandardPaths, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel, QMessageBox

from engine import api

AUTOSAVE_MS = 3000
RECOVERY_NAME = "recovery.json"
BOARD_FILES = "board-*.json"         # the night room's edited boards, beside its recovery file
KEY = "starshell_recovery_of"        # an extra key of every room's format: the file it belongs to
OWNER = "owner"                      # in a slot: the pid of the process that writes there
_slot_numbers = itertools.count(1)
# what a hostile or damaged recovery file may raise while it is read: it is set aside, told
UNREADABLE = (api.ScenarioError, OSError, RecursionError, ValueError, TypeError, KeyError,
              AttributeError, IndexError, OverflowError, MemoryError)


@dataclass(frozen=True)
class RoomRecovery:
    """What a room keeps for recovery.  ``formats``: the ``format`` values of its files (None:
    a file without one, an earlier version's); ``to_json(document, slot)``: the recovery file's
    content; ``from_json(data, recovery_file, belongs_to)``: what is restored (raises
    api.ScenarioError); ``document(content, belongs_to)``: a Document on it."""
    formats: frozenset
    to_json: Callable[[Any, Path], dict]
    from_json: Callable[[Any, Path, "str | None"], Any]
    document: Callable[[Any, "str | None"], Any]


@dataclass
class Recovered:
    content: Any                    # the room's restored content (a scenario, a position...)
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


def recovery_folder() -> Path:
    """Where recovery files live: ``STARSHELL_RECOVERY_DIR`` or the user's app data folder."""
    env = os.environ.get("STARSHELL_RECOVERY_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".starshell") / "recovery"


def problem_text(path: Path, error: BaseException) -> str:
    """The message of a recovery file that could not be read, naming it."""
    text = str(error) or type(error).__name__
    return text if str(path) in text else f"{path}: {text}"


def look(room: RoomRecovery, folder: Path | None = None, skip=()) -> Recovered | Damaged | None:
    """What a previous run left for ``room``: its first unsaved work (an earlier version's file
    at the folder's top, then the slots of processes no longer running, oldest first), a damaged
    recovery file (now set aside under a numbered name in the folder), or None.  Another room's
    files are left for it.  ``skip``: recovery files already dealt with."""
    folder = folder or recovery_folder()
    for path in left_behind(folder):
        if path in skip:
            continue
        try:
            if not os.path.lexists(path):
                continue                # (removed meanwhile by its owner)
            data = api.read_json(path)
            fmt = data.get("format") if isinstance(data, dict) else None
            if fmt not in room.formats and isinstance(fmt, str) and fmt in ALL_FORMATS:
                continue                # another room's: it offers it
            belongs = data.get(KEY) if isinstance(data, dict) else None
            belongs = belongs if isinstance(belongs, str) and "\0" not in belongs else None
            if isinstance(data, dict):      # the key is the recovery file's, not the format's
                data = {k: v for k, v in data.items() if k != KEY}
            content = room.from_json(data, path, belongs)
        except UNREADABLE as e:
            moved = set_aside(path, folder)
            if path.parent != folder:
                _remove_lock(path.parent)
            return Damaged(problem_text(path, e), moved, folder, path)
        return Recovered(content, belongs, path)
    return None


# every room's recovery formats (and any ``register`` adds): a room leaves the others' alone
ALL_FORMATS: set[str] = {"starshell-scenario", api.napoleonic.FIRE_FORMAT, api.tabletop.FORMAT}


def register(room: RoomRecovery) -> RoomRecovery:
    """Make ``room``'s formats known, so no other room takes its recovery files for damaged."""
    ALL_FORMATS.update(f for f in room.formats if f)
    return room


def left_behind(folder: Path) -> list[Path]:
    """The recovery files to offer: the top one, then every slot's whose owner is not another
    running process (oldest first).  Empty slots left by a gone process are removed."""
    try:
        if not folder.is_dir():
            return []
        found = [folder / RECOVERY_NAME] if os.path.lexists(folder / RECOVERY_NAME) else []
        slots = [p for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
    except (OSError, ValueError):   # (a folder name too long, a NUL...): nothing to offer
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


_HELD: dict[Path, int] = {}         # this process's slots: the owner file each holds locked


def _held_elsewhere(slot: Path) -> bool:
    """Whether another Starshell still running holds the slot (its owner file locked): a pid
    alone says nothing, another program may have it now."""
    return slot not in _HELD and api.owner_held(slot / OWNER)


def claim(slot: Path) -> None:
    """Make ``slot`` this process's, its owner file held for as long as it runs: another
    process started meanwhile must not offer it.  OSError when another holds it."""
    if slot in _HELD:
        return
    api.own_folder(slot, parents=True)          # no link: the program's own folder
    fd = api.hold_owner(slot / OWNER, str(os.getpid()))
    if fd is None:
        raise OSError(f"{slot}: held by another Starshell")
    _HELD[slot] = fd


def _remove_lock(slot: Path) -> None:
    fd = _HELD.pop(slot, None)
    if fd is not None:
        api.release_owner(fd)
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
    if slot is not None:
        _remove_lock(slot)
    for path in [where / RECOVERY_NAME] + boards:
        try:
            path.unlink()
        except OSError:             # gone already, or in use (Windows): the next write replaces it
            pass
    if slot is not None:
        try:
            slot.rmdir()
        except OSError:             # (not empty, or already gone)
            pass


def discard_found(found: Recovered, folder: Path | None) -> None:
    top = folder or recovery_folder()
    discard(top, None if found.slot == top else found.slot)


def ask_restore(parent, found: Recovered) -> bool:
    """Whether the player wants ``found`` back."""
    what = (f"the file {found.belongs_to}" if found.belongs_to else "a file that was never saved")
    title = getattr(found.content, "title", "")
    if title:                       # which position, table...: the player may have several
        what = f"\u201c{title}\u201d ({what})"
    answer = QMessageBox.question(
        parent, "Restore unsaved work?",
        f"Starshell did not close normally last time. Unsaved changes to {what} were kept."
        "\n\nRestore them? (No: they are deleted. Other unsaved work kept is offered after "
        "this, or at the next start.)",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.Yes)
    return answer == QMessageBox.StandardButton.Yes


def offer_recovery(room: RoomRecovery, parent=None, folder: Path | None = None):
    """At start-up: when previous runs left ``room``'s unsaved work, ask, one slot after
    another, whether to restore it.  Returns a Document on the first restored (its file: the one
    the work belongs to; not clean), or None (nothing left, or each declined: a declined one is
    removed).  Damaged ones are set aside and told."""
    seen: set[Path] = set()
    while True:
        found = look(room, folder, seen)
        if found is None:
            return None
        seen.add(found.was if isinstance(found, Damaged) else found.file)
        if isinstance(found, Damaged):
            tell_damaged(parent, found)
            continue
        if not ask_restore(parent, found):
            discard_found(found, folder)
            continue
        document = room.document(found.content, found.belongs_to)
        document.undo_stack.resetClean()        # unsaved: Save writes it, a close asks
        take_slot(document, found, folder)
        return document


def take_slot(document, found: Recovered, folder: Path | None = None) -> None:
    """The restored work's slot becomes this process's at once, and the document's Autosaver
    writes on in it (``document.recovery_slot``); an earlier version's file moves to a new slot
    first."""
    top = folder or recovery_folder()
    try:
        if found.slot == top:           # an earlier version's: its boards are in memory now
            slot = new_slot(top)
            claim(slot)
            os.replace(found.file, slot / RECOVERY_NAME)
            for board in top.glob(BOARD_FILES):
                os.replace(board, slot / board.name)
        else:
            slot = found.slot
            claim(slot)
    except (OSError, api.ScenarioError):    # the window's Autosaver writes a slot of its own
        return
    document.recovery_slot = slot


def new_slot(folder: Path) -> Path:
    """A slot name no Autosaver of this process, nor an earlier run with our pid, has taken."""
    while True:
        slot = folder / f"{os.getpid()}-{next(_slot_numbers)}"
        try:
            if not os.path.lexists(slot):
                return slot
        except OSError:
            return slot


def autosave_for(window, room: RoomRecovery | None = None, make=None) -> "Autosaver":
    """The window's autosaver (``window.autosaver``), made anew when the window holds another
    document: ``make(document)`` or an Autosaver with ``room``'s JSON."""
    old = getattr(window, "autosaver", None)
    if old is not None and old.document is window.document:
        return old
    if old is not None:
        old.detach()
    window.autosaver = make(window.document) if make else Autosaver(window.document,
                                                                    room.to_json)
    show_failures(window, window.autosaver)
    if not window.document.undo_stack.isClean():
        window.autosaver.write_now()
    return window.autosaver


def show_failures(window, saver: "Autosaver") -> None:
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
    ``to_json(document, slot)``: the recovery file's content.

    A plain object (not a QObject child of the document): Qt may emit the undo stack's signals
    while the document is being destroyed, and a plain callable is always there to receive them.
    """

    def __init__(self, document, to_json=None, folder: Path | None = None,
                 interval_ms: int = AUTOSAVE_MS):
        self.document = document
        self.to_json = to_json
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
        # after a push or an undo the stack knows whether the work is saved (during the
        # command's redo it does not yet), so follow its index
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

    def contents(self) -> dict:
        """The recovery file's JSON (raises OSError, api.ScenarioError)."""
        return self.to_json(self.document, self.slot)

    def write_now(self) -> None:
        """Write the recovery file now (when there is unsaved work)."""
        if self.document.undo_stack.isClean():
            return
        try:
            claim(self.slot)
            data = self.contents()
            data[KEY] = (str(Path(self.document.path).resolve()) if self.document.path
                         else None)
            api.atomic_write_json(self.file, data, backup=False)
        except (OSError, ValueError, api.ScenarioError) as e:   # never breaks editing
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
