"""Underlays: a player's scan of a board, calibrated by two clicked hex centres; the
maths is a pure similarity transform; the image follows its board when the board turns, and
comes back from the settings (the image itself is never copied)."""
from __future__ import annotations

import cmath
import math

import pytest
from app_testing import scene_point, settle
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QInputDialog

import engine
from app.night.editor.calibration import (
    BOARD_WIDTH,
    Similarity,
    fitted,
    from_two_points,
    hex_centre,
    placement,
)
from app.night.window import NightWindow
from app.style import SCALE
from engine.boards import assets_dir, bundled_board
from engine.hexes import COLUMN_NAMES, board_hexes, parse_local
from engine.maps import Map, Placement

W12 = assets_dir() / "scenarios" / "W-12.json"
# the scan: 22 image pixels per map unit, turned 2 degrees, margins (a scanner's work)
SCAN = Similarity(22 * cmath.exp(1j * math.radians(2)), complex(35, 20))


# ------------------------------------------------------------------------------ the maths
def test_underlay_calibration_maps_two_points_exactly_and_keeps_shapes():
    p1, p2, q1, q2 = (120, 80), (900, 300), hex_centre(*parse_local("C3")), \
        hex_centre(*parse_local("Y8"))
    t = from_two_points(p1, p2, q1, q2)
    for p, q in ((p1, q1), (p2, q2)):
        assert t(*p) == pytest.approx(q, abs=1e-9)
    # a similarity: every length scaled alike, angles kept
    a, b, c = (0, 0), (10, 0), (0, 10)
    ta, tb, tc = (complex(*t(*p)) for p in (a, b, c))
    assert abs(tb - ta) == pytest.approx(abs(tc - ta)) == pytest.approx(10 * t.scale)
    assert ((tc - ta) / (tb - ta)).real == pytest.approx(0, abs=1e-9)
    with pytest.raises(ValueError):
        from_two_points(p1, p1, q1, q2)
    with pytest.raises(ValueError):
        from_two_points(p1, p2, q1, q1)


def test_underlay_calibration_recovers_the_scan_of_every_hex():
    """Calibrated on two hexes, the transform puts every hex centre of the scan on its hex."""
    inverse = Similarity(1 / SCAN.a, -SCAN.b / SCAN.a)
    pixel = {h: SCAN(*hex_centre(*parse_local(h))) for h in ("B2", "EE9")}
    t = from_two_points(pixel["B2"], pixel["EE9"], hex_centre(*parse_local("B2")),
                        hex_centre(*parse_local("EE9")))
    for col, row in board_hexes():
        x, y = SCAN(*hex_centre(col, row))
        assert t(x, y) == pytest.approx(hex_centre(col, row), abs=1e-9)
        assert inverse(x, y) == pytest.approx(hex_centre(col, row), abs=1e-9)


@pytest.mark.parametrize("at,rotated", [((0, 0), False), ((1, 0), True), ((2, 1), True),
                                        ((0, 2), False)])
def test_underlay_placement_and_rotate_agree_with_the_engines_map(at, rotated):
    m = Map([Placement(bundled_board("2"), at, rotated)])
    for col, row in board_hexes():
        i = m.index(f"2{COLUMN_NAMES[col]}{row}")
        assert placement(at, rotated)(*hex_centre(col, row)) == pytest.approx(
            (m.x[i], m.y[i]), abs=1e-9)


def test_underlay_first_guess_lays_the_image_across_the_board():
    t = fitted(960, 346)
    assert t(0, 0) == pytest.approx((0, 0)) and t(960, 0) == pytest.approx((BOARD_WIDTH, 0))


# ------------------------------------------------------------------------------ in the window
def scan_image(path) -> None:
    """A 'scan' of board 2: a dot on every hex centre, drawn through SCAN."""
    image = QImage(1150, 470, QImage.Format.Format_RGB32)
    image.fill(QColor("#d8d0b0"))
    p = QPainter(image)
    p.setBrush(QColor("#202020"))
    for col, row in board_hexes():
        x, y = SCAN(*hex_centre(col, row))
        p.drawEllipse(QRectF(x - 3, y - 3, 6, 6))
    p.end()
    assert image.save(str(path))


def on_screen(w, image_xy):
    """The viewport point where the underlay shows image pixel ``image_xy``."""
    item = w.board_editor.underlays.items["2"]
    return w.view.mapFromScene(item.sceneTransform().map(QPointF(*image_xy)))


