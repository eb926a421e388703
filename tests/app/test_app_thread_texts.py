"""The LOS thread drawn by right-drag: its words (no internal ids from an empty hex, the unit's own
level on Alt+Up) and its label kept inside the view."""
from __future__ import annotations

from app_testing import hex_pos, settle
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine import api


def test_a_thread_from_an_empty_hex_never_shows_the_probes_id(window, qtbot):
    """Default position: a right-drag from the empty hex 2W7 to G3's hex 34H7, then Alt+Shift+Up
    (the end one level up). The night verdict is that of a Good Order squad put in 2W7 for the
    question; the panel said "beyond __thread__'s NVR of 3" and "__thread__target is a Known
    enemy unit": the squad's and the unit's internal ids. It now says "the squad's NVR" and "a
    unit in 34H7"."""
    from app_testing import drag, steps
    view = window.view
    a, b = hex_pos(view, "2W7", 0.0, 0.4), hex_pos(view, "34H7", 0.0, 0.4)
    drag(qtbot, view, a, steps(a, b), button=Qt.MouseButton.RightButton)
    threads = window.hand.threads
    qtbot.waitUntil(lambda: threads.thread is not None)
    t = threads.thread
    assert (t.start, t.end, t.viewer) == ("2W7", "34H7", None)
    text = window.explanation.toPlainText()
    assert "the squad's NVR of 3" in text and "__" not in text
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end_elevation == 1)
    c, d = hex_pos(view, "2W7", 0.0, 0.4), hex_pos(view, "2Y7", 0.0, 0.4)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    drag(qtbot, view, c, steps(c, d), button=Qt.MouseButton.RightButton)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end == "2Y7")
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: threads.thread is not None and threads.thread.end_elevation == 1)
    text = window.explanation.toPlainText()
    assert "a unit in 2Y7" in text and "__" not in text
    settle(qtbot, window.document)


def test_the_los_thread_label_stays_inside_the_view(window, qtbot):
    """A thread ending at the view's right edge: its label is moved in, not cut."""
    view, doc, scene = window.view, window.document, window.scene
    view.fit_map()
    s = doc.scenario
    scene.thread.set_thread(api.night.los_thread(s, "34Q5", "34GG5", 0, 0))
    view.grab()
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    rect = scene.thread.label_rect
    assert rect is not None
    assert seen.left() <= rect.left() and rect.right() <= seen.right()
    assert seen.top() <= rect.top() and rect.bottom() <= seen.bottom()


def test_alt_up_on_a_thread_from_a_unit_says_the_units_level_is_used(window, qtbot):
    """A thread from L1's hex: Alt+Up cannot raise a unit; the status bar says its own level is
    used, and Alt+Shift+Up raises the end."""
    doc, view, hand = window.document, window.view, window.hand
    doc.select("L1")
    settle(qtbot, doc)
    start = hex_pos(view, "2T6")
    from app_testing import drag, steps
    drag(qtbot, view, start, steps(start, hex_pos(view, "2Y4"), 6),
         button=Qt.MouseButton.RightButton)
    qtbot.waitUntil(lambda: hand.threads.thread is not None)
    before = hand.threads.thread
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert "L1" in window.statusBar().currentMessage()
    assert "level" in window.statusBar().currentMessage()
    QTest.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: hand.threads.thread.end_elevation > before.end_elevation)
    assert hand.threads.thread.start_elevation == before.start_elevation
    settle(qtbot, doc)
