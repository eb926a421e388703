"""The tabletop room at the table: elements put down where the player clicks, turned by keys and
by the knob in 15-degree steps or towards a neighbour, drops pushed flush, terrain moved,
reshaped, turned, resized and given a crest by hand, whose bound it is, a shot's result and
the next bound, the view steady and F kept for the table; two DBA armies built from an empty
window and a bound of shooting played (rules.md 9; docs/rules.md section 6)."""
from __future__ import annotations

import pytest
from app_testing import drag, settle_table, shown
from PySide6.QtCore import QPoint, Qt
from shapely import affinity

from app.tabletop.document import Document
from app.tabletop.geometry import to_scene
from app.tabletop.window import TableWindow, report_html
from engine import api


@pytest.fixture
def empty(qtbot, messages):
    w = shown(qtbot, TableWindow(Document.new()), 1300, 800)
    w.activateWindow()
    w.view.setFocus()
    return w


def click_table(qtbot, w, x: float, y: float) -> None:
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.view.mapFromScene(to_scene(x, y)))
    settle_table(qtbot, w)


def choose(qtbot, combo, code: str) -> None:
    """Pick a palette entry as the player does from the list."""
    combo.setCurrentIndex(combo.findData(code))
    combo.activated.emit(combo.currentIndex())
    assert combo.currentText().startswith(code), combo.currentText()


def key(qtbot, w, k) -> None:
    w.view.setFocus()
    qtbot.keyClick(w.view, k)
    settle_table(qtbot, w)


def test_an_element_is_put_down_where_the_table_is_clicked_facing_the_enemy(empty, qtbot):
    w = empty
    ed = w.editor
    choose(qtbot, ed.new_type, "Bw")
    ed.new_side.setCurrentText("blue")
    key(qtbot, w, Qt.Key.Key_P)                 # place by clicking: on, and it shows
    assert ed.place_button.isChecked()
    click_table(qtbot, w, 0.0, 0.0)
    one = w.document.table.element("1")
    assert (one.x, one.y, one.facing) == pytest.approx((0.0, 0.0, 0.0), abs=0.011)
    ed.new_side.setCurrentText("red")
    choose(qtbot, ed.new_type, "Sp")
    click_table(qtbot, w, 0.5, 2.5)
    two = w.document.table.element("2")
    assert (two.x, two.y) == pytest.approx((0.5, 2.5), abs=0.011)
    assert two.facing == 180.0                  # front to front with the enemy it faces
    assert "front to front with 1" in w.statusBar().currentMessage()
    key(qtbot, w, Qt.Key.Key_Escape)
    assert not ed.place_button.isChecked()
    click_table(qtbot, w, 4.0, 4.0)             # placing is over: a click puts nothing down
    assert len(w.document.table.elements) == 2


