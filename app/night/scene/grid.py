"""The printed hex grid: hexsides, centre dots, hex coordinates and board ids (toggleable),
and the hills' level numbers and contours.

Coordinates are printed near the top of each hex, as on a board; a half hex cut by a board edge
prints its coordinate in the half that is on the board.  Zoomed out too far for that (the whole
map fitted in), each board's column letters and row numbers are printed along its edges
instead, in a readable size.  A hill hex prints its level (``L2``) near its bottom; zoomed out,
each hill prints it once; not where the board's own picture is shown (it prints its levels),
unless the View menu asks for them there too.  The grid lies over the night veil, so that ids,
levels and contours read in the dark hexes too.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from app import style
from app.hex_geometry import all_corners, map_clip, map_rect, placement_rect

from .overlays import clipped
from .terrain import pixels_per_unit

Z_GRID = 21                      # over the selected unit's field (20): readable in the dark
EDGE_LABEL_PX = 10.0             # column letters and row numbers along the edges, zoomed out
LEVEL_PX = 11.0                  # a hill's level number, zoomed out
LABEL_SPOTS = ((0.0, -0.63), (0.0, 0.63), (0.45, -0.63), (-0.45, -0.63), (0.45, 0.63),
               (-0.45, 0.63))


class GridItem(QGraphicsItem):
    def __init__(self, game_map):
        super().__init__()
        self.map = game_map
        self._rect = map_rect(game_map)
        self.show_coordinates = True
        self.show_lines = True          # the hexsides and centre dots ("Hex grid")
        self.sides = _hexsides(game_map)
        self.labels = _labels(game_map)
        self.columns, self.rows = _edge_labels(game_map)
        self.hills = _hills(game_map)
        # hexes whose board's own picture is shown (it prints the levels): no "L2" over them,
        # unless asked for (View > Hill levels over the boards' own pictures)
        self.pictured = np.zeros(game_map.size, dtype=bool)
        self.levels_over_pictures = False
        self.contours = _contours(game_map)
        self._edge_cache: tuple[float, list] | None = None     # (scale, edge_labels)
        self._printed: tuple | None = None                      # (key, printed_labels)
        self.setZValue(Z_GRID)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._rect

    def set_coordinates(self, on: bool) -> None:
        self.show_coordinates = on
        self.update()

    def set_pictured(self, pictured: np.ndarray, levels_over_pictures: bool) -> bool:
        """The hexes whose board picture is shown, and whether hill levels are printed over
        them all the same; True when that changed what is drawn."""
        if levels_over_pictures == self.levels_over_pictures and \
                np.array_equal(pictured, self.pictured):
            return False
        self.pictured, self.levels_over_pictures = pictured, levels_over_pictures
        self.update()
        return True

    def _levels_shown(self, i: int) -> bool:
        return self.levels_over_pictures or not self.pictured[i]

    def set_lines(self, on: bool) -> None:
        """Show the hexsides and centre dots (the ids, levels and board ids stay their own)."""
        self.show_lines = on
        self.update()

    def paint(self, painter: QPainter, option, widget=None):
        ppu = pixels_per_unit(painter, option)
        outer = painter
        outer.save()            # within the clip it was given (a cached picture's exposed part)
        painter.setClipPath(map_clip(self.map), Qt.ClipOperation.IntersectClip)
        painter = clipped(painter, map_clip(self.map))      # an SVG export cuts by hand
        if ppu >= style.LOD_GRID and self.show_lines:
            grid = QPen(style.GRID, 1.0)
            grid.setCosmetic(True)
            painter.setPen(grid)
            painter.drawPath(self.sides)
        if ppu >= style.LOD_COORDINATES:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.GRID_DOT)
            r = 0.045 * style.SCALE
            for x, y in zip(self.map.x, self.map.y) if self.show_lines else ():
                painter.drawEllipse(QPointF(x * style.SCALE, y * style.SCALE), r, r)
            if self.show_coordinates:
                painter.setPen(style.COORDINATE)
                painter.setFont(style.font(0.27 * style.SCALE))
                for rect, text in self.labels:
                    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        self._paint_hills(painter, ppu)
        outer.restore()
        painter = outer
        if self.show_coordinates:
            if ppu < style.LOD_COORDINATES:
                self._paint_edges(painter)
            self._paint_board_ids(painter)

    def _paint_hills(self, painter: QPainter, ppu: float) -> None:
        """Contours between levels, and each hill's level (every hex's when zoomed in)."""
        painter.setBrush(Qt.BrushStyle.NoBrush)
        pen = QPen(style.HILL_CONTOUR, 1.4)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPath(self.contours)
        painter.setPen(style.LEVEL_TEXT)
        scale = max(painter.worldTransform().m11(), 1e-6)
        if ppu >= style.LOD_COORDINATES:
            painter.setFont(style.font(0.24 * style.SCALE, bold=True))
            for level, hexes, _ in self.hills:
                for i in hexes:
                    if not self._levels_shown(i):
                        continue
                    r = QRectF((self.map.x[i] - 0.4) * style.SCALE,
                               (self.map.y[i] + 0.42) * style.SCALE, 0.8 * style.SCALE,
                               0.3 * style.SCALE)
                    painter.drawText(r, Qt.AlignmentFlag.AlignCenter, f"L{level}")
            return
        painter.setFont(style.font(LEVEL_PX / scale, bold=True))
        for level, _, i in self.hills:
            if not self._levels_shown(i):
                continue
            c = QPointF(self.map.x[i] * style.SCALE, self.map.y[i] * style.SCALE)
            r = QRectF(c.x() - 20 / scale, c.y() - 8 / scale, 40 / scale, 16 / scale)
            painter.drawText(r, Qt.AlignmentFlag.AlignCenter, f"L{level}")

    def _paint_edges(self, painter: QPainter) -> None:
        """Zoomed out: each board's column letters along its top and bottom edges and its row
        numbers along its left and right edges, on a dark band, in screen-sized letters."""
        scale = max(painter.worldTransform().m11(), 1e-6)
        painter.setFont(style.font(EDGE_LABEL_PX / scale, bold=True))
        for rect, text in self.edge_labels(scale):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.EDGE_LABEL_BACK)
            painter.drawRect(rect)
            painter.setPen(style.BOARD_LABEL)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def edge_labels(self, scale: float) -> list[tuple[QRectF, str]]:
        """(scene rectangle, text) of each column letter and row number printed along the
        boards' edges at ``scale`` screen pixels per scene unit (zoomed out)."""
        if self._edge_cache is not None and self._edge_cache[0] == scale:
            return self._edge_cache[1]
        fm = QFontMetricsF(style.font(EDGE_LABEL_PX / scale, bold=True))
        h = fm.height()
        last: dict[str, QRectF] = {}
        tabs = [tab for tab, _ in self._board_tabs()]
        out = []
        cell = 4 * h                # the labels placed, by cell: a board's corner is crowded
        placed: dict[tuple[int, int], list[QRectF]] = {}
        for x, y, text, along in self.columns + self.rows:
            w = fm.horizontalAdvance(text) + 3 / scale
            if along == "top":
                rect = QRectF(x * style.SCALE - w / 2, y * style.SCALE, w, h)
            elif along == "bottom":
                rect = QRectF(x * style.SCALE - w / 2, y * style.SCALE - h, w, h)
            elif along == "left":
                rect = QRectF(x * style.SCALE, y * style.SCALE - h / 2, w, h)
            else:
                rect = QRectF(x * style.SCALE - w, y * style.SCALE - h / 2, w, h)
            if along in last and last[along].adjusted(-2 / scale, -1 / scale, 2 / scale,
                                                      1 / scale).intersects(rect):
                continue            # no room: every other letter (number) is printed
            if any(tab.intersects(rect) for tab in tabs):
                continue            # under a board's id
            cx, cy = int(rect.center().x() // cell), int(rect.center().y() // cell)
            if any(other.intersects(rect) for i in (-1, 0, 1) for j in (-1, 0, 1)
                   for other in placed.get((cx + i, cy + j), ())):
                continue            # a row number on a column letter, at a corner
            placed.setdefault((cx, cy), []).append(rect)
            last[along] = rect
            out.append((rect, text))
        self._edge_cache = (scale, out)
        return out

    def printed_labels(self, scale: float) -> np.ndarray:
        """Where the grid prints letters, numbers and board ids at ``scale`` (screen pixels
        per scene unit), as rows of (left, top, right, bottom): other labels keep clear."""
        if not self.isVisible() or not self.show_coordinates:
            return np.zeros((0, 4))
        key = (scale, scale * style.SCALE < style.LOD_COORDINATES)
        if self._printed is None or self._printed[0] != key:
            rects = [tab for tab, _ in self._board_tabs()]
            if key[1]:
                rects += [rect for rect, _ in self.edge_labels(scale)]
            self._printed = (key, np.array([(r.left(), r.top(), r.right(), r.bottom())
                                            for r in rects]).reshape(-1, 4))
        return self._printed[1]

    def _paint_board_ids(self, painter: QPainter):
        """Each board's id in a tab at its north-west and south-east corners."""
        painter.setFont(style.font(0.7 * style.SCALE, bold=True))
        for tab, text in self._board_tabs():
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.BOARD_LABEL_BACK)
            painter.drawRoundedRect(tab, 0.15 * style.SCALE, 0.15 * style.SCALE)
            painter.setPen(style.BOARD_LABEL)
            painter.drawText(tab, Qt.AlignmentFlag.AlignCenter, text)

    def _board_tabs(self) -> list[tuple[QRectF, str]]:
        """(rectangle, text) of each board id's tab, at its north-west and south-east corners."""
        fm = QFontMetricsF(style.font(0.7 * style.SCALE, bold=True))
        out = []
        for pi, p in enumerate(self.map.placements):
            b = placement_rect(self.map, pi)
            text = p.board.id + (" \u21bb" if p.rotated else "")
            w, h = fm.horizontalAdvance(text) + 0.5 * style.SCALE, fm.height() + 0.1 * style.SCALE
            for x, y in ((b.left() + 0.15 * style.SCALE, b.top() + 0.15 * style.SCALE),
                         (b.right() - 0.15 * style.SCALE - w, b.bottom() - 0.15 * style.SCALE - h)):
                out.append((QRectF(x, y, w, h), text))
        return out


