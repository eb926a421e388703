"""What every room's window does alike, in one base, ``RoomWindow``: save, save as (one
``_write``), the title with the modified mark, close (asking before unsaved work is dropped),
autosave and recovery (``app.recovery``), recent files, File > Export (``app.export``: a PNG,
and an SVG drawing where the room's view draws itself as one), File > Open of any room's file (the
window is handed ``open_other``, a door to every room, by ``app.rooms``; the file's kind is
``app.file_kinds``'), the other windows it keeps alive (``keep``) and an Edit menu on the undo
stack.  The bundled examples are never saved over (Save asks where, starting in the player's
documents folder).  A window knows its file as it opened or saved it last (``disk_stamp``): when
another window or program has written it since, the status bar says so on coming to the front
and Save asks before writing over it.

A room's window derives from ``RoomWindow`` and sets its class attributes: ``document_class``
(its ``app.room_document.RoomDocument``), ``view_class`` (its ``app.map_view.ZoomView``),
``file_filter`` and ``format`` (its files), ``recovery`` (its ``app.recovery.RoomRecovery``),
``default_name`` and ``save_title`` (Save As's first name and dialog title), ``room_title``
(the title's end), ``unsaved_title`` / ``unsaved_text`` (the question on closing unsaved
work) and ``export_kinds`` (what File > Export writes: "png", and "svg" where the view draws
itself as a drawing); it overrides ``export_scene_rect`` when Export draws a part of its scene
rather than the view as the player sees it; it calls ``start`` once its parts are built, puts
``add_export_actions`` in its File menu, and keeps only what is its own.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QEvent, QRectF, QSettings, QStandardPaths
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from engine import api

from .export import export_png, export_svg
from .file_filters import PNG_FILTER, SVG_FILTER
from .file_kinds import OPEN_FILTER, file_format
from .recent import RecentFiles
from .recovery import Autosaver, RoomRecovery, autosave_for, offer_recovery

TITLE_BYTES = 64 * 1024          # only the start of a bundled file is read for its title
# File > Export, alike in every room: (menu text, shortcut, dialog filter) of each kind
EXPORTS = {"png": ("&Export the view as PNG\u2026", "Ctrl+E", PNG_FILTER),
           "svg": ("Export the view as S&VG\u2026", "Ctrl+Shift+E", SVG_FILTER)}


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


def export_start(path, name: str, kind: str) -> str:
    """Where File > Export starts: the file's own name with the kind's suffix, beside it; for a
    bundled example (read-only) or a file never saved (``name``) in the documents folder."""
    return os.path.splitext(save_as_start(path, name))[0] + "." + kind


def edit_menu(window, undo_stack) -> None:
    """An Edit menu with the undo stack's Undo and Redo on their standard keys."""
    menu = window.menuBar().addMenu("&Edit")
    for action, keys in ((undo_stack.createUndoAction(window, "&Undo"), QKeySequence.StandardKey.Undo),
                         (undo_stack.createRedoAction(window, "&Redo"), QKeySequence.StandardKey.Redo)):
        action.setShortcut(keys)
        menu.addAction(action)


