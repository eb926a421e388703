"""Play-test: at fit zoom the ring labels ("1.5x NVR moving vehicle", "NVR 3") sat on the column
letters printed along a board's top edge.  A label that would cover them moves off them (up,
or down when up is off the map), stays on the map and over its ring's column."""
from __future__ import annotations

import numpy as np
from app_testing import settle

from app.scene.geometry import map_rect
from engine.api import column_name


def boxes(rects) -> np.ndarray:
    return np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects]).reshape(-1, 4)


def overlapping(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(((a[:, None, 0] < b[None, :, 2]) & (a[:, None, 2] > b[None, :, 0])
                 & (a[:, None, 1] < b[None, :, 3]) & (a[:, None, 3] > b[None, :, 1])).any())


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
    assert labels                                         # the outer ring's is off the map
    moved = boxes([rect for rect, _, _ in labels])
    assert not overlapping(moved, letters)
    board = map_rect(scene.map)
    assert all(board.top() <= r.top() and r.bottom() <= board.bottom() for r, _, _ in labels)
    assert not overlapping(boxes([r for r, _, _ in scene.nvr_ring.label_rects(scale)]), letters)
    rings.keep_clear = None                               # where it was before: on the letters
    assert overlapping(boxes([rect for rect, _, _ in rings.label_rects(scale)]), letters)
    m = scene.map
    ring_x = float(m.x[m.index(f"2{col}{2 + near}")]) * 40.0
    assert all(abs(rect.center().x() - ring_x) < 1e-6 for rect, _, _ in labels)
    assert column_name(10) == col                         # K: the 11th column, in the middle


def test_the_nvr_label_keeps_off_a_counter_and_leaves_no_trace_when_it_moves(window, qtbot):
    """Play-test: the "NVR 3" label lay under a counter standing where it goes (counters are
    drawn over the rings), unreadable.  L1 in 2T6, NVR 3: the label goes above 2T3's north
    side, over 2T2; a squad moved into 2T2 pushes it to the nearest clear spot, and the window
    shows no trace of where it was."""
    from app_testing import look_at, on_screen
    from PySide6.QtWidgets import QApplication
    view, doc, scene = window.view, window.document, window.scene
    doc.select("L1")
    settle(qtbot, doc)
    look_at(view, "2T4", 50.0)
    QApplication.sendPostedEvents()
    scale = view.transform().m11()
    ring = scene.nvr_ring
    free = boxes([r for r, _, _ in ring.label_rects(scale)])
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
    placed = boxes([r for r, _, _ in ring.label_rects(scale)])
    assert not overlapping(placed, counters)
    picture = on_screen(window)
    view.viewport().repaint()
    assert np.array_equal(picture, on_screen(window))       # no trace of the label's old spot
    doc.undo_stack.undo()                                   # A1 back: the label back too
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    assert np.allclose(boxes([r for r, _, _ in ring.label_rects(scale)]), free)
    picture = on_screen(window)
    view.viewport().repaint()
    assert np.array_equal(picture, on_screen(window))