def _hexsides(m) -> QPainterPath:
    """Every hexside once: edges 0..2 of each hex, and the others where no hex lies beyond."""
    corners = all_corners(m)
    path = QPainterPath()
    for i in range(m.size):
        for k in range(6):
            if k >= 3 and m.neighbours[i, ((k + 2) % 6)] >= 0:
                continue
            a, b = corners[i, k], corners[i, (k + 1) % 6]
            path.moveTo(float(a[0]), float(a[1]))
            path.lineTo(float(b[0]), float(b[1]))
    return path


def _labels(m) -> list[tuple[QRectF, str]]:
    clip = map_clip(m)
    s = style.SCALE
    out = []
    for i, name in enumerate(m.names):
        local = m.board_of[i].local
        for dx, dy in LABEL_SPOTS:
            rect = QRectF((m.x[i] + dx - 0.42) * s, (m.y[i] + dy - 0.16) * s, 0.84 * s, 0.32 * s)
            if clip.contains(rect):
                out.append((rect, local))
                break
    return out


def _edge_labels(m):
    """Per board: (x, y, text, edge) of each column letter on its top and bottom edges and of
    each row number on its left and right edges (map units; a turned board reads backwards)."""
    columns, rows = [], []
    for pi, p in enumerate(m.placements):
        frame = placement_rect(m, pi)
        top, bottom = frame.top() / style.SCALE, frame.bottom() / style.SCALE
        left, right = frame.left() / style.SCALE, frame.right() / style.SCALE
        col_x: dict[str, float] = {}
        row_y: dict[str, tuple[float, float]] = {}
        for i in range(m.size):
            x, y = float(m.x[i]), float(m.y[i])
            hid = m.board_of[i]
            if hid.board != p.board.id or not (left - 0.1 <= x <= right + 0.1
                                               and top - 0.1 <= y <= bottom + 0.1):
                continue
            letters = hid.local.rstrip("0123456789")
            col_x.setdefault(letters, x)
            number = hid.local[len(letters):]
            if number not in row_y or x < row_y[number][0]:
                row_y[number] = (x, y)
        # the right and bottom edges only where no board lies beyond (no doubled numbers)
        east = not any(placement_rect(m, k).contains(QPointF((right + 0.5) * style.SCALE,
                                                             (top + 1) * style.SCALE))
                       for k in range(len(m.placements)))
        south = not any(placement_rect(m, k).contains(QPointF((left + 1) * style.SCALE,
                                                              (bottom + 0.5) * style.SCALE))
                        for k in range(len(m.placements)))
        for letters, x in col_x.items():
            if left + 0.3 < x < right - 0.3:
                columns.append((x, top, letters, "top"))
                if south:
                    columns.append((x, bottom, letters, "bottom"))
        for number, (_, y) in row_y.items():
            if top + 0.5 < y < bottom - 0.5:
                rows.append((left, y, number, "left"))
                if east:
                    rows.append((right, y, number, "right"))
    return columns, rows


