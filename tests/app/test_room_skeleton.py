"""One test set for the room skeleton (app.room_document, app.room_window), run against all three
rooms: an edit is one undo step that swaps one position for another; undo and redo follow the
clean state and the title's modified mark; Save As writes a file the room reads back, Save then
writes there; a failed save keeps the file and the work unsaved; closing unsaved work asks
(Cancel keeps the window, Discard closes it and leaves nothing to recover); a crash's autosave is
offered back as the room's own document; every room's window has Open Recent; the
map view of every room zooms within the same limits and keeps the player's zoom when the window is resized."""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import pytest
from app_testing import answer_question, settle
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app import file_kinds, rooms, style
from app.map_view import MAX_PIXELS_PER_UNIT, MIN_OF_FIT, ZoomView
from app.napoleonic import Document as FireDocument
from app.napoleonic import FireWindow
from app.night import Document as NightDocument
from app.night import NightWindow
from app.room_document import RoomDocument, Swap
from app.room_window import RoomWindow
from app.tabletop import Document as TableDocument
from app.tabletop import TableWindow
from engine import api

ASSETS = Path(__file__).resolve().parents[2] / "assets"
Button = QMessageBox.StandardButton


@dataclass(frozen=True)
class Room:
    name: str
    make: Callable            # settings -> an untitled window on a bundled position
    edit: Callable            # document -> None: one edit
    wait: Callable = lambda qtbot, document: None     # the room's answers settled


def night(settings):
    doc = NightDocument(api.night.load_scenario(ASSETS / "scenarios" / "default.json"), None)
    return NightWindow(doc, settings)


def fire(settings):
    doc = FireDocument(api.napoleonic.load_position(ASSETS / "fire" / "sample.json"), None)
    return FireWindow(doc, settings=settings)


def table(settings):
    doc = TableDocument(api.tabletop.load_table(ASSETS / "tables" / "S-01.json"), None)
    return TableWindow(doc, settings=settings)


def night_edit(doc):
    doc.edit(doc.scenario.replace(title="Edited at night"), "retitle")


def fire_edit(doc):
    doc.set_segment(next(s for s in api.napoleonic.SEGMENTS if s != doc.position.segment))


def table_edit(doc):
    doc.swap(replace(doc.table, title="Edited table"), "retitle")


ROOMS = [Room("night", night, night_edit, settle), Room("napoleonic", fire, fire_edit),
         Room("tabletop", table, table_edit)]


@pytest.fixture(params=ROOMS, ids=lambda room: room.name)
def room(request):
    return request.param


@pytest.fixture
def opened(room, qtbot, settings, messages):
    window = room.make(settings)
    qtbot.addWidget(window)
    window.show()
    room.wait(qtbot, window.document)
    yield window
    room.wait(qtbot, window.document)
    window.document.undo_stack.setClean()            # closed at the end without a question


def save_as_answers(monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))


def test_every_room_is_built_on_the_skeleton(room, opened):
    cls = type(opened)
    assert isinstance(opened, RoomWindow) and isinstance(opened.document, cls.document_class)
    assert issubclass(cls.document_class, RoomDocument) and isinstance(opened.view, cls.view_class)
    assert cls.recovery is not None and cls.format in cls.recovery.formats
    assert file_kinds.room_of(None) == "night"
    assert rooms.ROOMS[cls.format].__name__ == f"app.{room.name}"
    file_menu = opened.menuBar().actions()[0].menu()
    assert "Open &Recent" in [a.text() for a in file_menu.actions()]


def test_an_edit_is_one_swap_undone_and_redone_with_the_clean_state(room, opened, qtbot):
    doc = opened.document
    before = doc.position
    assert doc.is_clean and not opened.isWindowModified() and "[*]" in opened.windowTitle()
    room.edit(doc)
    after = doc.position
    assert after is not before and doc.undo_stack.count() == 1
    assert isinstance(doc.undo_stack.command(0), Swap)
    assert not doc.is_clean and opened.isWindowModified()
    doc.undo_stack.undo()
    assert doc.position is before and doc.is_clean and not opened.isWindowModified()
    doc.undo_stack.redo()
    assert doc.position is after and not doc.is_clean and opened.isWindowModified()


