"""Qt objects live and die on the GUI thread only, whatever the engine's worker thread does: the
bad orders that crashed the Qt tests now and then (a segfault in pytest-qt's event processing, a
Qt fatal error, a paint that never ended), provoked here on purpose, in order, without sleeps."""
from __future__ import annotations

import gc
import threading
import weakref

import pytest
from app_testing import settle
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

import engine
from app.night.document import Document, default_scenario_path
from app.night.window import NightWindow


def _deliver_posted_events() -> None:
    """Deliver what the worker posted to the GUI thread, and the deletions asked for."""
    QCoreApplication.sendPostedEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _worker_collects():
    """On the engine's thread: enough new containers that Python's automatic collector would
    run here (its first threshold is 700 new objects)."""
    return [[k] for k in range(20 * gc.get_threshold()[0] + 10000)]


def test_garbage_holding_qt_objects_is_collected_on_the_gui_thread_only(qtbot):
    """A cycle that holds a QObject with a running timer (a window, a scene, a tool left by a
    closed window) becomes garbage; the engine's worker then allocates a lot.  Collected on the
    worker, the QObject and its timer would be destroyed there ("Timers cannot be stopped from
    another thread", then a crash); it is collected on the GUI thread, in its event loop."""
    document = Document(engine.load_scenario(default_scenario_path()))
    settle(qtbot, document)
    collected_on: list[str] = []

    def make_garbage():
        holder = QObject()
        holder.itself = holder                      # a cycle: only the collector frees it
        QTimer(holder).start(60000)
        return weakref.ref(holder, lambda _: collected_on.append(threading.current_thread().name))

    gc.collect()                                    # nothing older waits to be collected
    ref = make_garbage()
    assert ref() is not None
    document.call(_worker_collects)                 # the worker allocates: no collection there
    assert collected_on == []
    made_here = _worker_collects()                  # as many made on the GUI thread: its event
    qtbot.waitUntil(lambda: bool(collected_on), timeout=10000)   # loop collects
    assert collected_on == [threading.main_thread().name]
    assert ref() is None and len(made_here) > gc.get_threshold()[0]


@pytest.fixture
def held_worker():
    """The engine's worker held on a job until ``release()``; ``drain(document)`` returns once
    every job before it is over and its answer posted to the GUI thread."""
    gate = threading.Event()

    class Held:
        def hold(self, document):
            started = threading.Event()

            def wait():
                started.set()
                gate.wait()
            document.run(wait, done=lambda future: None)
            started.wait()

        def release(self):
            gate.set()

        def drain(self, document):
            # one worker, in order: the answers before this job were posted before it ran
            document.call(lambda: None)

    yield Held()
    gate.set()


def _window(qtbot, settings, deleted_by_the_test=False):
    w = NightWindow(Document(engine.load_scenario(default_scenario_path())), settings)
    if not deleted_by_the_test:
        qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    settle(qtbot, w.document)
    return w


def test_an_answer_for_a_window_closed_and_deleted_meanwhile_is_dropped(
        qtbot, settings, messages, held_worker):
    """A LOS thread is asked (right-drag) and the window is closed and deleted before the
    engine answers: the answer arrives later and nothing of the deleted window is touched (it
    used to be drawn on the deleted scene)."""
    w = _window(qtbot, settings, deleted_by_the_test=True)
    document, tool = w.document, w.hand.threads
    m = w.scene.map
    answered = []
    held_worker.hold(document)
    tool.stretch(m.index(document.scenario.units[0].hex), m.index(document.scenario.units[-1].hex))
    document.run(lambda: "late", done=answered.append)
    w.close()
    w.deleteLater()
    _deliver_posted_events()                        # the window, its scene and tool are gone
    with pytest.raises(RuntimeError):
        w.isVisible()
    held_worker.release()
    held_worker.drain(document)
    _deliver_posted_events()                        # the answers arrive: dropped
    assert answered == []


