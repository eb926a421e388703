"""The app's one job runner: every piece of background work goes through it (the fields and
answers of the night room, the map's LOS table, a VASL board imported, a VASL saved game read,
the planner's questions, the compiled walk loaded while a window opens).  No other module of
``app`` or ``engine`` starts a thread (tests/test_one_job_runner.py scans the source).

A job is a function run on the runner's thread, off the window's (the GUI) thread:
- ``runner().submit(work, *args, text=..., owner=..., background=..., progress=...)`` returns a
  ``Job`` (a QObject of the GUI thread) at once; its signals arrive on the GUI thread:
  ``progressed(text, fraction)`` in order, then exactly one of ``succeeded(result)``,
  ``failed(error)``, ``cancelled()``, then ``ended()``.  ``Job.result()`` / ``exception()``
  read the outcome as a future's would.
- A function whose result is a generator is driven step by step: each value it yields is its
  progress (a fraction 0..1, or ``(text, fraction)``), Cancel is checked between steps, and its
  return value is the job's result.  A ``background`` job runs one step at a time and lets every
  other job queued meanwhile run before its next step (a table build never slows a field).
- ``progress=True`` passes a ``Progress`` as keyword ``progress``: called with a fraction (and
  a text) it reports, and raises ``Cancelled`` once the job is cancelled, so the work stops
  there.  Other functions cannot be stopped midway: a cancelled one's result is dropped.
- ``Job.cancel()`` (GUI thread): a job not started never runs, a generator stops at its next
  step; ``cancelled`` is emitted at once.
- ``owner``: a QObject; once it is deleted, or its ``closed`` attribute is true, the job's
  signals are not emitted any more (its answers are dropped).
- ``runner().call(work, *args)`` runs ``work`` on the runner's thread and waits for it: a short
  act the window needs at once (in order with the jobs submitted before it).
- ``runner().busyChanged(text)``: what has been worked out for more than ``BUSY_MS`` (the oldest
  job with a ``text`` still running, with its share once known), "" once nothing is; windows
  show it in the status bar.

One thread keeps the engine's calls in order and its caches filled from one thread only.

Qt objects live and die on the GUI thread only: the runner's thread holds plain Python tasks,
never a Job (the jobs wait in ``Runner._jobs`` on the GUI thread, under a ticket), and Python's
cyclic garbage collector never runs on the runner's thread: from the first job submitted until
the thread is idle again, automatic collection is off and the GUI thread collects in its event
loop by the same thresholds (``GC_MS``); when the runner is idle, collection is automatic again.
(Collected on the runner's thread, a cycle holding a window, a scene or a timer would be
destroyed there, and Qt crashes.)
"""
from __future__ import annotations

import atexit
import gc
import inspect
import itertools
import threading
import time
import warnings
import weakref
from collections import deque

import shiboken6
from PySide6.QtCore import QEventLoop, QObject, Qt, QThread, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog

THREAD_NAME = "starshell-engine"
BUSY_MS = 200               # a wait longer than this is said in the status bar
GC_MS = 250                 # how often the GUI thread collects garbage while the runner works
PROGRESS_S = 0.05           # a job's progress is sent to the GUI thread at most this often
UNKNOWN = -1.0              # the fraction of a progress whose share is not known


class Cancelled(Exception):
    """Raised by ``Progress`` in a job that was cancelled: the work stops there."""


class Progress:
    """What a job given ``progress=True`` calls to report (and to learn it was cancelled)."""

    def __init__(self, task: "_Task", lane: "_Lane"):
        self._task, self._lane = task, lane

    @property
    def cancelled(self) -> bool:
        return self._task.cancel.is_set()

    def __call__(self, fraction: float | None = None, text: str | None = None) -> None:
        if self._task.cancel.is_set():
            raise Cancelled()
        self._lane.report(self._task, text, fraction)


class _Task:
    """The runner thread's side of a job: plain Python, no Qt object."""

    def __init__(self, ticket, work, args, background, progress):
        self.ticket, self.work, self.args = ticket, work, args
        self.background, self.progress = background, progress
        self.cancel = threading.Event()
        self.steps = None               # a generator job's generator, once started
        self.text = ""
        self.reported = 0.0             # when progress was last sent
        self.waiter: list | None = None  # ``call``: [event, outcome]


