"""A VASL save's overlays in the window (rules.md 11.3): File > Open of a save with an ``OVR``
record lays the overlay in LOS, draws its picture on its hex and lists it in the Map panel; an
overlay added, moved and removed in the panel (one undo step each) from the VASL boards
folder's archives; one whose archive is missing is named, never dropped."""
from __future__ import annotations

import pytest
import vsav_synth as vs
from app_testing import scene_point, settle
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMessageBox
from test_overlay_saves import _centre_b2, _woods_overlay
from test_vsav_boards import v5_board

import app.night.editor.overlay_panel as overlay_panel
import app.night.vasl.vsav_open as vsav_open
from app.night.scene.board_art import OverlayArtItem
from app.style import SCALE


@pytest.fixture
def boards(tmp_path, monkeypatch):
    """A VASL boards folder: board 05 and the woods overlay wd1 (archive ovrWD)."""
    folder = tmp_path / "vasl boards"
    folder.mkdir()
    v5_board(folder)
    for module in (vsav_open, overlay_panel):
        monkeypatch.setattr(module, "boards_folder", lambda settings: str(folder))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    return folder


def opened(window, qtbot, tmp_path, overlays, ssr=()):
    path = vs.write_vsav(tmp_path / "g.vsav",
                         [(0, 0, "05", "6.1", None, {"overlays": overlays, "ssr": list(ssr)})],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 0)))])
    assert window.open_path(str(path), confirmed=True)
    settle(qtbot, window.document)
    return window.document.scenario


def terrain(window, hex_id):
    m = window.document.scenario.map
    return m.terrain_name(m.index(hex_id))


def listed(window):
    panel = window.layout_panel.overlays
    return [panel.list.item(i).text() for i in range(panel.list.count())]


def drawn_at(window) -> list[tuple[str, QPointF]]:
    """Each overlay drawn: its name and where its origin hex's centre lies on the scene."""
    return [(item.name, item.transform_.map(QPointF(*_centre_b2())))
            for item in window.scene.board_art if isinstance(item, OverlayArtItem)]


def near(a: QPointF, b: QPointF) -> bool:
    return abs(a.x() - b.x()) < 2 * SCALE and abs(a.y() - b.y()) < 2 * SCALE


def test_a_save_opens_with_its_overlay_laid_drawn_and_listed(window, boards, tmp_path, qtbot):
    _woods_overlay(boards)
    s = opened(window, qtbot, tmp_path, [("wd1", "C3", "C3")], ["NoGrain"])
    assert s.map_entries[0].overlays == (("wd1", "C3", "C3"),)
    assert terrain(window, "5C3") == "woods" and terrain(window, "5C5") == "open"
    [(name, at)] = drawn_at(window)
    assert name == "wd1" and near(at, scene_point(s.map, "5C3"))
    assert listed(window) == ["wd1 C3-C3"]
    assert "overlays: wd1 C3-C3" in window.layout_panel.boards.item(0).text()


def test_an_overlay_without_its_archive_is_named_in_the_panel(window, boards, tmp_path, qtbot):
    opened(window, qtbot, tmp_path, [("wd1", "C3", "C3")])        # no overlays/ folder
    assert terrain(window, "5C3") == "open" and drawn_at(window) == []
    [line] = listed(window)
    assert line.startswith("wd1 C3-C3 \u2013 not laid: no overlay file")


def test_overlays_added_moved_and_removed_in_the_panel_one_undo_step_each(
        window, boards, tmp_path, qtbot):
    _woods_overlay(boards)
    opened(window, qtbot, tmp_path, [])
    panel, stack = window.layout_panel.overlays, window.document.undo_stack
    assert "wd1" in [panel.name.itemText(i) for i in range(panel.name.count())]
    assert panel.add("wd1", "C3", "C3")
    settle(qtbot, window.document)
    assert terrain(window, "5C3") == "woods" and listed(window) == ["wd1 C3-C3"]
    assert "opaque pixels" in panel.read.text()                 # how much of it was read
    assert panel.move(0, "E5", "E5")
    settle(qtbot, window.document)
    assert terrain(window, "5E5") == "woods" and terrain(window, "5C3") == "open"
    [(_name, at)] = drawn_at(window)
    assert near(at, scene_point(window.document.scenario.map, "5E5"))
    stack.undo()
    settle(qtbot, window.document)
    assert terrain(window, "5C3") == "woods" and listed(window) == ["wd1 C3-C3"]
    assert panel.remove(0)
    settle(qtbot, window.document)
    assert terrain(window, "5C3") == "open" and listed(window) == [] and drawn_at(window) == []
    stack.undo()
    settle(qtbot, window.document)
    assert terrain(window, "5C3") == "woods" and len(drawn_at(window)) == 1


def test_rules_set_on_a_board_with_an_overlay_keep_the_overlay(window, boards, tmp_path, qtbot):
    from app.night.editor.ssr_panel import set_rules
    _woods_overlay(boards)
    opened(window, qtbot, tmp_path, [("wd1", "C3", "C3")])
    # rules.md 11.2: the SSRs, then the overlays: the overlay's woods stay, the board's turn
    assert set_rules(window.board_editor, ["WoodsToBrush"], 0)
    settle(qtbot, window.document)
    assert terrain(window, "5C3") == "woods" and terrain(window, "5K5") == "brush"
    assert len(drawn_at(window)) == 1
    window.document.undo_stack.undo()
    settle(qtbot, window.document)
    assert terrain(window, "5K5") == "woods" and terrain(window, "5C3") == "woods"


def test_following_a_save_lays_and_draws_its_overlays(window, boards, tmp_path, qtbot):
    import os

    from app.night.vasl.follow import start_following
    _woods_overlay(boards)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "05", "6.1", None,
                                                {"overlays": [("wd1", "C3", "C3")]})],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 0)), pid=11)])
    os.utime(path, ns=(10**18, 10**18))
    follower = start_following(window, str(path), str(boards))
    settle(qtbot, window.document)
    assert terrain(window, "5C3") == "woods" and listed(window) == ["wd1 C3-C3"]
    vs.write_vsav(path, [(0, 0, "05", "6.1", None, {"overlays": [("wd1", "E5", "E5")]})],
                  [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 0)), pid=11)])
    os.utime(path, ns=(2 * 10**18, 2 * 10**18))
    assert follower.check()
    settle(qtbot, window.document)
    assert terrain(window, "5E5") == "woods" and terrain(window, "5C3") == "open"
    [(_name, at)] = drawn_at(window)
    assert near(at, scene_point(window.document.scenario.map, "5E5"))


def test_a_board_with_overlays_laid_is_its_files_board_and_saved_without_them(
        window, boards, tmp_path, qtbot):
    _woods_overlay(boards)
    opened(window, qtbot, tmp_path, [("wd1", "C3", "C3")], ["NoGrain"])
    assert window.board_editor.unsaved() == []          # the overlay belongs to the position
    assert window.board_editor.save_board_as(0, str(tmp_path / "bare.json"))
    from engine.api import load_board
    assert load_board(tmp_path / "bare.json").at(2, 3).terrain == "open"     # C3, no overlay
    assert window.board_editor.unsaved() == []
