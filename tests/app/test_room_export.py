"""One test set for File > Export (``RoomWindow``'s, through ``app.export``), run against all three
rooms: the same menu entry and shortcut in every room, and the same rule for the name offered;
the file written is a PNG of the expected size that is not blank (SVG where the room's view draws
one); a failed write (a bad path, a read-only folder) shows an error, leaves whatever was at the
path and loses nothing of the work; every room's ``--screenshot`` door writes through the same
renderer, an exact size, and refuses a bad path by naming it."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog
from test_room_skeleton import ROOMS

from app import rooms, style
from app.export import SCENE_WIDTH, view_area
from app.room_window import EXPORTS, documents_folder

ASSETS = Path(__file__).resolve().parents[2] / "assets"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(params=ROOMS, ids=lambda room: room.name)
def room(request):
    return request.param


@pytest.fixture
def opened(room, qtbot, settings, messages):
    window = room.make(settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    room.wait(qtbot, window.document)
    window.view.fit()
    yield window
    room.wait(qtbot, window.document)


def file_menu_action(window, kind: str):
    file_menu = window.menuBar().actions()[0].menu()
    text = EXPORTS[kind][0]
    found = [a for a in file_menu.actions() if a.text() == text]
    assert len(found) == 1, [a.text() for a in file_menu.actions()]
    return found[0]


def answer_save_dialog(monkeypatch, path) -> list[str]:
    """File dialogs answer ``path``; the names they offered are returned."""
    offered = []

    def dialog(parent, caption, start, *args, **kwargs):
        offered.append(start)
        return str(path), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    return offered


def expected_size(window) -> tuple[int, int]:
    """The view's visible area (its ``export_rect``), or the room's scene rectangle at
    ``SCENE_WIDTH`` pixels wide."""
    rect = window.export_scene_rect()
    if rect is None:
        area = view_area(window.view)
        return area.width(), area.height()
    return SCENE_WIDTH, max(1, round(SCENE_WIDTH * rect.height() / rect.width()))


def drawn_fraction(path: Path) -> float:
    """The share of the picture's pixels that are not the house background."""
    with Image.open(path) as image:
        rgb = np.asarray(image.convert("RGB"), dtype=np.int16)
    bg = style.BACKGROUND
    background = np.array([bg.red(), bg.green(), bg.blue()], dtype=np.int16)
    return float((np.abs(rgb - background).max(axis=2) > 8).mean())


def test_every_room_has_the_same_export_entries_and_keys(room, opened):
    png = file_menu_action(opened, "png")
    assert png.shortcut() == QKeySequence("Ctrl+E")
    assert opened.export_actions["png"] is png
    svg_text = EXPORTS["svg"][0]
    has_svg = any(a.text() == svg_text for a in opened.menuBar().actions()[0].menu().actions())
    assert has_svg == ("svg" in opened.export_kinds)
    if has_svg:
        assert file_menu_action(opened, "svg").shortcut() == QKeySequence("Ctrl+Shift+E")
    assert has_svg == (room.name == "night")          # the night map draws itself as an SVG


def test_export_writes_a_png_of_the_expected_size_that_is_not_blank(
        room, opened, monkeypatch, tmp_path, messages):
    doc = opened.document
    offered = answer_save_dialog(monkeypatch, tmp_path / "view")     # ".png" is added
    file_menu_action(opened, "png").trigger()
    out = tmp_path / "view.png"
    assert out.read_bytes()[:8] == PNG_MAGIC
    with Image.open(out) as image:
        assert image.format == "PNG" and image.size == expected_size(opened)
    assert drawn_fraction(out) > 0.05                 # the map, not an empty background
    assert messages == [] and f"Exported {out}" in opened.statusBar().currentMessage()
    # never saved: offered in the documents folder under the room's own name
    stem = os.path.splitext(opened.default_name)[0]
    assert offered == [os.path.join(documents_folder(), stem + ".png")]
    assert doc.is_clean and doc.path is None          # an export is not a save


