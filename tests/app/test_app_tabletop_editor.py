"""The tabletop room's editor used as a player would: a table built from nothing (palette, type,
side, visibility, terrain, delete, undo) and saved; the players' choices offered; hover names
the terrain; the legend; the worked examples; the view stays put when an element is chosen."""
from __future__ import annotations

from pathlib import Path

import pytest
from app_testing import settle_table, shown
from PySide6.QtCore import QPointF, Qt

from app.tabletop import scene as table_scene
from app.tabletop.document import Document
from app.tabletop.window import TableWindow, report_html
from engine import api

TABLES = Path(__file__).resolve().parents[2] / "assets" / "tables"


@pytest.fixture
def window(qtbot, messages):
    def make(document: Document) -> TableWindow:
        return shown(qtbot, TableWindow(document), 1300, 800)
    return make


def test_a_table_built_from_nothing_in_the_window_and_saved(window, qtbot, tmp_path):
    w = window(Document.new())
    ed = w.editor
    assert w.document.table.elements == ()
    ed.new_type.setCurrentIndex(ed.new_type.findData("Bw"))
    ed.new_side.setCurrentText("blue")
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)
    first = w.document.shooter
    w.document.place(first, 0.0, 0.0, 0.0, snap=False)
    ed.new_type.setCurrentIndex(ed.new_type.findData("Sp"))
    ed.new_side.setCurrentText("red")
    qtbot.mouseClick(ed.add_button, Qt.MouseButton.LeftButton)
    second = w.document.shooter
    assert (first, second) == ("1", "2")
    w.document.place(second, 0.0, 2.0, 180.0, snap=False)
    settle_table(qtbot, w)
    # the chosen element's type and visibility changed in the editor
    ed.type.setCurrentIndex(ed.type.findData("Ps"))
    ed.type.activated.emit(ed.type.currentIndex())
    ed.visible.click()
    e = w.document.table.element("2")
    assert (e.type, e.side, e.visible) == ("Ps", "red", False)
    ed.visible.click()
    # terrain added between them blocks archer 1's shot
    w.document.add_terrain("woods", 0.0, 1.0)
    w.document.select("1")
    assert w.document.report["targets"]["2"]["blocked_by_terrain"] == [0]
    settle_table(qtbot, w)
    assert len(w.scene.terrain_items) == 1
    w.document.delete_terrain(0)
    assert w.document.report["must_shoot"] == ["2"]
    out = tmp_path / "new.json"
    w.document.save(str(out))
    saved = api.tabletop.load_table(out)
    assert [(x.id, x.type, x.side) for x in saved.elements] == [("1", "Bw", "blue"),
                                                                 ("2", "Ps", "red")]
    assert saved.terrain == ()


def test_delete_and_change_side_are_undone(window, qtbot):
    w = window(Document.open_file(str(TABLES / "S-04.json")))
    doc = w.document
    before = doc.table
    doc.select("B")
    qtbot.mouseClick(w.editor.delete_button, Qt.MouseButton.LeftButton)
    assert "B" not in doc.table.ids() and doc.shooter is None
    doc.undo_stack.undo()
    assert doc.table == before
    doc.select("A")
    w.editor.side.setCurrentText("green")
    w.editor.change_side()
    assert doc.table.element("A").side == "green"
    doc.undo_stack.undo()
    assert doc.table == before


def test_a_type_change_that_would_overlap_is_refused(window):
    w = window(Document.open_file(str(TABLES / "S-06.json")))
    doc = w.document
    doc.select("3")                          # 4 stands right behind 3: a deeper base overlaps
    message = doc.change("3", type="El")
    assert message == "3 as El would overlap 4: not changed"
    assert doc.table.element("3").type == "Bw" and doc.undo_stack.count() == 0


def test_choosing_an_element_does_not_shift_the_view(window, qtbot):
    w = window(Document.open_file(str(TABLES / "S-06.json")))
    settle_table(qtbot, w)
    probe = w.scene.element_point("1", 0, 0)
    before, extent = w.view.mapFromScene(probe), w.scene.sceneRect()
    for chosen in ("3", "4", "1", None):      # the shot drawn (range zones) leaves the extent
        w.document.select(chosen)
        settle_table(qtbot, w)
        assert w.scene.sceneRect() == extent
        assert w.view.mapFromScene(probe) == before


def test_a_rear_rank_chosen_shows_whom_it_supports(window, qtbot):
    w = window(Document.open_file(str(TABLES / "S-06.json")))
    w.document.select("4")
    settle_table(qtbot, w)
    text = w.panel.toPlainText()
    assert "where 3 shoots (B or C), 4 supports it" in text
    assert "4 supports 3" in text


def test_the_order_of_rolls_and_a_tie_are_offered(window, qtbot):
    w = window(Document.open_file(str(TABLES / "S-03.json")))
    doc = w.document
    doc.select("X")
    ed = w.editor
    assert ed.first.isEnabled() and ed.first.count() == 2
    ed.first.setCurrentIndex(ed.first.findData("defensive"))
    ed.first.activated.emit(ed.first.currentIndex())
    steps = doc.report["resolution"]["S"]["steps"]
    assert [s["roll"] for s in steps] == ["defensive", "shot"]
    assert "the blue player's choice of order" in w.panel.toPlainText()


