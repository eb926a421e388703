"""The night window on small screens: it opens within the screen it is on (a 1366 x 768 laptop
holds the whole window, not its left part), and when it is too low for two piles of side panels
(the Position pile over the Explanation pile) they fold into one pile of tabs, each panel the
pile's whole height, and unfold when the window grows again."""
from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar

WANTED = (1500, 900)        # the window's size where the screen has room
TITLE_BAR = 32              # the window manager's title bar, not counted in the window's height
FOLD_BELOW = 700            # a window lower than this: one pile of side panels, not two
DOCK_SHARE = 0.36           # the side panels take at most this share of a narrow window's width


def fit_on_screen(window: QMainWindow, wanted: tuple[int, int] = WANTED) -> QRect:
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


def whole_titles(window: QMainWindow) -> None:
    """The docks' tabs say their whole titles ("Palette", not "P..."): a pile of more tabs than
    its width holds scrolls them with arrows instead."""
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window and bar.elideMode() != Qt.TextElideMode.ElideNone:
            bar.setElideMode(Qt.TextElideMode.ElideNone)
            bar.setUsesScrollButtons(True)


def keep_on_screen(window: QMainWindow) -> None:
    """The window shown, its frame known: the frame too within the screen's free area (shrunk
    and moved by what runs over)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    free, frame = screen.availableGeometry(), window.frameGeometry()
    if free.contains(frame):
        return
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    width = max(min(window.width(), free.width() - extra_w), 200)
    height = max(min(window.height(), free.height() - extra_h), 200)
    window.resize(width, height)
    x = min(max(frame.x(), free.x()), free.right() + 1 - width - extra_w)
    y = min(max(frame.y(), free.y()), free.bottom() + 1 - height - extra_h)
    window.move(max(x, free.x()), max(y, free.y()))


class DockFolding:
    """Two piles of tabbed docks on the right; ``fit`` folds them into one below
    ``FOLD_BELOW`` and back into two above it, keeping the tab each pile showed."""

    def __init__(self, window: QMainWindow, piles: list[list[QDockWidget]]):
        self.window = window
        self.piles = piles
        self.folded = False

    def fit(self, width: int, height: int) -> None:
        """The window's new size: fold or unfold the piles; in a narrow window the side panels
        give the map its share of the width (no narrower than their own minimum)."""
        fold = height < FOLD_BELOW
        if fold != self.folded:
            self.fold() if fold else self.unfold()
        whole_titles(self.window)
        head = self.piles[0][0]
        if head.isFloating() or not head.isVisible():
            return
        most = max(int(DOCK_SHARE * width), head.minimumSizeHint().width())
        if head.width() > most:
            self.window.resizeDocks([head], [most], Qt.Orientation.Horizontal)

    def _shown(self) -> list[QDockWidget]:
        """The dock each pile shows (its raised tab), else its first."""
        out = []
        for pile in self.piles:
            shown = [d for d in pile if d.isVisible() and not d.visibleRegion().isEmpty()]
            out.append(shown[0] if shown else pile[0])
        return out

    def fold(self) -> None:
        shown = self._shown()
        first = self.piles[0][0]
        for pile in self.piles[1:]:
            for dock in pile:
                if not dock.isFloating():
                    self.window.tabifyDockWidget(first, dock)
        shown[0].raise_()
        self.folded = True

    def unfold(self) -> None:
        w = self.window
        shown = self._shown()
        for pile in self.piles[1:]:
            head = pile[0]
            docked = [d for d in pile if not d.isFloating()]
            for dock in docked:
                w.removeDockWidget(dock)
            if head in docked:
                w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, head,
                                Qt.Orientation.Vertical)
            for dock in docked:
                if dock is not head:
                    w.tabifyDockWidget(head, dock)
                dock.show()
        for dock in shown:
            dock.raise_()
        self.folded = False
