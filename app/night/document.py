"""The Document: owns the Scenario, its file, the selected unit and the undo stack.

Edits make new Scenarios (``scenario.replace``, ``with_unit``, ``moved``, ``with_marker``...) and go
through the one undo command (``app.room_document.Swap``).  After any change the Document asks the engine
again, debounced by a single-shot timer (rapid changes, e.g. a drag, ask once per frame), through the
app's job runner (``app.jobs``) so the window never waits; ``answersChanged`` says new answers
are in.

The engine's work for the window goes to the job runner: the answers (``_launch``), the
questions answered later (``run``: the LOS thread, the planner), the short acts the window
waits for (``call``), and in the background the map's LOS table (``_build_table``, its share
in ``tableChanged``) and, from the start, what the map's first field needs
(``api.warm_up``: on drawn boards the compiled walk).  An answer for a Document closed
(``close``) or deleted meanwhile is dropped.

A drag calls ``begin_drag``, then ``show`` on every move (live overlays, one engine call per
frame at most) and ``finish_drag`` when it ends: one undo step.  A real change of position emits
``changed`` and its answers ``answersChanged``; a drag's step emits ``dragged`` and its answers
``dragAnswered`` instead, so the panels (which listen to the first two) wait for the drop while
the map follows every step.  Starshells are fired with the Document's dice
source (``dice``, injectable: tests fix it), the whole act one undo step.  ``view_side`` asks the
engine what one side sees of the other's units ("view as side").
"""
from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QTimer, Signal

from engine import api

from ..jobs import Job, runner
from ..room_document import RoomDocument
from .answers import Answers, ask_engine

DEBOUNCE_MS = 16
IMPORT_TITLE_END = "(VASL saved game)"     # the title import-vsav gives a save's position
BUSY_MS = 200               # a wait longer than this shows what is being worked out

FORMAT = api.night.SCENARIO_FORMAT  # the night room's files (``app.rooms``)
BOARD_FORMAT = api.BOARD_FORMAT     # a board file opens as a new position on it alone


def default_scenario_path() -> Path:
    return api.assets_dir() / "scenarios" / "default.json"


def _asked(*question, progress=None) -> Answers:
    """``ask_engine(*question)``, a drawn map's frame built meanwhile reporting its steps to the
    job's ``progress`` (and stopped there on Cancel: ``app.jobs``)."""
    with api.building(progress=progress):
        return ask_engine(*question)


