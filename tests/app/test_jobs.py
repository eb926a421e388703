"""The app's job runner (app/jobs.py): progress in order, results and errors on the GUI thread,
Cancel, foreground work before a background job's next step, owners closed, the status bar's
text past 0.2 s, stopping at exit, and Python's collector automatic again once it is idle.
Each test has its own runner (stopped at its end); no sleeps: the jobs wait on events."""
from __future__ import annotations

import gc
import threading
import weakref

import pytest
from PySide6.QtCore import QObject

from app import jobs
from app.jobs import Cancelled, Runner


@pytest.fixture
def runner(qapp):
    made = Runner()
    yield made
    made.stop()


def _ended(qtbot, job, timeout=10000):
    qtbot.waitUntil(lambda: job.ended_already, timeout=timeout)
    return job


def test_progress_arrives_in_order_and_the_result_on_the_gui_thread(qtbot, runner, monkeypatch):
    monkeypatch.setattr(jobs, "PROGRESS_S", 0.0)        # every report sent (none throttled)
    ran_on, seen, results = [], [], []

    def steps():
        ran_on.append(threading.current_thread())
        for k in range(1, 10):
            yield k / 10
        yield ("last step", 1.0)
        return "the answer"
    job = runner.submit(steps)
    job.progressed.connect(lambda text, share: seen.append((text, share)))
    job.succeeded.connect(lambda value: results.append((value, threading.current_thread())))
    with qtbot.waitSignal(job.ended, timeout=10000):
        pass
    assert [share for _, share in seen] == [k / 10 for k in range(1, 10)] + [1.0]
    assert seen[-1][0] == "last step"
    assert results == [("the answer", threading.main_thread())]
    assert ran_on and ran_on[0] is not threading.main_thread()
    assert job.state == "done" and job.result() == "the answer"


def test_reports_sent_often_are_thinned_but_kept_in_order_with_the_last(qtbot, runner):
    seen = []

    def steps():
        for k in range(1, 2001):
            yield k / 2000
    job = runner.submit(steps)
    job.progressed.connect(lambda text, share: seen.append(share))
    _ended(qtbot, job)
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) < 2000


def test_an_error_is_delivered_on_the_gui_thread(qtbot, runner):
    failed = []

    def broken():
        raise ValueError("no such hex: 9Z99")
    job = runner.submit(broken)
    job.failed.connect(lambda error: failed.append((error, threading.current_thread())))
    _ended(qtbot, job)
    error, thread = failed[0]
    assert isinstance(error, ValueError) and "9Z99" in str(error)
    assert thread is threading.main_thread() and job.exception() is error
    with pytest.raises(ValueError, match="9Z99"):
        job.result()
    with pytest.raises(ValueError, match="9Z99"):
        runner.call(broken)                 # ``call`` raises it in the caller


def test_cancel_stops_a_generator_at_its_next_step_and_a_queued_job_never_runs(qtbot, runner):
    entered, release = threading.Event(), threading.Event()
    steps_run, closed, later = [], [], []

    def steps():
        try:
            for k in range(100):
                steps_run.append(k)
                if k == 0:
                    entered.set()
                    release.wait()
                yield k / 100
        finally:
            closed.append(True)
    job = runner.submit(steps)
    queued = runner.submit(lambda: later.append("ran"))
    entered.wait()
    outcome = []
    job.cancelled.connect(lambda: outcome.append("cancelled"))
    job.succeeded.connect(lambda value: outcome.append("succeeded"))
    job.cancel()
    queued.cancel()
    assert outcome == ["cancelled"] and job.state == "cancelled"     # said at once
    release.set()
    runner.call(lambda: None)               # the runner went on: the step under way is over
    assert steps_run == [0] and closed == [True] and later == []
    qtbot.waitUntil(lambda: runner.busy_text == "" and not runner._jobs, timeout=5000)
    assert outcome == ["cancelled"]