def shown_at(w, image_xy) -> QPointF:
    return w.board_editor.underlays.items["2"].sceneTransform().map(QPointF(*image_xy))


def near(a: QPointF, b: QPointF, tolerance: float) -> bool:
    return math.hypot(a.x() - b.x(), a.y() - b.y()) <= tolerance


def test_underlay_calibrated_by_two_clicks_puts_the_scan_on_its_hexes_and_follows_a_rotate(
        window_on, qtbot, tmp_path, monkeypatch, settings):
    image = tmp_path / "my-scan-of-board-2.png"
    scan_image(image)
    w = window_on(W12)
    ed = w.board_editor
    assert ed.load_underlay(str(image))
    item = ed.underlays.items["2"]
    frame = item.parentItem()
    assert item.scene() is w.scene and w.scene.terrain.zValue() < frame.zValue() \
        < w.scene.grid.zValue()
    assert not frame.flags() & frame.GraphicsItemFlag.ItemClipsChildrenToShape   # all of it
    answers = iter(["C3", "2y8"])                        # the player names the two hexes
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: (next(answers), True)))
    assert ed.start_calibration() and w.view.hand is not w.hand
    vp = w.view.viewport()
    for h in ("C3", "Y8"):                               # click the scan's dots
        qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         on_screen(w, SCAN(*hex_centre(*parse_local(h)))))
    assert w.view.hand is w.hand                         # calibrated: back to play
    spec = ed.underlays.spec("2")
    assert [p[2] for p in spec.points] == ["C3", "Y8"]
    assert item.parentItem().flags() & frame.GraphicsItemFlag.ItemClipsChildrenToShape
    # every dot of the scan now lies on its hex centre (clicks land on whole screen pixels)
    tolerance = 0.04 * SCALE
    m = w.scene.map
    for h in ("C3", "Y8", "A1", "GG10", "P5"):
        dot = SCAN(*hex_centre(*parse_local(h)))
        assert near(shown_at(w, dot), scene_point(m, "2" + h), tolerance), h
    # the image stays on its board when the board is turned half round
    assert ed.rotate(0)
    m = w.scene.map
    assert w.board_editor.underlays.items["2"].scene() is w.scene
    for h in ("C3", "GG10"):
        dot = SCAN(*hex_centre(*parse_local(h)))
        assert near(shown_at(w, dot), scene_point(m, "2" + h), tolerance), h
    ed.underlays.set_opacity("2", 0.3)
    assert ed.underlays.items["2"].effectiveOpacity() == pytest.approx(0.3)
    settle(qtbot, w.document)
    # the path and the calibration live in the settings: a new window shows the scan again
    w2 = NightWindow(type(w.document)(engine.load_scenario(W12), str(W12)), settings)
    qtbot.addWidget(w2)
    again = w2.board_editor.underlays.items["2"]
    assert again.effectiveOpacity() == pytest.approx(0.3)
    dot = SCAN(*hex_centre(*parse_local("P5")))
    assert near(again.sceneTransform().map(QPointF(*dot)), scene_point(w2.scene.map, "2P5"),
                tolerance)
    assert "C3" in w2.board_panel.image_state.text()
    w2.board_editor.remove_underlay()
    assert "2" not in w2.board_editor.underlays.items and settings.value("underlays/2") is None
    settle(qtbot, w2.document)


def test_underlay_survives_painting_and_a_bad_hex_name_is_asked_again(window_on, qtbot,
                                                                      tmp_path, monkeypatch):
    image = tmp_path / "scan.png"
    scan_image(image)
    w = window_on(W12)
    ed = w.board_editor
    ed.load_underlay(str(image))
    ed.set_painting(True)
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, w.view.mapFromScene(
                         scene_point(w.scene.map, "2K5")))
    assert ed.underlays.items["2"].scene() is w.scene    # the map was rebuilt: the scan is back
    answers = iter(["ZZ99", "D4", "D4"])
    monkeypatch.setattr(QInputDialog, "getText",
                        staticmethod(lambda *a, **k: (next(answers), True)))
    ed.start_calibration()
    vp = w.view.viewport()
    at = w.view.mapFromScene(scene_point(w.scene.map, "2K5"))
    for _ in range(3):
        qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    # ZZ99 was refused (asked again); two clicks on one point cannot calibrate
    assert "Cannot calibrate" in w.statusBar().currentMessage()
    assert ed.underlays.spec("2").points == [] and w.view.hand is w.hand
    settle(qtbot, w.document)
