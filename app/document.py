"""The Document: owns the Scenario, its file, the selected unit and the undo stack.

Edits make new Scenarios (``scenario.replace``, ``with_unit``, ``moved``, ``with_marker``...) and go
through undo commands (``commands.ScenarioEdit``).  After any change the Document asks the engine
again, debounced by a single-shot timer (rapid changes, e.g. a drag, ask once per frame), on one
worker thread so the window never waits; ``answersChanged`` says new answers are in.  One thread
for the whole program also keeps every engine call in order: the engine's caches (LOS tables)
are never filled from two threads, and the window's thread only reads finished answers.

For the follow-ups: a drag can call ``set_scenario`` on every move (live overlays, one engine
call per frame at most) and push one ``ScenarioEdit`` (with a ``merge_key``) when it ends.
"""
from __future__ import annotations

import sys
import traceback
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack

import engine

from .answers import Answers, ask_engine
from .commands import ScenarioEdit

DEBOUNCE_MS = 16
_ENGINE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="starshell-engine")


def default_scenario_path() -> Path:
    return engine.boards.assets_dir() / "scenarios" / "default.json"


class _Relay(QObject):
    """Carries a finished engine job from the worker thread to the window's thread."""
    done = Signal(int, object)


class Document(QObject):
    scenarioChanged = Signal()      # a new position: counters, panels
    selectionChanged = Signal()     # another viewer (or none)
    answersChanged = Signal()       # the engine's answers for the latest position are in
    fileChanged = Signal()          # opened or saved under another name
    engineFailed = Signal(str)

    def __init__(self, scenario: engine.Scenario, path: str | None = None, parent=None):
        super().__init__(parent)
        self._scenario = scenario
        self._path = path
        self._viewer: str | None = None
        self._answers: Answers | None = None
        self.undo_stack = QUndoStack(self)
        self._wanted = 0            # generation of the latest change
        self._delivered = 0         # generation of the answers we hold
        self._in_flight: Future | None = None
        self._relay = _Relay()
        self._relay.done.connect(self._on_done, Qt.ConnectionType.QueuedConnection)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._launch)
        self._request()

    @classmethod
    def open_file(cls, path, parent=None) -> "Document":
        """A document on the scenario file ``path`` (raises engine.ScenarioError)."""
        return cls(engine.load_scenario(path), str(path), parent)

    # ------------------------------------------------------------------------ state
    @property
    def scenario(self) -> engine.Scenario:
        return self._scenario

    @property
    def path(self) -> str | None:
        """The file Save writes to; None for a position not saved yet (or the bundled default)."""
        return self._path

    @property
    def viewer(self) -> str | None:
        return self._viewer

    @property
    def answers(self) -> Answers | None:
        return self._answers

    @property
    def is_settled(self) -> bool:
        a = self._answers
        return a is not None and a.scenario is self._scenario and a.viewer == self._viewer

    # ------------------------------------------------------------------------ files
    def load(self, path) -> None:
        """Open ``path``; on a bad file raise engine.ScenarioError and change nothing."""
        s = engine.load_scenario(path)
        self._take_file(s, str(path))

    def save(self, path=None) -> None:
        """Save (atomically, engine.save_scenario) to ``path`` or the current file."""
        target = path or self._path
        if target is None:
            raise ValueError("no file name yet: use Save As")
        s = engine.save_scenario(self._scenario, target)
        self._path = str(target)
        self.set_scenario(s)    # the same position, anchored at its new folder
        self.undo_stack.setClean()
        self.fileChanged.emit()

    def _take_file(self, s: engine.Scenario, path: str | None) -> None:
        self.undo_stack.clear()
        self._path = path
        self.set_scenario(s)
        self.undo_stack.setClean()
        self.fileChanged.emit()

    # ------------------------------------------------------------------------ edits
    def set_scenario(self, s: engine.Scenario) -> None:
        """Show another position (undo commands call this; user edits go through ``edit``)."""
        self._scenario = s
        if self._viewer is not None and self._viewer not in {u.id for u in s.units}:
            self._viewer = None
            self.selectionChanged.emit()
        self.scenarioChanged.emit()
        self._request()

    def edit(self, after: engine.Scenario, text: str) -> None:
        """An undoable change to ``after``."""
        self.undo_stack.push(ScenarioEdit(self, self._scenario, after, text))

    def add_marker(self, marker: engine.Marker) -> None:
        self.edit(self._scenario.with_marker(marker), f"add {marker.type} in {marker.hex}")

    def remove_marker(self, index: int) -> None:
        mk = self._scenario.markers[index]
        self.edit(self._scenario.without_marker(index), f"remove {mk.type} from {mk.hex}")

    def move_unit(self, unit_id: str, hex_id: str) -> None:
        self.edit(self._scenario.moved(unit_id, hex_id), f"move {unit_id} to {hex_id}")

    def select(self, unit_id: str | None) -> None:
        """Make ``unit_id`` the viewer whose night field is shown (None: nobody)."""
        if unit_id is not None:
            self._scenario.unit(unit_id)        # raises engine.ScenarioError for an unknown id
        if unit_id == self._viewer:
            return
        self._viewer = unit_id
        self.selectionChanged.emit()
        self._request()

    # ------------------------------------------------------------------------ asking the engine
    def refresh(self) -> None:
        """Ask the engine again (after it failed, or when its data changed)."""
        self._request()

    def _request(self) -> None:
        self._wanted += 1
        self._timer.start()

    def _launch(self) -> None:
        if self._in_flight is not None:
            return                              # _on_done asks again for the latest
        gen, relay = self._wanted, self._relay
        future = _ENGINE.submit(ask_engine, self._scenario, self._viewer)
        self._in_flight = future

        def finished(f, gen=gen):
            try:
                relay.done.emit(gen, f)
            except RuntimeError:                # the document was deleted meanwhile
                pass
        future.add_done_callback(finished)

    def _on_done(self, gen: int, future: Future) -> None:
        if future is self._in_flight:
            self._in_flight = None
        self._deliver(gen, future)
        if self._wanted > self._delivered and not self._timer.isActive():
            self._launch()

    def _deliver(self, gen: int, future: Future) -> None:
        if gen <= self._delivered:
            return
        error = future.exception()
        if error is not None:
            traceback.print_exception(error, file=sys.stderr)
            self._delivered = gen
            self.engineFailed.emit(f"the engine failed: {error}")
            return
        self._delivered = gen
        self._answers = future.result()
        self.answersChanged.emit()

    def settle(self, timeout: float = 60.0) -> Answers:
        """Ask the engine now and wait for the answers (screenshots and tests)."""
        if not self.is_settled:
            self._timer.stop()
            future = _ENGINE.submit(ask_engine, self._scenario, self._viewer)
            future.result(timeout)
            self._deliver(self._wanted, future)
        return self._answers
