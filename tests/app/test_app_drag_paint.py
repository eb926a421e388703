"""What a drag step repaints: only what changed (the field's changed hexes, the rings, the
counters that moved), its field drawn as one image of the view's pixels.  The picture on the
window after the steps must be the picture of a whole repaint, and the image must show the
field the paths show; after a zoom or a scroll the image is numbered again.  Pixels are read
from the window's own backing store (the offscreen platform's grab), not from a fresh render."""
from __future__ import annotations

import numpy as np
from app_testing import counter_pos, hex_pos, look_at, on_screen, paint_terrain, settle
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication


def grown(mask: np.ndarray, by: int) -> np.ndarray:
    """``mask`` grown by ``by`` pixels each way (a square)."""
    out = mask.copy()
    for dy in range(-by, by + 1):
        for dx in range(-by, by + 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def repainted_whole(window) -> np.ndarray:
    window.view.viewport().repaint()
    return on_screen(window)


def step_by_step(qtbot, window, hexes) -> None:
    """Drag L1 (pressed and held) through ``hexes``, the window repainting after each as it
    does for the player (the events the step posted, nothing forced)."""
    for hex_id in hexes:
        qtbot.mouseMove(window.view.viewport(), hex_pos(window.view, hex_id, 0.1, 0.1))
        window.document.settle()
        QApplication.sendPostedEvents()


def start_drag(qtbot, window, unit: str = "L1"):
    view, doc = window.view, window.document
    doc.select(unit)
    settle(qtbot, doc)
    start = counter_pos(view, "unit", unit)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), start + QPoint(10, 10))
    return start


def test_a_drag_repaints_only_what_changed_and_the_window_shows_a_whole_repaint(window, qtbot):
    start_drag(qtbot, window)
    step_by_step(qtbot, window, ["2T7", "2U7", "2V8", "2W8", "2X7", "2Y7"])
    assert window.scene.sight._field is not None          # the field is drawn as an image
    shown = on_screen(window)
    whole = repainted_whole(window)
    assert np.array_equal(shown, whole)                   # no stale pixel anywhere
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(window.view, "2Y7", 0.1, 0.1))


def test_the_field_image_shows_what_the_paths_show(window, qtbot):
    start_drag(qtbot, window)
    step_by_step(qtbot, window, ["2T7", "2U7", "2V8"])
    sight = window.scene.sight
    as_image = repainted_whole(window)
    sight.live, sight._field = False, None                # the same field drawn as paths
    as_paths = repainted_whole(window)
    assert sight._field is None
    differ = np.abs(as_image - as_paths).max(axis=2)
    # the same picture but for the blend of a few pixels where two of the field's colours meet
    assert (differ > 0).mean() < 0.01
    assert (differ > 12).mean() < 0.001
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(window.view, "2V8", 0.1, 0.1))


def test_after_a_zoom_and_a_scroll_the_field_image_follows(window, qtbot):
    view = window.view
    start_drag(qtbot, window)
    step_by_step(qtbot, window, ["2T7", "2U7"])
    first = window.scene.sight._field
    view.zoom_by(1.3)                                     # zoomed in under the mouse
    QApplication.sendPostedEvents()
    step_by_step(qtbot, window, ["2V8", "2W8"])
    zoomed = window.scene.sight._field
    assert zoomed is not None and zoomed is not first     # numbered again for the new zoom
    assert np.array_equal(on_screen(window), repainted_whole(window))
    sight = window.scene.sight
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 37)
    QApplication.sendPostedEvents()
    step_by_step(qtbot, window, ["2X7"])
    assert sight._field is not None and sight._field is not zoomed
    shown = on_screen(window)
    assert np.array_equal(shown, repainted_whole(window))
    scrolled = sight._field
    view.zoom_by(0.6)                                     # and out again
    QApplication.sendPostedEvents()
    step_by_step(qtbot, window, ["2X8", "2W8"])
    assert sight._field is not None and sight._field is not scrolled
    shown = on_screen(window)
    assert np.array_equal(shown, repainted_whole(window))
    sight.live, sight._field = False, None
    as_paths = repainted_whole(window)
    assert (np.abs(shown - as_paths).max(axis=2) > 12).mean() < 0.001
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(window.view, "2W8", 0.1, 0.1))


