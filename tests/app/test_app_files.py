"""Open, Save, Save As: a round trip keeps the position; a bad file shows the engine's message and
keeps the current position."""
from __future__ import annotations

import json

from app_testing import settle
from PySide6.QtWidgets import QFileDialog

import engine


def test_save_as_and_open_round_trip(window, qtbot, tmp_path, monkeypatch):
    doc = window.document
    doc.add_marker(engine.Marker("starshell", "34X3"))
    assert window.isWindowModified()
    target = tmp_path / "night.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(tmp_path / "night"), "")))
    assert window.save()                     # no file name yet: Save asks for one
    assert doc.path == str(target)
    assert not window.isWindowModified()
    saved = doc.scenario
    assert engine.load_scenario(target) == saved
    settle(qtbot, doc)                       # answers follow the saved (re-anchored) position
    doc.move_unit("L1", "2T7")
    assert window.save()                     # Save writes the same file again
    assert (tmp_path / "night.json.bak").exists()
    moved = doc.scenario
    window.open_path(str(target))
    assert doc.scenario == moved
    assert doc.scenario.unit("L1").hex == "2T7"
    assert engine.scenario_to_json(doc.scenario)["markers"][-1] == {"type": "starshell",
                                                                   "hex": "34X3"}
    assert str(target) in window.recent.paths()
    settle(qtbot, doc)


def test_a_bad_file_keeps_the_position_and_shows_the_engines_message(window, messages, tmp_path):
    doc = window.document
    before, path_before = doc.scenario, doc.path
    bad = tmp_path / "bad.json"
    data = engine.scenario_to_json(doc.scenario)
    data["units"][0]["hex"] = "2ZZ99"
    bad.write_text(json.dumps(data))
    try:
        engine.load_scenario(bad)
    except engine.ScenarioError as e:
        expected = str(e)
    assert not window.open_path(str(bad))
    assert doc.scenario is before
    assert doc.path == path_before
    assert messages and messages[-1][0] == "warning"
    assert messages[-1][2] == expected
    assert "units[0].hex" in expected
    assert str(bad) not in window.recent.paths()


def test_a_missing_file_shows_a_message(window, messages, tmp_path):
    before = window.document.scenario
    assert not window.open_path(str(tmp_path / "nowhere.json"))
    assert window.document.scenario is before
    assert "no such file" in messages[-1][2]


def test_unsaved_changes_are_asked_about_before_opening(window, messages, tmp_path, qtbot):
    doc = window.document
    other = tmp_path / "other.json"
    engine.save_scenario(doc.scenario.replace(title="Other"), other)
    doc.move_unit("L1", "2T7")
    assert window.open_path(str(other))            # the recorded answer is Discard
    assert messages[-1][0] == "question"
    assert doc.scenario.title == "Other"
    assert not window.isWindowModified()
    settle(qtbot, doc)