def test_a_job_given_progress_stops_where_it_reports_once_cancelled(qtbot, runner):
    entered, release = threading.Event(), threading.Event()
    reached = []

    def work(progress):
        progress(0.1, "reading")
        entered.set()
        release.wait()
        reached.append("before")
        progress(0.2)                       # raises Cancelled: the work stops here
        reached.append("after")
    job = runner.submit(work, progress=True)
    entered.wait()
    job.cancel()
    release.set()
    runner.call(lambda: None)
    assert reached == ["before"] and job.state == "cancelled"
    assert issubclass(Cancelled, Exception)


def test_foreground_jobs_run_before_a_background_jobs_next_step(qtbot, runner):
    """A background job (the map's LOS table) is at its first step when a field is asked: the
    field runs right after that step, before the table's next one."""
    order, entered, release = [], threading.Event(), threading.Event()

    def table():
        for k in range(5):
            order.append(f"row {k}")
            if k == 0:
                entered.set()
                release.wait()
            yield (k + 1) / 5
    building = runner.submit(table, background=True)
    entered.wait()
    field = runner.submit(lambda: order.append("field"))
    release.set()
    _ended(qtbot, building)
    assert field.state == "done"
    assert order == ["row 0", "field", "row 1", "row 2", "row 3", "row 4"]


def test_nothing_is_delivered_to_an_owner_closed_or_deleted_meanwhile(qtbot, runner):
    entered, release = threading.Event(), threading.Event()
    closed_owner, deleted_owner = QObject(), QObject()
    closed_owner.closed = False
    got = []

    def held():
        entered.set()
        release.wait()
        return "late"
    first = runner.submit(held, owner=closed_owner, done=got.append)
    second = runner.submit(lambda: "late too", owner=deleted_owner, done=got.append)
    kept = runner.submit(lambda: "on time", done=got.append)
    entered.wait()
    closed_owner.closed = True
    del deleted_owner
    release.set()
    _ended(qtbot, kept)
    assert got == ["on time"] and first.ended_already and second.ended_already


def test_the_busy_text_is_said_past_BUSY_MS_and_cleared_when_done(qtbot, runner):
    release = threading.Event()
    job = runner.submit(release.wait, text="Reading the VASL saved game g.vsav")
    assert runner.busy_text == ""           # not at once: a short wait says nothing
    with qtbot.waitSignal(runner.busyChanged, timeout=5000) as said:
        pass
    assert said.args == ["Reading the VASL saved game g.vsav"]
    with qtbot.waitSignal(runner.busyChanged, timeout=5000) as cleared:
        release.set()
    assert cleared.args == [""] and job.state == "done"


def test_stop_ends_the_thread_after_the_step_under_way_and_nothing_runs_after(qtbot, runner):
    closed, steps_run = [], []

    def endless():
        try:
            while True:
                steps_run.append(1)
                yield 0.5
        finally:
            closed.append(threading.current_thread())
    job = runner.submit(endless, background=True)
    qtbot.waitUntil(lambda: len(steps_run) > 3, timeout=5000)
    thread = runner._lane.thread
    runner.stop()
    assert not thread.is_alive() and closed == [thread]
    _ended(qtbot, job)
    assert job.state == "cancelled"
    late = runner.submit(lambda: "never")
    assert late.state == "cancelled"
    with pytest.raises(RuntimeError, match="stopped"):
        runner.call(lambda: None)


def test_automatic_garbage_collection_is_on_again_once_the_runner_is_idle(qtbot, runner):
    """Off only while the runner's thread works (so it never collects there); automatic
    again once it is idle: never switched off for the whole run of the program."""
    release = threading.Event()
    job = runner.submit(release.wait)
    assert not gc.isenabled()
    release.set()
    _ended(qtbot, job)
    qtbot.waitUntil(gc.isenabled, timeout=5000)


def test_an_ended_job_is_let_go_with_its_result(qtbot, runner):
    """A slot that holds its job (most do) does not keep the job, nor its result, alive once it
    has ended."""
    class Answer:
        pass
    got = []
    job = runner.submit(Answer)
    job.succeeded.connect(lambda value, job=job: got.append((job.state, value)))
    _ended(qtbot, job)
    assert got and got[0][0] == "done"
    refs = weakref.ref(job), weakref.ref(got[0][1])
    del job
    got.clear()
    runner.call(lambda: None)               # the runner's thread is past that job
    assert [r() for r in refs] == [None, None]