def test_after_a_map_edit_a_drag_draws_the_new_map_and_its_field(window, qtbot):
    view = window.view
    start_drag(qtbot, window)
    step_by_step(qtbot, window, ["2T7", "2U7"])
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(view, "2U7", 0.1, 0.1))
    before = window.scene.sight
    paint_terrain(qtbot, window, "2W6", "woods")
    m = window.document.scenario.map
    assert m.terrain_name(m.index("2W6")) == "woods"
    settle(qtbot, window.document)
    QApplication.sendPostedEvents()
    start = counter_pos(view, "unit", "L1")
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), start + QPoint(10, 10))
    step_by_step(qtbot, window, ["2V7", "2V8"])
    sight = window.scene.sight
    assert sight is not before and sight._field is not None     # the new map's, numbered again
    shown = on_screen(window)
    assert np.array_equal(shown, repainted_whole(window))
    sight.live, sight._field = False, None
    assert (np.abs(shown - repainted_whole(window)).max(axis=2) > 12).mean() < 0.001
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(view, "2V8", 0.1, 0.1))


def test_hiding_the_field_mid_drag_takes_its_image_off_the_screen(window, qtbot):
    start_drag(qtbot, window)
    step_by_step(qtbot, window, ["2T7", "2U7"])
    with_field = on_screen(window)
    window.layer_actions["sight"].setChecked(False)
    step_by_step(qtbot, window, ["2U8", "2U7"])            # back where the field was shown
    without = on_screen(window)
    assert np.array_equal(without, repainted_whole(window))
    assert (np.abs(with_field - without).max(axis=2) > 12).mean() > 0.1     # the veil went
    window.layer_actions["sight"].setChecked(True)
    step_by_step(qtbot, window, ["2U8", "2U7"])
    assert np.array_equal(on_screen(window), with_field)
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(window.view, "2U7", 0.1, 0.1))


def test_the_blind_hexes_are_hatched_in_the_field_image_as_the_paths_hatch_them(window, qtbot):
    """G2 stands on the level-2 hill of 2CC8 and has A6.4 blind hexes beyond the crest.  Dragged
    off the hill and back, its field and the hatching of its blind hexes are drawn as one image
    (the hatch tile laid from the same whole pixel, the border along the same edges): the
    picture is the one the paths draw; hiding the blind hexes' layer mid-drag takes the
    hatching out of the image."""
    view, doc, scene = window.view, window.document, window.scene
    doc.select("G2")
    settle(qtbot, doc)
    look_at(view, "2CC8", 60.0)
    QApplication.sendPostedEvents()
    start_drag(qtbot, window, "G2")
    step_by_step(qtbot, window, ["2CC7", "2CC8"])
    blind = np.asarray(doc.answers.field.blind_at_night)     # A6.4 where it matters at night
    assert blind.sum() >= 2 and scene.viewer_blind.mask is not None
    assert np.array_equal(scene.viewer_blind.mask, blind)
    field = scene.sight._field
    assert field is not None
    shown = on_screen(window)
    assert np.array_equal(shown, repainted_whole(window))
    raster = field.raster
    inside = blind[np.maximum(raster.first, 0)] & (raster.first >= 0)
    inside = inside.reshape(raster.height, raster.width)
    hatched = inside[:shown.shape[0], :shown.shape[1]]    # the part the window shows
    # the hatching is in the image itself (its lines: many shades), not drawn over it
    image = field.pixels.reshape(raster.height, raster.width)
    assert len(np.unique(image[inside])) > 10
    assert scene.viewer_blind._fill is None               # and its outline never traced
    assert hatched.sum() > 3000                           # three hexes at this zoom
    sight = scene.sight
    sight.live, sight._field = False, None                # the same drawn as paths
    as_paths = repainted_whole(window)
    differ = np.abs(shown - as_paths).max(axis=2)
    assert (differ[hatched] > 12).mean() < 0.01           # the same lines in the same places
    assert (differ > 12).mean() < 0.001
    # the border: on both sides of the hatched hexes' edge, as the paths draw it
    band = grown(hatched, 3) & grown(~hatched, 3)
    assert band.sum() > 500 and (differ[band] > 12).mean() < 0.03
    sight.live = True
    step_by_step(qtbot, window, ["2CC7", "2CC8"])         # the image again
    assert np.array_equal(on_screen(window), shown)
    window.layer_actions["viewer_blind"].setChecked(False)
    QApplication.sendPostedEvents()
    unhatched = on_screen(window)
    assert sight._field is not None
    assert np.array_equal(unhatched, repainted_whole(window))
    gone = np.abs(unhatched - shown).max(axis=2) > 12
    assert gone[hatched].mean() > 0.2 and gone[~hatched].mean() < 0.001
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(view, "2CC8", 0.1, 0.1))


