"""Following a VASL game: File > Follow VASL save (``python -m app --follow GAME.vsav``) watches
the save (or, asked so, the newest save of a folder) and reloads it whenever VASL writes it;
File > Stop following ends it.  What the player looks at stays: the view and its zoom, the
selected unit (found again by its counter, VASSAL's piece id), the side view and the tool.  What
the player set that the save does not say stays too (``api.vasl.merge_reading``): the NVR when
the save gives none, the starshell state, the turn without VASL's turn marker, units moved or
changed by hand (when the save moved or changed them too, the player is asked whether to keep
them).  The status bar says each change made ("4-6-7 (ge1) moved to 2K7, NVR 2 from the save"),
and the follower's ``log`` keeps every sentence.  A file still being written cannot be read yet:
it is tried again a little later, and the position shown stays until a whole reading arrives.
"""
from __future__ import annotations

import os
import zipfile
import zlib

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox

from app.file_filters import VSAV_FILTER
from app.room_window import may_discard
from engine import api

from .sides_dialog import choose_sides
from .vsav_open import boards_folder

SETTLE_MS = 300          # VASL writes a save in pieces: wait until it is quiet
RETRY_MS = 700           # a file that cannot be read yet: again after this
MAX_RETRIES = 8
LOG_SHOWN = 20           # the last sentences of the log in the status bar label's tooltip
# what reading a save being written may raise: ScenarioError is a ValueError; a ZIP cut short
UNREADABLE = (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error)


def newest_save(folder: str) -> str | None:
    """The most recently written ``.vsav`` of ``folder`` (None: none); a save removed while
    the folder is listed is passed over."""
    best: tuple | None = None
    try:
        with os.scandir(folder) as entries:
            for e in entries:
                if not e.name.lower().endswith(".vsav"):
                    continue
                try:
                    if not e.is_file():
                        continue
                    key = (e.stat().st_mtime_ns, e.name)
                except OSError:
                    continue                # gone since it was listed (VASL renames)
                if best is None or key > best[0]:
                    best = (key, e.path)
    except OSError:
        return None
    return best[1] if best else None


