"""Play-test: at fit zoom the ring labels ("1.5x NVR moving vehicle", "NVR 3") sat on the column
letters printed along a board's top edge.  A label that would cover them moves off them (up,
or down when up is off the map), stays on the map and over its ring's column."""
from __future__ import annotations

import numpy as np
from app_testing import settle

from app.hex_geometry import map_rect
from engine.hexes import column_name


def boxes(rects) -> np.ndarray:
    return np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects]).reshape(-1, 4)


def overlapping(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(((a[:, None, 0] < b[None, :, 2]) & (a[:, None, 2] > b[None, :, 0])
                 & (a[:, None, 1] < b[None, :, 3]) & (a[:, None, 3] > b[None, :, 1])).any())


def l1_with_its_nvr_label(window, qtbot, zoom: float = 50.0):
    """L1 (2T6, NVR 3) selected, the view zoomed in on 2T4: (scale, the NVR ring, where its
    label lies: above 2T3's north side, over 2T2)."""
    from app_testing import look_at
    from PySide6.QtWidgets import QApplication
    view, doc = window.view, window.document
    doc.select("L1")
    settle(qtbot, doc)
    look_at(view, "2T4", zoom)
    QApplication.sendPostedEvents()
    scale = view.transform().m11()
    ring = window.scene.nvr_ring
    return scale, ring, label_boxes(ring, scale)


def label_boxes(ring, scale: float) -> np.ndarray:
    return boxes([r for r, _, _ in ring.label_rects(scale)])


def shows_a_whole_repaint(window) -> bool:
    """The window's pixels are those of a whole repaint of the view: no trace left."""
    from app_testing import on_screen
    picture = on_screen(window)
    window.view.viewport().repaint()
    return np.array_equal(picture, on_screen(window))


def test_ring_labels_keep_off_the_letters_along_the_board_edge_at_fit_zoom(window, qtbot):
    view, doc, scene = window.view, window.document, window.scene
    doc.select("L1")
    settle(qtbot, doc)
    near, far = doc.answers.moving_ranges
    # L1 so far south of row 2 that its inner moving-vehicle ring's northernmost hex is in row
    # 2: the ring's label, above that hex's north side, falls on the letters along the top edge
    col = "K"
    doc.edit(doc.scenario.moved("L1", f"2{col}{2 + near}"), "move")
    settle(qtbot, doc)
    view.fit_map()
    scale = view.transform().m11()
    letters = boxes([rect for rect, _ in scene.grid.edge_labels(scale)])
    assert len(letters)                                   # zoomed out: letters along the edges
    rings = scene.moving_rings
    labels = rings.label_rects(scale)
    assert labels
    moved = boxes([rect for rect, _, _ in labels])
    assert not overlapping(moved, letters)
    board = map_rect(scene.map)
    assert all(board.top() <= r.top() and r.bottom() <= board.bottom() for r, _, _ in labels)
    assert not overlapping(boxes([r for r, _, _ in scene.nvr_ring.label_rects(scale)]), letters)
    rings.keep_clear = None                               # where it was before: on the letters
    assert overlapping(boxes([rect for rect, _, _ in rings.label_rects(scale)]), letters)
    m = scene.map
    ring_x = float(m.x[m.index(f"2{col}{2 + near}")]) * 40.0
    inner = [rect for rect, text, _ in labels if text.startswith("1.5")]
    assert len(inner) == 1 and abs(inner[0].center().x() - ring_x) < 1e-6
    assert column_name(10) == col                         # K: the 11th column, in the middle


def test_the_nvr_label_keeps_off_a_counter_and_leaves_no_trace_when_it_moves(window, qtbot):
    """Play-test: the "NVR 3" label lay under a counter standing where it goes (counters are
    drawn over the rings), unreadable.  L1 in 2T6, NVR 3: the label goes above 2T3's north
    side, over 2T2; a squad moved into 2T2 pushes it to the nearest clear spot, and the window
    shows no trace of where it was."""
    from PySide6.QtWidgets import QApplication
    view, doc, scene = window.view, window.document, window.scene
    scale, ring, free = l1_with_its_nvr_label(window, qtbot, 50.0)
    assert len(free) == 1
    doc.edit(doc.scenario.moved("A1", "2T2"), "move")
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    counters = scene.counters.rects(scale)
    item = scene.counters.item("unit", "A1")
    shown = item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())
    on_view = view.mapToScene(shown.toAlignedRect()).boundingRect()
    assert overlapping(boxes([on_view]), counters)          # the rows say where it lies
    assert overlapping(free, boxes([on_view]))              # the label's first spot: under A1
    placed = label_boxes(ring, scale)
    assert not overlapping(placed, counters)
    assert shows_a_whole_repaint(window)       # no trace of the label's old spot
    doc.undo_stack.undo()                                   # A1 back: the label back too
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    assert np.allclose(label_boxes(ring, scale), free)
    assert shows_a_whole_repaint(window)


