"""The map view: wheel zoom under the cursor, pan (middle button, or space + drag), fit to map.

It reports the hex under the cursor (``hexHovered``), its scale (``zoomChanged``, in screen
pixels per map unit, which sets the counters' size and the level of detail) and scenario files
dropped on it (``fileDropped``).  Clicks and drags on the map go to the player's ``hand``
(``app.night.map.hand``): select, drag, thread, starshell.  While "fitted", resizing the window refits the
map.  It can print a caption and a key over the map (``show_key``).
"""
from __future__ import annotations

from contextlib import nullcontext

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QPaintEngine, QPainter, QPixmapCache, QTransform
from PySide6.QtWidgets import QGraphicsView

from app import style
from app.hex_geometry import hex_at, map_rect
from app.map_view import ZoomView

from ..vasl.waiting import waiting_id
from .map_key import CAPTION, MapKey

FIT_MARGIN = 0.6 * style.SCALE
EXPORT_MARGIN = 0.25 * style.SCALE     # around the map and its counters in a PNG export
EDGE = 28                   # pixels: a drag this near the view's edge scrolls the map
EDGE_STEP = 32              # pixels a tick at the very edge
EDGE_MS = 30
PIXMAP_CACHE_KB = 256 * 1024


class MapView(ZoomView):
    """The night map on the shared ``ZoomView`` (its zoom, limits and fit-on-resize)."""
    hexHovered = Signal(int)
    fileDropped = Signal(str)
    waitingDropped = Signal(str, int)       # a Waiting dock's counter (unit id) dropped on a hex

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.setBackgroundBrush(style.BACKGROUND)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        # what lies under the field is drawn once per zoom, scroll and change (drawBackground)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self._rendering = False
        self.setMouseTracking(True)
        self.setAcceptDrops(True)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        # the cached terrain and grid are each as large as the window
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), PIXMAP_CACHE_KB))
        self._extent = None                 # the map's rectangle when it was last fitted in
        self._pan_from: QPointF | None = None
        self._space = False
        self.key: MapKey | None = None
        self.hand = None                    # app.night.map.hand.Hand: what clicks and drags do
        scene.mapChanged.connect(self._map_changed)
        self._edge_at: QPoint | None = None     # where the mouse is held near the edge
        self._edge_timer = QTimer(self)
        self._edge_timer.setInterval(EDGE_MS)
        self._edge_timer.timeout.connect(self._edge_tick)
        d = scene.document
        for signal in (d.selectionChanged, d.answersChanged, d.dragAnswered, d.changed, d.dragged,
                       d.fileChanged):
            signal.connect(self._key_changed)
        self._map_changed()

    def _key_changed(self) -> None:
        """The caption names the selected unit and the position: print it again."""
        if self.key is not None:
            self.viewport().update()

    def _map_changed(self) -> None:
        """Room to pan (and to centre the map between the caption and the key)."""
        r = map_rect(self.scene().map)
        d = max(r.width(), r.height())
        self.setSceneRect(r.adjusted(-d, -d, d, d))

    def show_key(self, on: bool) -> None:
        """Print the caption and the key over the map (the screenshot does)."""
        self.key = MapKey() if on else None
        if self._fitted:
            self.fit_map()
        self.viewport().update()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        """The background colour and the scene's items under the field (``MapScene.under``),
        into the view's cached background; a PNG export or a screenshot (``render``) draws
        them with its own painter, uncut, as they drew themselves there before."""
        super().drawBackground(painter, rect)              # (a crisp fill of the exposed part)
        draw_under = getattr(self.scene(), "draw_under", None)
        if draw_under is not None:
            if not self._rendering:
                painter.setRenderHints(self.renderHints())  # the cache's painter has none
            draw_under(painter, rect, cut=not self._rendering)

    def render(self, painter: QPainter, *args, **kwargs) -> None:
        """Exports and screenshots; an SVG export has every item draw itself (``as_items``):
        the terrain as a picture, the hexsides as lines, as before."""
        engine = painter.paintEngine()
        svg = engine is not None and engine.type() == QPaintEngine.Type.SVG
        as_items = getattr(self.scene(), "as_items", None) if svg else None
        self._rendering = True
        try:
            with as_items() if as_items is not None else nullcontext():
                super().render(painter, *args, **kwargs)
        finally:
            self._rendering = False

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if self.key is None:
            return
        painter.save()
        painter.setTransform(self.viewportTransform().inverted()[0], True)
        self.key.paint(painter, self.scene().document, QRectF(self.viewport().rect()))
        painter.restore()

    def export_rect(self) -> QRect:
        """The viewport's part a PNG export keeps: the map and every counter on it (one on an
        edge hex reaches past the board's edge), a small margin around, and no more of the
        window's empty background; all of the viewport when the caption and key are shown."""
        vp = self.viewport().rect()
        if self.key is not None or self.scene() is None or self.scene().map is None:
            return vp
        r = self._pieces_rect()
        m = EXPORT_MARGIN
        shown = self.mapFromScene(r.adjusted(-m, -m, m, m)).boundingRect()
        return shown.intersected(vp)

    def _pieces_rect(self) -> QRectF:
        """The map's rectangle and every counter shown on it, in scene units."""
        r = map_rect(self.scene().map)
        counters = getattr(self.scene(), "counters", None)
        for item in counters.items if counters is not None else ():
            if item.isVisible():
                r = r.united(item.sceneBoundingRect())
        return r

    def _bands(self) -> tuple[float, float]:
        if self.key is None:
            return 0.0, 0.0
        return CAPTION, self.key.height(self.viewport().width())

    # ------------------------------------------------------------------------ zoom
    def fit_rect(self) -> QRectF:
        return map_rect(self.scene().map)

    def can_fit(self) -> bool:
        return self.scene() is not None and self.scene().map is not None

    def fit(self) -> None:
        """The whole map in the view (between the caption and the key when they are shown)."""
        self._extent = map_rect(self.scene().map)
        # the counters too: one in an edge hex (a drifted starshell) reaches past the board
        r = self._pieces_rect().adjusted(-FIT_MARGIN, -FIT_MARGIN, FIT_MARGIN, FIT_MARGIN)
        vp = self.viewport().rect()
        top, bottom = self._bands()
        s = min(vp.width() / r.width(), max(vp.height() - top - bottom, 10) / r.height())
        self.setTransform(QTransform.fromScale(s, s))
        self.centerOn(r.center().x(), r.center().y() + (bottom - top) / 2 / s)
        self._fitted = True
        self.zoomChanged.emit(self.pixels_per_unit)

    def refit_if_moved(self) -> None:
        """A new map is fitted in when its boards lie elsewhere (one added, moved, removed); a
        map whose terrain alone changed (the board editor paints) keeps the player's zoom."""
        if self._fitted or map_rect(self.scene().map) != self._extent:
            self.fit_map()

    fit_map = fit

    # ------------------------------------------------------------------------ pan and hover
    def keyPressEvent(self, event):
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event):
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.setDragMode(QGraphicsView.DragMode.NoDrag)
            return
        super().keyReleaseEvent(event)

    def mousePressEvent(self, event):
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if not self._space and self.hand is not None and self.hand.press(event):
            return
        super().mousePressEvent(event)

    def counter_at(self, pos):
        """The counter on top at viewport point ``pos``, or None."""
        for item in self.items(pos):
            if getattr(item, "kind", None) in ("unit", "marker") and item.isVisible():
                return item
        return None

    def mouseMoveEvent(self, event):
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - round(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))
            self._fitted = False
            return
        scene = self.scene()
        if scene.map is not None:
            self.hexHovered.emit(self._hover(event))
        if self.hand is not None and not self._space and self.hand.move(event):
            return
        self._edge_watch(event.position().toPoint())
        super().mouseMoveEvent(event)

    # ------------------------------------------------------------------------ edge scrolling
    def _edge_step(self, pos: QPoint) -> tuple[int, int]:
        """How far a drag held at viewport point ``pos`` scrolls the map a tick: nearer the
        edge, faster; nothing outside the view or away from its edge."""
        vp = self.viewport().rect()
        if not vp.contains(pos):
            return 0, 0

        def step(near: int, far: int) -> int:
            if near < EDGE:
                return -max(1, round(EDGE_STEP * (EDGE - near) / EDGE))
            if far < EDGE:
                return max(1, round(EDGE_STEP * (EDGE - far) / EDGE))
            return 0
        return (step(pos.x() - vp.left(), vp.right() - pos.x()),
                step(pos.y() - vp.top(), vp.bottom() - pos.y()))

    def _edge_watch(self, pos: QPoint) -> None:
        # the player's hand (``Hand``) drags pieces; a stand-in (the board editor's brush) not
        dragging = getattr(self.hand, "dragging", False)
        if dragging and self._edge_step(pos) != (0, 0):
            self._edge_at = pos
            if not self._edge_timer.isActive():
                self._edge_timer.start()
        else:
            self._edge_stop()

    def _edge_stop(self) -> None:
        self._edge_at = None
        self._edge_timer.stop()

    def _edge_tick(self) -> None:
        at = self._edge_at
        if at is None or not getattr(self.hand, "dragging", False):
            self._edge_stop()
            return
        dx, dy = self._edge_step(at)
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        before = (h.value(), v.value())
        h.setValue(h.value() + dx)
        v.setValue(v.value() + dy)
        if (h.value(), v.value()) == before:
            return                      # the end of the room to pan: nothing moved
        self._fitted = False
        self.hand.follow(at)            # the dragged piece keeps under the mouse
        self.hexHovered.emit(self.hand.spot_at(at).hex)

    def _hover(self, event) -> int:
        """The hex under the mouse; over a counter, the hex its stack stands in (a spread-out
        stack reaches over its neighbours).  Hovering a stack spreads it out."""
        scene = self.scene()
        pos = event.position().toPoint()
        if not self.viewport().rect().contains(pos):
            return -1               # over a panel: no hex the player can see
        i = hex_at(scene.map, self.mapToScene(pos))
        if scene.document.dragging:
            return i                # where the dragged piece goes (no search under the mouse)
        item = self.counter_at(pos)
        if event.buttons() != Qt.MouseButton.NoButton:
            return item.hex if item is not None else i
        counters = scene.counters
        if item is not None:
            counters.expand(item.hex)
            return item.hex
        if counters.expanded is not None and i != counters.expanded:
            counters.expand(None)
        return i

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        thread = getattr(self.scene(), "thread", None)
        if thread is not None and thread.thread is not None:
            thread.update()             # its label stays inside the view

    def mouseReleaseEvent(self, event):
        self._edge_stop()
        if event.button() == Qt.MouseButton.MiddleButton and self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
            return
        if self.hand is not None and self.hand.release(event):
            return
        super().mouseReleaseEvent(event)

    def contextMenuEvent(self, event):
        event.accept()              # the right button draws the LOS thread

    def leaveEvent(self, event):
        self.scene().counters.expand(None)
        self.hexHovered.emit(-1)
        super().leaveEvent(event)

    # ------------------------------------------------------------------------ dropped files
    @staticmethod
    def json_file(event) -> str | None:
        for url in event.mimeData().urls() if event.mimeData().hasUrls() else ():
            if url.isLocalFile() and url.toLocalFile().lower().endswith(".json"):
                return url.toLocalFile()
        return None

    def dragEnterEvent(self, event):
        if self.json_file(event) or waiting_id(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event):
        if self.json_file(event) or waiting_id(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event):
        path, uid = self.json_file(event), waiting_id(event.mimeData())
        if uid:
            event.acceptProposedAction()
            self.waitingDropped.emit(uid, hex_at(self.scene().map,
                                                 self.mapToScene(event.position().toPoint())))
        elif path:
            event.acceptProposedAction()
            self.fileDropped.emit(path)
        else:
            super().dropEvent(event)