def ask_keep(window, conflicts: list[str]) -> bool:
    """Whether the player keeps the counters they moved or changed by hand that the save moved
    or changed too (``conflicts``: each in words); False takes the save's."""
    box = QMessageBox(QMessageBox.Icon.Question, "The save moved your counters too",
                      "VASL's save moved or changed counters you had moved or changed here:\n"
                      + "\n".join(f"\u2022 {c}" for c in conflicts[:12])
                      + ("\n\u2022 ..." if len(conflicts) > 12 else ""), parent=window)
    keep = box.addButton("Keep mine", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Take the save's", QMessageBox.ButtonRole.RejectRole)
    box.exec()
    return box.clickedButton() is keep


class Follower(QObject):
    """Watches ``path`` (a save, or a folder whose newest save is followed) for ``window``."""
    reloaded = Signal(str)           # the status bar's sentence after a reload
    failed = Signal(str)

    def __init__(self, window, path: str, boards: str | None = None, sides=None):
        super().__init__(window)
        self.sides = sides                  # api.vasl.Sides asked at the start (None: usual)
        self.window = window
        self.path = os.path.abspath(path)
        self.folder_mode = os.path.isdir(self.path)
        self.boards = boards
        self.stamp: tuple | None = None
        self.retries = 0
        self.readings = 0
        self.last_read = None               # the last reading as the save gave it
        self.stopped = False
        self.shown = None                   # the position last shown by a reading
        self.taking = False                 # a reading is being shown
        self.log: list[str] = []            # every sentence said, in order
        self.label = QLabel(f"Following {os.path.basename(self.path)}")
        self.label.setObjectName("following")   # the status bar says the game is followed
        window.statusBar().addPermanentWidget(self.label)
        window.document.fileChanged.connect(self._file_changed)
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self.poke)
        self.watcher.directoryChanged.connect(self.poke)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.check)
        self._watch()

    def target(self) -> str | None:
        return newest_save(self.path) if self.folder_mode else self.path

    def _watch(self) -> None:
        """The save and its folder (a save replaced by a rename is a new file: the folder
        says so)."""
        folder = self.path if self.folder_mode else os.path.dirname(self.path)
        if folder not in self.watcher.directories() and os.path.isdir(folder):
            self.watcher.addPath(folder)
        target = self.target()
        if target and os.path.isfile(target) and target not in self.watcher.files():
            self.watcher.addPath(target)

    def poke(self, *_args) -> None:
        """Something was written: read once it has been quiet for SETTLE_MS."""
        self.timer.start(SETTLE_MS)

    def stop(self) -> None:
        """Watch no more: the position shown stays; ``check`` reads nothing again."""
        self.stopped = True
        self.timer.stop()
        self.window.statusBar().removeWidget(self.label)
        self.label.deleteLater()
        for p in self.watcher.files() + self.watcher.directories():
            self.watcher.removePath(p)

    def _stamp(self, target: str) -> tuple | None:
        try:
            st = os.stat(target)
        except OSError:
            return None
        return (target, st.st_mtime_ns, st.st_size)

    def check(self) -> bool:
        """Reload when the save changed since the last reading; True when it was reloaded.
        Nothing it meets raises (it runs from Qt's timer): what cannot be read is said."""
        if self.stopped:
            return False
        try:
            self._watch()
            target = self.target()
        except OSError as e:                # the folder gone or unreadable
            self._failed(f"Cannot follow {self.path}: {e}")
            return False
        stamp = self._stamp(target) if target else None
        if stamp is None or stamp == self.stamp:
            return False
        try:
            scenario, summary = self._read(target)
        except UNREADABLE as e:
            self.retries += 1
            if self.retries <= MAX_RETRIES:        # half written: the shown position stays
                self.window.say(f"{os.path.basename(target)} is being written: reading it "
                                "again in a moment", RETRY_MS * 2)
                self.timer.start(RETRY_MS)
            else:
                self.retries = 0
                self._failed(f"Cannot follow {target}: {e}")
            return False
        self.retries = 0
        self.stamp = stamp
        self.window.say(f"Reloading {os.path.basename(target)}\u2026", 0)
        text = f"{os.path.basename(target)}: " + self._take(scenario, summary, target)
        self.say(text)
        self.reloaded.emit(text)
        return True

    def _file_changed(self) -> None:
        """Another file opened in the window (File > Open, a board, an example): following
        stops, never to replace it.  A save of the followed game (its counters as shown, or
        changes still to undo) goes on."""
        d = self.window.document
        if self.taking or self.stopped or self.shown is None or d.undo_stack.count():
            return
        s = d.scenario
        if (s.units, s.markers) != (self.shown.units, self.shown.markers):
            stop_following(self.window, "another position is open")

    def say(self, text: str) -> None:
        """A sentence in the status bar, kept in the log (the label's tooltip shows its end)."""
        self.log.append(text)
        self.window.say(text, 20000)
        if not self.stopped:
            self.label.setToolTip("\n".join(self.log[-LOG_SHOWN:]))

    def _failed(self, text: str) -> None:
        self.say(text)
        self.failed.emit(text)

    def _read(self, target: str):
        boards = self.boards or boards_folder(self.window.settings)
        # a board found nowhere: blank; the sides as chosen at the start (else the usual)
        return api.vasl.vsav_scenario(target, boards, True, self.sides)

    def _merged(self, scenario, summary) -> tuple:
        """The reading merged with what the player set (the first reading as it is): the
        position to show and what was kept, in words."""
        if self.readings == 0:
            return scenario, []
        merge = api.vasl.merge_reading(self.window.document.scenario, self.last_read,
                                       scenario, summary)
        said = list(merge.said)
        if merge.conflicts:
            words = merge.conflict_words()
            keep = ask_keep(self.window, words)
            said += [("kept yours: " if keep else "the save's taken: ") + "; ".join(words)]
            return merge.scenario(keep), said
        return merge.scenario(), said

    def _take(self, scenario, summary, target: str) -> str:
        """Show the new reading, keeping what the player looks at and what they set that the
        save does not say; what changed, in words."""
        w, d = self.window, self.window.document
        before, viewer, side, tool = d.scenario, d.viewer, d.view_side, w.hand.tool
        transform = w.view.transform()
        bars = (w.view.horizontalScrollBar().value(), w.view.verticalScrollBar().value())
        shown, said = self._merged(scenario, summary)
        self.last_read = scenario
        self.taking = True
        try:        # later readings keep the file the player saved the game to, if any
            if self.readings:
                d.take_unsaved(shown, d.path, d.came_from)
            else:
                d.take_unsaved(shown, came_from=target)
        finally:
            self.taking = False
        self.shown = shown
        self.readings += 1
        again = api.vasl.same_unit(before, shown, viewer)
        if again is not None:
            d.select(again)
        if side is not None and side in (shown.sides or []):
            d.set_view_side(side)
        if w.hand.tool != tool:
            w.hand.set_tool(tool)
        if self.readings == 1:              # a new game: the whole map in view
            w.view.fit_map()
            return "; ".join([f"following this save ({len(shown.units)} unit(s), "
                              f"{len(shown.markers)} marker(s)); it is read again whenever "
                              "VASL writes it", *_night_words(summary)])
        w.view.setTransform(transform)
        w.view.horizontalScrollBar().setValue(bars[0])
        w.view.verticalScrollBar().setValue(bars[1])
        return "; ".join([api.vasl.game_changes(before, shown), *said])