def test_a_closed_document_asks_nothing_more_and_takes_no_answer(qtbot, held_worker):
    """The window closes while its position's answers are on their way: they are dropped, and
    the document asks the engine nothing more."""
    document = Document(engine.load_scenario(default_scenario_path()))
    settle(qtbot, document)
    changed = []
    document.answersChanged.connect(lambda: changed.append(True))
    held_worker.hold(document)
    unit = document.scenario.units[0].id
    document.select(unit)                           # asked once the debounce timer fires
    qtbot.waitUntil(lambda: not document._timer.isActive())
    late = []
    document.run(lambda: "late", done=late.append)
    document.close()
    document.select(None)
    assert not document._timer.isActive()           # nothing more is asked
    held_worker.release()
    held_worker.drain(document)
    _deliver_posted_events()
    assert (changed, late) == ([], [])
    assert document.answers.viewer is None          # still the answers of before the close


def test_a_window_that_stays_open_gets_its_answers(qtbot, settings, messages, held_worker):
    """The same order with the window kept open: the held answers do arrive (the drop above is
    the closing's, not a lost delivery)."""
    w = _window(qtbot, settings)
    document = w.document
    answered = []
    held_worker.hold(document)
    document.run(lambda: "on time", done=lambda future: answered.append(future.result()))
    held_worker.release()
    held_worker.drain(document)
    _deliver_posted_events()
    assert answered == ["on time"]


def test_a_main_window_deleted_at_once_leaves_no_call_behind(qtbot, settings):
    """A window made and let go before the event loop runs (a file refused, a test's own):
    the fitting of its view it asked for on the next turn of the loop is not made on the
    deleted view."""
    w = NightWindow(Document(engine.load_scenario(default_scenario_path())), settings)
    w.deleteLater()
    with qtbot.capture_exceptions() as exceptions:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
    assert exceptions == []


def test_a_table_scene_deleted_before_its_rebuild_is_not_rebuilt(qtbot):
    """A change of the table schedules a rebuild of its scene on the next turn of the event
    loop; the scene is deleted first (its window closed): the rebuild is not made."""
    from app.tabletop.document import Document as TableDocument
    from app.tabletop.scene import TableScene
    from engine.api import assets_dir
    scene = TableScene(TableDocument.open_file(str(assets_dir() / "tables" / "S-06.json")))
    scene.schedule_rebuild()
    scene.deleteLater()
    with qtbot.capture_exceptions() as exceptions:
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        QCoreApplication.processEvents()
    assert exceptions == []


def test_a_table_view_keeps_the_scene_made_for_it_alone(qtbot):
    """``render`` (the headless screenshot) makes a view on a scene nothing else holds: the
    view keeps it, so Python's collector never destroys it in the middle of a paint (the test
    of every bundled table once found the view without its scene)."""
    from app.tabletop.document import Document as TableDocument
    from app.tabletop.scene import TableScene
    from app.tabletop.window import TableView
    from engine.api import assets_dir
    view = TableView(TableScene(TableDocument.open_file(str(assets_dir() / "tables" / "S-06.json"))))
    qtbot.addWidget(view)
    gc.collect()
    assert view.scene() is not None and view.scene().items_by_id
    view.fit()


def test_a_document_with_undo_steps_is_freed_without_the_cyclic_collector(qtbot):
    """The undo stack (a child of the document) owns its commands; the commands refer to the
    document weakly, so a document let go is freed at once, never left to Python's collector
    (which freed such a cycle in an order Qt did not survive: a segfault in QUndoStack::clear
    during a collection)."""
    from app.tabletop.document import Document as TableDocument
    from engine.api import assets_dir
    document = Document(engine.load_scenario(default_scenario_path()))
    settle(qtbot, document)
    document.move_unit("A1", "2Y8")
    table = TableDocument.open_file(str(assets_dir() / "tables" / "S-06.json"))
    element = table.table.elements[0]
    table.place(element.id, element.x, element.y, element.facing + 180, snap=False)  # turned
    assert document.undo_stack.count() == 1 and table.undo_stack.count() == 1
    refs = [weakref.ref(document), weakref.ref(table)]
    del document, table
    assert [r() for r in refs] == [None, None]
