"""The window opens on the default scenario, shows the position, hides and shows layers, explains
the hex under the cursor, and lists recent files."""
from __future__ import annotations

from app_testing import settle
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

import engine
from app.night.document import default_scenario_path
from app.night.scene.layers import LAYERS


def test_window_opens_on_the_default_scenario(window):
    doc = window.document
    default = engine.load_scenario(default_scenario_path())
    assert doc.scenario == default
    assert doc.path is None                      # Save asks for a name: the assets stay as they are
    assert default.title in window.windowTitle()
    scene = window.scene
    assert scene.map.size == default.map.size
    units = [i for i in scene.counters.items if i.kind == "unit"]
    markers = [i for i in scene.counters.items if i.kind == "marker"]
    assert sorted(i.key for i in units) == sorted(u.id for u in default.units)
    assert len(markers) == len(default.markers)
    assert window.scenario_panel.nvr.value() == 3
    assert "Prep Fire" in window.scenario_panel.phase.currentText()


def test_the_map_is_fitted_in_the_view(window):
    view = window.view
    m = view.scene().map
    for hex_id in (m.names[0], m.names[-1]):
        i = m.index(hex_id)
        p = view.mapFromScene(QPointF(m.x[i] * 40, m.y[i] * 40))
        assert view.viewport().rect().contains(p)


def test_counters_of_a_stack_do_not_cover_each_other(window, qtbot):
    doc = window.document
    s = doc.scenario
    crowd = s
    for k in range(3):
        crowd = crowd.with_unit(engine.Unit(f"X{k}", "allied", "squad", "2T6"))
    doc.edit(crowd, "crowd")
    stack = [i for i in window.scene.counters.items if i.kind == "unit" and i.piece.hex == "2T6"]
    assert len(stack) == 4
    offsets = {(round(i.offset.x(), 3), round(i.offset.y(), 3)) for i in stack}
    assert len(offsets) == 4
    settle(qtbot, doc)


def test_choosing_a_viewer_in_the_panel_selects_it(window, qtbot):
    combo = window.scenario_panel.viewer
    k = combo.findData("G1")
    combo.setCurrentIndex(k)
    combo.activated.emit(k)
    assert window.document.viewer == "G1"
    settle(qtbot, window.document)
    assert window.scene.sight.areas                      # a field is drawn
    assert "G1" in window.unit_panel.text.text()
    combo.activated.emit(0)
    assert window.document.viewer is None
    settle(qtbot, window.document)
    assert window.scene.sight.areas == []


def test_every_layer_can_be_hidden_from_the_menu_and_the_legend(window, qtbot):
    window.document.select("L1")
    settle(qtbot, window.document)
    for layer in LAYERS:
        action = window.layer_actions[layer.name]
        box = window.legend.checkboxes[layer.name]
        items = window.scene.layer_items(layer.name)
        action.setChecked(False)
        assert not box.isChecked()
        assert all(not item.isVisible() for item in items)
        box.setChecked(True)
        assert action.isChecked()
        assert all(item.isVisible() for item in items)
    window.layer_actions["counters"].setChecked(False)
    assert not any(i.isVisible() for i in window.scene.counters.items)


def test_hovering_a_hex_explains_the_verdict(window, qtbot):
    doc = window.document
    doc.select("L1")
    settle(qtbot, doc)
    m = doc.scenario.map
    i = m.index("2CC8")
    window.view.hexHovered.emit(i)
    text = window.explanation.toPlainText()
    field = engine.visibility_from(doc.scenario, "L1")
    assert "2CC8" in text
    assert m.describe(i).split(": ", 1)[1] in text
    for reason in field.reasons_at(i):
        assert reason in text
    assert "Gunflash only" in text
    window.view.hexHovered.emit(-1)
    assert "Hover a hex" in window.explanation.toPlainText()


def test_hovering_without_a_viewer_says_what_lights_the_hex(window):
    doc = window.document
    m = doc.scenario.map
    window.view.hexHovered.emit(m.index("2BB3"))
    assert "illuminated by the starshell in 2BB3" in window.explanation.toPlainText()


def test_a_dropped_json_file_is_opened(window, qtbot, tmp_path):
    target = tmp_path / "dropped.json"
    engine.save_scenario(window.document.scenario.replace(title="Dropped"), target)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(target))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    window.view.dropEvent(event)
    assert window.document.path == str(target)
    assert window.document.scenario.title == "Dropped"
    settle(qtbot, window.document)