def _hills(m) -> list[tuple[int, list[int], int]]:
    """Each hill (connected hexes of one level above 0): (level, its hexes, the hex nearest
    its middle, where its level is printed when zoomed out)."""
    seen, out = set(), []
    for start in range(m.size):
        level = int(m.level[start])
        if level == 0 or start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in m.neighbours[i]:
                j = int(j)
                if j >= 0 and j not in seen and int(m.level[j]) == level:
                    seen.add(j)
                    todo.append(j)
        cx = sum(float(m.x[i]) for i in group) / len(group)
        cy = sum(float(m.y[i]) for i in group) / len(group)
        middle = min(group, key=lambda i: (float(m.x[i]) - cx) ** 2 + (float(m.y[i]) - cy) ** 2)
        out.append((level, sorted(group), middle))
    return out


def _contours(m) -> QPainterPath:
    """Every hexside between two levels, once."""
    corners = all_corners(m)
    path = QPainterPath()
    for i in range(m.size):
        for k in range(6):
            j = int(m.neighbours[i, ((k + 2) % 6)])
            if j < 0 or m.level[j] >= m.level[i]:
                continue
            a, b = corners[i, k], corners[i, (k + 1) % 6]
            path.moveTo(float(a[0]), float(a[1]))
            path.lineTo(float(b[0]), float(b[1]))
    return path
