"""What a player found playing: every display in step with the position, the map readable
as a VASL player reads a board, files protected.  Each test failed before its fix."""
from __future__ import annotations

from itertools import combinations

from app_testing import counter_pos, hex_pos, look_at, settle
from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

import engine
from app import style
from app.export import export_svg
from app.hex_geometry import hex_at, map_rect
from engine.api import assets_dir, los_thread

SCENARIOS = assets_dir() / "scenarios"


def viewport_rect(view, item):
    """The counter's face (not its shadow) in viewport pixels."""
    face = QRectF(item.offset.x() - item.size / 2, item.offset.y() - item.size / 2, item.size,
                  item.size)
    return item.deviceTransform(view.viewportTransform()).mapRect(face)


class Paints(QObject):
    """The rectangles of the paint events a widget receives."""

    def __init__(self, widget):
        super().__init__()
        self.rects = []
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            self.rects.append(event.rect())
        return False


# ---------------------------------------------------------------------------- displays in step
def test_the_caption_on_screen_follows_a_click(window, qtbot):
    """The caption ("Caption and key on the map") names the unit just clicked: its band is
    painted again, not left saying "no unit selected"."""
    view, doc = window.view, window.document
    view.show_key(True)
    QApplication.processEvents()                        # the key's own paints, before counting
    paints = Paints(view.viewport())
    QApplication.processEvents()
    paints.rects.clear()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=counter_pos(view, "unit", "L1"))
    assert doc.viewer == "L1"
    settle(qtbot, doc)
    caption = QRect(0, 0, view.viewport().width(), 40)
    qtbot.waitUntil(lambda: any(r.contains(caption) for r in paints.rects), timeout=3000)


def test_svg_export_keeps_rings_and_dark_hexes_inside_the_boards(window, qtbot, tmp_path):
    """The SVG has no drawing past the boards' edges (the screen clips there; QSvgGenerator
    writes no clipping)."""
    view, doc = window.view, window.document
    doc.select("L1")                      # a dark veil over every hex, half hexes too
    settle(qtbot, doc)
    view.fit_map()
    path = tmp_path / "view.svg"
    export_svg(view, str(path))
    size = view.viewport().size()
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(path)).render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    edge = view.mapFromScene(map_rect(doc.scenario.map).topLeft())
    bottom = view.mapFromScene(map_rect(doc.scenario.map).bottomLeft())
    bg = style.BACKGROUND
    for y in range(edge.y() + 10, bottom.y() - 10, 7):
        c = image.pixelColor(edge.x() - 4, y)      # left of board 2's edge: half hexes of A
        off = abs(c.red() - bg.red()) + abs(c.green() - bg.green()) + abs(c.blue() - bg.blue())
        assert off < 12, (y, c.name())


def test_the_los_thread_label_stays_inside_the_view(window, qtbot):
    """A thread ending at the view's right edge: its label is moved in, not cut."""
    view, doc, scene = window.view, window.document, window.scene
    view.fit_map()
    s = doc.scenario
    scene.thread.set_thread(los_thread(s, "34Q5", "34GG5", 0, 0))
    view.grab()
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    rect = scene.thread.label_rect
    assert rect is not None
    assert seen.left() <= rect.left() and rect.right() <= seen.right()
    assert seen.top() <= rect.top() and rect.bottom() <= seen.bottom()


# ---------------------------------------------------------------------------- stacks
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


# ---------------------------------------------------------------------------- reading the map
def test_hex_ids_along_the_board_edges_at_the_fitted_zoom(window, qtbot):
    """Fitted in, the hexes are too small for their ids: each board prints its column letters
    and row numbers along its edges, and hides them with the coordinates layer."""
    view, scene = window.view, window.scene
    view.fit_map()
    assert view.pixels_per_unit < style.LOD_COORDINATES
    grid = scene.grid
    letters = {text for _, _, text, edge in grid.columns if edge == "top"}
    numbers = {text for _, _, text, edge in grid.rows if edge == "left"}
    assert {"B", "M", "Z", "CC", "FF"} <= letters and {str(n) for n in range(2, 10)} <= numbers
    x, y, _, _ = next(c for c in grid.columns if c[2] == "M" and c[3] == "top")
    at = view.mapFromScene(QPointF(x * style.SCALE, y * style.SCALE)) + QPointF(0, 5).toPoint()
    shown = view.grab().toImage().pixelColor(at)
    window.layer_actions["coordinates"].setChecked(False)
    hidden = view.grab().toImage().pixelColor(at)
    assert shown != hidden


