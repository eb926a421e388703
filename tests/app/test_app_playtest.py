"""What a play-test in a real window found, each as the player met it (real mouse and key events
on the view's viewport)."""
from __future__ import annotations

from app_testing import hex_pos, settle
from PySide6.QtCore import Qt

from engine.boards import assets_dir
from engine.night.drift import FixedDice

W10 = assets_dir() / "scenarios" / "W-10.json"


def test_undo_of_a_starshell_refreshes_the_preview_under_the_mouse(window_on, qtbot):
    """W-10: L1 fires at 2W6 by method 2 (usage dr 3, drift 2, 5); with the mouse still on 2W6 the preview
    says 2W6 is no longer legal (one attempt per hex, E1.92). Ctrl+Z takes the roll back: the
    preview says at once that 2W6 is legal again, without waiting for the mouse to move."""
    w = window_on(W10, dice=FixedDice([3, 2, 5]))
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
    qtbot.mouseMove(view.viewport(), at)
    assert not w.scene.drift.legal
    assert "not a legal hex" in w.starshell_panel.preview.text()
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.scenario.starshell_attempts == ()
    settle(qtbot, doc)
    assert w.scene.drift.legal and w.scene.drift.method == "2"
    assert "2W6" in w.starshell_panel.preview.text()
    assert "not a legal hex" not in w.starshell_panel.preview.text()


def test_the_fire_windows_open_takes_a_night_position_into_a_main_window(qtbot, messages,
                                                                        monkeypatch):
    """`python -m app assets/fire/sample.json` opens the fire room alone: there is no main
    window to go back to. Its File > Open on W-01 opened nothing ("open it from the main
    window"); now W-01 opens in a night main window beside it, and a fire position still opens in
    a fire window."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.main_window import MainWindow
    from app.napoleonic import FireWindow, open_window
    fire = assets_dir() / "fire"
    w = open_window(str(fire / "sample.json"))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    open_action = next(a for a in w.findChildren(QAction) if a.text() == "&Open...")  # File > Open
    w01 = str(assets_dir() / "scenarios" / "W-01.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (w01, "")))
    open_action.trigger()
    assert messages == []
    night = w._others[-1]
    qtbot.addWidget(night)
    assert isinstance(night, MainWindow) and night.isVisible()
    assert night.document.path == w01 and night.document.scenario.markers[0].hex == "2Y4"
    n04 = str(fire / "N-04.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (n04, "")))
    open_action.trigger()
    other = w._others[-1]
    qtbot.addWidget(other)
    assert isinstance(other, FireWindow) and other.path == n04
    settle(qtbot, night.document)


def test_turning_an_element_with_its_knob_reports_no_minus_zero(qtbot, messages):
    """S-01: archer 1 chosen, its yellow knob dragged round to the east. The status bar said
    "1 at (0.00, -0.00) BW, facing 89°": turning about the middle of its front leaves it at
    (0, 0), which is now written (0.00, 0.00)."""
    from app_testing import drag
    from PySide6.QtCore import QPoint

    from app.tabletop import scene as table_scene
    from app.tabletop.document import TableDocument
    from app.tabletop.window import TableWindow
    w = TableWindow(TableDocument.open_file(str(assets_dir() / "tables" / "S-01.json")))
    qtbot.addWidget(w)
    w.resize(1200, 800)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit()
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


def test_save_of_a_worked_example_starts_in_a_folder_that_exists(window, qtbot, tmp_path,
                                                                 monkeypatch):
    """A new user without a Documents folder opens W-15, moves Y and presses Ctrl+S:
    the dialog opened in the program's own folder (the current one), because the documents
    folder it was given does not exist. It now starts in the home folder."""
    import os

    from PySide6.QtWidgets import QFileDialog
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert window.open_path(str(assets_dir() / "scenarios" / "W-15.json"))
    window.document.move_unit("Y", "2Y6")
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    window.activateWindow()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1
    folder = os.path.dirname(asked[0])
    assert os.path.isdir(folder) and os.path.basename(asked[0]) == "W-15.json"
    assert not folder.startswith(str(assets_dir()))
    settle(qtbot, window.document)


def test_after_a_roll_the_fire_panel_shows_the_attack_rolled_not_the_next(qtbot, messages):
    """sample.json: n1J6 targeted, F4 left out, Computer rolls. The bars showed the attack rolled
    (F2 at x4 for its first fire: 54 at 6:1) while the text above them already showed the next,
    refused attack (F2 has fired: x3, total 48). Now the text is the attack rolled, with the roll,
    and says why another is refused; Ctrl+Z brings back the attack to be made."""
    from app.napoleonic import FireWindow
    from engine import api
    pos = api.napoleonic.load_position(str(assets_dir() / "fire" / "sample.json"))
    w = FireWindow(pos, None, dice=lambda: (3, 5))
    qtbot.addWidget(w)
    w.resize(1400, 820)
    w.show()
    qtbot.waitExposed(w)
    w.view.fit()
    m = w.pos.map
    from PySide6.QtCore import QPointF

    from app.style import SCALE

    def click(scene_x, scene_y):
        qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                         pos=w.view.mapFromScene(QPointF(scene_x, scene_y)))
    j6 = m.index("n1J6")
    click(float(m.x[j6]) * SCALE, (float(m.y[j6]) + 0.55) * SCALE)          # low in the hex
    assert w.target == "n1J6"
    click(*(lambda p: (p.x(), p.y()))(w.scene.counters["F4"].scenePos()))  # F4 left out
    rolled = api.napoleonic.assess(w.pos, "n1J6", w.firers(), (3, 5))
    assert rolled.fire == 54 and "F4" not in w.firers()
    qtbot.mouseClick(w.roll_computer, Qt.MouseButton.LeftButton)
    assert w.pos.attacked == ("n1J6",) and w.chart.result == rolled.result
    text = w.text.toPlainText()
    assert "Total fire 54" in text and "Total fire 48" not in text
    assert "Rolled:" in text and "dice 35" in text
    assert "already been the target" in text
    w.undo.undo()
    text = w.text.toPlainText()
    assert "Total fire 54" in text and "Rolled:" not in text and "may be made" in text