def _night_words(summary: dict) -> list[str]:
    """The first reading's night, as the import said it (rules.md 11.5, E1.92)."""
    out = [f"NVR {summary['nvr']} from the save" if summary.get("nvr_from") == "save"
           else f"NVR {summary.get('nvr', 3)} (the save gives none)"]
    if summary.get("starshells_used") == "this_turn":
        out.append("starshells fired this player turn (a starshell or IR on the map, E1.92)")
    return out


def following(window) -> bool:
    return getattr(window, "follower", None) is not None


def stop_following(window, why: str = "the position shown stays") -> None:
    """File > Stop following: the save is no longer watched; the position shown stays."""
    follower = getattr(window, "follower", None)
    if follower is None:
        return
    follower.stop()
    window.follower = None
    _sync_stop(window)
    name = os.path.basename(follower.path)
    follower.log.append(f"stopped following {name}")
    window.say(f"Stopped following {name}: {why}", 10000)


def start_following(window, path: str, boards: str | None = None) -> Follower | None:
    """Follow ``path`` (a save or a folder of saves) in ``window``, read now.  A save of more
    than two nationalities first asks which two sides play; None when the player cancels."""
    first = newest_save(path) if os.path.isdir(path) else path
    go, sides = choose_sides(window, first) if first else (True, None)
    if not go:
        window.say("Not following: no sides chosen", 10000)
        return None
    old = getattr(window, "follower", None)
    if old is not None:
        old.stop()
    window.follower = Follower(window, path, boards, sides)
    _sync_stop(window)
    window.follower.check()
    return window.follower


def _sync_stop(window) -> None:
    """File > Stop following is enabled while a save is followed."""
    action = window.findChild(QAction, "stop_following")
    if action is not None:
        action.setEnabled(following(window))


def add_follow_actions(menu, *, parent, document, save, start) -> None:
    """File > Follow VASL save... and Follow the newest save in a folder... in ``menu``: a path
    asked for (dialogs of ``parent``), ``document``'s changes saved first if the player wants
    (``save``), then ``start(path)`` follows it."""
    def may_start() -> bool:
        return may_discard(parent, document.undo_stack.isClean(), "Unsaved changes",
                           "The position has changed. Save it first?", save)

    def follow_save():
        path, _ = QFileDialog.getOpenFileName(parent, "Follow a VASL saved game", "",
                                              VSAV_FILTER)
        if path and may_start():
            start(path)

    def follow_folder():
        path = QFileDialog.getExistingDirectory(parent, "Follow the newest VASL save of a folder")
        if path and may_start():
            start(path)

    for text, slot in (("&Follow VASL save\u2026", follow_save),
                       ("Follow the newest save in a &folder\u2026", follow_folder)):
        menu.addAction(text).triggered.connect(slot)
    stop = menu.addAction("Stop f&ollowing")
    stop.setObjectName("stop_following")
    stop.triggered.connect(lambda: stop_following(parent))
    stop.setEnabled(False)
    menu.aboutToShow.connect(lambda: stop.setEnabled(following(parent)))
