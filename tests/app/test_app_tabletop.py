"""The tabletop room used as a player would: every bundled table opened and drawn, a shooter
clicked, an element dragged (snapped, refused on overlap, undone), turned with the wheel and the
knob, saved and exported (rules.md 9; SPEC.md "Tabletop")."""
from __future__ import annotations

from pathlib import Path

import pytest
from app_testing import drag, settle_table, shown
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage

from app.rooms import room_for
from app.tabletop import scene as table_scene
from app.tabletop.document import Document
from app.tabletop.window import TableWindow, report_html, save_screenshot
from engine import api

TABLES = Path(__file__).resolve().parents[2] / "assets" / "tables"
CASES = sorted(TABLES.glob("S-*.json"))


@pytest.fixture
def open_table(qtbot, messages):
    def make(name: str) -> TableWindow:
        return shown(qtbot, TableWindow(Document.open_file(str(TABLES / name))), 1200, 800)
    return make


def at(w: TableWindow, element_id: str, ax: float = 0.0, ay: float = 0.2) -> QPoint:
    """The viewport point ``ax`` BW right of the middle of an element's front, ``ay`` behind."""
    return w.view.mapFromScene(w.scene.element_point(element_id, ax, ay))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_bundled_table_opens_in_its_room_and_renders(path, tmp_path, qtbot):
    assert room_for(str(path)).__name__ == "app.tabletop"
    table = api.tabletop.load_table(path)
    out = tmp_path / "shot.png"
    save_screenshot(str(path), str(out), 640, 480, table.elements[0].id)
    image = QImage(str(out))
    assert (image.width(), image.height()) == (640, 480)
    w = TableWindow(Document.open_file(str(path)))
    qtbot.addWidget(w)
    assert set(w.scene.items_by_id) == set(table.ids())


def test_open_window_is_the_rooms_entry(qtbot):
    from app.tabletop import open_window
    w = open_window(str(TABLES / "S-03.json"))
    qtbot.addWidget(w)
    assert w.document.table.title.startswith("S-03") and "S-03" in w.windowTitle()
    with pytest.raises(api.ScenarioError, match="no such file"):
        open_window(str(TABLES / "nothing.json"))


def test_screenshot_refuses_an_unknown_element(tmp_path):
    with pytest.raises(api.ScenarioError, match="no element 'Q'"):
        save_screenshot(str(TABLES / "S-06.json"), str(tmp_path / "x.png"), 100, 100, "Q")


def test_clicking_archer_1_shows_it_must_shoot_A_with_2_supporting(open_table, qtbot):
    w = open_table("S-06.json")
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=at(w, "1"))
    settle_table(qtbot, w)
    assert w.document.shooter == "1"
    assert w.scene.items_by_id["A"].pen().color() == table_scene.MUST
    labels = [i.text() for i in w.scene.overlay if hasattr(i, "text")]
    assert labels.count("must shoot") == 1 and labels.count("-1") == 1     # 2 supports
    text = w.panel.toPlainText()
    assert "Must shoot: A" in text and "supporters 2 (-1 to A's factor)" in text
    # hovering 3 explains why it cannot support the shot at A
    w.hover("3")
    assert "A has 0 corners in front of the line of 3's front" in w.panel.toPlainText()
    # a click on empty table clears the choice
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.view.mapFromScene(QPointF(-3 * table_scene.S, 3 * table_scene.S)))
    settle_table(qtbot, w)
    assert w.document.shooter is None


def test_hovering_a_target_gives_the_reasons(open_table):
    w = open_table("S-06.json")
    w.document.select("3")
    html = report_html(w.document, "A")
    assert "A: not a legal target" in html and "which is not in front" in html
    assert "B or C" in report_html(w.document)


def test_dragging_snaps_front_to_front_and_undo_puts_it_back(open_table, qtbot):
    w = open_table("S-04.json")
    doc = w.document
    before = doc.table.element("A")
    # A dragged to just ahead of archer 1, a little off: it snaps front to front
    start = at(w, "A", 0.0, 0.2)
    target = w.view.mapFromScene(table_scene.to_scene(0.12, 0.1 + 0.2))   # A faces south
    drag(qtbot, w.view, start, [start + QPoint(0, 10), target])
    settle_table(qtbot, w)
    a = doc.table.element("A")
    assert (a.x, a.y, a.facing) == pytest.approx((0.0, 0.0, 180.0))
    assert not doc.undo_stack.isClean() and w.isWindowModified() and "[*]" in w.windowTitle()
    doc.undo_stack.undo()
    settle_table(qtbot, w)
    assert doc.table.element("A") == before


def test_a_drop_onto_another_base_is_refused(open_table, qtbot):
    w = open_table("S-04.json")
    doc = w.document
    message = doc.place("A", 1.0, 2.2, 180.0, snap=False)      # onto B
    assert message == ("A (Bw, 1 BW wide, 0.50 BW deep) does not fit there: it would overlap B: "
                       "put back")
    assert doc.table.element("A").x == 0.0 and doc.undo_stack.count() == 0


def test_the_wheel_turns_the_element_being_dragged_and_the_knob_turns_the_chosen_one(
        open_table, qtbot):
    w = open_table("S-01.json")
    doc = w.document
    item = w.scene.items_by_id["A"]
    w.scene.dragging = item
    from PySide6.QtWidgets import QGraphicsSceneWheelEvent
    ev = QGraphicsSceneWheelEvent(QGraphicsSceneWheelEvent.Type.GraphicsSceneWheel)
    ev.setDelta(120)
    w.scene.wheelEvent(ev)
    assert item.rotation() == pytest.approx(285.0)
    w.scene.dragging = None
    w.scene.put_down(item)
    settle_table(qtbot, w)
    assert doc.table.element("A").facing == pytest.approx(285.0)
    # the knob of the chosen shooter: dragged to its right, 1 faces east
    doc.select("1")
    settle_table(qtbot, w)
    knob = w.scene.items_by_id["1"].handle
    assert knob is not None
    start = w.view.mapFromScene(knob.sceneBoundingRect().center())
    east = w.view.mapFromScene(table_scene.to_scene(1.5, 0.0))
    drag(qtbot, w.view, start, [start + QPoint(5, 0), east])
    settle_table(qtbot, w)
    assert doc.table.element("1").facing == pytest.approx(90.0, abs=3.0)
    assert doc.undo_stack.count() == 2


def test_save_is_atomic_and_export_writes_a_png(open_table, tmp_path, qtbot):
    w = open_table("S-06.json")
    doc = w.document
    doc.place("C", 3.0, 3.0, 180.0, snap=False)
    path = tmp_path / "mine.json"
    doc.save(str(path))
    assert api.tabletop.load_table(path).element("C").y == 3.0
    assert doc.undo_stack.isClean() and not w.isWindowModified() and "[*]" in w.windowTitle()
    from app.export import export_png
    export_png(w.view, str(tmp_path / "view.png"))
    assert not QImage(str(tmp_path / "view.png")).isNull()


def test_the_panel_heading_says_whether_the_chosen_element_shoots(open_table):
    w = open_table("S-06.json")
    w.document.select("1")
    assert "<h3>1 shoots</h3>" in report_html(w.document)
    w.document.select("4")                       # the rear rank behind 3
    assert "<h3>4 supports 3</h3>" in report_html(w.document)
    spears = w.document.add_element("Sp", "blue", 8.0, -6.0)
    w.document.select(spears)
    assert f"<h3>{spears} does not shoot</h3>" in report_html(w.document)
    assert f"{spears} shoots</h3>" not in report_html(w.document)
