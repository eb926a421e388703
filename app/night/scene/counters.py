"""Units and markers as counters, stacked per hex.

A counter keeps a readable size on screen: it is drawn in screen pixels (the item ignores the
view's scale), as large as its share of the hex when zoomed in and never smaller than
``style.MIN_UNIT_PX`` when zoomed out.  In a stack each counter sits a step down and right of
the one below, so every id stays readable; markers stack up-left of the units.  A tall stack
closes up (its spread is capped) so that it stays inside its hex, below the hex's printed id;
the selected counter is drawn in front of the others.  Hovering a stack spreads it out in rows
over its hex (``expand``), each counter whole, until the mouse leaves it.

Viewing the map as one side (``set_side_view``), the enemy units that side cannot see are hidden
and those it sees only by their Gunflash are drawn faded in an amber ring (E1.81).
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem

from app import style
from app.hex_geometry import scene_center

from .counter_art import draw_marker, draw_unit

Z_COUNTERS = 50
Z_EXPANDED = 85                 # a spread-out stack lies over everything but a dragged counter
COMPACT_BELOW_PX = 60.0
MAX_STACK_SPREAD = 0.64         # a stack's whole spread, as a share of a counter's size
ID_BOTTOM = 0.47                # map units above a hex's centre: the lower edge of its printed id
EXPANDED_PER_ROW = 4
EXPANDED_GAP = 0.08             # between spread-out counters, as a share of their size
PAD = 0.1                       # a counter's margin (its selection ring), a share of its size


class CounterItem(QGraphicsItem):
    """One counter: ``kind`` is "unit" (``key`` its id) or "marker" (``key`` its index)."""

    def __init__(self, kind: str, key, piece, side: int | None):
        super().__init__()
        self.kind, self.key, self.piece, self.side = kind, key, piece, side
        self.size = 40.0
        self.offset = QPointF(0, 0)
        self.rest = QPointF(0, 0)            # its offset in its stack closed up
        self.selected = False
        self.hex = -1                        # the map index of the hex it stands in
        self.sighting: str | None = None     # view as side: "gunflash" when seen only so
        self._rect = self._bounds()          # asked for hundreds of times a repaint: kept
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def place(self, size: float, offset: QPointF) -> None:
        if size == self.size and offset == self.offset:
            return                  # keep the cached picture: a drag lays the stacks out often
        self.prepareGeometryChange()
        self.size, self.offset = size, offset
        self._rect = self._bounds()
        self.update()

    def set_selected(self, on: bool) -> None:
        self.selected = on
        self.update()

    def set_sighting(self, sighting: str | None) -> None:
        if sighting != self.sighting:
            self.sighting = sighting
            self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def _bounds(self) -> QRectF:
        s = self.size
        pad = PAD * s
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
        self.expanded: int | None = None        # the map index of the stack spread out
        self._shown = None                      # (map, units, markers, viewer, picked) shown
        self._laid_out = 0                      # counts the layouts and visibility changes
        self._rects: tuple | None = None        # ((scale, _laid_out), rects)

    def rebuild(self, scenario, viewer: str | None, picked: int | None = None) -> None:
        """Show ``scenario``'s pieces.  A counter that stays (same unit id, same marker index)
        keeps its item, so a counter being dragged survives the edits the drag makes; when only
        some pieces changed (a move), only they and their stacks are touched."""
        shown = (scenario.map.content_key, scenario.units, scenario.markers, viewer, picked)
        if self._moved_only(scenario, shown):
            self._shown = shown
            return
        self._shown = shown
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

    def _moved_only(self, scenario, shown) -> bool:
        """Update the pieces that changed in place, if nothing else did (same map, same pieces
        in the same order, same selection); False when a full rebuild is needed."""
        last = self._shown
        if last is None or last[0] != shown[0] or last[3:] != shown[3:] \
                or len(last[1]) != len(shown[1]) or len(last[2]) != len(shown[2]):
            return False
        changed = [(k, "unit", u.id, u) for k, (u, was) in enumerate(zip(shown[1], last[1]))
                   if u is not was]
        changed += [(k, "marker", k, mk) for k, (mk, was) in enumerate(zip(shown[2], last[2]))
                     if mk is not was]
        if any(kind == "unit" and piece.id != last[1][k].id or
               kind == "unit" and piece.side != last[1][k].side or
               kind == "marker" and piece.side != last[2][k].side
               for k, kind, _, piece in changed):
            return False
        if not changed or len(changed) > 4:
            return not changed
        m = scenario.map
        order = {u.id: k for k, u in enumerate(scenario.units)}     # stacks in scenario order
        touched = set()
        for _, kind, key, piece in changed:
            item = self.item(kind, key)
            if item is None:
                return False
            if item.piece != piece or not _looks_alike(piece, item.piece):
                looks_other = not _looks_alike(piece, item.piece)
                item.piece = piece
                if looks_other:             # a move alone keeps the cached picture
                    item.update()
            i = m.index(piece.hex)
            if i != item.hex:
                which = 0 if kind == "unit" else 1
                stack = self.stacks.get(item.hex)
                if stack is not None and item in stack[which]:
                    stack[which].remove(item)
                    if not stack[0] and not stack[1]:
                        del self.stacks[item.hex]
                touched.add(item.hex)
                item.hex = i
                item.setPos(scene_center(m, i))
                here = self.stacks.setdefault(i, ([], []))[which]
                here.append(item)
                here.sort(key=lambda it: order.get(it.key, 0) if it.kind == "unit" else it.key)
                touched.add(i)
            self._show(item)
        self.layout(touched)
        return True

    def _item(self, old: dict, kind: str, key, piece, side) -> CounterItem:
        item = old.pop((kind, key), None)
        if item is None:
            item = CounterItem(kind, key, piece, side)
            self.scene.addItem(item)
        elif item.piece != piece or item.side != side or not _looks_alike(piece, item.piece):
            looks_other = item.side != side or not _looks_alike(piece, item.piece)
            item.piece, item.side = piece, side
            if looks_other:                 # a move alone keeps the cached picture
                item.update()
        return item

    def _add(self, m, i: int, item: CounterItem, which: int) -> None:
        item.hex = i
        item.setPos(scene_center(m, i))
        self._show(item)
        self.items.append(item)
        self.stacks.setdefault(i, ([], []))[which].append(item)

    def rects(self, scale: float, kind: str | None = None) -> np.ndarray:
        """Where the shown counters lie at ``scale`` (screen pixels per scene unit), laid out
        in their hexes (a dragged counter where it lands, a hovered stack closed up: the ring
        labels, which keep clear of them, do not jump as the mouse crosses a stack): scene
        rectangles, rows of left, top, right, bottom; ``kind``: "unit" or "marker" only."""
        key = (scale, self._laid_out, kind)
        if self._rects is not None and self._rects[0] == key:
            return self._rects[1]
        rows = [(item.hex, item.rest.x(), item.rest.y(), item.size) for item in self.items
                if item.hex >= 0 and item.isVisible() and kind in (None, item.kind)]
        i, dx, dy, size = np.array(rows, dtype=float).reshape(-1, 4).T
        m = self.scene.map
        x = np.asarray(m.x, dtype=float)[i.astype(int)] * style.SCALE + dx / scale
        y = np.asarray(m.y, dtype=float)[i.astype(int)] * style.SCALE + dy / scale
        half = (0.5 + PAD) * size / scale          # as CounterItem._bounds
        out = np.stack([x - half, y - half, x + half, y + half], axis=1)
        self._rects = (key, out)
        return out

    def _show(self, item: CounterItem) -> None:
        self._laid_out += 1
        sight = self.sightings.get(item.key) if item.kind == "unit" else None
        item.set_sighting("gunflash" if sight == "gunflash" else None)
        item.setVisible(self.visible and sight != "none")

    def set_side_view(self, sightings: dict[str, str]) -> None:
        """Enemy unit id -> how the side sees it ("nvr", "gunflash", "none"); {}: show all."""
        if sightings == self.sightings:
            return                  # a drag step rarely changes what the side sees
        self.sightings = dict(sightings)
        for item in self.items:
            self._show(item)
        self.scene.counters_laid_out()

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
        if on == self.visible:
            return
        self.visible = on
        for item in self.items:
            self._show(item)
        self.scene.counters_laid_out()

    def pieces_in(self, hex_index: int) -> list[CounterItem]:
        """The visible counters standing in hex ``hex_index``: units bottom first, then markers."""
        units, markers = self.stacks.get(hex_index, ([], []))
        return [item for item in units + markers if item.isVisible()]

    def expand(self, hex_index: int | None) -> None:
        """Spread out the stack of hex ``hex_index`` (None, or a hex of one counter: close it up)."""
        if hex_index is not None and len(self.pieces_in(hex_index)) < 2:
            hex_index = None
        if hex_index != self.expanded:
            self.expanded = hex_index
            self.layout()

    def layout(self, only: set | None = None) -> None:
        """Lay out every stack (``only``: the stacks of these hexes)."""
        self._laid_out += 1
        unit_px = max(style.UNIT_SIZE * self.ppu, style.MIN_UNIT_PX)
        marker_px = max(style.MARKER_SIZE * self.ppu, style.MIN_MARKER_PX)
        if self.expanded is not None and self.scene.document.dragging:
            self.expanded = None
        below_id = unit_px / 2 - ID_BOTTOM * self.ppu      # keep the hex's id uncovered
        for i, (units, markers) in self.stacks.items():
            if only is not None and i not in only:
                continue
            if i == self.expanded:
                _spread(units + markers, unit_px, marker_px)
                continue
            both = bool(units and markers)
            _stack(units, unit_px, QPointF(0.22, 0.22) * unit_px if both else QPointF(0, 0),
                   Z_COUNTERS + 1, below_id)
            _stack(markers, marker_px, QPointF(-0.5, -0.5) * unit_px if both else QPointF(0, 0),
                   Z_COUNTERS)
        self.scene.counters_laid_out()


def _looks_alike(piece, other) -> bool:
    """The same counter picture: the pieces differ at most in their hex."""
    return piece.replace(hex=other.hex) == other and \
        piece.extra.get("name") == other.extra.get("name")      # drawn, not compared by ==


def _stack(items: list[CounterItem], size: float, anchor: QPointF, z: float,
           top: float | None = None) -> None:
    """Each counter a step down-right of the one below, the whole spread capped; ``top``: the
    highest (screen pixels from the hex centre) the first counter's offset may go."""
    n = len(items)
    step = style.STACK_STEP * size
    if n > 2:
        step = min(step, MAX_STACK_SPREAD * size / (n - 1))
    start = anchor - QPointF(step, step) * (n - 1) / 2
    if top is not None and n > 1 and start.y() < min(top, 0.0):
        start = QPointF(start.x() - start.y() + min(top, 0.0), min(top, 0.0))
    for k, item in enumerate(items):
        item.rest = start + QPointF(step, step) * k
        item.place(size, item.rest)
        item.setZValue(z + k * 0.01 + (0.5 if item.selected else 0.0))


def _spread(items: list[CounterItem], unit_px: float, marker_px: float) -> None:
    """A hovered stack: rows of whole counters centred on the hex, in stack order."""
    cell = unit_px * (1 + EXPANDED_GAP)
    rows = [items[k:k + EXPANDED_PER_ROW] for k in range(0, len(items), EXPANDED_PER_ROW)]
    for r, row in enumerate(rows):
        for c, item in enumerate(row):
            size = unit_px if item.kind == "unit" else marker_px
            x = (c - (len(row) - 1) / 2) * cell
            y = (r - (len(rows) - 1) / 2) * cell
            item.place(size, QPointF(x, y))
            item.setZValue(Z_EXPANDED + r * 0.1 + c * 0.01)
