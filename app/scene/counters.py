"""Units and markers as counters, stacked per hex.

A counter keeps a readable size on screen: it is drawn in screen pixels (the item ignores the
view's scale), as large as its share of the hex when zoomed in and never smaller than
``style.MIN_UNIT_PX`` when zoomed out.  In a stack each counter sits a step down and right of
the one below, so every id stays readable; markers stack up-left of the units.

Viewing the map as one side (``set_side_view``), the enemy units that side cannot see are hidden
and those it sees only by their Gunflash are drawn faded in an amber ring (E1.81).
"""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from .. import style
from .counter_art import draw_marker, draw_unit
from .geometry import centre

Z_COUNTERS = 50
COMPACT_BELOW_PX = 60.0


class CounterItem(QGraphicsItem):
    """One counter: ``kind`` is "unit" (``key`` its id) or "marker" (``key`` its index)."""

    def __init__(self, kind: str, key, piece, side: int | None):
        super().__init__()
        self.kind, self.key, self.piece, self.side = kind, key, piece, side
        self.size = 40.0
        self.offset = QPointF(0, 0)
        self.selected = False
        self.sighting: str | None = None     # view as side: "gunflash" when seen only so
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def place(self, size: float, offset: QPointF) -> None:
        if size == self.size and offset == self.offset:
            return                  # keep the cached picture: a drag lays the stacks out often
        self.prepareGeometryChange()
        self.size, self.offset = size, offset
        self.update()

    def set_selected(self, on: bool) -> None:
        self.selected = on
        self.update()

    def set_sighting(self, sighting: str | None) -> None:
        if sighting != self.sighting:
            self.sighting = sighting
            self.update()

    def boundingRect(self) -> QRectF:
        s = self.size
        pad = 0.1 * s
        return QRectF(self.offset.x() - s / 2 - pad, self.offset.y() - s / 2 - pad,
                      s + 2 * pad, s + 2 * pad)

    def paint(self, painter: QPainter, option, widget=None):
        s = self.size
        painter.translate(self.offset.x() - s / 2, self.offset.y() - s / 2)
        painter.scale(s / 100.0, s / 100.0)
        compact = s < COMPACT_BELOW_PX
        if self.sighting == "gunflash":
            painter.setOpacity(0.55)
        if self.kind == "unit":
            draw_unit(painter, self.piece, self.side or 0, compact, self.selected)
        else:
            draw_marker(painter, self.piece, self.side, compact)
            if self.selected:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(style.SELECTION, 6))
                painter.drawRoundedRect(QRectF(-4, -4, 106, 106), 12, 12)
        if self.sighting == "gunflash":
            painter.setOpacity(1.0)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            pen = QPen(style.SEEN_GUNFLASH, 7)
            pen.setDashPattern([2, 1.5])
            painter.setPen(pen)
            painter.drawRoundedRect(QRectF(-5, -5, 108, 108), 14, 14)


class CounterLayer:
    """The counters of one scenario in a scene."""

    def __init__(self, scene):
        self.scene = scene
        self.items: list[CounterItem] = []
        self.stacks: dict[int, tuple[list, list]] = {}
        self.ppu = style.SCALE
        self.visible = True
        self.sightings: dict[str, str] = {}     # view as side: enemy id -> nvr/gunflash/none

    def rebuild(self, scenario, viewer: str | None, picked: int | None = None) -> None:
        """Show ``scenario``'s pieces.  A counter that stays (same unit id, same marker index)
        keeps its item, so a counter being dragged survives the edits the drag makes."""
        old = {(item.kind, item.key): item for item in self.items}
        self.items, self.stacks = [], {}
        m, sides = scenario.map, scenario.sides
        for u in scenario.units:
            item = self._item(old, "unit", u.id, u, sides.index(u.side) if u.side in sides else 0)
            if item.selected != (u.id == viewer):
                item.set_selected(u.id == viewer)
            self._add(m, m.index(u.hex), item, 0)
        for k, mk in enumerate(scenario.markers):
            side = sides.index(mk.side) if mk.side in sides else None
            item = self._item(old, "marker", k, mk, side)
            if item.selected != (k == picked):
                item.set_selected(k == picked)
            self._add(m, m.index(mk.hex), item, 1)
        for item in old.values():
            self.scene.removeItem(item)
        self.layout()

    def _item(self, old: dict, kind: str, key, piece, side) -> CounterItem:
        item = old.pop((kind, key), None)
        if item is None:
            item = CounterItem(kind, key, piece, side)
            self.scene.addItem(item)
        elif item.piece != piece or item.side != side:
            item.piece, item.side = piece, side
            item.update()
        return item

    def _add(self, m, i: int, item: CounterItem, which: int) -> None:
        item.setPos(centre(m, i))
        self._show(item)
        self.items.append(item)
        self.stacks.setdefault(i, ([], []))[which].append(item)

    def _show(self, item: CounterItem) -> None:
        sight = self.sightings.get(item.key) if item.kind == "unit" else None
        item.set_sighting("gunflash" if sight == "gunflash" else None)
        item.setVisible(self.visible and sight != "none")

    def set_side_view(self, sightings: dict[str, str]) -> None:
        """Enemy unit id -> how the side sees it ("nvr", "gunflash", "none"); {}: show all."""
        self.sightings = dict(sightings)
        for item in self.items:
            self._show(item)

    def item(self, kind: str, key) -> CounterItem | None:
        return next((i for i in self.items if i.kind == kind and i.key == key), None)

    def stack_of(self, item: CounterItem) -> list[CounterItem]:
        """The units (or markers) of the stack ``item`` is in, bottom first."""
        for units, markers in self.stacks.values():
            if item in units:
                return units
            if item in markers:
                return markers
        return [item]

    def set_pixels_per_unit(self, ppu: float) -> None:
        if abs(ppu - self.ppu) > 1e-6:
            self.ppu = ppu
            self.layout()

    def set_visible(self, on: bool) -> None:
        self.visible = on
        for item in self.items:
            self._show(item)

    def layout(self) -> None:
        unit_px = max(style.UNIT_SIZE * self.ppu, style.MIN_UNIT_PX)
        marker_px = max(style.MARKER_SIZE * self.ppu, style.MIN_MARKER_PX)
        for units, markers in self.stacks.values():
            both = bool(units and markers)
            _stack(units, unit_px, QPointF(0.22, 0.22) * unit_px if both else QPointF(0, 0),
                   Z_COUNTERS + 1)
            _stack(markers, marker_px, QPointF(-0.5, -0.5) * unit_px if both else QPointF(0, 0),
                   Z_COUNTERS)


def _stack(items: list[CounterItem], size: float, anchor: QPointF, z: float) -> None:
    step = style.STACK_STEP * size
    start = anchor - QPointF(step, step) * (len(items) - 1) / 2
    for k, item in enumerate(items):
        item.place(size, start + QPointF(step, step) * k)
        item.setZValue(z + k * 0.01)