class Document(RoomDocument):
    # changed (RoomDocument's): a new position (not a drag's step): counters, panels
    dragged = Signal()              # a drag's step shows another position: the map follows
    selectionChanged = Signal()     # another viewer (or none), or another picked marker
    answersChanged = Signal()       # the engine's answers for the latest position are in
    dragAnswered = Signal()         # the same, arrived while a drag is on (the map alone)
    # fileChanged (RoomDocument's): opened or saved under another name
    engineFailed = Signal(str)
    busyChanged = Signal(str)       # what the engine works out, past BUSY_MS ("": done)
    tableChanged = Signal(str)      # the map's LOS table building: "LOS table 40 %" ("": none)

    def __init__(self, scenario: api.night.Scenario, path: str | None = None, parent=None,
                 dice=None):
        super().__init__(scenario, path, parent)
        self._viewer: str | None = None
        self._marker: int | None = None     # the marker picked for editing (an index)
        self._side: str | None = None       # "view as side"
        self._starshells = False            # ask where the viewer may place a starshell
        self._drag_on = False               # a drag is on: the panels wait for the drop
        self.came_from: str | None = None   # the file a fresh import came from (take_unsaved)
        self.dice = dice if dice is not None else api.night.RandomDice()
        self._answers: Answers | None = None
        self._wanted = 0            # generation of the latest change
        self._delivered = 0         # generation of the answers we hold
        self._in_flight: Job | None = None
        self._jobs: set[Job] = set()    # the jobs whose answers this Document awaits
        self._table_job: Job | None = None      # the map's LOS table, built in the background
        self._table_key = ""                    # ... of the map of this content
        self.closed = False
        self._runner = runner()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._launch)
        self._busy_text = ""
        self._busy_timer = QTimer(self)
        self._busy_timer.setSingleShot(True)
        self._busy_timer.setInterval(BUSY_MS)
        self._busy_timer.timeout.connect(self._still_busy)
        self.table_text = ""        # the LOS table's progress as the status bar shows it
        # first (the first field needs it): the drawn map's frame reports its steps and stops
        # at Cancel (close) between them
        self._submit(api.warm_up, (scenario,), None, progress=True,
                     text="Building the map's LOS table")
        self._request()

    @classmethod
    def read_position(cls, path: str) -> api.night.Scenario:
        return api.night.load_scenario(path)

    def write_position(self, position, path: str) -> api.night.Scenario:
        """Saved atomically (api.save_scenario): the same position, anchored at its new folder.
        A VASL saved game's import saved for the first time drops "(VASL saved game)" from
        its title: it is a position of its own now."""
        came = self.came_from
        if came is not None and position.title.endswith(IMPORT_TITLE_END):
            position = position.replace(title=position.title[:-len(IMPORT_TITLE_END)].strip()
                                        or os.path.splitext(os.path.basename(came))[0])
        return self.call(api.night.save_scenario, position, path)

    def saved(self) -> None:
        self.came_from = None

    # ------------------------------------------------------------------------ state
    @property
    def scenario(self) -> api.night.Scenario:
        return self._position

    @property
    def viewer(self) -> str | None:
        return self._viewer

    @property
    def marker(self) -> int | None:
        """The index of the marker picked for editing, or None."""
        return self._marker

    @property
    def view_side(self) -> str | None:
        return self._side

    @property
    def dragging(self) -> bool:
        """A drag is on (``begin_drag`` .. ``finish_drag``): the map draws its steps live."""
        return self._drag_on

    @property
    def answers(self) -> Answers | None:
        return self._answers

    @property
    def is_settled(self) -> bool:
        """The answers held are the latest position's; or the Document is closed: nothing more
        comes."""
        if self.closed:
            return True
        a = self._answers
        return (a is not None and a.scenario is self._position and a.viewer == self._viewer
                and a.side == self._side
                and (a.starshell is not None or not self._starshells or a.field is None))

    # ------------------------------------------------------------------------ files
    def load(self, path) -> None:
        """Open ``path``; on a bad file raise api.ScenarioError and change nothing."""
        s = self.call(api.night.load_scenario, path)
        self._take_file(s, str(path))

    def take_unsaved(self, scenario: api.night.Scenario, path: str | None = None,
                     came_from: str | None = None) -> None:
        """Show ``scenario`` as a new position not saved yet (a VASL saved game, restored work): no
        undo history, nothing selected, and unsaved, so the title says so and closing asks.
        ``path`` is the file Save writes to (None: Save As asks); ``came_from`` the file it was
        made from (a VASL saved game), which closing names."""
        self._take_file(scenario, path)
        self.came_from = came_from
        self.undo_stack.resetClean()

    def _take_file(self, s: api.night.Scenario, path: str | None) -> None:
        self.undo_stack.clear()
        self._path = path
        self.came_from: str | None = None    # a fresh import's file (``take_unsaved``)
        if (self._viewer, self._marker, self._side) != (None, None, None):
            # another file: nothing of the last one stays selected (its ids may mean others)
            self._viewer = self._marker = self._side = None
            self.selectionChanged.emit()
        self.set_scenario(s)
        self.undo_stack.setClean()
        self.fileChanged.emit()

    # ------------------------------------------------------------------------ edits
    def set_position(self, scenario: api.night.Scenario, note: str = "") -> None:
        """Show another position (undo commands call this; user edits go through ``edit``)."""
        self._position = scenario
        self.note = note
        lost = self._viewer is not None and self._viewer not in {u.id for u in scenario.units}
        if lost:
            self._viewer = None
        if self._marker is not None and self._marker >= len(scenario.markers):
            self._marker, lost = None, True
        if self._side is not None and scenario.units and self._side not in scenario.sides:
            self._side = None
        if lost:
            self.selectionChanged.emit()
        (self.dragged if self._drag_on else self.changed).emit()
        self._request()

    set_scenario = set_position
    show = set_position     # a drag shows each step; ``finish_drag`` makes it one undo step

    def edit(self, after: api.night.Scenario, text: str) -> None:
        """An undoable change to ``after`` once the engine accepts it as a whole position
        (``api.check``); an impossible one (a unit both BU and CE...) raises api.ScenarioError,
        changing nothing."""
        self.call(api.night.check, after)
        self.swap(after, text)

    def begin_drag(self) -> None:
        """A drag starts: the map follows every step, the panels only its end (a frame is short)."""
        self._drag_on = True

    def finish_drag(self, before: api.night.Scenario | None, text: str = "") -> None:
        """A drag that started on ``before`` ends on the position shown now: one undo step (or
        none, when it ends where it began).  ``before`` None: it changed nothing.  (Scenarios
        compare without their map's terrain: a stroke of the board editor's brush changes that.)"""
        self._drag_on = False
        after = self._position
        if before is None or (after == before
                              and after.map.content_key == before.map.content_key):
            self.set_scenario(before if before is not None else after)
            return
        try:
            self.call(api.night.check, after)
        except api.ScenarioError:
            self.set_scenario(before)           # refused: back where the drag began
            raise
        self.swap(after, text, before=before)

    def fire_starshell(self, unit_id: str, hex_id: str, method: str, dice=None):
        """``unit_id`` fires a starshell (or IR) at ``hex_id`` by ``method``: usage dr, drift and
        marker as the engine says (``engine.night.starshells.fire``), one undo step.  Raises
        api.ScenarioError when it may not; returns the engine's FireResult."""
        after, result = self.call(api.night.fire, self._position, unit_id, hex_id, method,
                                  dice or self.dice)
        self.call(api.night.check, after)
        what = "an IR" if result.kind == "ir" else "a starshell"
        if not result.success:
            text = f"{unit_id} fails to fire {what} (usage dr {result.usage_dr})"
        elif result.end is None:
            text = f"{unit_id} fires {what} at {hex_id}: it drifts off the map"
        else:
            text = f"{unit_id} fires {what} at {hex_id}: it lands in {result.end}"
        self.swap(after, text)
        return result

    def add_marker(self, marker: api.night.Marker) -> None:
        self.edit(self._position.with_marker(marker), f"add {marker.type} in {marker.hex}")

    def remove_marker(self, index: int) -> None:
        mk = self._position.markers[index]
        self.edit(self._position.without_marker(index), f"remove {mk.type} from {mk.hex}")

    def move_unit(self, unit_id: str, hex_id: str) -> None:
        self.edit(self._position.moved(unit_id, hex_id), f"move {unit_id} to {hex_id}")

    def select(self, unit_id: str | None) -> None:
        """Make ``unit_id`` the viewer whose night field is shown (None: nobody)."""
        if unit_id is not None:
            self._position.unit(unit_id)        # raises api.ScenarioError for an unknown id
        if unit_id == self._viewer:
            return
        self._viewer = unit_id
        self._marker = None
        self.selectionChanged.emit()
        self._request()

    def pick_marker(self, index: int | None) -> None:
        """Pick marker ``index`` for editing and deleting (None: no marker)."""
        if index is not None and not 0 <= index < len(self._position.markers):
            raise IndexError(f"no marker {index}")
        if index != self._marker:
            self._marker = index
            self.selectionChanged.emit()

    def want_starshells(self, on: bool) -> None:
        """Ask the engine where the viewer may place a starshell (while the player places one)."""
        if on != self._starshells:
            self._starshells = on
            self._request()

    def set_view_side(self, side: str | None) -> None:
        """Show the map as ``side`` sees it at night (None: every unit shown)."""
        if side != self._side:
            self._side = side
            self.selectionChanged.emit()
            self._request()

    # ------------------------------------------------------------------------ asking the engine
    def call(self, job, *args):
        """``job(*args)`` run on the job runner's thread, waited for: a short act the window
        needs at once (an edit checked, a starshell fired).  Its exception is raised here."""
        return self._runner.call(job, *args)

    def run(self, job, *args, done, text: str = "") -> Job | None:
        """``job(*args)`` run on the job runner's thread; ``done(job)`` is called on the window's
        thread when it is over (``job.result()`` or ``job.exception()``, as a future's), unless
        the Document was closed or deleted meanwhile.  ``text``: what it works out, said in the
        status bar when it takes longer than ``app.jobs.BUSY_MS``.  Returns the Job (its
        ``cancel`` stops a generator job between two steps), None once closed."""
        return self._submit(job, args, lambda document, finished: done(finished), text=text)

    def _submit(self, job, args, done, background: bool = False, text: str = "",
                progress: bool = False) -> Job | None:
        """``job(*args)`` through the runner, then ``done(self, job)`` on the window's thread
        (unless closed or deleted meanwhile: the runner drops it); ``progress``: the job is
        given the runner's ``Progress`` (``app.jobs``)."""
        if self.closed:
            return None
        submitted = self._runner.submit(job, *args, owner=self, background=background,
                                        text=text, progress=progress)
        self._jobs.add(submitted)
        weak = self._weak

        def over(*_):
            weak._jobs.discard(submitted)
            if done is not None:
                done(weak, submitted)
        submitted.succeeded.connect(over)
        submitted.failed.connect(over)
        submitted.cancelled.connect(lambda: weak._jobs.discard(submitted))
        return submitted

    def close(self) -> None:
        """The window closes: no more questions to the engine, and the answers still on their
        way are dropped (the jobs not started yet never run, the table's build stops)."""
        if self.closed:
            return
        self.closed = True
        self._timer.stop()
        self._busy_timer.stop()
        jobs, self._jobs = self._jobs, set()
        for job in jobs:
            job.cancel()
        self._in_flight = self._table_job = None

    def refresh(self) -> None:
        """Ask the engine again (after it failed, or when its data changed)."""
        self._request()

    def _request(self) -> None:
        self._wanted += 1
        if not self.closed:
            self._timer.start()

    def _launch(self) -> None:
        if self._in_flight is not None or self.closed:
            return                              # _on_done asks again for the latest
        gen = self._wanted
        self._in_flight = self._submit(
            _asked, (self._position, self._viewer, self._side, self._starshells,
                     not self._drag_on),
            lambda document, future: document._on_done(gen, future), progress=True)
        if self._in_flight is not None and not self._busy_text and not self._busy_timer.isActive():
            self._busy_timer.start()

    @property
    def busy_text(self) -> str:
        """What the engine has been working out for longer than BUSY_MS ("" when nothing)."""
        return self._busy_text

    def _work_words(self) -> str:
        if self._viewer is not None:
            extra = " and where it may place a starshell" if self._starshells else ""
            return f"Working out {self._viewer}'s night field{extra}\u2026"
        if self._side is not None:
            return f"Working out what {self._side} sees at night\u2026"
        return "Working out the lights\u2026"

    def _still_busy(self) -> None:
        if self._in_flight is not None and not self.closed:
            self._busy_text = self._work_words()
            self.busyChanged.emit(self._busy_text)

    def _on_done(self, gen: int, future: Job) -> None:
        if future is self._in_flight:
            self._in_flight = None
        self._deliver(gen, future)
        if self._wanted > self._delivered and not self._timer.isActive():
            self._launch()
        if self._in_flight is None and not self._timer.isActive():
            self._busy_timer.stop()
            if self._busy_text:
                self._busy_text = ""
                self.busyChanged.emit("")
        elif self._busy_text and self._busy_text != self._work_words():
            self._busy_text = self._work_words()      # another question now (another viewer)
            self.busyChanged.emit(self._busy_text)

    def _deliver(self, gen: int, future) -> None:
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
        if self._answers.viewer is not None:
            self._build_table()           # later fields read the map's table
        (self.dragAnswered if self._drag_on else self.answersChanged).emit()

    def _build_table(self) -> None:
        """The map's LOS table built in the background (``api.table_steps``: the runner runs a
        step at a time between the fields), its share in the status bar while it goes on
        ("LOS table 40 %"), nothing once it is done.  Another map's build stops (its rows so
        far are kept: asked again, it goes on)."""
        key = self._position.map.content_key
        held = self._table_job
        if held is not None and not held.ended_already and self._table_key == key:
            return
        if held is not None:
            held.cancel()
        progress = api.table_progress(self._position)
        if progress is not None and progress["done"] >= 1.0:
            return
        steps = api.table_steps(self._position)       # the table made now, built by the runner
        job = self._submit(lambda: steps, (), None, background=True)
        if job is None:
            return
        self._table_job, self._table_key = job, key
        weak = self._weak
        job.progressed.connect(lambda _, share: weak._table_share(share))
        job.ended.connect(lambda: weak._table_share(1.0))

    def _table_share(self, share: float) -> None:
        text = f"LOS table {int(share * 100)} %" if 0 <= share < 1.0 else ""
        if text != self.table_text:
            self.table_text = text
            self.tableChanged.emit(text)

    def settle(self, timeout: float = 60.0) -> Answers:
        """Ask the engine now and wait for the answers (screenshots and tests)."""
        if not self.is_settled:
            self._timer.stop()
            answers = self.call(ask_engine, self._position, self._viewer, self._side,
                                self._starshells, not self._drag_on)
            self._deliver(self._wanted, _Answered(answers))
        return self._answers


class _Answered:
    """Answers already in, read as a finished job's (``settle``)."""

    def __init__(self, answers: Answers):
        self._answers = answers

    def exception(self) -> None:
        return None

    def result(self) -> Answers:
        return self._answers
