"""The starshell tool's preview (drift heat map and the panel's line) in step with the position:
after a shot, an undo, a method key; the IR method in words; the drift fractions only where they fit.
Real mouse and key events on the view's viewport."""
from __future__ import annotations

from app_testing import hex_pos, settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtTest import QTest

from app import style
from engine import api
from engine.boards import assets_dir

W10 = assets_dir() / "scenarios" / "W-10.json"


def test_undo_of_a_starshell_refreshes_the_preview_under_the_mouse(window_on, qtbot):
    """W-10: L1 fires at 2W6 by method 2 (usage dr 3, drift 2, 5); with the mouse moved within 2W6 the
    preview says 2W6 is no longer legal (one attempt per hex, E1.92). Ctrl+Z takes the roll back: the
    preview says at once that 2W6 is legal again, without waiting for the mouse to move."""
    w = window_on(W10, dice=api.night.FixedDice([3, 2, 5]))
    view, doc = w.view, w.document
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.keyClick(view, Qt.Key.Key_2)                  # method 2 chosen by key
    at = hex_pos(view, "2W6")
    qtbot.mouseMove(view.viewport(), at)
    assert w.scene.drift.legal and "not a legal hex" not in w.starshell_panel.preview.text()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.scenario.markers[-1].hex == "2Z4"
    settle(qtbot, doc)
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2W6", 0.2, 0.0))  # the preview went with
    assert not w.scene.drift.legal                      # the shot: the mouse moves, aims again
    assert "not a legal hex" in w.starshell_panel.preview.text()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.scenario.starshell_attempts == ()
    settle(qtbot, doc)
    assert w.scene.drift.legal and w.scene.drift.method == "2"
    assert "2W6" in w.starshell_panel.preview.text()
    assert "not a legal hex" not in w.starshell_panel.preview.text()


def test_the_ir_preview_names_the_method_in_words(window_on, qtbot):
    """W-10: L1 selected, the starshell tool on, key I over 2W6: the panel said "2W6 by method
    ir-los (not a legal hex)", the method's key. It now says "by IR along a LOS (E1.932)"; key 2
    still reads "by method 2"."""
    w = window_on(W10)
    view, doc = w.view, w.document
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2W6"))
    qtbot.keyClick(view, Qt.Key.Key_I)
    text = w.starshell_panel.preview.text()
    assert "2W6</b> by IR along a LOS (E1.932)" in text and "ir-los" not in text
    qtbot.keyClick(view, Qt.Key.Key_2)
    assert "2W6</b> by method 2:" in w.starshell_panel.preview.text()


def test_the_drift_preview_goes_once_the_starshell_is_fired(window_on, qtbot):
    """W-10: L1, the starshell tool on, method 2 chosen (key 2), hovers 2W6 (its drift preview
    shows) and clicks: usage dr 3, drift 2, 5, it lands in 2Z4.  The preview of 2W6 used to come
    back on the map as soon as the new position was worked out, as if another shot were being
    aimed there.  Now it goes with the shot (the map and the panel's preview line) and stays
    gone while the mouse rests; the next move of the mouse, the tool still on, aims again."""
    w = window_on(W10, dice=api.night.FixedDice([3, 2, 5]))
    view, doc, drift = w.view, w.document, w.scene.drift
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.keyClick(view, Qt.Key.Key_2)                  # method 2 chosen by key
    at = hex_pos(view, "2W6")
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2V6"))     # the mouse comes to 2W6
    qtbot.mouseMove(view.viewport(), at)
    assert drift.at == w.scene.map.index("2W6") and "2W6" in w.starshell_panel.preview.text()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert doc.scenario.markers[-1].hex == "2Z4"
    settle(qtbot, doc)                                  # the new position's answers are in
    assert drift.at is None and drift.distribution == {}
    assert w.starshell_panel.preview.text() == ""
    assert "2Z4" in w.starshell_panel.result.text()     # the shot's result stays
    qtbot.mouseMove(view.viewport(), hex_pos(view, "2Q5"))  # aiming again
    assert drift.at == w.scene.map.index("2Q5") and drift.method == "2"
    assert "2Q5" in w.starshell_panel.preview.text()


def test_drift_fractions_only_where_they_fit(window, qtbot):
    """Fitted in, the 36ths of the drift heat map would pile up over the map: none is printed
    (the Starshell panel lists them); looked at closely each end hex prints its own."""
    scene = window.scene
    m = scene.map
    scene.drift.show_drift(m.index("2W6"), "2")
    ends = len(scene.drift._ends)
    assert ends > 3
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    painter.setTransform(QTransform.fromScale(14 / style.SCALE, 14 / style.SCALE))
    far = scene.drift.label_texts(painter)
    painter.setTransform(QTransform.fromScale(80 / style.SCALE, 80 / style.SCALE))
    near = scene.drift.label_texts(painter)
    painter.end()
    assert len(far) == (1 if scene.drift.off_map > 0 else 0)
    assert len(near) == ends + (1 if scene.drift.off_map > 0 else 0)


def test_undoing_a_fired_starshell_clears_its_result(window_on, qtbot):
    """W-10: L1 fires at 2W6 (usage dr 3, drift 2, 5: it lands in 2Z4).  After Ctrl+Z the
    Starshell panel no longer says where it landed, and the status bar says it was undone."""
    from engine import api
    w = window_on(W10, dice=api.night.FixedDice([3, 2, 5]))
    doc, view = w.document, w.view
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2W6"))
    assert "2Z4" in w.starshell_panel.result.text()
    assert "2Z4" in w.statusBar().currentMessage()
    said = w.statusBar().currentMessage()
    doc.undo_stack.undo()
    assert "2Z4" not in w.starshell_panel.result.text()
    assert w.statusBar().currentMessage() == f"Undone: {said} (Ctrl+Y: redo)"   # said undone
    settle(qtbot, doc)


def test_a_method_key_while_hovering_redraws_the_preview(window_on, qtbot):
    """W-10, the starshell tool on, the mouse still over 2W6: pressing 3 shows method 3's drift
    at once (it used to wait for the mouse to move)."""
    w = window_on(W10)
    doc, view, scene = w.document, w.view, w.scene
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    QTest.mouseMove(view.viewport(), hex_pos(view, "2W6"))
    qtbot.waitUntil(lambda: scene.drift.method == "2")
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_3)
    assert scene.drift.method == "3" and scene.drift.at == scene.map.index("2W6")
    settle(qtbot, doc)
