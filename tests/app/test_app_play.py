"""Playing with the map by mouse: click to select and cycle a stack, drag a unit and see
its field follow, the LOS thread, view as side.  Real mouse events on the view's viewport."""
from __future__ import annotations

import numpy as np
from app_testing import counter_pos, drag, hex_pos, settle, steps
from PySide6.QtCore import Qt

import engine
from app.hex_geometry import scene_center
from engine.night.los_thread import seen_by_side


def test_select_by_click_cycle_the_stack_and_clear(window, qtbot):
    view, doc = window.view, window.document
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=counter_pos(view, "unit", "L1"))
    assert doc.viewer == "L1"
    doc.edit(doc.scenario.with_unit(engine.Unit("L2", "allied", "leader", "2T6")), "stack")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=counter_pos(view, "unit", "L1"))
    assert doc.viewer == "L2"                          # clicked again: the next of the stack
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert doc.viewer == "L1"                          # Tab cycles too
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert doc.viewer == "L2"
    settle(qtbot, doc)
    assert window.scene.sight.areas                    # its field is drawn
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2K5"))
    assert doc.viewer is None                          # empty ground clears
    settle(qtbot, doc)
    assert window.scene.sight.areas == []


def test_select_a_marker_by_click_and_hover_reports_the_hex(window, qtbot):
    view, doc = window.view, window.document
    k = next(k for k, mk in enumerate(doc.scenario.markers) if mk.type == "starshell")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=counter_pos(view, "marker", k))
    assert doc.marker == k
    assert "starshell" in window.editor.heading.text()
    doc.select("L1")
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2CC8", 0.4, 0.3))
    m = doc.scenario.map
    text = window.where.text()
    assert m.describe(m.index("2CC8")) in text and "level 2" in text
    assert f"range {int(m.distance(m.index('2T6'), m.index('2CC8')))} from L1" in text
    settle(qtbot, doc)


def test_drag_a_unit_and_its_field_follows(window, qtbot):
    view, doc, scene = window.view, window.document, window.scene
    doc.select("L1")
    settle(qtbot, doc)
    before = doc.scenario
    start = counter_pos(view, "unit", "L1")
    path = steps(start, hex_pos(view, "2T9"), 8)
    drag(qtbot, view, start, path, release=False)
    assert doc.scenario.unit("L1").hex == "2T9"        # live, before the drop
    assert doc.undo_stack.count() == 0                 # ... and not yet an undo step
    settle(qtbot, doc)
    field = engine.visibility_from(doc.scenario, "L1")
    assert np.array_equal(np.asarray(doc.answers.field.codes), np.asarray(field.codes))
    item = scene.counters.item("unit", "L1")
    assert item.pos() != scene_center(scene.map, scene.map.index("2T9"))    # under the mouse
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=path[-1])
    assert item.pos() == scene_center(scene.map, scene.map.index("2T9"))    # snapped
    assert doc.undo_stack.count() == 1                 # the whole drag: one step
    assert window.isWindowModified()
    doc.undo_stack.undo()
    assert doc.scenario == before
    assert item.pos() == scene_center(scene.map, scene.map.index("2T6"))
    doc.undo_stack.redo()
    assert doc.scenario.unit("L1").hex == "2T9"
    settle(qtbot, doc)


def test_drag_a_marker_and_escape_puts_a_drag_back(window, qtbot):
    view, doc = window.view, window.document
    k = next(k for k, mk in enumerate(doc.scenario.markers) if mk.type == "starshell")
    start = counter_pos(view, "marker", k)
    drag(qtbot, view, start, steps(start, hex_pos(view, "2Y3"), 5))
    assert doc.scenario.markers[k].hex == "2Y3"
    settle(qtbot, doc)
    assert doc.answers.light.lit[doc.scenario.map.index("2V3")]       # the light came along
    before = doc.scenario
    start = counter_pos(view, "unit", "A1")
    drag(qtbot, view, start, steps(start, hex_pos(view, "2K5"), 5), release=False)
    assert doc.scenario.unit("A1").hex == "2K5"
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert doc.scenario == before
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2K5"))
    assert doc.undo_stack.count() == 1
    settle(qtbot, doc)


def test_los_thread_by_right_drag_and_shift_drag(window, qtbot):
    view = window.view
    drag(qtbot, view, hex_pos(view, "2CC6"), steps(hex_pos(view, "2CC6"), hex_pos(view, "2CC9")),
         button=Qt.MouseButton.RightButton)
    threads = window.hand.threads
    qtbot.waitUntil(lambda: threads.thread is not None)      # answered on the engine's thread
    t = threads.thread
    assert (t.start, t.end, t.range) == ("2CC6", "2CC9", 3)
    assert not t.day_clear and t.blocking == ["2CC8"]
    assert t.night_sight == "none"
    assert window.scene.thread.thread is t
    text = window.explanation.toPlainText()
    assert "LOS thread 2CC6 \u2192 2CC9" in text and "blocked by 2CC8" in text
    assert "level 2" in text                                       # the day's reason names it
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert threads.thread is None
    drag(qtbot, view, hex_pos(view, "2CC6"), steps(hex_pos(view, "2CC6"), hex_pos(view, "2Y6")),
         modifier=Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end == "2Y6")
    assert window.document.undo_stack.count() == 0                 # a string changes nothing
    settle(qtbot, window.document)


def test_view_as_side_hides_what_it_cannot_see(window, qtbot):
    doc = window.document
    doc.set_view_side("allied")
    settle(qtbot, doc)
    seen = seen_by_side(doc.scenario, "allied")
    assert set(seen.values()) >= {"none", "nvr"}
    for uid, sight in seen.items():
        item = window.scene.counters.item("unit", uid)
        assert item.isVisible() == (sight != "none"), uid
        assert (item.sighting == "gunflash") == (sight == "gunflash")
    assert all(window.scene.counters.item("unit", u.id).isVisible()
               for u in doc.scenario.units if u.side == "allied")
    qtbot.keyClick(window.view, Qt.Key.Key_W)           # next side: axis
    assert doc.view_side == "axis"
    qtbot.keyClick(window.view, Qt.Key.Key_W)
    assert doc.view_side is None
    settle(qtbot, doc)
    assert all(i.isVisible() for i in window.scene.counters.items)
