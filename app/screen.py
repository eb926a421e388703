"""A room's window on the screen it opens on: at the size it wants where the screen has room,
else within the screen's free area (a 1366 x 768 laptop holds the whole window)."""
from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow

TITLE_BAR = 32              # the window manager's title bar, not counted in the window's height


def fit_on_screen(window: QMainWindow, wanted: tuple[int, int]) -> QRect:
    """The window resized to ``wanted`` or the screen's free area, whichever is smaller, and
    moved inside that area; the geometry given."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    free = screen.availableGeometry() if screen is not None else QRect(0, 0, *wanted)
    width = max(min(wanted[0], free.width()), 200)
    height = max(min(wanted[1], free.height() - TITLE_BAR), 200)
    window.resize(width, height)
    x = free.x() + max((free.width() - width) // 2, 0)
    y = free.y() + max((free.height() - TITLE_BAR - height) // 2, 0)
    window.move(x, y)
    return QRect(x, y, width, height)


__all__ = ["TITLE_BAR", "fit_on_screen"]