def test_opened_files_are_remembered(window, tmp_path, qtbot):
    paths = []
    for k in range(3):
        p = tmp_path / f"p{k}.json"
        engine.save_scenario(window.document.scenario, p)
        assert window.open_path(str(p))
        paths.append(str(p))
    assert window.recent.paths()[:3] == paths[::-1]
    window._fill_recent()
    texts = [a.text() for a in window.recent_menu.actions()]
    assert texts[:3] == paths[::-1]
    settle(qtbot, window.document)


def test_the_view_zooms_and_fits(window):
    view = window.view
    fitted = view.pixels_per_unit
    view.zoom_by(2.0)
    assert abs(view.pixels_per_unit - 2 * fitted) < 1e-6
    counter = window.scene.counters.items[0]
    assert abs(counter.size - max(0.9 * view.pixels_per_unit, 30)) < 1e-6
    view.zoom_by(1000)
    assert view.pixels_per_unit <= 220 + 1e-6
    view.fit_map()
    assert abs(view.pixels_per_unit - fitted) < 1e-6


def test_mouse_hover_wheel_zoom_and_middle_button_pan(window, qtbot):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtTest import QTest
    view = window.view
    m = view.scene().map
    i = m.index("2T6")
    at = view.mapFromScene(QPointF(m.x[i] * 40, m.y[i] * 40 + 10))
    QTest.mouseMove(view.viewport(), at)
    qtbot.waitUntil(lambda: window.explanation.hex == i)
    assert window.scene.hovered == i
    before = view.pixels_per_unit
    wheel = QWheelEvent(QPointF(at), QPointF(view.viewport().mapToGlobal(at)), QPoint(0, 0),
                        QPoint(0, 240), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    view.wheelEvent(wheel)
    assert view.pixels_per_unit > before
    scene_at = view.mapToScene(at)
    QTest.mousePress(view.viewport(), Qt.MouseButton.MiddleButton, pos=at)
    QTest.mouseMove(view.viewport(), at + QPoint(60, 20))
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.MiddleButton, pos=at + QPoint(60, 20))
    moved = view.mapToScene(at) - scene_at
    assert moved.x() < -30                         # the map followed the mouse
    QTest.keyPress(view, Qt.Key.Key_Space)
    assert view.dragMode() == view.DragMode.ScrollHandDrag
    QTest.keyRelease(view, Qt.Key.Key_Space)
    assert view.dragMode() == view.DragMode.NoDrag


def test_clicking_a_unit_counter_selects_it(window, qtbot):
    from PySide6.QtTest import QTest
    view = window.view
    item = next(i for i in window.scene.counters.items if i.kind == "unit" and i.key == "A2")
    rect = item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect())
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert window.document.viewer == "A2"
    settle(qtbot, window.document)
    assert item.selected


def test_a_moved_unit_keeps_its_counter(window, qtbot):
    items = {i.key: i for i in window.scene.counters.items if i.kind == "unit"}
    window.document.move_unit("A1", "2Y9")
    after = {i.key: i for i in window.scene.counters.items if i.kind == "unit"}
    assert after["A1"] is items["A1"]
    m = window.document.scenario.map
    assert after["A1"].pos().y() == float(m.y[m.index("2Y9")]) * 40
    window.document.undo_stack.undo()
    assert after["A1"].pos().y() == float(m.y[m.index("2Y7")]) * 40
    window.document.edit(window.document.scenario.without_unit("A1"), "remove A1")
    assert "A1" not in {i.key for i in window.scene.counters.items}
    assert items["A1"].scene() is None
    settle(qtbot, window.document)


def test_the_window_names_its_docks_and_hears_its_parts(window, qtbot):
    """Every panel is a dock with a name; the parts talk to the status bar by their signals."""
    titles = {name: window.dock(name).windowTitle() for name in (
        "position", "edit", "palette", "map_layout", "board_editor", "explanation", "legend",
        "starshell")}
    assert titles == {"position": "Position", "edit": "Edit", "palette": "Palette",
                      "map_layout": "Map", "board_editor": "Board",
                      "explanation": "Explanation", "legend": "Legend",
                      "starshell": "Starshell"}
    window.board_editor.tell("painted 3 hexes")
    assert window.statusBar().currentMessage() == "painted 3 hexes"
    window.hand.threads.told.emit("no LOS thread from off the map")
    assert window.statusBar().currentMessage() == "no LOS thread from off the map"
    texts = [a.text() for a in window.file_menu.actions()]
    assert texts.index("&Import VASL board\u2026") == texts.index("Save &As\u2026") + 1
    settle(qtbot, window.document)