def test_keys_turn_the_chosen_element_by_steps_or_to_face_a_neighbour(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Bw", "blue", 0.0, 0.0, 0.0)
    doc.put_new("Bw", "blue", 3.0, 0.0, 30.0)
    doc.put_new("Sp", "red", 0.0, 3.0, 170.0)
    doc.select("1")
    settle_table(qtbot, w)
    key(qtbot, w, Qt.Key.Key_E)
    assert doc.table.element("1").facing == 15.0
    key(qtbot, w, Qt.Key.Key_Q)
    key(qtbot, w, Qt.Key.Key_Q)
    assert doc.table.element("1").facing == 345.0
    key(qtbot, w, Qt.Key.Key_R)
    assert doc.table.element("1").facing == 350.0      # squarely at the spear's front
    key(qtbot, w, Qt.Key.Key_T)
    assert doc.table.element("1").facing == 30.0       # as the friend beside it
    doc.undo_stack.undo()
    assert doc.table.element("1").facing == 350.0
    assert "Turn 1" in doc.undo_stack.redoText()


def test_the_knob_snaps_to_steps_and_to_an_enemys_front(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Bw", "blue", 0.0, 0.0, 0.0)
    doc.put_new("Sp", "red", 3.0, 3.0, 223.0)
    doc.select("1")
    settle_table(qtbot, w)
    knob = w.scene.items_by_id["1"].handle
    start = w.view.mapFromScene(knob.sceneBoundingRect().center())
    aim = w.view.mapFromScene(to_scene(1.0, 1.1))        # about 42 degrees: near 43 (the spear)
    drag(qtbot, w.view, start, [start + QPoint(3, 0), aim])
    settle_table(qtbot, w)
    assert doc.table.element("1").facing == pytest.approx(43.0)
    doc.select("1")
    settle_table(qtbot, w)
    knob = w.scene.items_by_id["1"].handle
    start = w.view.mapFromScene(knob.sceneBoundingRect().center())
    aim = w.view.mapFromScene(to_scene(-1.0, 0.62))      # about 302 degrees: the 300 step
    drag(qtbot, w.view, start, [start + QPoint(-3, 0), aim])
    settle_table(qtbot, w)
    assert doc.table.element("1").facing == pytest.approx(300.0)


def test_a_drop_into_a_neighbour_is_pushed_flush_and_a_narrow_gap_refused(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Bd", "blue", 0.0, 0.0, 0.0)
    doc.put_new("Bd", "blue", 1.986, 0.0, 0.0)
    doc.put_new("Bd", "blue", 0.0, -3.0, 0.0)
    message = doc.place("3", -0.98, 0.0, 0.0, snap=False)   # 0.02 BW into 1, from its left
    assert message == "3 pushed flush against 1"
    assert doc.table.element("3").x == pytest.approx(-1.0) and api.tabletop.overlaps(doc.table) == []
    before = doc.table
    message = doc.place("3", 0.993, 0.0, 0.0, snap=False)   # the 0.986 BW gap between 1 and 2
    assert "does not fit there: it would overlap 1, 2" in message and doc.table == before


def test_the_wheel_turns_a_dragged_element_about_the_point_held(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Kn", "blue", 0.0, 0.0, 0.0)
    settle_table(qtbot, w)
    held = w.view.mapFromScene(w.scene.element_point("1", 0.0, 0.6))   # deep in the base
    qtbot.mousePress(w.view.viewport(), Qt.MouseButton.LeftButton, pos=held)
    target = held + QPoint(40, 0)
    qtbot.mouseMove(w.view.viewport(), target)
    from PySide6.QtWidgets import QGraphicsSceneWheelEvent
    for _ in range(12):                                   # half a turn, 15 degrees a notch
        ev = QGraphicsSceneWheelEvent(QGraphicsSceneWheelEvent.Type.GraphicsSceneWheel)
        ev.setDelta(120)
        ev.setScenePos(w.view.mapToScene(target))
        w.scene.wheelEvent(ev)
    qtbot.mouseRelease(w.view.viewport(), Qt.MouseButton.LeftButton, pos=target)
    settle_table(qtbot, w)
    e = doc.table.element("1")
    assert e.facing == 180.0
    # the point held (0.6 BW behind the front) is still under the pointer
    under = w.view.mapToScene(target)
    held_now = w.scene.element_point("1", 0.0, 0.6)
    assert abs(held_now.x() - under.x()) < 3 and abs(held_now.y() - under.y()) < 3


def test_terrain_is_moved_reshaped_turned_resized_and_given_a_crest_by_hand(empty, qtbot, tmp_path):
    w = empty
    doc = w.document
    doc.add_terrain("hill", 0.0, 0.0)                   # 2 x 1.5 BW, chosen
    settle_table(qtbot, w)
    body = w.view.mapFromScene(to_scene(0.3, 0.3))
    drag(qtbot, w.view, body, [body + QPoint(5, 0), w.view.mapFromScene(to_scene(1.3, 0.3))])
    settle_table(qtbot, w)
    xs = sorted(x for x, _ in doc.table.terrain[0].polygon)
    assert xs == pytest.approx([0.0, 0.0, 2.0, 2.0], abs=0.02)       # moved 1 BW east
    grips = w.scene.terrain_items[0].grips
    corner = next(g for g in grips if g.kind == "corner" and g.index == 2)
    start = w.view.mapFromScene(corner.scenePos())
    drag(qtbot, w.view, start, [start + QPoint(5, 0), w.view.mapFromScene(to_scene(3.0, 1.5))])
    settle_table(qtbot, w)
    assert doc.table.terrain[0].polygon[2] == pytest.approx((3.0, 1.5), abs=0.02)
    size = next(g for g in w.scene.terrain_items[0].grips if g.kind == "size")
    start = w.view.mapFromScene(size.scenePos())
    area = doc.table.terrain[0].shape().area
    c = doc.table.terrain[0].shape().centroid
    far = w.view.mapFromScene(to_scene(c.x + 2 * (size.scenePos().x() / 100 - c.x),
                                       c.y + 2 * (-size.scenePos().y() / 100 - c.y)))
    drag(qtbot, w.view, start, [start + QPoint(5, 5), far])
    settle_table(qtbot, w)
    assert doc.table.terrain[0].shape().area == pytest.approx(4 * area, rel=0.05)
    knob = next(g for g in w.scene.terrain_items[0].grips if g.kind == "turn")
    c = doc.table.terrain[0].shape().centroid
    start = w.view.mapFromScene(knob.scenePos())
    east = w.view.mapFromScene(to_scene(c.x + 3.0, c.y))
    before = doc.table.terrain[0].shape()
    drag(qtbot, w.view, start, [start + QPoint(5, 0), east])        # a quarter turn clockwise
    settle_table(qtbot, w)
    after = doc.table.terrain[0].shape()
    quarter = affinity.rotate(before, -90.0, origin="centroid")
    assert after.symmetric_difference(quarter).area < 1e-6 * before.area
    # the crest: two clicks on the hill, Enter
    qtbot.mouseClick(w.editor.crest_button, Qt.MouseButton.LeftButton)
    c = doc.table.terrain[0].shape().centroid
    click_table(qtbot, w, c.x - 0.5, c.y)
    click_table(qtbot, w, c.x + 0.5, c.y + 0.2)
    w.view.setFocus()
    qtbot.keyClick(w.view, Qt.Key.Key_Return)
    settle_table(qtbot, w)
    crest = doc.table.terrain[0].crest
    assert [v for p in crest for v in p] == pytest.approx(
        [c.x - 0.5, c.y, c.x + 0.5, c.y + 0.2], abs=0.02)
    assert doc.undo_stack.count() == 6                     # add, move, corner, size, turn, crest
    out = tmp_path / "hill.json"
    doc.save(str(out))
    assert api.tabletop.load_table(out).terrain == doc.table.terrain


def test_whose_bound_a_result_and_the_next_bound_in_the_window(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Bw", "blue", 0.0, 0.0, 0.0)
    doc.put_new("Sp", "red", 0.0, 2.0, None)
    doc.change("1", moved=True)
    ed = w.editor
    ed.turn.setCurrentIndex(ed.turn.findData("blue"))
    ed.turn.activated.emit(ed.turn.currentIndex())
    assert doc.table.turn == "blue"
    doc.select("1")
    settle_table(qtbot, w)
    assert ed.result_target.currentData() == "2"
    qtbot.mouseClick(ed.recoil_button, Qt.MouseButton.LeftButton)
    assert doc.table.element("2").y == pytest.approx(2.0 + 15 / 40)   # back its own depth
    qtbot.mouseClick(ed.end_bound_button, Qt.MouseButton.LeftButton)
    assert doc.table.turn == "red" and not doc.table.element("1").moved
    assert "red's bound" in w.statusBar().currentMessage()
    doc.select("1")
    settle_table(qtbot, w)
    qtbot.mouseClick(ed.destroy_button, Qt.MouseButton.LeftButton)
    assert doc.table.ids() == ["1"]
    doc.undo_stack.undo()
    assert doc.table.ids() == ["1", "2"]


def test_the_view_stays_put_and_f_fits_after_a_panel_button(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Bw", "blue", 0.0, 0.0, 0.0)
    settle_table(qtbot, w)
    w.view.fit()
    centre = w.view.mapToScene(w.view.viewport().rect().center())
    doc.put_new("Bw", "blue", 30.0, 25.0, 0.0)              # far away: the scene grows
    settle_table(qtbot, w)
    now = w.view.mapToScene(w.view.viewport().rect().center())
    assert abs(now.x() - centre.x()) < 2 and abs(now.y() - centre.y()) < 2
    qtbot.mouseClick(w.editor.end_bound_button, Qt.MouseButton.LeftButton)
    zoom = w.view.transform().m11()
    qtbot.keyClick(w.focusWidget() or w, Qt.Key.Key_F)
    assert w.view.transform().m11() < zoom                  # fitted: both elements in view


def test_the_shooting_panel_drops_an_element_that_is_gone(empty, qtbot):
    w = empty
    doc = w.document
    doc.put_new("Bw", "blue", 0.0, 0.0, 0.0)
    doc.put_new("Sp", "red", 0.0, 2.0, None)
    settle_table(qtbot, w)
    w.scene.hovered.emit("2")
    assert "2" in w.hovered and "Spears" in w.panel.toPlainText()
    doc.delete("2")
    settle_table(qtbot, w)
    assert w.hovered == "" and "Spears" not in w.panel.toPlainText()
    assert report_html(doc, w.hovered) == report_html(doc, "")
