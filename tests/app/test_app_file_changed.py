"""Two windows saving one file: a window knows its file as it opened or saved it last, and when
another window (or program) has written it since, Save asks before writing over it (Cancel keeps
the other's version) and the status bar says so when the window comes to the front.  One place
(``RoomWindow``) for every room."""
from __future__ import annotations

import pytest
from app_testing import answer_question
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox
from test_room_skeleton import ROOMS

Button = QMessageBox.StandardButton


@pytest.fixture(params=ROOMS, ids=lambda room: room.name)
def room(request):
    return request.param


def two_windows_on_one_file(room, qtbot, settings, monkeypatch, tmp_path):
    """Window one saves as ``shared.json``; window two opens that file."""
    one = room.make(settings)
    qtbot.addWidget(one)
    room.wait(qtbot, one.document)
    path = tmp_path / "shared.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))
    room.edit(one.document)
    room.wait(qtbot, one.document)
    assert one.save_as()
    two = type(one)(type(one.document).open_file(str(path)), settings=settings)
    qtbot.addWidget(two)
    room.wait(qtbot, two.document)
    return one, two, path


@pytest.mark.parametrize("answer", [Button.Cancel, Button.Save])
def test_saving_over_a_file_another_window_wrote_asks(room, qtbot, settings, monkeypatch,
                                                     tmp_path, messages, answer):
    one, two, path = two_windows_on_one_file(room, qtbot, settings, monkeypatch, tmp_path)
    asked = answer_question(monkeypatch, answer)
    assert two.save()                       # nobody wrote it since two opened it: no question
    assert asked == []
    theirs = path.read_bytes()
    assert one.save() is (answer == Button.Save)        # two wrote it since one saved it
    assert len(asked) == 1 and str(path) in asked[0] and "another window" in asked[0]
    if answer == Button.Cancel:
        assert path.read_bytes() == theirs
    asked.clear()
    assert two.save() and len(asked) == (answer == Button.Save)     # asked only if one wrote
    for window in (one, two):
        window.document.undo_stack.setClean()


def test_coming_to_the_front_tells_the_change_once(room, qtbot, settings, monkeypatch,
                                                  tmp_path, messages):
    one, two, path = two_windows_on_one_file(room, qtbot, settings, monkeypatch, tmp_path)
    answer_question(monkeypatch, Button.Save)
    assert two.save()
    monkeypatch.setattr(type(one), "isActiveWindow", lambda self: True)
    one.changeEvent(QEvent(QEvent.Type.ActivationChange))
    said = one.statusBar().currentMessage()
    assert said.startswith("shared.json was written by another window or program"), said
    one.statusBar().clearMessage()
    one.changeEvent(QEvent(QEvent.Type.ActivationChange))
    # once: coming to the front again says nothing more of it (the night room's status bar may
    # give back the undo sentence the warning covered)
    assert "written by another window" not in one.statusBar().currentMessage()
    two.changeEvent(QEvent(QEvent.Type.ActivationChange))   # its own save: nothing to tell
    assert two.statusBar().currentMessage() != said
