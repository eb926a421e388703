"""The support weapons and Guns of a VASL save (``api.vasl.kept_pieces``), drawn as small counters
in the lower left of their hexes, over a corner of the units: shown, never viewers (they cannot be picked,
dragged or selected; the hex's hover text lists them).  Several in a hex stand side by side,
the last ones summed up as "+N"."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from app import style
from app.hex_geometry import scene_center
from engine import api

from ..scene.counter_art import fit_text

Z_KEPT = 52                     # over a unit's corner (50-51.6), under a spread-out stack (85)
SIZE = 0.42 * style.SCALE       # a small counter: about half a unit's (scene pixels)
MIN_PX = 17.0                   # ... and never smaller than this on screen
GAP = 0.1                       # between two, a share of their size
MOST = 3                        # counters drawn side by side in a hex; more: "+N"
GUN_FILL = style.SIDE_FILL[0].lighter(115)


def short_name(name: str) -> str:
    """The counter's name as it fits a small counter: VASL's own ("LMG", "MMG", "45L AT")."""
    words = " ".join(name.split())
    return words if len(words) <= 9 else words[:8] + "\u2026"


class KeptPiecesItem(QGraphicsItem):
    """Every kept piece of the position, one item (they change only with the position)."""

    def __init__(self, game_map):
        super().__init__()
        self.map = game_map
        self.pieces: dict[int, list[dict]] = {}     # map index -> the pieces there
        self.sides: tuple[str, ...] = ()
        self._rect = QRectF()
        self.size = SIZE
        self.setZValue(Z_KEPT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)    # never picked

    def set_scenario(self, scenario) -> None:
        pieces: dict[int, list[dict]] = {}
        for p in api.vasl.kept_pieces(scenario):
            if not self.map.has(p["hex"]):
                continue                # a hex off this map: listed in the dock all the same
            i = self.map.index(p["hex"])
            pieces.setdefault(i, []).append(p)
        if pieces == self.pieces and tuple(scenario.sides) == self.sides:
            return
        self.pieces, self.sides = pieces, tuple(scenario.sides)
        self._bounds()

    def set_pixels_per_unit(self, ppu: float) -> None:
        """The view's scale (screen pixels per map unit): the counters keep ``MIN_PX``."""
        size = max(SIZE, MIN_PX * style.SCALE / max(ppu, 1e-6))
        if abs(size - self.size) > 1e-6:
            self.size = size
            self._bounds()

    def _bounds(self) -> None:
        self.prepareGeometryChange()
        pieces = self.pieces
        rect = QRectF()
        for i in pieces:
            rect = rect.united(self._hex_rect(i))
        self._rect = rect
        self.update()

    def _anchor(self, i: int) -> QPointF:
        """The lower left of hex ``i``: the first small counter's top left."""
        c = scene_center(self.map, i)
        return QPointF(c.x() - 0.80 * style.SCALE, c.y() + 0.72 * style.SCALE - self.size)

    def _hex_rect(self, i: int) -> QRectF:
        a = self._anchor(i)
        n = min(len(self.pieces[i]), MOST)
        step = self.size * (1 + GAP)
        return QRectF(a.x() - 2, a.y() - 2, n * step + 4, self.size + 4)

    def rects(self) -> list[tuple[int, QRectF]]:
        """(map index, scene rectangle) of each small counter drawn."""
        out = []
        for i, here in self.pieces.items():
            a = self._anchor(i)
            for k in range(min(len(here), MOST)):
                out.append((i, QRectF(a.x() + k * self.size * (1 + GAP), a.y(), self.size,
                                      self.size)))
        return out

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option, widget=None):
        for i, rect in self.rects():
            here = self.pieces[i]
            k = round((rect.x() - self._anchor(i).x()) / (self.size * (1 + GAP)))
            more = len(here) - MOST + 1 if k == MOST - 1 and len(here) > MOST else 0
            self._draw(painter, rect, here[k], more)

    def _draw(self, painter: QPainter, rect: QRectF, piece: dict, more: int) -> None:
        """One small counter, drawn on a 100 x 100 square scaled to ``rect``."""
        side = self.sides.index(piece["side"]) if piece.get("side") in self.sides else None
        fill = style.SIDE_FILL[side] if side is not None else GUN_FILL
        edge = style.SIDE_EDGE[side] if side is not None else style.SIDE_EDGE[0]
        ink = style.SIDE_INK[side] if side is not None else style.SIDE_INK[0]
        painter.save()
        painter.translate(rect.topLeft())
        painter.scale(rect.width() / 100.0, rect.height() / 100.0)
        painter.setPen(QPen(edge, 6))
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(3, 3, 94, 94), 12, 12)
        if piece.get("kind") == "gun":          # a Gun: a bar under its name
            painter.setPen(QPen(ink, 6))
            painter.drawLine(QPointF(16, 74), QPointF(84, 74))
        text = f"+{more}" if more else short_name(piece["name"])
        fit_text(painter, QRectF(5, 8, 90, 62), text, 48, True, ink)
        painter.restore()
