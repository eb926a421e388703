"""Placing a starshell or an IR, before the dice: the engine's answers drawn over the map.

- ``PlacementOverlay``: the hexes where the selected unit may place one, per method (E1.922:
  1 its own hex, 2 along a LOS, 3 three hexes away; E1.932: IR along a LOS or 6, 12... hexes
  away), each method in its own colour, dash and inset, so a hex legal by two shows both.
- ``DriftOverlay``: for a flare placed in one hex by one method, the 36 drift outcomes as a
  heat map of end hexes with their chance in 36ths (``engine.night.drift.distribution``), and every
  hex shaded by the chance that it is lit once the flare has landed, counting the lights already
  on the map (``engine.night.drift.lit_probability_after``, the CLI's ``drift --lit``).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath

from app import style
from app.hex_geometry import area, hex_polygon, scene_center
from engine import api

from ..scene.overlays import MapOverlay, cosmetic_pen

LABEL_FITS = 1.2            # map units: the widest fraction label printed inside its hex


class PlacementOverlay(MapOverlay):
    """``set_methods({"1": [hex ids], "2": [...], ...})``; empty: nothing drawn."""

    def __init__(self, game_map, z_value: float):
        super().__init__(game_map, z_value, cached=True)
        self.methods: dict[str, list[str]] = {}
        self.paths: list[tuple[str, QPainterPath]] = []

    def set_methods(self, methods: dict[str, list[str]]) -> None:
        methods = {k: list(v) for k, v in methods.items() if v}
        if methods == self.methods:
            return                  # unchanged: keep the cached picture
        self.methods = methods
        self.paths = []
        for method, hexes in self.methods.items():
            inset = style.METHOD_STYLE[method][2]
            path = QPainterPath()
            for name in hexes:
                path.addPolygon(hex_polygon(self.map, self.map.index(name), inset))
                path.closeSubpath()
            self.paths.append((method, path))
        self.update()

    def draw(self, painter: QPainter):
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for method, path in self.paths:
            colour, dashes, _ = style.METHOD_STYLE[method]
            painter.setPen(cosmetic_pen(colour, 2.2, dashes=dashes))
            painter.drawPath(path)


def drift_numbers(scenario, at: int, method: str):
    """The engine's numbers of a drift preview: (end hexes' chances, the flare's own lit
    chances, every hex's lit chance once it has landed)."""
    m = scenario.map
    return (api.night.drift.distribution(m, at, method), api.night.drift.lit_probability(m, at, method),
            api.night.drift.lit_probability_after(scenario, at, method))


class DriftOverlay(MapOverlay):
    """The drift preview of one flare: ``show_drift(at_index, method)``; ``clear()``.

    ``distribution`` (hex id -> chance, and "off-map") and ``lit`` (chance per hex that it is lit
    once the flare has landed, lights already on the map included) are the engine's numbers the
    overlay draws; ``flare_lit`` is the new flare's own share (not drawn).  The position is the
    scene's document's."""

    def __init__(self, game_map, z_value: float):
        super().__init__(game_map, z_value)
        self.at: int | None = None
        self.method: str | None = None
        self.legal = True
        self.distribution: dict[str, float] = {}
        self.lit: np.ndarray | None = None
        self.flare_lit: np.ndarray | None = None
        self._scenario = None
        self._lit_paths: list[tuple[QColor, QPainterPath]] = []
        self._ends: list[tuple[int, int]] = []          # (map index, outcomes of 36)

    def clear(self) -> None:
        self.at, self.method, self.distribution, self.lit = None, None, {}, None
        self.flare_lit, self._scenario = None, None
        self._lit_paths, self._ends = [], []
        self.update()

    def show_drift(self, at: int, method: str, legal: bool = True) -> None:
        s = self.scene().document.scenario
        if (at, method, legal) == (self.at, self.method, self.legal) and s is self._scenario:
            return
        m = self.map
        self.at, self.method, self.legal, self._scenario = at, method, legal, s
        self.distribution, self.flare_lit, self.lit = self.scene().document.call(
            drift_numbers, s, at, method)            # on the Document's engine thread
        counts = np.rint(self.lit * 36).astype(int)
        self._lit_paths = []
        for k in np.unique(counts[counts > 0]):
            colour = QColor(style.DRIFT_LIT)
            colour.setAlphaF(0.08 + 0.47 * k / 36)
            self._lit_paths.append((colour, area(m, counts == k)))
        self._ends = [(m.index(name), round(p * 36)) for name, p in self.distribution.items()
                      if name != "off-map" and p > 0]
        self.update()

    @property
    def off_map(self) -> float:
        return self.distribution.get("off-map", 0.0)

    def draw(self, painter: QPainter):
        if self.at is None:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        for colour, path in self._lit_paths:
            painter.setBrush(colour)
            painter.drawPath(path)
        top = max((n for _, n in self._ends), default=1)
        for i, n in self._ends:
            colour = QColor(style.DRIFT_END)
            colour.setAlphaF(0.25 + 0.5 * n / top)
            painter.setBrush(colour)
            painter.drawPolygon(hex_polygon(self.map, i, 0.62))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        edge = style.METHOD_STYLE[self.method][0] if self.legal else style.THREAD_BLOCKED
        painter.setPen(cosmetic_pen(edge, 3.0))
        painter.drawPolygon(hex_polygon(self.map, self.at, 0.97))
        painter.setClipping(False)
        self._labels(painter)

    def label_texts(self, painter: QPainter) -> list[tuple[QPointF, str]]:
        """The fractions printed at painter's zoom: an end hex's only when its label fits inside
        the hex (zoomed out they would pile up over the map: the Starshell panel lists them),
        and the chance to drift off the map."""
        size, fm = style.label_font(painter, 0.28, style.MIN_LABEL_PX)
        labels = [(scene_center(self.map, i), fraction_text(n)) for i, n in self._ends
                  if fm.horizontalAdvance(fraction_text(n)) + size * 0.6 <= LABEL_FITS * style.SCALE
                  and fm.height() <= LABEL_FITS / 2 * style.SCALE]
        if self.off_map > 0:
            below = scene_center(self.map, self.at) + QPointF(0, 0.9 * style.SCALE)
            labels.append((below, f"off map {fraction_text(round(self.off_map * 36))}"))
        return labels

    def _labels(self, painter: QPainter):
        size, fm = style.label_font(painter, 0.28, style.MIN_LABEL_PX)
        for at, text in self.label_texts(painter):
            w, h = fm.horizontalAdvance(text) + size * 0.6, fm.height()
            rect = QRectF(at.x() - w / 2, at.y() - h / 2, w, h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.BOARD_LABEL_BACK)
            painter.drawRoundedRect(rect, h / 4, h / 4)
            painter.setPen(style.DRIFT_LABEL)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def fraction_text(outcomes: int) -> str:
    """A chance of ``outcomes`` in 36, as the player reads it: 6/36 = 1/6."""
    f = Fraction(outcomes, 36)
    return f"{f.numerator}/{f.denominator}"
