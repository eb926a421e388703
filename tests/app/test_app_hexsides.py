"""Hexside terrain in the window (rules.md 7): drawn on its hexsides at every zoom and in the
legend; the board editor's hexside brush cycles a clicked hexside and paints a dragged line of
them in one undo step; rubble is a half level in the terrain brush; a board of another size
(SPEC.md "size") draws and answers."""
from __future__ import annotations

import json

import pytest
from app_testing import drag, hex_pos, look_at, settle, steps
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from app.night.editor.brush import SIDE_CYCLE, nearest_side
from app.night.panels.legend import terrain_keys
from app.night.scene.hexsides import HEXSIDE_LOOKS
from engine.hexes import parse_local

BOARD = {"format": "starshell-board", "version": 1, "id": "h1", "title": "hexsides",
         "size": [12, 8],
         "hexes": {"J2": {"terrain": "woods"}, "H2": {"terrain": "rubble"}},
         "hexsides": {"F5/1": "wall", "E6/1": "hedge", "H4/4": "bocage", "C3/4": "cliff"}}


@pytest.fixture
def small(window_on, tmp_path, qtbot):
    """A window on a 12 x 8 board with walls, hedges, bocage and a cliff; A in F3 selected."""
    (tmp_path / "h1.json").write_text(json.dumps(BOARD))
    pos = tmp_path / "p.json"
    pos.write_text(json.dumps({
        "format": "starshell-scenario", "version": 1,
        "map": [{"board": "h1.json", "at": [0, 0]}],
        "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "h1F3"},
                  {"id": "B", "side": "axis", "type": "squad", "hex": "h1F7"}]}))
    w = window_on(pos)
    w.document.select("A")
    settle(qtbot, w.document)
    return w


def colour_near(image, point, look_colour: QColor, radius: int = 2, tolerance: int = 40) -> bool:
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            c = image.pixelColor(point.x() + dx, point.y() + dy)
            if all(abs(a - b) <= tolerance for a, b in zip(c.getRgb()[:3], look_colour.getRgb()[:3])):
                return True
    return False


def side_point(w, hex_id: str, direction: int, inset: float = 0.8):
    """The viewport point on ``hex_id``'s side ``direction`` (1..6), ``inset`` of the way out."""
    angle = {1: -90, 2: -30, 3: 30, 4: 90, 5: 150, 6: 210}[direction]
    import math
    r = 0.866 * inset
    return hex_pos(w.view, hex_id, r * math.cos(math.radians(angle)), r * math.sin(math.radians(angle)))


def test_a_small_board_with_hexsides_draws_and_answers(small, qtbot):
    w = small
    m = w.document.scenario.map
    assert m.size == 6 * 8 + 6 * 9
    item = w.view.scene().hexsides
    assert sorted(name for name, _, _ in item.segments) == ["bocage", "cliff", "hedge", "wall"]
    # the wall F4/F5 blocks A (F3) from B (F7); the reason names it and its rule
    field = w.document.answers.field
    assert field["h1F7"].sight == "none"
    assert any("the wall on the h1F4/h1F5 hexside" in r and "(B9.2)" in r
               for r in field["h1F7"].reasons)


@pytest.mark.parametrize("pixels_per_unit", [8.0, 30.0, 80.0])
def test_walls_show_on_their_hexside_at_every_zoom(small, qtbot, pixels_per_unit):
    w = small
    look_at(w.view, "h1F5", pixels_per_unit)
    QApplication.processEvents()                        # the scene's pending updates, no wait
    image = w.view.grab().toImage()
    dpr = image.devicePixelRatio()
    p = side_point(w, "h1F5", 1, inset=1.0)          # the middle of the walled hexside
    p.setX(round(p.x() * dpr))
    p.setY(round(p.y() * dpr))
    assert colour_near(image, p, HEXSIDE_LOOKS["wall"].colour)
    q = side_point(w, "h1F5", 4, inset=1.0)          # F5's south side: nothing on it
    q.setX(round(q.x() * dpr))
    q.setY(round(q.y() * dpr))
    assert not colour_near(image, q, HEXSIDE_LOOKS["wall"].colour, radius=1, tolerance=20)


