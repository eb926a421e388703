"""What the status bar says while playing: an element's place after its knob turned it, the range
from the unit just clicked."""
from __future__ import annotations

from app_testing import hex_pos, settle, shown
from PySide6.QtCore import Qt

from engine.boards import assets_dir


def test_turning_an_element_with_its_knob_reports_no_minus_zero(qtbot, messages):
    """S-01: archer 1 chosen, its yellow knob dragged round to the east. The status bar said
    "1 at (0.00, -0.00) BW, facing 89°": turning about the middle of its front leaves it at
    (0, 0), which is now written (0.00, 0.00)."""
    from app_testing import drag
    from PySide6.QtCore import QPoint

    from app.tabletop import scene as table_scene
    from app.tabletop.document import Document
    from app.tabletop.window import TableWindow
    w = shown(qtbot, TableWindow(Document.open_file(str(assets_dir() / "tables" / "S-01.json"))),
              1200, 800)
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.view.mapFromScene(w.scene.element_point("1", 0.0, 0.2)))
    assert w.document.shooter == "1"
    qtbot.waitUntil(lambda: w.scene.items_by_id["1"].handle is not None, timeout=5000)
    knob = w.scene.items_by_id["1"].handle
    start = w.view.mapFromScene(knob.sceneBoundingRect().center())
    east = w.view.mapFromScene(table_scene.to_scene(1.5, -0.1))
    drag(qtbot, w.view, start, [start + QPoint(5, 0), start + QPoint(30, 10), east])
    one = w.document.table.element("1")
    assert 80 < one.facing < 100 and abs(one.y) < 1e-9
    said = w.statusBar().currentMessage()
    assert said.startswith("1 at (0.00, 0.00) BW, facing") and "-0.00" not in said


def test_the_status_bar_range_follows_the_unit_clicked(window_on, qtbot):
    """W-15: Y (2Y7) selected, the mouse over the stack in 2CC8: "range 4 from Y". A click on C,
    the unit of that stack, selects it; the status bar kept "range 4 from Y" until the mouse
    moved. It now says "range 0 from C" at once, and follows a move of C by Ctrl+Z as well."""
    from app_testing import counter_pos
    w = window_on(assets_dir() / "scenarios" / "W-15.json")
    view, doc = w.view, w.document
    doc.select("Y")
    settle(qtbot, doc)
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2CC8", 0.0, 0.45))
    assert w.where.text().endswith("range 4 from Y")
    at = counter_pos(view, "unit", "C")
    qtbot.mouseMove(view.viewport(), at)
    assert w.where.text().startswith("2CC8")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.viewer == "C"
    assert w.where.text().endswith("range 0 from C")
    doc.move_unit("C", "2CC6")
    assert w.where.text().endswith("range 2 from C")
    doc.undo_stack.undo()
    assert w.where.text().endswith("range 0 from C")
    settle(qtbot, doc)
