"""The layers a drag leaves alone are drawn as few cached pictures: under the field, the terrain,
board art, lit hexes and blaze shadows as the view's cached background; over it, the grid with
the hexsides and the Gunflashes with the light circles, one picture each.  After a zoom, a scroll,
a layer shown or hidden, a light added or moved and a map edit, the window (its own backing
store, repainted as the app repaints it: the events posted, nothing forced) must show what a
repaint from empty caches shows, and the change must be on the screen."""
from __future__ import annotations

import numpy as np
from app_testing import hex_pos, on_screen, paint_terrain, settle
from PySide6.QtWidgets import QApplication, QGraphicsItem

import engine
from app.night.scene.composite import Composite


def shown(window) -> np.ndarray:
    """What the window shows once it has repainted what the last change asked for."""
    QApplication.sendPostedEvents()
    return on_screen(window)


def from_empty_caches(window) -> np.ndarray:
    """The view repainted whole with its background and the composites drawn anew."""
    view = window.view
    view.resetCachedContent()
    for item in window.scene.composites:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)     # its picture dropped
        item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    view.viewport().repaint()
    return on_screen(window)


def changed(a: np.ndarray, b: np.ndarray, by: int = 12) -> int:
    """How many pixels differ by more than ``by``."""
    return int((np.abs(a - b).max(axis=2) > by).sum())


def hex_box(view, hex_id: str, r: int = 3) -> tuple[slice, slice]:
    p = hex_pos(view, hex_id)
    return slice(p.y() - r, p.y() + r + 1), slice(p.x() - r, p.x() + r + 1)


def test_the_static_layers_are_drawn_by_the_background_and_one_composite(window):
    scene = window.scene
    assert scene.under == [scene.terrain, *scene.board_art, scene.lit, scene.blaze_shadows]
    for item in scene.under + [scene.grid, scene.hexsides, scene.gunflashes,
                               scene.light_circles]:
        assert item.flags() & QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    assert [c.members for c in scene.composites] == [[scene.grid, scene.gunflashes,
                                                      scene.light_circles, scene.hexsides]]
    # nothing else lies between the composite's members in depth
    low, high = scene.grid.zValue(), scene.hexsides.zValue()
    members = scene.composites[0].members + scene.composites
    assert not [item for item in scene.items() if low <= item.zValue() <= high
                and item not in members and item.parentItem() is None]
    assert all(isinstance(c, Composite) and c.zValue() == c.members[0].zValue()
               for c in scene.composites)
    before = shown(window)
    assert np.array_equal(before, from_empty_caches(window))


def test_after_a_zoom_and_a_scroll_the_cached_layers_follow(window):
    view = window.view
    before = shown(window)
    view.zoom_by(1.7)
    zoomed = shown(window)
    assert changed(before, zoomed) > 10000
    assert np.array_equal(zoomed, from_empty_caches(window))
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 53)
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() - 31)
    scrolled = shown(window)
    assert changed(zoomed, scrolled) > 10000
    assert np.array_equal(scrolled, from_empty_caches(window))


def test_a_layer_shown_or_hidden_from_the_view_menu_shows_at_once(window):
    actions = window.layer_actions
    for name in ("lights", "blaze_shadows", "grid", "gunflashes", "board_art"):
        before = shown(window)
        actions[name].setChecked(False)
        hidden = shown(window)
        assert np.array_equal(hidden, from_empty_caches(window)), name
        actions[name].setChecked(True)
        again = shown(window)
        assert np.array_equal(again, from_empty_caches(window)), name
        assert np.array_equal(again, before), name
        # the stand-in boards have no pictures; the blaze's one blind hex lies under a counter
        if name not in ("board_art", "blaze_shadows"):
            assert changed(before, hidden) > 50, name
    before = shown(window)
    actions["coordinates"].setChecked(False)
    assert changed(before, shown(window)) > 50
    assert np.array_equal(on_screen(window), from_empty_caches(window))
    actions["coordinates"].setChecked(True)
    # the grid's lines hidden, the ids and board ids are still theirs to show or hide
    actions["grid"].setChecked(False)
    lines_off = shown(window)
    actions["coordinates"].setChecked(False)
    assert changed(lines_off, shown(window)) > 50
    assert np.array_equal(on_screen(window), from_empty_caches(window))
    actions["coordinates"].setChecked(True)
    actions["grid"].setChecked(True)
    assert np.array_equal(shown(window), before)


def test_a_light_added_then_moved_lights_its_hexes_on_the_screen(window, qtbot):
    doc, view = window.document, window.view
    before = shown(window)
    doc.add_marker(engine.Marker("starshell", "2H5"))
    settle(qtbot, doc)
    lit = shown(window)
    rows, cols = hex_box(view, "2H6")           # lit now, and clear of counters
    assert changed(before[rows, cols], lit[rows, cols]) > 0
    assert np.array_equal(lit, from_empty_caches(window))
    k = len(doc.scenario.markers) - 1
    doc.edit(doc.scenario.with_marker(engine.Marker("starshell", "2M2"), k), "move the starshell")
    settle(qtbot, doc)
    moved = shown(window)
    assert changed(lit, moved) > 50
    assert changed(moved, before) > 50
    # the parts drawn again meet the rest within a unit of rounding along their edges
    assert changed(moved, from_empty_caches(window), 1) == 0


def test_a_map_edit_shows_the_new_terrain(window, qtbot):
    view = window.view
    rows, cols = hex_box(view, "2W6")
    before = shown(window)
    paint_terrain(qtbot, window, "2W6", "woods")
    m = window.document.scenario.map
    assert m.terrain_name(m.index("2W6")) == "woods"
    settle(qtbot, window.document)
    edited = shown(window)
    assert changed(before[rows, cols], edited[rows, cols]) > 0
    assert np.array_equal(edited, from_empty_caches(window))


def test_after_a_resize_the_cached_layers_fill_the_new_view(window):
    before = shown(window)
    window.resize(1200, 700)                # fitted: the map is fitted in again
    QApplication.processEvents()
    resized = shown(window)
    assert resized.shape != before.shape
    assert np.array_equal(resized, from_empty_caches(window))
