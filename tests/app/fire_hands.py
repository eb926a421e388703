"""The fire window worked as a player's hands do: clicks on the map, its counters, buttons,
tabs and check boxes, text typed into boxes, a modal dialog answered while it is open."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox

from app.style import SCALE

LEFT = Qt.MouseButton.LeftButton


def click_hex(qtbot, w, hex_id: str, dy: float = 0.55) -> None:
    """A click low in a hex, clear of its counters."""
    m = w.pos.map
    i = m.index(hex_id)
    at = QPointF(float(m.x[i]) * SCALE, (float(m.y[i]) + dy) * SCALE)
    qtbot.mouseClick(w.view.viewport(), LEFT, pos=w.view.mapFromScene(at))


def click_counter(qtbot, w, uid: str) -> None:
    """A click on a counter's top left corner, which the next counter of a stack leaves free."""
    item = w.scene.counters[uid]
    at = item.scenePos() + QPointF(-0.33 * SCALE, -0.33 * SCALE)
    qtbot.mouseClick(w.view.viewport(), LEFT, pos=w.view.mapFromScene(at))


def click(qtbot, widget) -> None:
    """A click in a button's middle; on a check box's box (its left end)."""
    at = widget.rect().center()
    if isinstance(widget, QCheckBox):
        at = QPoint(8, widget.height() // 2)
    qtbot.mouseClick(widget, LEFT, pos=at)


def click_tab(qtbot, w, name: str) -> None:
    bar = w.tabs.tabBar()
    index = next(i for i in range(bar.count()) if bar.tabText(i) == name)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(index).center())


def type_text(qtbot, widget, text: str, enter: bool = True) -> None:
    """Select what the box holds, type ``text`` over it (and Enter)."""
    target = widget.lineEdit() if isinstance(widget, QComboBox) and widget.isEditable() else widget
    target.setFocus()
    qtbot.keyClick(target, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(target, text)
    if enter:
        qtbot.keyClick(target, Qt.Key.Key_Return)


def pick(qtbot, combo, text: str) -> None:
    """A combo box's item chosen with the keyboard: typed into an editable one, the arrow keys
    on the others."""
    if combo.isEditable():
        type_text(qtbot, combo, text)
    else:                                       # Home, then Down until it shows
        combo.setFocus()
        qtbot.keyClick(combo, Qt.Key.Key_Home)
        for _ in range(combo.count()):
            if combo.currentText() == text:
                break
            qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == text, (combo.currentText(), text)


def answer_modal(act) -> list:
    """``act(dialog)`` on the modal dialog the next event opens (a roll's losses, a question);
    the list gets the dialog, to look at once it is closed."""
    seen = []

    def answer():
        dialog = QApplication.activeModalWidget()
        if dialog is None:                      # not open yet: look again
            QTimer.singleShot(10, answer)
            return
        seen.append(dialog)
        act(dialog)
    QTimer.singleShot(0, answer)
    return seen
