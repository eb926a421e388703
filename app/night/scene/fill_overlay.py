"""``FillOverlay``: hexes filled by colour: the selected unit's night field (nvr / gunflash /
none) and the hexes lights reach."""

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QColor,
    QPainter,
    QPainterPath,
    QPen,
)

from app.hex_geometry import area, hex_rects

from .field_image import MAX_PIXELS, FieldImage, HexRaster
from .overlays import MapOverlay, pixel_exact


class FillOverlay(MapOverlay):
    """Hexes filled with one colour each: ``set_areas([(colour, mask, edge pen or None)])``.

    A new set of areas repaints only the hexes whose areas changed (and the whole of an area
    with an edge whose hexes changed: its dashes run along the whole border).  With ``image``
    (the selected unit's field, which a drag changes every step) the fills are drawn as one
    image of the view's pixels (``field_image``) once a drag has asked for it (``live``) and
    while the view keeps its zoom and scroll; else, and in exports to SVG, as paths."""

    def __init__(self, game_map, z_value: float, cached: bool = False, image: bool = False):
        super().__init__(game_map, z_value, cached)
        self.hatch: MapOverlay | None = None    # a HatchOverlay whose hexes the image draws too
        self._given: list[tuple[QColor, np.ndarray, QPen | None]] = []
        self._paths: list | None = []
        self._edges: list | None = None         # the edged areas' paths, drawn over the image
        self._styles: list | None = None        # (colour, edge) of each area shown
        self._member: np.ndarray | None = None  # per hex: a bit for each area it is in
        self.image = image
        self.live = False                       # build the image at the next paint
        self._field: FieldImage | None = None

    @property
    def areas(self) -> list[tuple[QColor, QPainterPath, QPainterPath | None, QPen | None]]:
        """(colour, fill, border or None, edge pen or None) of each area that has hexes."""
        if self._paths is None:
            self._paths = []
            for colour, mask, edge in self._given:
                if mask.any():
                    fill = area(self.map, mask)
                    self._paths.append((colour, fill, fill if edge else None, edge))
        return self._paths

    def set_areas(self, areas) -> None:
        areas = [(c, np.asarray(mask, dtype=bool), e) for c, mask, e in areas if mask is not None]
        styles = [(c.rgba(), None if e is None else
                   (e.color().rgba(), e.widthF(), tuple(e.dashPattern()))) for c, _, e in areas]
        member = np.zeros(self.map.size, dtype=np.int64)
        for k, (_, mask, _) in enumerate(areas):
            member |= mask.astype(np.int64) << k
        old_styles, old_member = self._styles, self._member
        if styles == old_styles and np.array_equal(member, old_member):
            return                  # unchanged: keep the cached picture
        self._styles, self._member = styles, member
        self._given, self._paths, self._edges = areas, None, None    # traced when drawn
        if self._field is not None:
            self._show_field()
        if styles != old_styles or old_member is None:
            self.update()
            return
        changed = member != old_member
        rects = hex_rects(self.map, np.flatnonzero(changed))
        for k, (_, _, edge) in enumerate(areas):
            moved = (member ^ old_member) >> k & 1
            if edge is not None and moved.any():
                inside = ((member | old_member) >> k & 1).astype(bool)
                rects += hex_rects(self.map, np.flatnonzero(inside), most=0)
        self.repaint(rects)

    def _show_field(self) -> None:
        classes = np.zeros(self.map.size, dtype=np.int64)
        for k, (_, mask, _) in enumerate(self._given):
            classes[mask] = k + 1
        hatch = self.hatch
        if hatch is not None and hatch.isVisible():
            self._field.show([c for c, _, _ in self._given], classes, hatch.look, hatch.mask)
        else:
            self._field.show([c for c, _, _ in self._given], classes)

    def draw(self, painter: QPainter):
        field = self._field_for(painter) if self.image else None
        if field is not None:
            self._show_field()                  # the hatched hexes or their layer may change
            painter.save()
            painter.resetTransform()
            painter.drawImage(0, 0, field.image)
            painter.restore()
        else:
            for colour, fill, _, _ in self.areas:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(colour)
                painter.drawPath(fill)
            if self.hatch is not None and self.hatch.isVisible():
                self.hatch.draw(painter)        # over the fills, under the edges, as in the image
        for _, _, border, edge in (self.areas if field is None else self._edged()):
            if border is not None:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(edge)
                painter.drawPath(border)

    def _edged(self):
        """The areas that have an edge, as paths (the image holds the fills)."""
        if self._paths is not None:
            return [a for a in self._paths if a[2] is not None]
        if self._edges is None:
            self._edges = []
            for colour, mask, edge in self._given:
                if edge is not None and mask.any():
                    border = area(self.map, mask)
                    self._edges.append((colour, border, border, edge))
        return self._edges

    def _field_for(self, painter: QPainter) -> FieldImage | None:
        """The image of the fills for this painter's pixels, when it can be drawn as one (an
        unturned view on a raster device) and a drag asked for it; None: draw paths."""
        key = self._image_key(painter)
        if key is None:
            return None
        if self._field is not None and self._field.raster.key == key:
            return self._field
        self._field = None                      # another zoom or scroll: paths until a drag
        if not self.live:
            return None
        self._field = FieldImage(HexRaster(self.map, *key))
        self._show_field()
        return self._field

    @staticmethod
    def _image_key(painter: QPainter) -> tuple | None:
        """(scale, dx, dy, width, height) of this painter's pixels, when an image can stand
        for its paths: an unturned view on a raster device of a bounded size; else None."""
        t, device = painter.worldTransform(), painter.device()
        if (not pixel_exact(painter, t) or t.m11() != t.m22()
                or device.width() * device.height() > MAX_PIXELS):
            return None
        return (t.m11(), t.dx(), t.dy(), device.width(), device.height())
