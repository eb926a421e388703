"""The one zoomable map view of every room: the wheel zooms around the cursor, ``fit`` puts the
whole map (``fit_rect``) in the view, and the zoom stays within the same limits in every room
(half the fitted scale out, ``MAX_PIXELS_PER_UNIT`` screen pixels per map unit in).  While the
map is fitted, resizing the window fits it again; once the player zoomed, a resize keeps their
zoom (``fit`` fits again).  A room's view derives from ``ZoomView`` and says what it fits
(``fit_rect``) and what its clicks do."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsView

from . import style

ZOOM_STEP = 1.0015          # per 1/8 degree of wheel turn
MAX_PIXELS_PER_UNIT = 220.0  # screen pixels per map unit (a hex's circumradius, style.SCALE)
MIN_OF_FIT = 0.5            # zoomed out at most to half the fitted scale


class ZoomView(QGraphicsView):
    """``zoomChanged``: screen pixels per map unit (``pixels_per_unit``), after every zoom and
    fit."""
    zoomChanged = Signal(float)

    def __init__(self, scene, parent=None):
        super().__init__(scene, parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._fitted = True

    # -- what a room says -------------------------------------------------------------------------
    def fit_rect(self) -> QRectF:
        """The part of the scene ``fit`` shows whole (the scene's rectangle)."""
        return self.scene().sceneRect()

    def can_fit(self) -> bool:
        """There is a map to fit (a room's scene may have none yet)."""
        return self.scene() is not None and not self.fit_rect().isEmpty()

    # -- zoom -------------------------------------------------------------------------------------
    @property
    def fitted(self) -> bool:
        """The map is fitted (not zoomed by the player since): a resize fits it again."""
        return self._fitted

    @property
    def pixels_per_unit(self) -> float:
        return self.transform().m11() * style.SCALE

    def fit(self) -> None:
        """The whole ``fit_rect`` in the view, centred."""
        if not self.can_fit():
            return
        self.fitInView(self.fit_rect(), Qt.AspectRatioMode.KeepAspectRatio)
        self._fitted = True
        self.zoomChanged.emit(self.pixels_per_unit)

    def fit_scale(self) -> float:
        """The scale (screen pixels per scene pixel) at which ``fit_rect`` fills the view."""
        r = self.fit_rect()
        vp = self.viewport().rect()
        return min(vp.width() / max(r.width(), 1e-9), vp.height() / max(r.height(), 1e-9))

    def zoom_by(self, factor: float) -> None:
        """Zoom by ``factor`` around the cursor, within the limits."""
        now = self.transform().m11()
        low = self.fit_scale() * MIN_OF_FIT if self.can_fit() else now
        target = min(max(now * factor, min(low, now)), max(MAX_PIXELS_PER_UNIT / style.SCALE, now))
        factor = target / now
        if abs(factor - 1) < 1e-6:
            return
        self.scale(factor, factor)
        self._fitted = False
        self.zoomChanged.emit(self.pixels_per_unit)

    def wheelEvent(self, event) -> None:
        self.zoom_by(ZOOM_STEP ** event.angleDelta().y())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._fitted and self.can_fit():
            self.fit()
