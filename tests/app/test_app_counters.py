"""Counters on the map: a stack stays in its hex below its id, the selected counter comes to the front,
hovering spreads a stack and a spread counter is clicked whole, a unit dropped off the map goes back."""
from __future__ import annotations

from itertools import combinations

from app_testing import counter_pos, hex_pos, look_at, settle
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtTest import QTest

from app import style
from app.hex_geometry import hex_at
from engine.boards import assets_dir

SCENARIOS = assets_dir() / "scenarios"


def viewport_rect(view, item):
    """The counter's face (not its shadow) in viewport pixels."""
    face = QRectF(item.offset.x() - item.size / 2, item.offset.y() - item.size / 2, item.size,
                  item.size)
    return item.deviceTransform(view.viewportTransform()).mapRect(face)


def test_a_six_unit_stack_stays_in_its_hex_below_its_id(window_on, qtbot):
    """W-21: six units in 2M5.  Looked at closely, the stack stays inside its hex and leaves the
    hex's printed id uncovered."""
    w = window_on(SCENARIOS / "W-21.json")
    view, scene = w.view, w.scene
    look_at(view, "2M5")
    stack = scene.counters.pieces_in(scene.map.index("2M5"))
    assert len(stack) == 6
    rects = [viewport_rect(view, item) for item in stack]
    whole = rects[0]
    for r in rects[1:]:
        whole = whole.united(r)
    hex_height = 3 ** 0.5 * view.pixels_per_unit
    assert whole.height() <= hex_height and whole.width() <= hex_height
    label = next(r for r, text in scene.grid.labels if text == "M5"
                 and hex_at(scene.map, r.center() + QPointF(0, 0.63 * style.SCALE))
                 == scene.map.index("2M5"))
    id_box = view.mapFromScene(label).boundingRect()
    glyphs = QRectF(id_box).adjusted(id_box.width() * 0.3, id_box.height() * 0.2,
                                     -id_box.width() * 0.3, -id_box.height() * 0.2)
    assert not any(r.intersects(glyphs) for r in rects)


def test_the_selected_counter_comes_to_the_front_of_its_stack(window_on, qtbot):
    w = window_on(SCENARIOS / "W-21.json")
    view, doc, scene = w.view, w.document, w.scene
    look_at(view, "2M5")
    stack = scene.counters.pieces_in(scene.map.index("2M5"))
    middle = stack[2]
    doc.select(middle.key)
    assert middle.zValue() > max(item.zValue() for item in stack if item is not middle)
    at = viewport_rect(view, middle).center().toPoint()
    assert view.counter_at(at) is middle                  # whole, on top of the others
    settle(qtbot, doc)


def test_hovering_a_stack_spreads_it_and_reports_its_own_hex(window_on, qtbot):
    """At the fitted zoom the counters are larger than a hex: hovering a counter reports the
    hex its stack stands in, spreads the stack out (no counter covers another), and leaving
    it closes it up again."""
    w = window_on(SCENARIOS / "W-21.json")
    view, scene = w.view, w.scene
    m = scene.map
    home = m.index("2M5")
    stack = scene.counters.pieces_in(home)
    top = stack[-1]
    r = viewport_rect(view, top)
    spot = next(p for p in (r.topLeft() + QPointF(3, 3), r.bottomRight() - QPointF(3, 3),
                            r.topRight() + QPointF(-3, 3), r.bottomLeft() + QPointF(3, -3))
                if hex_at(m, view.mapToScene(p.toPoint())) != home)
    QTest.mouseMove(view.viewport(), spot.toPoint())
    qtbot.waitUntil(lambda: w.explanation.hex == home)
    assert "2M5" in w.where.text()
    assert scene.counters.expanded == home
    spread = [viewport_rect(view, item) for item in stack]
    assert not any(a.adjusted(1, 1, -1, -1).intersects(b) for a, b in combinations(spread, 2))
    QTest.mouseMove(view.viewport(), hex_pos(view, "2W2"))
    qtbot.waitUntil(lambda: scene.counters.expanded is None)
    assert w.explanation.hex == m.index("2W2")


def test_a_counter_of_a_spread_stack_is_clicked_whole(window_on, qtbot):
    """W-21, fitted in: hover the six-unit stack of 2M5 to spread it, click its fifth counter:
    that unit is selected."""
    w = window_on(SCENARIOS / "W-21.json")
    view, doc, scene = w.view, w.document, w.scene
    home = scene.map.index("2M5")
    stack = scene.counters.pieces_in(home)
    QTest.mouseMove(view.viewport(), viewport_rect(view, stack[-1]).center().toPoint())
    qtbot.waitUntil(lambda: scene.counters.expanded == home)
    target = stack[4]
    at = viewport_rect(view, target).center().toPoint()
    QTest.mouseMove(view.viewport(), at)
    assert scene.counters.expanded == home
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.viewer == target.key
    settle(qtbot, doc)


def test_a_unit_dropped_off_the_map_goes_back(window, qtbot):
    """L1 dragged from 2T6 past the board's top edge and let go there: it used to land on the
    last hex it crossed; now it goes back to 2T6, no undo step is made and the status bar
    says why."""
    from app_testing import drag, steps
    from PySide6.QtCore import QPoint

    view, doc = window.view, window.document
    before = doc.scenario
    start = counter_pos(view, "unit", "L1")
    outside = QPoint(start.x(), 2)                     # above the board, in the view's margin
    drag(qtbot, view, start, steps(start, outside, 8))
    assert doc.scenario.unit("L1").hex == before.unit("L1").hex
    assert doc.undo_stack.count() == 0
    assert "off the map" in window.statusBar().currentMessage()
    settle(qtbot, doc)
