"""What every room's window does alike: ask before unsaved work is dropped, open a file of any
room (File > Open), and render a view headless to an image of an exact size (``--screenshot``)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QKeySequence, QPainter
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from engine import api

from . import style

OPEN_FILTER = "Starshell files (*.json);;All files (*)"


def open_elsewhere(window, start: str) -> None:
    """File > Open of a room's window: the file chosen opens in a window of the room its format
    picks (a night position in a main window), kept alive by ``window.room_windows``; a refused
    file shows the engine's message."""
    path, _ = QFileDialog.getOpenFileName(window, "Open a file", start, OPEN_FILTER)
    if not path:
        return
    from .rooms import open_any_window
    try:
        other = open_any_window(path)
    except (api.ScenarioError, OSError) as e:
        QMessageBox.warning(window, "Open", str(e))
        return
    window.room_windows = [*getattr(window, "room_windows", []), other]
    other.show()


def edit_menu(window, undo_stack) -> None:
    """An Edit menu with the undo stack's Undo and Redo on their standard keys."""
    menu = window.menuBar().addMenu("&Edit")
    for action, keys in ((undo_stack.createUndoAction(window, "&Undo"), QKeySequence.StandardKey.Undo),
                         (undo_stack.createRedoAction(window, "&Redo"), QKeySequence.StandardKey.Redo)):
        action.setShortcut(keys)
        menu.addAction(action)


def may_discard(window, clean: bool, title: str, text: str, save) -> bool:
    """True when there is nothing unsaved (``clean``), or the player saves (``save()`` returns
    True once written) or drops it; False when they cancel or the save fails."""
    if clean:
        return True
    answer = QMessageBox.question(
        window, title, text,
        QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        QMessageBox.StandardButton.Cancel)      # Enter neither writes nor drops anything
    if answer == QMessageBox.StandardButton.Save:
        return save()
    return answer == QMessageBox.StandardButton.Discard


def close_event(window, event, clean: bool, title: str, text: str, save) -> None:
    """A room window's ``closeEvent``: closes unless the player keeps the unsaved work open."""
    if may_discard(window, clean, title, text, save):
        event.accept()
    else:
        event.ignore()


def render_view(view, width: int, height: int, prepare=None, antialias: bool = False) -> QImage:
    """``view`` (never shown on screen) at ``width`` x ``height`` pixels as an image: laid out,
    then ``prepare()`` (fit the map in...), then painted; the view and its scene are let go."""
    view.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    view.resize(width, height)
    view.show()
    QApplication.processEvents()
    if prepare is not None:
        prepare()
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    if antialias:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    view.render(painter)
    painter.end()
    scene = view.scene()
    view.close()
    view.deleteLater()
    if scene is not None:
        scene.deleteLater()
    return image
