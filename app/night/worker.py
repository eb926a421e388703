"""The night room's worker: the one engine thread the Document's questions go to, the tickets
that bring its answers back to the window's thread, and the garbage-collection policy that
keeps Qt objects dying on the window's thread.

The engine's work for the window goes to that one thread: the answers, the questions answered
later on the window's thread (``submit``: the LOS thread) and the short acts the window waits
for (``call``: an edit checked, a starshell fired, the drift preview, a hex's reasons, a board
edit or brush stroke, a file opened or saved).  One thread keeps the engine's calls in order
and its caches (LOS tables) filled from one thread only.

Qt objects live and die on the window's thread only (a QObject destroyed on another thread
crashes, or deadlocks a paint that waits for Python):
- the engine's jobs take and give engine objects only; what is done with an answer (``done``)
  waits in ``_WAITING`` on the window's thread, under a ticket, and the worker hands back only
  the ticket (through ``_RELAY``, made once and never freed);
- an answer for an owner closed (its ``closed`` true) or deleted meanwhile is dropped;
- Python's cyclic garbage collector runs on the window's thread only
  (``collect_garbage_on_gui_thread``): collected on another thread, a cycle holding a window, a
  scene or a timer would be destroyed there.
"""
from __future__ import annotations

import gc
import itertools
import threading
import weakref
from concurrent.futures import Future, ThreadPoolExecutor

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QThread, QTimer, Signal

ENGINE_THREAD = "starshell-engine"
_ENGINE = ThreadPoolExecutor(max_workers=1, thread_name_prefix=ENGINE_THREAD)


def call(job, *args):
    """``job(*args)`` run on the engine's thread, waited for; its exception is raised here."""
    if threading.current_thread().name.startswith(ENGINE_THREAD):
        return job(*args)                   # already there: waiting would never end
    return _ENGINE.submit(job, *args).result()


def start(job, *args) -> Future:
    """``job(*args)`` on the engine's thread, its future to wait for (``settle``)."""
    return _ENGINE.submit(job, *args)


def submit(owner, job, args, done) -> tuple[int, Future]:
    """``job(*args)`` on the engine's thread, then ``done(owner, future)`` on the window's,
    unless ``owner`` (a QObject with ``closed``) was closed or deleted meanwhile.  ``done``
    stays on this thread (``_WAITING``): the worker never holds a Qt object.  The ticket and
    the future: ``drop`` forgets them."""
    ticket = next(_tickets)
    _WAITING[ticket] = (weakref.ref(owner), done)
    future = _ENGINE.submit(job, *args)
    future.add_done_callback(lambda f, ticket=ticket: _finished(ticket, f))
    return ticket, future


def ready() -> None:
    """Called on the window's thread before any job is submitted: the relay that brings the
    tickets back is made there."""
    _relay()


def drop(tickets: dict[int, Future]) -> None:
    """The answers of these tickets are not wanted any more: the jobs not started yet are
    cancelled, the others' answers dropped."""
    for ticket, future in tickets.items():
        _WAITING.pop(ticket, None)
        future.cancel()


GC_MS = 250                 # how often the window's thread looks for garbage to collect
_collector: list = []       # the timer of ``collect_garbage_on_gui_thread``, once made


def collect_garbage_on_gui_thread() -> None:
    """Python's automatic cyclic garbage collection off; the window's thread collects instead,
    every ``GC_MS`` in its event loop, as often as the automatic collection would.  (Automatic
    collection runs on whichever thread happens to allocate: an engine worker collecting a
    cycle that holds a window, a scene or a timer destroys it there.)  Called on the window's
    thread once a QApplication exists; a later call only turns the automatic collection off
    again (if something turned it on)."""
    app = QCoreApplication.instance()
    if app is None or QThread.currentThread() is not app.thread():
        return
    if _collector and shiboken6.isValid(_collector[0]):
        gc.disable()
        return
    timer = QTimer(app)
    timer.setInterval(GC_MS)
    timer.timeout.connect(_collect)
    _collector[:] = [timer, gc.get_threshold()]
    gc.disable()
    timer.start()


def _collect() -> None:
    """The collection Python would have made by now, by its own thresholds: the youngest
    objects once enough were made, the older generations after enough younger collections."""
    limits = _collector[1]
    counts = gc.get_count()
    if counts[0] <= limits[0]:
        return
    generation = 0
    while generation < 2 and counts[generation + 1] >= limits[generation + 1]:
        generation += 1
    gc.collect(generation)


class _Relay(QObject):
    """Carries a finished engine job's ticket from the worker thread to the window's thread."""
    done = Signal(int, object)          # (ticket, future)


_RELAY: list[_Relay] = []               # made once on the window's thread, never freed
_WAITING: dict[int, tuple] = {}         # ticket -> (weakref to the owner, done(owner, future))
_tickets = itertools.count(1)


def _relay() -> _Relay:
    if not _RELAY:
        relay = _Relay()
        relay.done.connect(_arrived, Qt.ConnectionType.QueuedConnection)
        _RELAY.append(relay)
    return _RELAY[0]


def _finished(ticket: int, future: Future) -> None:
    """In the worker thread: only the ticket and the future (engine objects) go back."""
    try:
        _RELAY[0].done.emit(ticket, future)
    except RuntimeError:                # the application is being torn down
        pass


def _arrived(ticket: int, future: Future) -> None:
    """On the window's thread: hand the answer to its owner, unless it was closed or deleted
    meanwhile."""
    waiting = _WAITING.pop(ticket, None)
    if waiting is None:
        return
    ref, done = waiting
    owner = ref()
    if owner is None or not shiboken6.isValid(owner) or owner.closed:
        return
    done(owner, future)