def test_a_tied_target_s_choice_is_offered(window, qtbot, tmp_path):
    tie = api.tabletop.table_from_json({"format": "starshell-table", "version": 1, "elements": [
        {"id": "T", "side": "red", "type": "Bw", "x": 0, "y": 2, "facing": 180},
        {"id": "A", "side": "blue", "type": "Bw", "x": -1, "y": 0, "facing": 0},
        {"id": "B", "side": "blue", "type": "Bw", "x": 1, "y": 0, "facing": 0}]})
    w = window(Document(tie))
    w.document.select("A")
    assert w.document.report["resolution"]["T"]["mutual"] is True
    (box,) = w.editor.tie_boxes
    box.setCurrentIndex(box.findData("B"))
    box.activated.emit(box.currentIndex())
    assert w.document.report["resolution"]["T"]["mutual"] is False
    (box,) = w.editor.tie_boxes
    assert box.currentData() == "B"


def test_hover_names_the_element_its_terrain_and_why(window):
    t = api.tabletop.table_from_json({"format": "starshell-table", "version": 1, "elements": [
        {"id": "1", "side": "blue", "type": "Bw", "x": 0, "y": 0, "facing": 0}],
        "terrain": [{"type": "woods", "polygon": [[-1, -1], [1, -1], [1, 1], [-1, 1]]}]})
    w = window(Document(t))
    text = report_html(w.document, "1")
    assert "1: Bows (Bw), blue" in text
    assert "stands in the woods (terrain[0])" in text and "it sees out" in text
    assert "blocks a shot whose lines cross it" in report_html(w.document, "terrain:0")


def test_the_legend_names_the_colours_and_terrain():
    from app.tabletop.editor import legend_html
    text = legend_html()
    assert "must shoot" in text and "supporting" in text and "Woods" in text
    assert table_scene.MUST.name() in text


def test_the_bundled_tables_are_in_file_open_worked_example(window, qtbot):
    w = window(Document.new())
    titles = [a.text() for a in w.examples_menu.actions()]
    assert len(titles) == len(list(TABLES.glob("*.json"))) and titles[0].startswith("S-01")
    w.examples_menu.actions()[5].trigger()
    (other,) = w.room_windows
    qtbot.addWidget(other)
    assert other.document.path.endswith("S-06.json")
    assert "(read-only example)" in other.windowTitle()


def test_hover_on_empty_ground_of_a_terrain_piece(window, qtbot):
    t = api.tabletop.table_from_json({"format": "starshell-table", "version": 1, "elements": [],
                                      "terrain": [{"type": "hill", "polygon": [[0, 0], [2, 0],
                                                   [2, 2], [0, 2]], "crest": [[0, 1], [2, 1]]}]})
    w = window(Document(t))
    settle_table(qtbot, w)
    item = w.scene.terrain_items[0]
    assert item.contains(item.mapFromScene(QPointF(table_scene.S, -table_scene.S)))
    w.hover("terrain:0")
    assert "crest blocks a shot that crosses it" in w.panel.toPlainText()


def test_terrain_that_blocks_the_chosen_shooter_is_outlined(window, qtbot):
    w = window(Document.open_file(str(TABLES / "T-01.json")))
    w.document.select("2")
    settle_table(qtbot, w)
    assert w.document.report["targets"]["B"]["blocked_by_terrain"] == [1]
    assert w.scene.terrain_items[1].pen().color() == table_scene.BLOCK
    assert w.scene.terrain_items[2].pen().color() != table_scene.BLOCK     # C on the crest
    assert w.document.report["must_shoot"] == ["C"]


def test_the_delete_key_deletes_the_chosen_element(window, qtbot):
    w = window(Document.open_file(str(TABLES / "S-04.json")))
    w.document.select("B")
    (action,) = [a for m in w.menuBar().actions() if m.menu() is not None
                 for a in m.menu().actions() if a.text() == "&Delete the chosen element"]
    action.trigger()
    assert "B" not in w.document.table.ids()
    assert w.document.undo_stack.undoText() == "Delete B"


def test_terrain_just_added_may_be_deleted_at_once(window, qtbot):
    """Add woods in the Elements panel: the piece is the chosen one, outlined, and Delete
    chosen is offered at once (it stayed greyed until another click)."""
    w = window(Document.new())
    ed = w.editor
    assert not ed.delete_terrain_button.isEnabled()
    qtbot.mouseClick(ed.add_terrain_button, Qt.MouseButton.LeftButton)
    assert len(w.document.table.terrain) == 1 and w.document.terrain_choice == 0
    assert ed.delete_terrain_button.isEnabled()
    qtbot.mouseClick(ed.delete_terrain_button, Qt.MouseButton.LeftButton)
    assert w.document.table.terrain == ()