def test_save_as_writes_what_the_room_reads_back_then_save_writes_there(
        room, opened, qtbot, monkeypatch, tmp_path, messages):
    doc = opened.document
    room.edit(doc)
    room.wait(qtbot, doc)
    target = tmp_path / "mine"                       # Save As adds ".json"
    save_as_answers(monkeypatch, target)
    assert opened.save()                             # never saved: Save asks where
    written = tmp_path / "mine.json"
    assert doc.path == str(written) and doc.is_clean and not opened.isWindowModified()
    named = doc.table.title if room.name == "tabletop" else "mine.json"   # a table: its title
    assert named in opened.windowTitle() and str(written) in opened.recent.paths()
    assert type(doc).read_position(str(written)).title == doc.position.title
    save_as_answers(monkeypatch, tmp_path / "elsewhere.json")
    room.edit(doc) if room.name != "napoleonic" else doc.undo_stack.undo()
    room.wait(qtbot, doc)
    assert not doc.is_clean and opened.save()        # its own file now: written there
    assert not (tmp_path / "elsewhere.json").exists() and doc.is_clean
    assert type(doc).read_position(str(written)).title == doc.position.title
    assert messages == []


def test_a_failed_save_keeps_the_file_and_the_work_unsaved(room, opened, monkeypatch, tmp_path,
                                                           messages):
    doc = opened.document
    room.edit(doc)
    bad = tmp_path / "no such folder" / "x.json"
    save_as_answers(monkeypatch, bad)
    assert not opened.save_as()
    assert doc.path is None and not doc.is_clean and opened.isWindowModified()
    assert [m[0] for m in messages] == ["critical"] and str(bad) in messages[0][2]


@pytest.mark.parametrize("answer", [Button.Cancel, Button.Discard])
def test_closing_unsaved_work_asks(room, opened, qtbot, monkeypatch, recovery_dir, answer):
    doc = opened.document
    room.edit(doc)
    room.wait(qtbot, doc)
    opened.autosaver.write_now()
    assert list(recovery_dir.glob("*/recovery.json"))
    asked = answer_question(monkeypatch, answer)
    closed = opened.close()
    assert len(asked) == 1 and closed == (answer == Button.Discard)
    assert opened.isVisible() == (answer == Button.Cancel)
    assert bool(list(recovery_dir.glob("*/recovery.json"))) == (answer == Button.Cancel)
    if answer == Button.Cancel:
        doc.undo_stack.setClean()                    # nothing to ask at the test's end


def test_a_crash_s_autosave_comes_back_as_the_room_s_own_document(room, opened, qtbot,
                                                                   monkeypatch, recovery_dir):
    doc = opened.document
    room.edit(doc)
    room.wait(qtbot, doc)
    edited = doc.position
    opened.autosaver.write_now()                     # what the timer does (then kill -9)
    asked = answer_question(monkeypatch, Button.Yes)
    window = type(opened).recovered()                # the room's door at the next start
    qtbot.addWidget(window)
    back = window.document
    assert len(asked) == 1 and type(back) is type(doc) and back is not doc
    assert not back.is_clean and back.path is None and window.isWindowModified()
    assert back.position.title == edited.title
    if room.name == "napoleonic":
        assert back.position.segment == edited.segment
    room.wait(qtbot, back)
    slot = window.autosaver.slot
    assert (slot / "recovery.json").exists()         # the restored work's slot, written on
    back.undo_stack.setClean()                       # given up: nothing left to recover
    assert not (slot / "recovery.json").exists()
    doc.undo_stack.setClean()


def test_the_map_view_zooms_within_the_same_limits_and_a_resize_keeps_the_player_s_zoom(
        room, opened, qtbot):
    view = opened.view
    assert isinstance(view, ZoomView)
    view.fit()
    fitted = view.transform().m11()
    assert view.fitted
    view.zoom_by(1.5)
    zoomed = min(1.5 * fitted, MAX_PIXELS_PER_UNIT / style.SCALE)
    assert view.transform().m11() == pytest.approx(zoomed) and not view.fitted
    width = view.viewport().width()
    opened.resize(opened.width() + 160, opened.height() + 90)
    qtbot.waitUntil(lambda: view.viewport().width() != width, timeout=5000)
    assert view.transform().m11() == pytest.approx(zoomed)     # not fitted again
    view.zoom_by(1e6)
    assert view.pixels_per_unit == pytest.approx(MAX_PIXELS_PER_UNIT)
    view.zoom_by(1e-6)
    assert view.transform().m11() == pytest.approx(MIN_OF_FIT * view.fit_scale())
    view.fit()
    assert view.fitted
    width = view.viewport().width()
    refit = view.transform().m11()
    opened.resize(opened.width() - 200, opened.height())
    qtbot.waitUntil(lambda: view.viewport().width() != width, timeout=5000)
    assert view.transform().m11() < refit                      # fitted: it follows the window
