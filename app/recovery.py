"""Autosave and crash recovery (issue 8): unsaved work is never lost.

While the document has unsaved changes, an ``Autosaver`` writes the position to a recovery file
(atomically, like every save) a few seconds after the last change.  Saving, or closing normally,
removes it.  A recovery file still there at the next start means the program did not close
normally: the window offers it back.  The recovery file records the file it belongs to, so Save
then writes where the player expects.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QStandardPaths, QTimer

import engine
from engine.files import scenario_from_json, scenario_to_json
from engine.jsonio import atomic_write_json, read_json

AUTOSAVE_MS = 3000
RECOVERY_NAME = "recovery.json"
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
    scenario: engine.Scenario
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
    except engine.ScenarioError:
        try:
            os.replace(path, path.with_suffix(".damaged"))
        except OSError:
            pass
        return None
    extra = {k: v for k, v in s.extra.items() if k != KEY}
    return Recovered(s.replace(extra=extra), belongs if isinstance(belongs, str) else None, path)


def discard(folder: Path | None = None) -> None:
    path = (folder or recovery_folder()) / RECOVERY_NAME
    try:
        path.unlink()
    except FileNotFoundError:
        pass


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
        if not self.document.undo_stack.isClean():
            self._timer.start()

    def _clean_changed(self, clean: bool) -> None:
        if clean:
            self._timer.stop()
            discard(self.folder)

    def write_now(self) -> None:
        """Write the recovery file now (when there is unsaved work)."""
        if self.document.undo_stack.isClean():
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            data = scenario_to_json(self.document.scenario, self.folder)
            data[KEY] = (str(Path(self.document.path).resolve()) if self.document.path
                         else None)
            atomic_write_json(self.file, data, backup=False)
            self.last_error = None
        except (OSError, engine.ScenarioError) as e:     # autosave must never break editing
            self.last_error = str(e)

    def finish(self) -> None:
        """A normal close: nothing to recover."""
        self._timer.stop()
        discard(self.folder)