def disk_stamp(path) -> tuple | None:
    """What tells one version of a file on disk from another: its inode (a save renames a new
    file in), modification time and size; None when there is no file."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


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


class RoomWindow(QMainWindow):
    """The skeleton of a room's window (see the module's docstring).  ``document``: the room's
    document (a child of the window once shown in it); ``open_other``: the door to every room;
    ``settings``: the player's (recent files), unless given."""
    document_class: type | None = None      # the room's RoomDocument
    view_class: type | None = None          # the room's ZoomView
    file_filter = "Starshell files (*.json)"
    format = ""                             # the ``format`` of the room's files
    recovery: RoomRecovery | None = None
    default_name = "untitled.json"
    save_title = "Save as"                  # Save As's dialog
    room_title = "Starshell"
    unsaved_title = "Unsaved changes"
    unsaved_text = "Save the changes first?"
    export_kinds: tuple[str, ...] = ("png",)    # File > Export's kinds ("svg": the view draws one)

    def __init__(self, document, *, open_other=None, settings: QSettings | None = None,
                 parent=None):
        super().__init__(parent)
        self.open_other = open_other
        self.document = document
        if document.parent() is None:
            document.setParent(self)        # deleted with the window, by Qt (app.room_document)
        self.settings = settings if settings is not None else QSettings()
        self.recent = RecentFiles(self.settings)
        self.room_windows: list[QMainWindow] = []
        self.recent_menu = None
        self.on_disk: tuple = (None, None)      # (path, disk_stamp) as opened or saved last
        self.told_on_disk = None                # the stamp whose change was told

    def start(self) -> None:
        """The room's parts are built: the title follows the document, autosave starts, the
        file is known as it is on disk now."""
        self.document.undo_stack.cleanChanged.connect(self.update_title)
        self.document.fileChanged.connect(self.update_title)
        self.document.fileChanged.connect(self.stamp_file)
        self.stamp_file()
        self.document.changed.connect(self.update_title)
        self.autosaver = self.autosave()        # unsaved work survives a crash
        self.update_title()

    # -- the title ----------------------------------------------------------------------------------
    def title_name(self) -> str:
        """The title's first part: the file's name."""
        return os.path.basename(self.document.path) if self.document.path else "untitled"

    def update_title(self, *_) -> None:
        """The file's name, read-only for a bundled example, the modified mark ([*]) while
        there is unsaved work, and the room."""
        name = self.title_name()
        if is_bundled(self.document.path):
            name += " (read-only example)"
        self.setWindowTitle(f"{name}[*] \u2013 {self.room_title}")
        self.setWindowModified(not self.document.undo_stack.isClean())

    def say(self, text: str, ms: int = 5000) -> None:
        """A sentence in the status bar for ``ms`` milliseconds."""
        self.statusBar().showMessage(text, ms)

    # -- saving -------------------------------------------------------------------------------------
    def save(self) -> bool:
        """Save to the document's file; Save As for one never saved or a bundled example (never
        written over).  True once written."""
        path = self.document.path
        if path is None or is_bundled(path):
            return self.save_as()
        return self._write(path)

    def save_start(self) -> str:
        """The file Save As proposes."""
        return save_as_start(self.document.path, self.default_name)

    def save_as(self) -> bool:
        start = self.save_start()
        path, _ = QFileDialog.getSaveFileName(self, self.save_title, start, self.file_filter)
        if not path:
            return False
        if not path.lower().endswith(".json"):
            path += ".json"
        if is_bundled(path):
            QMessageBox.warning(self, "Save", f"{path}: the bundled examples are read-only; "
                                "choose another name in a folder of your own")
            return False
        return self._write(path)

    def before_write(self, path: str) -> bool:
        """What must be written before the document (a room's edited boards); False: nothing
        is written."""
        return True

    def _write(self, path: str) -> bool:
        """The one way a room's document is written: a refusal is told, the file stays as it
        was and the document keeps its path."""
        if not self.before_write(path):
            return False
        if self.changed_on_disk(path) and not self.may_write_over(path):
            return False
        try:
            self.document.save(path)
        except (api.ScenarioError, ValueError, OSError) as e:
            self.say(str(e), 15000)
            QMessageBox.critical(self, "Cannot save", str(e))
            return False
        self.recent.add(path)
        self.say(f"Saved {path}", 4000)
        self.update_title()
        return True

    # -- the file on disk ---------------------------------------------------------------------------
    def stamp_file(self, *_) -> None:
        """The document's file as this window opened or saved it last."""
        path = self.document.path
        self.on_disk = (path, disk_stamp(path) if path else None)

    def changed_on_disk(self, path) -> bool:
        """Whether ``path``, this window's file, was written by another window or program
        since this window opened or saved it (a file gone since is not: saving makes it)."""
        known_path, known = self.on_disk
        if path is None or path != known_path or known is None:
            return False
        now = disk_stamp(path)
        return now is not None and now != known

    def may_write_over(self, path: str) -> bool:
        """Save over a file another window or program wrote since: the player decides."""
        answer = QMessageBox.question(
            self, "File changed on disk",
            f"{path} was written by another window or program since this window opened or "
            "saved it. Save over it (what was written there is lost)?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Save

    def changeEvent(self, event) -> None:
        """Coming to the front: a file changed on disk since is told once in the status bar."""
        super().changeEvent(event)
        if event.type() != QEvent.Type.ActivationChange or not self.isActiveWindow():
            return
        path = self.document.path
        if self.changed_on_disk(path) and disk_stamp(path) != self.told_on_disk:
            self.told_on_disk = disk_stamp(path)
            self.say(f"{os.path.basename(path)} was written by another window or program "
                     "since this window opened or saved it: saving asks before writing over "
                     "it", 15000)

    # -- export -------------------------------------------------------------------------------------
    def export_scene_rect(self) -> QRectF | None:
        """The part of the scene File > Export draws (``app.export.SCENE_WIDTH`` pixels wide),
        or None (here): the view's visible area as the player sees it."""
        return None

    def add_export_actions(self, menu, before: QAction | None = None) -> list[QAction]:
        """File > Export's actions, one a kind, put in ``menu`` (before ``before``)."""
        self.export_actions = {}
        for kind in self.export_kinds:
            text, key, _ = EXPORTS[kind]
            action = QAction(text, self)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(lambda _=False, k=kind: self.export_dialog(k))
            self.addAction(action)
            if before is not None:
                menu.insertAction(before, action)
            else:
                menu.addAction(action)
            self.export_actions[kind] = action
        return list(self.export_actions.values())

    def export_dialog(self, kind: str = "png") -> bool:
        """Ask where, then export there; True once written."""
        start = export_start(self.document.path, self.default_name, kind)
        path, _ = QFileDialog.getSaveFileName(self, f"Export the view as {kind.upper()}", start,
                                              EXPORTS[kind][2])
        if not path:
            return False
        if not path.lower().endswith("." + kind):
            path += "." + kind
        return self.export(path, kind)

    def export(self, path: str, kind: str = "png") -> bool:
        """The view (or ``export_scene_rect``) written to ``path`` as ``kind``; a failure is
        told and leaves the file as it was (and the document untouched).  True once written."""
        try:
            if kind == "svg":
                export_svg(self.view, path)
            else:
                export_png(self.view, path, self.export_scene_rect())
        except OSError as e:
            self.say(str(e), 15000)
            QMessageBox.critical(self, "Cannot export", str(e))
            return False
        self.say(f"Exported {path}", 4000)
        return True

    # -- opening --------------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        """File > Open: any room's file, in a window of its room."""
        start = str(Path(self.document.path or ".").parent)
        path, _ = QFileDialog.getOpenFileName(self, "Open a file", start, OPEN_FILTER)
        if path:
            self.open_path(path)

    def open_path(self, path: str) -> bool:
        """``path`` in a window of the room its kind picks (``open_other``; without it, the
        room's own files alone), kept alive beside this one; a refused file shows the engine's
        message."""
        try:
            if self.open_other is not None:
                other = self.open_other(path)
            elif file_format(path) == self.format:      # no door: this room's files alone
                other = type(self)(self.document_class.open_file(path), settings=self.settings)
            else:
                QMessageBox.warning(self, "Open", f"{path}: this window opens no other file")
                return False
        except (api.ScenarioError, OSError) as e:
            QMessageBox.warning(self, "Open", str(e))
            return False
        self.keep(other)
        self.recent.add(path)
        return True

    def keep(self, window: QMainWindow) -> QMainWindow:
        """Another window, shown and kept alive as long as this one."""
        self.room_windows.append(window)
        window.show()
        return window

    def another(self, document) -> "RoomWindow":
        """A window of this room on ``document`` (a new position, an example), kept alive."""
        return self.keep(type(self)(document, open_other=self.open_other, settings=self.settings))

    def add_recent_menu(self, menu) -> None:
        """File > Open Recent: the files opened and saved last, in every room."""
        self.recent_menu = menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        paths = self.recent.paths()
        for path in paths:
            a = self.recent_menu.addAction(path.replace("&", "&&"))
            a.triggered.connect(lambda _=False, p=path: self._open_recent(p))
        if not paths:
            self.recent_menu.addAction("(none)").setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            self.recent_menu.addAction("Clear the list").triggered.connect(self.recent.clear)

    def _open_recent(self, path: str) -> None:
        if not os.path.exists(path):
            self.recent.remove(path)
        self.open_path(path)

    # -- closing, autosave, recovery ----------------------------------------------------------------
    def unsaved_question(self) -> str:
        """The question asked before unsaved work is dropped."""
        return self.unsaved_text

    def may_discard(self) -> bool:
        """True when nothing is unsaved, or the player saves or drops it."""
        return may_discard(self, self.document.undo_stack.isClean(), self.unsaved_title,
                           self.unsaved_question(), self.save)

    def closing(self) -> None:
        """The window closes (its unsaved work saved or dropped): a room lets go of its own."""

    def closeEvent(self, event) -> None:
        if self.may_discard():
            self.autosaver.finish()
            self.closing()
            event.accept()
        else:
            event.ignore()

    def autosave(self) -> Autosaver:
        """The window's Autosaver (made anew when the window holds another document)."""
        return autosave_for(self, self.recovery)

    @classmethod
    def recovered(cls, *, open_other=None, **options) -> "RoomWindow | None":
        """A window on the room's work a crash left, if the player restores it, else None."""
        document = offer_recovery(cls.recovery)
        return None if document is None else cls(document, open_other=open_other, **options)
