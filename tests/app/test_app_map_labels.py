"""Reading the map as a VASL player reads a board: the caption follows a click, hex ids along the
board edges when zoomed out, hills print their level, the hovered hex names itself."""
from __future__ import annotations

from app_testing import counter_pos, hex_pos, settle
from PySide6.QtCore import QEvent, QObject, QPointF, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app import style


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


def test_hovering_names_the_hex_when_zoomed_out(window, qtbot):
    """Fitted in, the hovered hex shows its id over it."""
    view, scene = window.view, window.scene
    view.fit_map()
    QTest.mouseMove(view.viewport(), hex_pos(view, "2K3"))
    qtbot.waitUntil(lambda: scene.hovered == scene.map.index("2K3"))
    assert [text for _, text, _, _ in scene.hover.labels] == ["2K3"]