class _Lane:
    """The runner's thread and its queues: foreground jobs in order first, then one step of a
    background job (round robin)."""

    def __init__(self, relay: "Runner"):
        self.relay = relay              # made on the GUI thread, never freed (``_RUNNER``)
        self.lock = threading.Condition()
        self.foreground: deque = deque()
        self.background: deque = deque()
        self.parked = True              # waiting for work (under ``lock``)
        self.stopping = False
        self.thread: threading.Thread | None = None

    def put(self, task: _Task) -> bool:
        """False once stopped: the task will never run."""
        with self.lock:
            if self.stopping:
                return False
            (self.background if task.background else self.foreground).append(task)
            self.parked = False
            if self.thread is None:
                self.thread = threading.Thread(target=self.run, name=THREAD_NAME, daemon=True)
                self.thread.start()
            self.lock.notify()
            return True

    def idle(self) -> bool:
        with self.lock:
            waiting = self.parked or self.thread is None or not self.thread.is_alive()
            return waiting and not self.foreground and not self.background

    def stop(self) -> None:
        """Every job cancelled, the thread ended once its step is over; no job runs after."""
        with self.lock:
            self.stopping = True
            for task in [*self.foreground, *self.background]:
                task.cancel.set()
            self.lock.notify_all()
            thread = self.thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _next(self) -> _Task | None:
        with self.lock:
            while not self.foreground and not self.background and not self.stopping:
                self.parked = True
                self.lock.wait()
            self.parked = False
            if self.stopping:
                for task in [*self.foreground, *self.background]:
                    if task.steps is not None:
                        task.steps.close()      # its ``finally`` runs here, now
                    self._end(task, ("cancelled", None))
                self.foreground.clear()
                self.background.clear()
                return None
            return (self.foreground or self.background).popleft()

    def run(self) -> None:
        while self._run_one():
            pass

    def _run_one(self) -> bool:
        """One task (or step); False once stopped.  (Its outcome is let go on return: the loop
        keeps no job's result alive while it waits for the next.)"""
        task = self._next()
        if task is None:
            return False
        outcome = self.step(task)
        if outcome is None:                 # a background generator not done: queued again
            with self.lock:
                self.background.append(task)
        else:
            self._end(task, outcome)
        return True

    def step(self, task: _Task):
        """Run the task (a background generator: one step of it); its outcome, or None when a
        background generator has more steps."""
        try:
            if task.cancel.is_set():
                return ("cancelled", None)
            if task.steps is None:
                kwargs = {"progress": Progress(task, self)} if task.progress else {}
                result = task.work(*task.args, **kwargs)
                if not inspect.isgenerator(result):
                    return ("cancelled", None) if task.cancel.is_set() else ("done", result)
                task.steps = result
            while True:
                reported = next(task.steps)
                if reported is not None:
                    text, fraction = (reported if isinstance(reported, tuple)
                                      else (None, reported))
                    self.report(task, text, fraction)
                if task.cancel.is_set():
                    task.steps.close()
                    return ("cancelled", None)
                if task.background:
                    return None
        except StopIteration as stop:
            return ("done", stop.value)
        except Cancelled:
            return ("cancelled", None)
        except BaseException as error:  # noqa: BLE001 - delivered to the job's owner
            return ("failed", error)

    def report(self, task: _Task, text: str | None, fraction: float | None) -> None:
        now = time.monotonic()
        if text is not None:
            task.text = text
        if now - task.reported < PROGRESS_S and text is None and fraction != 1.0:
            return                          # often enough: the GUI thread reads it anyway
        task.reported = now
        self._emit(self.relay.taskProgressed, task.ticket, task.text,
                   UNKNOWN if fraction is None else float(fraction))

    def _end(self, task: _Task, outcome) -> None:
        if task.waiter is not None:         # ``call``: the caller waits on its own thread
            task.waiter[1] = outcome
            task.waiter[0].set()
            return
        self._emit(self.relay.taskEnded, task.ticket, outcome)

    @staticmethod
    def _emit(signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:                # the application is being torn down
            pass


class Job(QObject):
    """A job submitted to the runner, on the GUI thread (see the module's docstring)."""

    progressed = Signal(str, float)     # text ("" none), fraction 0..1 or UNKNOWN
    succeeded = Signal(object)          # the result
    failed = Signal(object)             # the exception
    cancelled = Signal()
    ended = Signal()                    # after any of the three

    def __init__(self, task: _Task, text: str, owner, runner: "Runner"):
        super().__init__()
        self._task = task
        self._runner = runner
        self.text = text                # what is being worked out, for the status bar
        self.fraction = UNKNOWN
        self.state = "queued"           # "done", "failed", "cancelled"
        self._result = self._error = None
        self._owner = None if owner is None else weakref.ref(owner)
        self.started = time.monotonic()

    @property
    def ended_already(self) -> bool:
        return self.state in ("done", "failed", "cancelled")

    def result(self):
        """The result, or the job's exception raised (a future's ``result``)."""
        if self._error is not None:
            raise self._error
        return self._result

    def exception(self) -> BaseException | None:
        return self._error

    def cancel(self) -> None:
        if self.ended_already:
            return
        self._task.cancel.set()
        self._runner._finish(self, ("cancelled", None))

    def let_go(self) -> None:
        """Ended: its slots are disconnected (a slot that holds the job, as most do, would keep
        it and its result alive for ever)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")     # a signal without slots: nothing to do
            for signal in (self.progressed, self.succeeded, self.failed, self.cancelled,
                           self.ended):
                try:
                    signal.disconnect()
                except (RuntimeError, SystemError, TypeError):
                    pass

    def owner_gone(self) -> bool:
        if self._owner is None:
            return False
        owner = self._owner()
        return owner is None or not shiboken6.isValid(owner) or bool(getattr(owner, "closed",
                                                                             False))


class Runner(QObject):
    """The application's one runner (``runner()``); made on the GUI thread, never freed."""

    busyChanged = Signal(str)
    taskProgressed = Signal(int, str, float)    # from the runner's thread: ticket, text, share
    taskEnded = Signal(int, object)             # ... ticket, (kind, value)

    def __init__(self):
        super().__init__()
        self._lane = _Lane(self)
        self._jobs: dict[int, Job] = {}         # GUI thread only
        self._tickets = itertools.count(1)
        self.busy_text = ""
        self._busy = QTimer(self)
        self._busy.setSingleShot(True)
        self._busy.timeout.connect(self._say_busy)
        self._collector = QTimer(self)
        self._collector.setInterval(GC_MS)
        self._collector.timeout.connect(self._collect)
        self._thresholds = gc.get_threshold()
        _MADE.add(self)
        self.taskProgressed.connect(self._progressed, Qt.ConnectionType.QueuedConnection)
        self.taskEnded.connect(self._ended, Qt.ConnectionType.QueuedConnection)

    # ------------------------------------------------------------------------ submitting
    def submit(self, work, *args, text: str = "", owner=None, background: bool = False,
               progress: bool = False, done=None, failed=None) -> Job:
        """``work(*args)`` on the runner's thread (see the module's docstring); ``done(result)``
        and ``failed(error)`` are connected to the job's signals for convenience."""
        task = _Task(next(self._tickets), work, args, background, progress)
        job = Job(task, text, owner, self)
        if done is not None:
            job.succeeded.connect(done)
        if failed is not None:
            job.failed.connect(failed)
        self._jobs[task.ticket] = job
        self._working()
        if not self._lane.put(task):
            self._finish(job, ("cancelled", None))      # stopped: it never runs
            return job
        if text and not self._busy.isActive():
            self._busy.start(BUSY_MS)
        return job

    def call(self, work, *args):
        """``work(*args)`` on the runner's thread, waited for; its exception raised here."""
        if threading.current_thread() is self._lane.thread:
            return work(*args)              # already there: waiting would never end
        task = _Task(0, work, args, False, False)
        task.waiter = [threading.Event(), None]
        self._working()
        if not self._lane.put(task):
            raise RuntimeError("the job runner has stopped (the program is ending)")
        task.waiter[0].wait()
        kind, value = task.waiter[1]
        if kind == "failed":
            raise value
        return value

    def stop(self) -> None:
        """Cancel every job and end the thread (at exit): a step under way is finished first."""
        self._lane.stop()

    # ------------------------------------------------------------------------ on the GUI thread
    def _progressed(self, ticket: int, text: str, fraction: float) -> None:
        job = self._jobs.get(ticket)
        if job is None or job.ended_already:
            return
        if job.owner_gone():
            job.cancel()
            return
        job.state = "running"
        job.fraction = fraction
        if text:
            job.text = text
        job.progressed.emit(text, fraction)
        if self.busy_text:
            self._say_busy()

    def _ended(self, ticket: int, outcome) -> None:
        job = self._jobs.get(ticket)
        if job is not None:
            self._finish(job, outcome)

    def _finish(self, job: Job, outcome) -> None:
        self._jobs.pop(job._task.ticket, None)
        if job.ended_already:
            return
        kind, value = outcome
        job.state = kind
        if kind == "done":
            job._result = value
        elif kind == "failed":
            job._error = value
        if not job.owner_gone():
            {"done": lambda: job.succeeded.emit(value), "failed": lambda: job.failed.emit(value),
             "cancelled": job.cancelled.emit}[kind]()
            job.ended.emit()
        job.let_go()
        self._say_busy()

    def _say_busy(self) -> None:
        """The oldest job with a text that has run for more than BUSY_MS, in the status bar."""
        now = time.monotonic()
        waiting = [j for j in self._jobs.values() if j.text and not j.ended_already
                   and not j.owner_gone()]
        late = [j for j in waiting if now - j.started >= BUSY_MS / 1000]
        text = ""
        if late:
            job = min(late, key=lambda j: j.started)
            text = job.text + (f" {int(job.fraction * 100)} %" if job.fraction >= 0 else "")
        elif waiting and not self._busy.isActive():
            soonest = min(waiting, key=lambda j: j.started)
            self._busy.start(max(1, int(BUSY_MS - 1000 * (now - soonest.started)) + 1))
        if text != self.busy_text:
            self.busy_text = text
            self.busyChanged.emit(text)

    # ------------------------------------------------------------------------ garbage
    def _working(self) -> None:
        """Work is handed to the runner's thread: automatic collection off until it is idle."""
        if gc.isenabled():
            gc.disable()
        if not self._collector.isActive():
            self._collector.start()

    def _collect(self) -> None:
        """The collection Python would have made by now, by its own thresholds; once the
        runner's thread is idle, automatic collection again."""
        limits = self._thresholds
        counts = gc.get_count()
        if counts[0] > limits[0]:
            generation = 0
            while generation < 2 and counts[generation + 1] >= limits[generation + 1]:
                generation += 1
            gc.collect(generation)
        if all(each._lane.idle() for each in _MADE):
            self._collector.stop()
            gc.enable()


def run_in_dialog(parent, job: Job, title: str, label: str) -> Job:
    """Wait for ``job`` behind a window-modal progress dialog (shown once it has run for
    ``BUSY_MS``) whose Cancel cancels it; the window keeps painting meanwhile.  Returns the job,
    ended."""
    dialog = QProgressDialog(label, "Cancel", 0, 1000, parent)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(BUSY_MS)
    dialog.canceled.connect(job.cancel)

    def progressed(text: str, fraction: float) -> None:
        if fraction < 0:
            dialog.setRange(0, 0)           # its share unknown: a busy bar
        else:
            dialog.setRange(0, 1000)
            dialog.setValue(int(1000 * fraction))
        if text:
            dialog.setLabelText(text)
    job.progressed.connect(progressed)
    loop = QEventLoop()
    job.ended.connect(loop.quit)
    if not job.ended_already:
        loop.exec()                         # ended: the job's slots are disconnected
    dialog.canceled.disconnect(job.cancel)
    dialog.close()
    dialog.deleteLater()
    return job


_RUNNER: list[Runner] = []          # the application's one runner, never freed
_MADE: weakref.WeakSet = weakref.WeakSet()  # every runner (tests make their own): gc's policy


def on_gui_thread(obj: QObject) -> bool:
    """Whether the caller runs on the thread of ``obj`` (a QObject of the GUI thread)."""
    return QThread.currentThread() is obj.thread()


def runner() -> Runner:
    """The application's runner, made on the first call (on the GUI thread, once a
    QApplication exists)."""
    if not _RUNNER:
        _RUNNER.append(Runner())
    return _RUNNER[0]


@atexit.register
def _stop_at_exit() -> None:
    """At exit the runner's thread is stopped and waited for (a daemon thread killed inside
    numpy while the interpreter shuts down aborts the process)."""
    if _RUNNER:
        _RUNNER[0].stop()


__all__ = ["BUSY_MS", "Cancelled", "Job", "Progress", "Runner", "THREAD_NAME", "UNKNOWN",
           "on_gui_thread", "run_in_dialog", "runner"]