def test_export_offers_the_file_s_own_name_beside_it_and_writes_every_kind(
        room, opened, qtbot, monkeypatch, tmp_path, messages):
    doc = opened.document
    answer_save_dialog(monkeypatch, tmp_path / "mine.json")
    assert opened.save_as()
    room.wait(qtbot, doc)
    for kind in opened.export_kinds:
        offered = answer_save_dialog(monkeypatch, tmp_path / f"out.{kind}")
        file_menu_action(opened, kind).trigger()
        assert offered == [str(tmp_path / f"mine.{kind}")]
        written = (tmp_path / f"out.{kind}").read_bytes()
        if kind == "png":
            assert written[:8] == PNG_MAGIC
        else:
            assert written.lstrip().startswith(b"<?xml") and b"<svg" in written
            assert b"<path" in written or b"<image" in written     # something drawn
    assert messages == [] and doc.is_clean and doc.path == str(tmp_path / "mine.json")


def bad_target(tmp_path: Path, how: str) -> Path:
    if how == "folder is a file":
        (tmp_path / "a file").write_text("not a folder")
        return tmp_path / "a file" / "view.png"
    if how == "missing folder":
        return tmp_path / "no such folder" / "view.png"
    folder = tmp_path / "read-only"                  # "read-only folder"
    folder.mkdir()
    folder.chmod(0o555)
    return folder / "view.png"


@pytest.mark.parametrize("how", [
    "folder is a file", "missing folder",
    pytest.param("read-only folder", marks=pytest.mark.skipif(
        hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes in any folder"))])
def test_a_failed_export_shows_an_error_and_loses_nothing(room, opened, monkeypatch, tmp_path,
                                                          messages, how):
    doc = opened.document
    room.edit(doc)
    count = doc.undo_stack.count()
    target = bad_target(tmp_path, how)
    answer_save_dialog(monkeypatch, target)
    try:
        assert not opened.export_dialog("png")
        assert [m[:2] for m in messages] == [("critical", "Cannot export")]
        assert str(target) in messages[0][2] and str(target) in opened.statusBar().currentMessage()
        assert not target.exists()
        if target.parent.is_dir():
            assert list(target.parent.iterdir()) == []        # no half-written file left
        assert not doc.is_clean and doc.undo_stack.count() == count and doc.path is None
        assert opened.isWindowModified() and opened.isVisible()
    finally:
        if target.parent.is_dir():
            target.parent.chmod(0o755)
    doc.undo_stack.setClean()                        # closed at the end without a question


def test_a_failed_export_leaves_the_file_that_was_there(room, opened, monkeypatch, tmp_path,
                                                        messages):
    """A picture exported before, then a write that cannot finish (the path is now a folder's
    name beside it): the earlier file is untouched, byte for byte."""
    out = tmp_path / "view.png"
    assert opened.export(str(out))
    before = out.read_bytes()
    blocked = tmp_path / "view.png" / "again.png"    # inside a file: cannot be written
    assert not opened.export(str(blocked))
    assert out.read_bytes() == before and [m[0] for m in messages] == ["critical"]


SCREENSHOTS = {"night": ASSETS / "scenarios" / "default.json",
               "napoleonic": ASSETS / "fire" / "sample.json",
               "tabletop": ASSETS / "tables" / "S-01.json"}


def test_every_room_s_screenshot_door_writes_an_exact_size_or_names_a_bad_path(
        room, qtbot, tmp_path):
    source = SCREENSHOTS[room.name]
    assert rooms.room_for(str(source)).__name__ == f"app.{room.name}"
    out = tmp_path / "shot.png"
    rooms.save_screenshot(str(source), str(out), 320, 200)
    assert out.read_bytes()[:8] == PNG_MAGIC
    with Image.open(out) as image:
        assert image.size == (320, 200)
    assert drawn_fraction(out) > 0.05                 # the map, not an empty background
    bad = tmp_path / "no such folder" / "shot.png"
    with pytest.raises(OSError, match="no such folder"):
        rooms.save_screenshot(str(source), str(bad), 320, 200)
    assert not bad.parent.exists()