def test_hills_print_their_level(window, qtbot):
    """Board 2's hills: each prints its level (L1, L2), over the night veil."""
    scene = window.scene
    m = scene.map
    levels = {level for level, _, _ in scene.grid.hills}
    assert {1, 2} <= levels
    for level, hexes, middle in scene.grid.hills:
        assert all(int(m.level[i]) == level for i in hexes) and middle in hexes
    assert scene.grid.zValue() > scene.sight.zValue()


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


# ---------------------------------------------------------------------------- the Edit panel
def test_the_edit_panel_offers_only_what_the_unit_type_has(window, qtbot):
    """A leader has no BU, CE, tracked or IR box; an AFV has BU, CE and tracked; a refusal
    names the field in words."""
    doc, ed = window.document, window.editor
    doc.select("L1")
    for flag in ("bu", "ce", "tracked", "ir"):
        assert ed.flags[flag].isHidden(), flag
    for flag in ("broken", "concealed", "pinned"):
        assert not ed.flags[flag].isHidden(), flag
    doc.select("T1")
    for flag in ("bu", "ce", "tracked"):
        assert not ed.flags[flag].isHidden(), flag
    assert ed.flags["ir"].isHidden()
    ed.flags["ce"].setChecked(True)                 # T1 is buttoned up
    text = ed.error.text()
    assert "both buttoned up" in text and "units[" not in text
    assert text.startswith("Unit T1")
    settle(qtbot, doc)


def test_a_refusal_names_the_field_in_words(window, qtbot, monkeypatch):
    from app.night.panels.editor import refusal
    e = engine.ScenarioError("only vehicles are tracked, not a leader", place="units[0].tracked")
    assert refusal(e, "unit", window.document.scenario.unit("L1")) == \
        "tracked: only vehicles are tracked, not a leader"


# ---------------------------------------------------------------------------- words
def test_a_prep_fire_marker_is_named_and_counts_as_a_gunflash(window, qtbot):
    """The default position: axis Prep Fire marker in 2CC8.  Seen only by it, the Explanation
    panel names the marker and says it counts as a Gunflash (E1.8)."""
    doc = window.document
    s = doc.scenario
    flash = next(mk for mk in s.markers if mk.type == "prep_fire")
    viewer = next(u.id for u in s.units if u.side != flash.side
                  and engine.visibility_from(s, u.id).sight_at(s.map.index(flash.hex))
                  == "gunflash")
    doc.select(viewer)
    settle(qtbot, doc)
    window.explanation.show_hex(s.map.index(flash.hex))
    text = window.explanation.toPlainText()
    assert "Prep Fire marker (it counts as a Gunflash, E1.8)" in text
    doc.select("L1")                                   # the Starshell panel's reasons too
    window.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    window.starshell_panel.show_options()
    assert "Prep Fire marker (it counts as a Gunflash, E1.8)" in \
        window.starshell_panel.options.text()



def test_viewing_as_a_side_hides_the_selected_enemys_field(window, qtbot):
    """G1 (axis) selected, W views the map as the allied side sees it: G1's outline, NVR ring
    and field are not shown; viewing every unit again shows them."""
    view, doc, scene = window.view, window.document, window.scene
    doc.select("G1")
    settle(qtbot, doc)
    assert scene.sight.areas and scene.nvr_ring.outlines and scene.selection.outlines
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_W)
    assert doc.view_side == doc.scenario.sides[0] != "axis"
    settle(qtbot, doc)
    assert scene.sight.areas == [] and scene.nvr_ring.outlines == []
    assert scene.selection.outlines == [] and scene.moving_rings.outlines == []
    doc.set_view_side(None)
    settle(qtbot, doc)
    assert scene.sight.areas and scene.nvr_ring.outlines and scene.selection.outlines