def test_the_dragged_counter_keeps_its_cached_picture(window, qtbot, monkeypatch):
    """A counter's picture shows what the unit is, not where: a drag step moves the picture
    Qt keeps of it, the unit's new hex alone does not have it drawn again."""
    from app.night.scene.counters import CounterItem
    redrawn = []
    update = CounterItem.update

    def counted(item, *args):
        redrawn.append(item.key)
        return update(item, *args)
    start_drag(qtbot, window)
    step_by_step(qtbot, window, ["2T7"])
    monkeypatch.setattr(CounterItem, "update", counted)
    step_by_step(qtbot, window, ["2U7", "2V8", "2W8"])
    assert window.document.scenario.unit("L1").hex == "2W8"
    assert "L1" not in redrawn
    shown = on_screen(window)
    assert np.array_equal(shown, repainted_whole(window))
    qtbot.mouseRelease(window.view.viewport(), Qt.MouseButton.LeftButton,
                       pos=hex_pos(window.view, "2W8", 0.1, 0.1))
    doc = window.document
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    before = on_screen(window)
    doc.edit(doc.scenario.with_unit(doc.scenario.unit("L1").replace(broken=True)), "break L1")
    settle(qtbot, doc)
    QApplication.sendPostedEvents()
    assert "L1" in redrawn                                # what it is changed: drawn again
    after = on_screen(window)
    assert np.array_equal(after, repainted_whole(window))
    p = counter_pos(window.view, "unit", "L1")
    around = (slice(p.y() - 12, p.y() + 13), slice(p.x() - 12, p.x() + 13))
    assert (np.abs(after[around] - before[around]).max(axis=2) > 40).sum() > 20


def test_the_selection_outline_follows_the_selected_unit(window, qtbot):
    """The selected unit's hex is outlined (drawn once per hex: a drag step asks twice): after
    a move, another unit selected, and its side's view hiding and showing it again."""
    from PySide6.QtCore import QPointF

    from app.hex_geometry import scene_center
    doc, scene = window.document, window.scene
    m = doc.scenario.map

    def outlined() -> QPointF | None:
        shown = scene.selection.outlines
        return shown[0][0].boundingRect().center() if shown else None

    def near(p, hex_id) -> bool:
        return p is not None and (p - scene_center(m, m.index(hex_id))).manhattanLength() < 1
    doc.select("L1")
    settle(qtbot, doc)
    assert near(outlined(), "2T6")
    doc.edit(doc.scenario.moved("L1", "2U7"), "move L1")
    settle(qtbot, doc)
    assert near(outlined(), "2U7")
    doc.select("G2")
    settle(qtbot, doc)
    assert near(outlined(), "2CC8")
    doc.set_view_side("allied")                            # G2 is the enemy's: not outlined
    settle(qtbot, doc)
    assert outlined() is None
    doc.set_view_side(None)
    settle(qtbot, doc)
    assert near(outlined(), "2CC8")
