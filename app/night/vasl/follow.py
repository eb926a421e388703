"""Following a VASL game: File > Follow VASL save (``python -m app --follow GAME.vsav``) watches
the save (or, asked so, the newest save of a folder) and reloads it whenever VASL writes it.
What the player looks at stays: the view and its zoom, the selected unit (found again by its
counter, VASSAL's piece id), the side view and the tool; the status bar names what changed
("3 units moved, Starshell in 2Y4").  A file still being written cannot be read yet: it is
tried again a little later, and the position shown stays until a whole reading arrives.
"""
from __future__ import annotations

import os

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtWidgets import QFileDialog

from app.file_filters import VSAV_FILTER
from app.room_window import may_discard
from engine import api

from .sides_dialog import choose_sides
from .vsav_open import boards_folder

SETTLE_MS = 300          # VASL writes a save in pieces: wait until it is quiet
RETRY_MS = 700           # a file that cannot be read yet: again after this
MAX_RETRIES = 8


def newest_save(folder: str) -> str | None:
    """The most recently written ``.vsav`` of ``folder`` (None: none)."""
    try:
        saves = [e for e in os.scandir(folder) if e.is_file() and e.name.lower().endswith(".vsav")]
    except OSError:
        return None
    if not saves:
        return None
    return max(saves, key=lambda e: (e.stat().st_mtime_ns, e.name)).path


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
        self.timer.stop()
        for p in self.watcher.files() + self.watcher.directories():
            self.watcher.removePath(p)

    def _stamp(self, target: str) -> tuple | None:
        try:
            st = os.stat(target)
        except OSError:
            return None
        return (target, st.st_mtime_ns, st.st_size)

    def check(self) -> bool:
        """Reload when the save changed since the last reading; True when it was reloaded."""
        self._watch()
        target = self.target()
        stamp = self._stamp(target) if target else None
        if stamp is None or stamp == self.stamp:
            return False
        try:
            scenario, _summary = self._read(target)
        except (api.ScenarioError, OSError) as e:
            self.retries += 1
            if self.retries <= MAX_RETRIES:        # half written: the shown position stays
                self.window.say(f"{os.path.basename(target)} is being written: reading it "
                                "again in a moment", RETRY_MS * 2)
                self.timer.start(RETRY_MS)
            else:
                self.retries = 0
                self.failed.emit(f"Cannot follow {target}: {e}")
                self.window.say(f"Cannot follow {target}: {e}", 20000)
            return False
        self.retries = 0
        self.stamp = stamp
        self.window.say(f"Reloading {os.path.basename(target)}\u2026", 0)
        text = f"{os.path.basename(target)}: " + self._take(scenario)
        self.window.say(text, 20000)
        self.reloaded.emit(text)
        return True

    def _read(self, target: str):
        boards = self.boards or boards_folder(self.window.settings)
        # a board found nowhere: blank; the sides as chosen at the start (else the usual)
        return api.vasl.vsav_scenario(target, boards, True, self.sides)

    def _take(self, scenario) -> str:
        """Show the new reading, keeping what the player looks at; what changed, in words."""
        w, d = self.window, self.window.document
        before, viewer, side, tool = d.scenario, d.viewer, d.view_side, w.hand.tool
        transform = w.view.transform()
        bars = (w.view.horizontalScrollBar().value(), w.view.verticalScrollBar().value())
        d.take_unsaved(scenario)
        self.readings += 1
        again = api.vasl.same_unit(before, scenario, viewer)
        if again is not None:
            d.select(again)
        if side is not None and side in (scenario.sides or []):
            d.set_view_side(side)
        if w.hand.tool != tool:
            w.hand.set_tool(tool)
        if self.readings == 1:              # a new game: the whole map in view
            w.view.fit_map()
        else:
            w.view.setTransform(transform)
            w.view.horizontalScrollBar().setValue(bars[0])
            w.view.verticalScrollBar().setValue(bars[1])
        if self.readings == 1:
            return (f"following this save ({len(scenario.units)} unit(s), "
                    f"{len(scenario.markers)} marker(s)); it is read again whenever VASL "
                    "writes it")
        return api.vasl.game_changes(before, scenario)


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
    window.follower.check()
    return window.follower


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
