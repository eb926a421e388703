"""The Document owns the position, asks the engine off the window's thread, debounced, and keeps
the undo stack."""
from __future__ import annotations

import threading

import pytest
from app_testing import settle

import engine
from app.night import document as document_module
from app.night.document import Document, default_scenario_path


@pytest.fixture
def doc(qtbot):
    d = Document(engine.load_scenario(default_scenario_path()))
    settle(qtbot, d)
    yield d
    settle(qtbot, d)             # no engine job outlives the test


def test_rapid_changes_ask_the_engine_for_the_last_one(doc, qtbot, monkeypatch):
    asked = []
    real = document_module.ask_engine

    def counting(scenario, viewer, *rest):
        asked.append(viewer)
        return real(scenario, viewer, *rest)
    monkeypatch.setattr(document_module, "ask_engine", counting)
    with qtbot.waitSignal(doc.answersChanged, timeout=20000):
        for unit in ("L1", "A1", "A2", "G1", "G2"):
            doc.select(unit)
    settle(qtbot, doc)
    assert asked[-1] == "G2"
    assert len(asked) < 5                      # debounced
    assert doc.answers.viewer == "G2"
    assert doc.answers.field is not None


def test_the_engine_runs_off_the_window_thread(doc, qtbot, monkeypatch):
    threads = []
    real = document_module.ask_engine

    started, go_on = threading.Event(), threading.Event()

    def held(scenario, viewer, *rest):
        threads.append(threading.current_thread())
        started.set()
        go_on.wait(20)                         # the engine is busy until the test lets it go
        return real(scenario, viewer, *rest)
    monkeypatch.setattr(document_module, "ask_engine", held)
    doc.select("L1")
    qtbot.waitUntil(started.is_set)            # the debounce timer fired, the job started...
    assert not doc.is_settled                  # ... and the window's loop runs on meanwhile
    go_on.set()
    settle(qtbot, doc)
    assert threads and all(t is not threading.main_thread() for t in threads)


def test_answers_belong_to_the_position_they_were_asked_for(doc, qtbot):
    doc.select("L1")
    settle(qtbot, doc)
    doc.move_unit("L1", "2T8")
    assert not doc.is_settled
    settle(qtbot, doc)
    assert doc.answers.scenario is doc.scenario
    assert doc.answers.scenario.unit("L1").hex == "2T8"


def test_edits_are_undoable(doc, qtbot):
    before = doc.scenario
    doc.add_marker(engine.Marker("starshell", "2H5"))
    doc.move_unit("A1", "2Y8")
    assert doc.undo_stack.count() == 2
    assert not doc.undo_stack.isClean()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.scenario == before
    doc.undo_stack.redo()
    assert doc.scenario.markers[-1] == engine.Marker("starshell", "2H5")
    doc.remove_marker(len(doc.scenario.markers) - 1)
    assert doc.scenario == before


def test_removing_the_viewer_clears_the_selection(doc, qtbot):
    doc.select("G3")
    with qtbot.waitSignal(doc.selectionChanged):
        doc.edit(doc.scenario.without_unit("G3"), "remove G3")
    assert doc.viewer is None
    settle(qtbot, doc)
    assert doc.answers.field is None


def test_selecting_an_unknown_unit_is_refused(doc):
    with pytest.raises(engine.ScenarioError, match="no unit 'Z9'"):
        doc.select("Z9")
    assert doc.viewer is None


def test_a_failing_engine_is_reported_not_raised(doc, qtbot, monkeypatch):
    def broken(scenario, viewer, *rest):
        raise RuntimeError("boom")
    monkeypatch.setattr(document_module, "ask_engine", broken)
    with qtbot.waitSignal(doc.engineFailed, timeout=20000) as signal:
        doc.select("L1")
    assert "boom" in signal.args[0]
    assert not doc.is_settled
    monkeypatch.undo()
    doc.refresh()
    settle(qtbot, doc)
    assert doc.answers.viewer == "L1"


def test_load_replaces_the_position_and_clears_the_undo_stack(doc, qtbot, tmp_path):
    doc.move_unit("A1", "2Y8")
    path = tmp_path / "p.json"
    engine.save_scenario(engine.load_scenario(default_scenario_path()).replace(title="P"), path)
    doc.load(path)
    assert doc.scenario.title == "P"
    assert doc.path == str(path)
    assert doc.undo_stack.count() == 0
    with pytest.raises(engine.ScenarioError):
        doc.load(tmp_path / "missing.json")
    assert doc.scenario.title == "P"


def test_take_unsaved_shows_a_new_position_that_is_not_saved(doc, qtbot):
    doc.select("L1")
    doc.move_unit("A1", "2Y8")
    other = engine.load_scenario(default_scenario_path()).replace(title="From VASL")
    with qtbot.waitSignal(doc.fileChanged):
        doc.take_unsaved(other)
    assert doc.scenario is other
    assert doc.path is None                    # Save asks for a name
    assert doc.viewer is None                  # nothing of the last position stays selected
    assert doc.undo_stack.count() == 0         # no undo back into the last position
    assert not doc.undo_stack.isClean()        # unsaved: the title says so, closing asks
    doc.take_unsaved(other, "/somewhere/kept.json")
    assert doc.path == "/somewhere/kept.json" and not doc.undo_stack.isClean()


def test_an_edit_the_engine_refuses_changes_nothing(doc):
    s = doc.scenario
    impossible = s.with_unit(s.unit("T1").replace(bu=True, ce=True))
    with pytest.raises(engine.ScenarioError, match="both buttoned up"):
        doc.edit(impossible, "T1 buttoned up and CE")
    assert doc.scenario is s and doc.undo_stack.count() == 0


def test_a_drag_that_leaves_a_passenger_behind_goes_back(doc):
    """A rider aboard T1 dragged away from it: the engine refuses the drop (E1.14's "aboard"
    extension: a passenger stands in its vehicle's hex); the position is the one before."""
    rider = engine.Unit("R1", "allied", "squad", "2R4", extra={"aboard": "T1"})
    doc.edit(doc.scenario.with_unit(rider), "add R1 aboard T1")
    before = doc.scenario
    doc.begin_drag()
    doc.show(before.moved("R1", "2T6"))
    with pytest.raises(engine.ScenarioError, match="aboard T1"):
        doc.finish_drag(before, "move R1 to 2T6")
    assert doc.scenario is before and not doc.dragging
    assert doc.undo_stack.count() == 1
