"""The night planner drawn over the map (``app.night.planner.Planner``'s answers):

- ``ThreatFill`` (a ``FillOverlay``): each hex tinted by how many Good Order enemy units would
  see a unit of the threat's side there (E1.1, E1.101, E1.81; a moving vehicle E1.14);
- ``PlanItem``: over the counters, the threat's numbers in their hexes (zoomed in enough to
  read them) and the hovered hex's count beside it; the best starshell placements, ranked
  (labels "1", "2" ... with their gain, rules.md 11.7); the route, a line through its hexes,
  each seen step ringed in red with the number of enemies that see it.

``PlannerLayer`` puts both on the scene, again whenever the scene builds another map.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPolygonF

from app import style
from app.hex_geometry import hex_polygon, scene_center

from ..scene.fill_overlay import FillOverlay
from ..scene.overlays import MapOverlay, cosmetic_pen

THREAT = QColor("#e0307a")                       # magenta: not a light's warm tint
THREAT_ALPHA = (0.16, 0.26, 0.36, 0.46)         # 1, 2, 3, 4 or more enemies see the hex
ROUTE_DARK = QColor("#5ee08a")
ROUTE_SEEN = QColor("#ff5a4a")
BEST = QColor("#ffd35a")
BEST_SHOWN = 5                                   # placements labelled on the map
NUMBERS_PX = 14.0                                # pixels a map unit: threat numbers drawn


def threat_areas(counts: np.ndarray | None) -> list:
    """The fills of a threat map: one tint per count, 4 and more alike."""
    if counts is None:
        return []
    out = []
    for k, alpha in enumerate(THREAT_ALPHA, start=1):
        colour = QColor(THREAT)
        colour.setAlphaF(alpha)
        mask = counts >= k if k == len(THREAT_ALPHA) else counts == k
        out.append((colour, mask, None))
    return out


class ThreatFill(FillOverlay):
    def __init__(self, game_map, z_value: float):
        super().__init__(game_map, z_value)
        self.masks: list[np.ndarray] = []

    def set_counts(self, counts: np.ndarray | None) -> None:
        areas = threat_areas(counts)
        self.masks = [mask for _, mask, _ in areas]     # the hexes of each tint, 1 to 4+
        self.set_areas(areas)


class PlanItem(MapOverlay):
    """``counts`` (the threat per hex, or None), ``best`` ([(map index, label)]), ``route``
    ((map indices of the way, {index: enemies seeing it}) or None), ``hovered``."""

    def __init__(self, game_map, z_value: float):
        super().__init__(game_map, z_value)
        self.counts: np.ndarray | None = None
        self.best: list[tuple[int, str]] = []
        self.route: tuple[list[int], dict[int, int]] | None = None
        self.hovered = -1
        # where the counters lie at a scale (rows of left, top, right, bottom): the numbers and
        # rank badges keep off them (a number over a counter hides the counter's name)
        self.keep_clear = lambda scale: np.zeros((0, 4))

    def boundingRect(self) -> QRectF:
        pad = 2 * style.SCALE
        return self._rect.adjusted(-pad, -pad, pad, pad)

    def paint(self, painter: QPainter, option, widget=None):
        self.draw(painter)

    def show(self, counts=None, best=None, route=None) -> None:
        self.counts, self.best, self.route = counts, list(best or []), route
        self.update()

    def set_hovered(self, index: int) -> None:
        if index != self.hovered:
            self.hovered = index
            if self.counts is not None:
                self.update()

    def draw(self, painter: QPainter):
        if self.counts is not None:
            self._numbers(painter)
        if self.route is not None:
            self._route(painter)
        clear = self.keep_clear(painter.worldTransform().m11())
        for rank, (i, text) in enumerate(self.best, start=1):
            c = scene_center(self.map, i)
            spots = [c + QPointF(dx * style.SCALE, dy * style.SCALE)
                     for dx, dy in ((0, -0.45), (0, 0.45), (-0.5, 0), (0.5, 0))]
            self._badge(painter, spots, str(rank), BEST, style.BOARD_LABEL_BACK, clear)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic_pen(BEST, 2.4 if rank == 1 else 1.4))
            painter.drawPolygon(hex_polygon(self.map, i, 0.86))

    def _numbers(self, painter: QPainter) -> None:
        counts = self.counts
        zoomed = painter.worldTransform().m11() * style.SCALE >= NUMBERS_PX
        if zoomed:
            style.label_font(painter, 0.32, 9.0)
            painter.setPen(style.BOARD_LABEL)
            clear = self.keep_clear(painter.worldTransform().m11())
            for i in np.flatnonzero(counts).tolist():
                r = self.number_spot(i, clear)
                if r is not None:       # no room beside the counters: hovering says it
                    painter.drawText(r, Qt.AlignmentFlag.AlignCenter, str(int(counts[i])))
        i = self.hovered
        if 0 <= i < len(counts):
            n = int(counts[i])
            self._badge(painter, scene_center(self.map, i) + QPointF(0, 0.95 * style.SCALE),
                        f"seen by {n}" if n else "unseen", style.BOARD_LABEL,
                        style.BOARD_LABEL_BACK)

    def number_spot(self, index: int, clear: np.ndarray) -> QRectF | None:
        """Where hex ``index``'s threat count goes: under its centre, else above it, wherever
        it keeps off the counters ``clear``; None when neither does."""
        c = scene_center(self.map, index)
        spots = [QRectF(c.x() - 0.5 * style.SCALE, c.y() + dy * style.SCALE,
                        style.SCALE, 0.5 * style.SCALE) for dy in (0.2, -0.7)]
        return next((r for r in spots if not overlaps(r, clear)), None)

    def _route(self, painter: QPainter) -> None:
        path, seen = self.route
        if not path:
            return
        points = [scene_center(self.map, i) for i in path]
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(style.BOARD_LABEL_BACK, 7.0))
        painter.drawPolyline(QPolygonF(points))
        for a, b, i in zip(points, points[1:], path[1:]):
            painter.setPen(cosmetic_pen(ROUTE_SEEN if i in seen else ROUTE_DARK, 3.4))
            painter.drawLine(QLineF(a, b))
        zoomed = painter.worldTransform().m11() * style.SCALE >= NUMBERS_PX
        for i, n in seen.items():
            painter.setBrush(Qt.BrushStyle.NoBrush)       # a badge before filled its back
            painter.setPen(cosmetic_pen(ROUTE_SEEN, 2.6))
            painter.drawPolygon(hex_polygon(self.map, i, 0.9))
            if zoomed:              # zoomed out the counts would pile up: the panel has them
                self._badge(painter, scene_center(self.map, i) + QPointF(0, 0.5 * style.SCALE),
                            f"\u25c9 {n}", ROUTE_SEEN, style.BOARD_LABEL_BACK)
        painter.setPen(cosmetic_pen(ROUTE_DARK, 9.0))
        painter.drawPoint(points[0])
        painter.setPen(cosmetic_pen(ROUTE_SEEN if path[-1] in seen else ROUTE_DARK, 9.0))
        painter.drawPoint(points[-1])

    def _badge(self, painter: QPainter, at, text: str, ink: QColor, back: QColor,
               clear: np.ndarray | None = None) -> None:
        """``text`` on a badge at the first of ``at`` (a point or a list of them) whose badge
        keeps off ``clear``; none drawn when every one would lie over a counter."""
        size, fm = style.label_font(painter, 0.26, 11.0)
        w, h = fm.horizontalAdvance(text) + size, fm.height() * 1.15
        spots = at if isinstance(at, list) else [at]
        rects = [QRectF(p.x() - w / 2, p.y() - h / 2, w, h) for p in spots]
        rect = next((r for r in rects if clear is None or not overlaps(r, clear)), None)
        if rect is None:
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(back)
        painter.drawRoundedRect(rect, h / 4, h / 4)
        painter.setPen(ink)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


def overlaps(rect: QRectF, rects: np.ndarray) -> bool:
    """Whether ``rect`` meets any of ``rects`` (rows of left, top, right, bottom)."""
    if not len(rects):
        return False
    return bool(np.any((rects[:, 0] < rect.right()) & (rects[:, 2] > rect.left())
                       & (rects[:, 1] < rect.bottom()) & (rects[:, 3] > rect.top())))


class PlannerLayer:
    """The planner's items on ``scene``, drawn from ``planner``'s answers."""

    def __init__(self, scene, planner):
        self.scene, self.planner = scene, planner
        self.fill: ThreatFill | None = None
        self.item: PlanItem | None = None
        scene.mapChanged.connect(self._build)
        for signal in (planner.threatChanged, planner.adviceChanged, planner.routeChanged):
            signal.connect(self.redraw)
        self._build()

    def _build(self) -> None:
        m = self.scene.map
        if m is None:
            return
        self.fill = ThreatFill(m, 20.8)         # over the field, under the grid
        self.item = PlanItem(m, 66)             # over the counters, under the LOS thread
        self.item.keep_clear = self.scene.counter_rects
        self.scene.addItem(self.fill)
        self.scene.addItem(self.item)
        self.redraw()

    def set_hovered(self, index: int) -> None:
        if self.item is not None:
            self.item.set_hovered(index)

    def _mine(self, names) -> bool:
        """The answer is for the map shown (another file may be opening)."""
        m = self.scene.map
        return m is not None and len(names) == m.size and list(names[:1]) == m.names[:1]

    def redraw(self) -> None:
        if self.item is None:
            return
        p, m = self.planner, self.scene.map
        counts = p.threat_counts()
        if counts is not None and not self._mine(p.threat.names):
            counts = None
        self.fill.set_counts(counts)
        best, seen_at = [], set()
        advice = p.advice if p.advising else None
        for o in advice.options if advice is not None else ():
            if o.at in seen_at or not m.has(o.at):
                continue
            seen_at.add(o.at)
            best.append((m.index(o.at), f"{float(o.gain):.2f}"))     # rules.md 11.7
            if len(best) == BEST_SHOWN:
                break
        route = None
        r = p.route
        if r is not None and r.path and all(m.has(h) for h in r.path):
            route = ([m.index(h) for h in r.path],
                     {m.index(h): len(v) for h, v in r.seen.items()})
        self.item.show(counts, best, route)
        # nothing to show: off the scene's paint (each drag step would paint them for nothing)
        self.fill.setVisible(counts is not None)
        self.item.setVisible(counts is not None or bool(best) or route is not None)


__all__ = ["PlanItem", "PlannerLayer", "ThreatFill", "overlaps", "threat_areas"]