def test_the_legend_keys_hexside_terrain(qapp):
    labels = [text for _, text in terrain_keys()]
    assert any("wall" in t and "hedge" in t and "bocage" in t and "cliff" in t for t in labels)


def test_the_hexside_brush_cycles_a_clicked_hexside_one_undo_step_each(small, qtbot):
    w, doc = small, small.document
    w.board_panel.choose("hexside")
    w.board_panel.paint.setChecked(True)
    m = doc.scenario.map
    seen = []
    for _ in range(len(SIDE_CYCLE)):
        before = doc.undo_stack.count()
        qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, side_point(w, "h1J4", 1))
        assert doc.undo_stack.count() == before + 1
        m = doc.scenario.map
        seen.append(m.hexside_name(m.index("h1J4"), 0))
    assert seen == ["wall", "hedge", "bocage", "cliff", None]
    assert m.hexside_name(m.index("h1J3"), 3) is None     # the same hexside, from J3


def test_a_dragged_hexside_stroke_paints_a_line_of_walls_in_one_undo_step(small, qtbot):
    w, doc = small, small.document
    w.board_panel.choose("hexside")
    w.board_panel.paint.setChecked(True)
    before = doc.undo_stack.count()
    a, b = side_point(w, "h1B5", 1), side_point(w, "h1B2", 1)
    # along column B: the north sides of B5, B4, B3, B2
    drag(qtbot, w.view, a, steps(a, b, 24))
    assert doc.undo_stack.count() == before + 1
    m = doc.scenario.map
    walls = [m.hexside_name(m.index(f"h1B{n}"), 0) for n in (2, 3, 4, 5)]
    assert walls == ["wall"] * 4
    board = doc.scenario.map.placements[0].board
    assert board.hexside(*parse_local("B3", (12, 8)), 1) == "wall"
    doc.undo_stack.undo()
    m = doc.scenario.map
    assert all(m.hexside_name(m.index(f"h1B{n}"), 0) is None for n in (2, 3, 4, 5))


def test_a_click_at_a_hex_centre_sets_no_hexside(small):
    m = small.document.scenario.map
    i = m.index("h1J4")
    assert nearest_side(m, i, float(m.x[i]), float(m.y[i])) is None
    assert nearest_side(m, i, float(m.x[i]), float(m.y[i]) - 0.8) == 0       # north
    assert nearest_side(m, i, float(m.x[i]) + 0.7, float(m.y[i]) + 0.4) == 2  # south-east


def test_rubble_in_the_terrain_brush_is_a_half_level(small, qtbot):
    w, doc = small, small.document
    assert "half-level" in w.board_panel.buttons["rubble"].toolTip()
    w.board_panel.choose("rubble")
    w.board_panel.paint.setChecked(True)
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, hex_pos(w.view, "h1C6"))
    m = doc.scenario.map
    i = m.index("h1C6")
    assert m.terrain_name(i) == "rubble" and m.half_level[i] and m.obstacle_height[i] == 0


def test_exports_carry_the_hexside_terrain(small, qtbot, tmp_path):
    from PySide6.QtGui import QImage

    from app.export import export_png, export_svg
    w = small
    look_at(w.view, "h1F5", 60.0)
    export_png(w.view, str(tmp_path / "m.png"))
    image = QImage(str(tmp_path / "m.png"))
    assert colour_near(image, side_point(w, "h1F5", 1, inset=1.0), HEXSIDE_LOOKS["wall"].colour)
    export_svg(w.view, str(tmp_path / "m.svg"))
    svg = (tmp_path / "m.svg").read_text()
    for name in ("wall", "hedge", "bocage"):
        assert HEXSIDE_LOOKS[name].colour.name() in svg, name