def test_a_label_goes_back_when_the_counter_it_avoided_is_hidden(window, qtbot):
    """The label keeps clear only of counters shown: G1 (axis) in 2T2 pushes "NVR 3" aside;
    viewing the map as the allies, who cannot see G1, hides it and the label goes back, the
    window showing no trace of where it was (which would tell where the unseen G1 stands);
    the same when the Counters layer is switched off."""
    from PySide6.QtWidgets import QApplication
    doc, scene = window.document, window.scene
    scale, ring, free = l1_with_its_nvr_label(window, qtbot, 50.0)
    doc.edit(doc.scenario.moved("G1", "2T2"), "move")
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    assert not np.allclose(label_boxes(ring, scale), free)
    doc.set_view_side("allied")
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    assert not scene.counters.item("unit", "G1").isVisible()
    assert np.allclose(label_boxes(ring, scale), free)
    assert shows_a_whole_repaint(window)
    doc.set_view_side(None)
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    window.layer_actions["counters"].setChecked(False)
    QApplication.sendPostedEvents()
    assert np.allclose(label_boxes(ring, scale), free)
    assert shows_a_whole_repaint(window)


def test_a_ring_off_the_map_both_ways_still_says_what_it_is(window_on, qtbot):
    """Play-test: in W-03, B1's moving-vehicle rings reach past the map's top and bottom edges
    both; the two rings (1.5x and 2x NVR) were drawn with no label, alike.  Each now has its
    label, on the map, just inside its top edge, clear of the edge letters and of each other."""
    from app.night.document import default_scenario_path
    w = window_on(default_scenario_path().parent / "W-03.json")
    doc, scene, view = w.document, w.scene, w.view
    doc.select("B1")
    settle(qtbot, doc)
    scale = view.transform().m11()
    near, far = doc.answers.moving_ranges
    assert near != far
    labels = scene.moving_rings.label_rects(scale)
    assert sorted(text for _, text, _ in labels) == ["1.5\u00d7 NVR moving vehicle",
                                                     "2\u00d7 NVR tracked"]
    board = map_rect(scene.map)
    placed = boxes([r for r, _, _ in labels])
    assert all(board.top() <= r.top() and r.bottom() <= board.bottom()
               and board.left() <= r.left() and r.right() <= board.right() for r, _, _ in labels)
    assert not overlapping(placed[:1], placed[1:])
    assert not overlapping(placed, scene.grid.printed_labels(scale))


def test_a_counter_dragged_onto_a_label_moves_it_on_the_drop_leaving_no_trace(window, qtbot):
    """During a drag the labels stay where they are (the rings did not move: L1 stays the
    viewer while a starshell is dragged); the starshell dragged onto L1's "NVR 3" label:
    every step's picture is a whole repaint's, and once dropped the label moves off the
    starshell, again with no trace."""
    from app_testing import counter_pos, hex_pos
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QApplication

    from engine import api
    view, doc, scene = window.view, window.document, window.scene
    doc.edit(doc.scenario.with_marker(api.night.Marker("starshell", "2W3"), 0), "starshell to 2W3")
    scale, ring, free = l1_with_its_nvr_label(window, qtbot, 30.0)   # a marker the label's size
    start = counter_pos(view, "marker", 0)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), start + QPoint(8, 8))
    for hex_id in ("2U2", "2T2"):
        qtbot.mouseMove(view.viewport(), hex_pos(view, hex_id, 0.1, 0.1))
        doc.settle()
        QApplication.sendPostedEvents()
        assert doc.viewer == "L1" and doc.dragging
        assert np.allclose(label_boxes(ring, scale), free)
        assert shows_a_whole_repaint(window), hex_id
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(view, "2T2", 0.1, 0.1))
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    assert doc.scenario.markers[0].hex == "2T2" and doc.viewer == "L1"
    placed = label_boxes(ring, scale)
    assert not np.allclose(placed, free)
    assert not overlapping(placed, scene.counters.rects(scale))
    assert shows_a_whole_repaint(window)


def test_hovering_a_stack_does_not_move_the_labels(window, qtbot):
    """A hovered stack spreads out over its hex: the labels keep clear of the stack as it
    lies closed (they do not jump as the mouse crosses it)."""
    from app_testing import hex_pos, look_at
    from PySide6.QtWidgets import QApplication
    view, doc, scene = window.view, window.document, window.scene
    doc.select("L1")
    doc.edit(doc.scenario.moved("A1", "2T2").moved("G1", "2T2"), "stack in 2T2")
    settle(qtbot, doc)
    look_at(view, "2T4", 50.0)
    QApplication.sendPostedEvents()
    scale = view.transform().m11()
    placed = boxes([r for r, _, _ in scene.nvr_ring.label_rects(scale)])
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2T2"))
    QApplication.sendPostedEvents()
    assert scene.counters.expanded == scene.map.index("2T2")
    assert np.allclose(boxes([r for r, _, _ in scene.nvr_ring.label_rects(scale)]), placed)


def test_with_no_room_clear_of_the_counters_a_label_still_keeps_off_the_letters(window, qtbot):
    """Play-test: G2 selected, fitted in, the starshell moved to 2Z3: no spot near the "2x NVR
    tracked" ring was clear of both the counters and the letters along the top edge, and the
    label fell back on the letters.  Counters yield first: the letters stay readable."""
    from engine import api
    view, doc, scene = window.view, window.document, window.scene
    doc.select("G2")
    doc.edit(doc.scenario.with_marker(api.night.Marker("starshell", "2Z3"), 0), "starshell to 2Z3")
    settle(qtbot, doc)
    view.fit_map()
    scale = view.transform().m11()
    letters = scene.grid.printed_labels(scale)
    for ring in (scene.nvr_ring, scene.moving_rings):
        placed = label_boxes(ring, scale)
        assert len(placed) and not overlapping(placed, letters), ring.zValue()