def test_hovering_names_the_hex_when_zoomed_out(window, qtbot):
    """Fitted in, the hovered hex shows its id over it."""
    view, scene = window.view, window.scene
    view.fit_map()
    QTest.mouseMove(view.viewport(), hex_pos(view, "2K3"))
    qtbot.waitUntil(lambda: scene.hovered == scene.map.index("2K3"))
    assert [text for _, text, _, _ in scene.hover.labels] == ["2K3"]


# ---------------------------------------------------------------------------- files
def test_a_bundled_example_opens_read_only_save_asks_for_a_name_elsewhere(window, qtbot,
                                                                          tmp_path, monkeypatch):
    """File > Open worked example: W-10.  Save does not write over the bundled file: it asks
    for a name, starting in the documents folder under the example's name."""
    from PySide6.QtWidgets import QFileDialog
    doc = window.document
    menu = window.examples_menu
    menu.aboutToShow.emit()
    entry = next(a for a in menu.actions() if a.text().startswith("W-10"))
    entry.trigger()
    bundled = SCENARIOS / "W-10.json"
    assert doc.path and doc.path.endswith("W-10.json")
    original = bundled.read_bytes()
    doc.move_unit("L1", "2T7")
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return str(tmp_path / "mine.json"), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    assert window.save()
    assert len(asked) == 1
    assert asked[0].endswith("W-10.json") and not asked[0].startswith(str(assets_dir()))
    assert bundled.read_bytes() == original
    assert doc.path == str(tmp_path / "mine.json")
    assert engine.load_scenario(tmp_path / "mine.json").unit("L1").hex == "2T7"
    settle(qtbot, doc)


def test_save_it_first_does_not_save_on_enter(window, qtbot, tmp_path, monkeypatch):
    """The default button of "Save it first?" is Cancel: Enter neither saves nor drops."""
    from PySide6.QtWidgets import QMessageBox
    asked = []

    def question(parent, title, text, buttons=None, default=None, **kwargs):
        asked.append(kwargs.get("defaultButton", default))
        return kwargs.get("defaultButton", default) or QMessageBox.StandardButton.NoButton
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    doc = window.document
    other = tmp_path / "other.json"
    engine.save_scenario(doc.scenario.replace(title="Other"), other)
    doc.move_unit("L1", "2T7")
    assert not window.open_path(str(other))
    assert asked == [QMessageBox.StandardButton.Cancel]
    assert doc.scenario.unit("L1").hex == "2T7" and doc.scenario.title != "Other"
    settle(qtbot, doc)


def test_the_selection_is_not_carried_into_the_next_file(window, qtbot, tmp_path):
    doc = window.document
    other = tmp_path / "same-units.json"
    engine.save_scenario(doc.scenario.replace(title="Same units"), other)
    doc.select("G1")
    doc.set_view_side("allied")
    assert window.open_path(str(other))
    assert doc.viewer is None and doc.marker is None and doc.view_side is None
    settle(qtbot, doc)
    assert doc.answers.field is None


# ---------------------------------------------------------------------------- play, in step
W10 = SCENARIOS / "W-10.json"


def test_undoing_a_fired_starshell_clears_its_result(window_on, qtbot):
    """W-10: L1 fires at 2W6 (usage dr 3, drift 2, 5: it lands in 2Z4).  After Ctrl+Z the
    Starshell panel and the status bar no longer say where it landed."""
    from engine.api import FixedDice
    w = window_on(W10, dice=FixedDice([3, 2, 5]))
    doc, view = w.document, w.view
    doc.select("L1")
    w.tool_actions["starshell"].trigger()
    settle(qtbot, doc)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=hex_pos(view, "2W6"))
    assert "2Z4" in w.starshell_panel.result.text()
    assert "2Z4" in w.statusBar().currentMessage()
    doc.undo_stack.undo()
    assert "2Z4" not in w.starshell_panel.result.text()
    assert "2Z4" not in w.statusBar().currentMessage()
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


def test_ctrl_equals_zooms_in_as_ctrl_plus_does(window, qtbot):
    view = window.view
    view.fit_map()
    view.setFocus()
    before = view.pixels_per_unit
    QTest.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.pixels_per_unit > before


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
