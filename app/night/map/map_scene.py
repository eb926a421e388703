"""The map scene: terrain, grid, overlays and counters of the Document's position.

It follows the Document: a new map rebuilds terrain and grid; a new position rebuilds the
counters; new engine answers redraw the overlays.  Layers are shown or hidden by name
(``scene.layers.LAYERS``).  While the player places a starshell (``set_placing``) it shows where the
selected unit may place one and the drift preview; the LOS thread lies over everything.
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem

from app import style
from app.hex_geometry import disc_outline, hex_polygon, map_rect, scene_center
from engine import api
from engine.api import center

from ..scene import board_art
from ..scene.composite import Composite
from ..scene.counters import CounterLayer
from ..scene.fill_overlay import FillOverlay
from ..scene.grid import GridItem
from ..scene.gunflash_overlay import GunflashOverlay
from ..scene.hatch_overlay import HatchOverlay
from ..scene.hexsides import HexsideItem
from ..scene.layers import LAYERS
from ..scene.outline_overlay import OutlineItem
from ..scene.overlays import cosmetic_pen
from ..scene.terrain import TerrainItem
from ..starshell.preview import DriftOverlay, PlacementOverlay
from ..thread.item import ThreadItem
from ..vasl.kept_pieces import KeptPiecesItem

MARGIN = 3.0 * style.SCALE      # room to pan beyond the map's edge


class MapScene(QGraphicsScene):
    mapChanged = Signal()           # another map: terrain and grid were rebuilt
    picturesRefused = Signal(str)   # why boards' pictures are not drawn (the terrain is)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        # a hundred-odd items, the counters moved every drag step: a plain list finds them
        # faster than a BSP tree kept up to date (about 0.8 ms a drag step)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.document = document
        self.map = None
        self._rules: tuple = ()       # each board's (SSRs, overlays) its picture is drawn with
        self.shown = {layer.name: layer.default for layer in LAYERS}
        self.counters = CounterLayer(self)
        self.hovered = -1
        self.placing = False
        self.under: list[QGraphicsItem] = []    # drawn by the view as its cached background
        self.composites: list[Composite] = []
        self.drawn_as_items = False             # an export is drawing (``as_items``)
        self.picture_notes: list[str] = []      # why a board's picture is not drawn
        for signal in (document.changed, document.dragged):       # the map follows a drag
            signal.connect(self._on_scenario)
        document.selectionChanged.connect(self._on_selection)
        for signal in (document.answersChanged, document.dragAnswered):
            signal.connect(self._on_answers)
        self._on_scenario()
        if document.answers is not None:
            self._on_answers()

    # --------------------------------------------------------------------- building
    def _build_map(self, m, rules=(), overlays=()) -> None:
        for item in list(self.items()):
            self.removeItem(item)
        self.under = []
        self.counters.items, self.counters.stacks = [], {}
        self.map = m
        self.hovered = -1
        self._lights_shown: tuple = ()          # (illumination, Gunflashes) the items show
        self._selected_hex = -1                 # where the selection's outline is drawn
        self.terrain = TerrainItem(m)
        self.grid = GridItem(m)
        self.hexsides = HexsideItem(m)       # walls, hedges, bocage, cliffs (rules.md 7)
        self.lit = FillOverlay(m, 10, cached=True)
        self.blaze_shadows = HatchOverlay(m, 15, style.BLAZE_SHADOW, cached=True)
        self.sight = FillOverlay(m, 20, image=True)     # drawn as an image during a drag
        # under the grid, drawn in the field's image during a drag
        self.viewer_blind = HatchOverlay(m, 20.5, style.VIEWER_BLIND, cross=True)
        self.sight.hatch, self.viewer_blind.drawn_in = self.viewer_blind, self.sight
        self.gunflashes = GunflashOverlay(m, 28)
        self.light_circles = OutlineItem(m, 30, cached=True)
        self.nvr_ring = OutlineItem(m, 32)
        self.moving_rings = OutlineItem(m, 31)
        # off the letters along the edges and the LOS thread's label (the moving rings' labels
        # off the NVR ring's too); then off the markers; and off the units, where there is room
        self.nvr_ring.keep_clear = self._clear_for_ring_labels
        self.moving_rings.keep_clear = self._clear_of_nvr_label
        for item in (self.nvr_ring, self.moving_rings):
            item.keep_clear_rather = self._markers_shown
            item.keep_clear_if_room = self._counters_shown
        self.selection = OutlineItem(m, 45, clip=False)   # under the counters
        self.hover = OutlineItem(m, 46, clip=False)
        self.placement = PlacementOverlay(m, 40)
        self.drift = DriftOverlay(m, 42)
        self.thread = ThreadItem(m, 70)                   # a string lies over the counters
        self.thread.moved = self._relabel
        self.kept = KeptPiecesItem(m)       # a VASL save's support weapons and Guns
        self._rules = rules
        # the boards' pictures (in their SSRs' colours) and their overlays', over our art
        self.picture_notes = []
        self.board_art = board_art.build(m, [names for names, _laid in rules], overlays,
                                         self.picture_notes)
        if self.picture_notes:
            self.picturesRefused.emit(" ".join(self.picture_notes))
        for item in self.board_art:
            self.addItem(item)
        for item in (self.terrain, self.grid, self.hexsides, self.lit, self.blaze_shadows, self.sight,
                     self.viewer_blind, self.gunflashes, self.light_circles, self.nvr_ring,
                     self.moving_rings, self.selection, self.hover, self.placement, self.drift,
                     self.thread, self.kept):
            self.addItem(item)
        # what a drag leaves alone under the field (terrain, board art, lit hexes, blaze
        # shadows): one opaque picture, the view's cached background (``draw_under``), not
        # one picture per item blended over the others at every repaint
        self.under = [self.terrain, *self.board_art, self.lit, self.blaze_shadows]
        for item in self.under:
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        # and over the field, one picture for the grid, the Gunflashes, the light circles and
        # the hexsides (z 21-30.5, next to each other in depth)
        self.composites = [Composite([self.grid, self.gunflashes, self.light_circles,
                                      self.hexsides])]
        for item in self.composites:
            self.addItem(item)
        r = map_rect(m)
        self.setSceneRect(r.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN))
        self._apply_layers()
        self.background_changed()
        self.mapChanged.emit()

    @contextmanager
    def as_items(self):
        """Meanwhile the items of ``under`` and of the composites draw themselves, each as its
        own item (``under`` is not drawn as the background, the composites are hidden): an SVG
        export draws them as before, each with its own cache mode (it asks for lines, not
        pictures, where it needs them)."""
        members = self.under + [m for c in self.composites for m in c.members]
        flag = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
        for item in members:
            item.setFlag(flag, False)
        for c in self.composites:
            c.setVisible(False)
        self.drawn_as_items = True
        try:
            yield
        finally:
            self.drawn_as_items = False
            for item in members:
                item.setFlag(flag, True)
            for c in self.composites:
                c.setVisible(True)

    def draw_under(self, painter: QPainter, rect: QRectF, cut: bool = True) -> None:
        """The items of ``under`` that are shown and meet ``rect`` (scene), in their order;
        ``cut``: each to its rectangle's whole pixels, as its own cached picture was."""
        if self.drawn_as_items:
            return
        option = QStyleOptionGraphicsItem()
        for item in self.under:
            if not item.isVisible() or not item.sceneBoundingRect().intersects(rect):
                continue
            option.exposedRect = item.mapRectFromScene(rect) & item.boundingRect()
            painter.save()
            painter.setTransform(item.sceneTransform(), True)
            if cut:
                world = painter.worldTransform()
                painter.resetTransform()
                painter.setClipRect(world.mapRect(item.boundingRect()).toAlignedRect(),
                                    Qt.ClipOperation.IntersectClip)
                painter.setTransform(world)
            item.paint(painter, option, None)
            painter.restore()

    def background_changed(self, rect: QRectF | None = None) -> None:
        """Have the views draw their cached background again: within ``rect`` (scene, with a
        margin for the edges' antialiasing), or all of it."""
        if rect is None:
            for view in self.views():
                view.resetCachedContent()
            return
        m = 0.1 * style.SCALE
        self.invalidate(rect.adjusted(-m, -m, m, m), QGraphicsScene.SceneLayer.BackgroundLayer)

    def counters_laid_out(self) -> None:
        """The ring labels keep clear of the counters: where counters moved, placed again.
        Not during a drag (each step's rings place them again; a drop lays the counters out)."""
        self.kept.set_pixels_per_unit(self.counters.ppu)
        if not self.document.dragging:
            self._relabel()

    def _relabel(self) -> None:
        if self.map is not None:
            for item in (self.nvr_ring, self.moving_rings):
                item.relabel()

    def _counters_shown(self, scale: float, kind: str = "unit") -> np.ndarray:
        """Where the counters shown lie (a ring label under one cannot be read), but during a
        drag (a frame is short: the drop places the labels clear of them); rows of left,
        top, right, bottom."""
        if self.counters.visible and not self.document.dragging:
            return self.counters.rects(scale, kind)
        return np.zeros((0, 4))

    def counter_rects(self, scale: float) -> np.ndarray:
        """Where every counter shown lies, units and markers (the planner's numbers keep off
        them); rows of left, top, right, bottom."""
        if self.counters.visible and not self.document.dragging:
            return self.counters.rects(scale)
        return np.zeros((0, 4))

    def _markers_shown(self, scale: float) -> np.ndarray:
        """Where the markers lie (a starshell, a fire marker): ring labels keep off them before
        they keep off the units."""
        return self._counters_shown(scale, "marker")

    def _clear_for_ring_labels(self, scale: float) -> np.ndarray:
        """What every ring label keeps clear of: the letters along the edges and the LOS
        thread's label."""
        rects = [self.grid.printed_labels(scale)]
        thread = self.thread.label_box(scale) if self.thread.isVisible() else None
        if thread is not None:
            rects.append(np.array([[thread.left(), thread.top(), thread.right(),
                                    thread.bottom()]]))
        return np.vstack(rects)

    def _clear_of_nvr_label(self, scale: float) -> np.ndarray:
        """What the moving-vehicle rings' labels keep clear of: what every ring label does,
        and the NVR ring's label (rows of left, top, right, bottom)."""
        rects = [r for r, _, _ in self.nvr_ring.placed_label_rects(scale)] \
            if self.nvr_ring.isVisible() else []
        own = np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects]).reshape(-1, 4)
        return np.vstack([self._clear_for_ring_labels(scale), own])

    def _levels_where_no_picture(self) -> None:
        """The grid prints hill levels only on boards whose own picture is not shown."""
        m = self.map
        pictured = np.zeros(m.size, dtype=bool)
        if self.shown.get("board_art", True):
            centres = [QPointF(x * style.SCALE, y * style.SCALE) for x, y in zip(m.x, m.y)]
            for item in self.board_art:
                if type(item) is board_art.BoardArtItem:       # a board's, not an overlay's
                    pictured |= np.array([item.clip.contains(c) for c in centres], dtype=bool)
        if self.grid.set_pictured(pictured, self.shown.get("hill_levels", False)):
            self.grid.composite.changed()

    def layer_items(self, name: str) -> list:
        return {"sight": [self.sight], "nvr_ring": [self.nvr_ring],
                "moving_rings": [self.moving_rings], "lights": [self.lit, self.light_circles],
                "blaze_shadows": [self.blaze_shadows], "viewer_blind": [self.viewer_blind],
                "gunflashes": [self.gunflashes],
                "board_art": list(self.board_art)}.get(name, [])

    def set_layer_visible(self, name: str, on: bool) -> None:
        self.shown[name] = on
        self._apply_layers()

    def _apply_layers(self) -> None:
        for name, on in self.shown.items():
            for item in self.layer_items(name):
                if item.isVisible() != on:
                    if item in self.under:
                        self.background_changed(item.sceneBoundingRect())
                    elif getattr(item, "composite", None) is not None:
                        item.composite.changed()
                item.setVisible(on)
        if self.grid.show_coordinates != self.shown.get("coordinates", True):
            self.grid.set_coordinates(self.shown.get("coordinates", True))
            self.grid.composite.changed()
        if self.grid.show_lines != self.shown.get("grid", True):     # ids and levels stay
            self.grid.set_lines(self.shown.get("grid", True))
            self.grid.composite.changed()
        self._levels_where_no_picture()
        self.counters.set_visible(self.shown.get("counters", True))
        self.kept.setVisible(self.shown.get("counters", True))
        self._relabel()             # what the ring labels keep clear of may have gone or come

    # --------------------------------------------------------------------- following the document
    def _on_scenario(self) -> None:
        s = self.document.scenario
        # rules.md 11.2-11.3: each board's rules and overlays, drawn
        rules = tuple((tuple(s.ssr) + tuple(e.ssr), e.overlays) for e in s.map_entries)
        if (self.map is None or self.map.content_key != s.map.content_key
                or rules != self._rules):
            overlays = [api.night.overlay_pictures(s, k) if e.overlays else []
                        for k, e in enumerate(s.map_entries)]
            self._build_map(s.map, rules, overlays)
        self.counters.rebuild(s, self.document.viewer, self.document.marker)
        self.kept.set_scenario(s)
        self._draw_selection()

    def _on_selection(self) -> None:
        d = self.document
        for item in self.counters.items:
            item.set_selected(item.key == (d.viewer if item.kind == "unit" else d.marker))
        self.counters.layout()
        self._draw_selection()
        self._draw_placements()

    def set_placing(self, on: bool) -> None:
        """Show where the selected unit may place a starshell or IR (and the drift preview)."""
        self.placing = on
        if not on:
            self.drift.clear()
        self._draw_placements()

    def _draw_placements(self) -> None:
        a = self.document.answers
        if (not self.placing or a is None or a.starshell is None
                or a.viewer != self.document.viewer
                or a.scenario.map.content_key != self.map.content_key):
            self.placement.set_methods({})
            return
        self.placement.set_methods(a.starshell.legal)

    def hides_viewer(self, side: str | None) -> bool:
        """Viewing the map as ``side``, the selected unit is the enemy's: its outline, rings
        and field stay hidden (they would give away what the enemy sees, and where it is)."""
        viewer = self.document.viewer
        return (side is not None and viewer is not None
                and self.document.scenario.unit(viewer).side != side)

    def _draw_selection(self) -> None:
        s, viewer = self.document.scenario, self.document.viewer
        if viewer is None or self.hides_viewer(self.document.view_side):
            self.selection.set_outlines([])
            return
        i = s.map.index(s.unit(viewer).hex)
        if self.selection.outlines and self._selected_hex == i:
            return                  # drawn there already (a drag step asks twice)
        self._selected_hex = i
        path = QPainterPath()
        path.addPolygon(hex_polygon(s.map, i, 0.97))
        path.closeSubpath()
        self.selection.set_outlines([(path, cosmetic_pen(style.SELECTION, 2.5))])

    def _on_answers(self) -> None:
        a = self.document.answers
        m = a.scenario.map
        if m.content_key != self.map.content_key:
            return                       # answers for a map no longer shown
        light = a.light
        shown = self._lights_shown          # a drag step keeps the lights' objects
        if not (shown and shown[0] is light and shown[1] is a.gunflash):
            self._lights_shown = (light, a.gunflash)
            self.lit.set_areas([(style.LIT, light.lit, None)])
            self.blaze_shadows.set_mask(light.blind)
            self.gunflashes.set_mask(a.gunflash)
            circles = []
            for k, _reached in light.sources:
                mk = a.scenario.markers[k]
                star = api.night.MARKER_KINDS[mk.type].light is api.night.Light.STAR
                colour = style.LIGHT_CIRCLE if star else style.LIGHT_CIRCLE_FIRE
                path = disc_outline(m.pos(m.index(mk.hex)), mk.light_radius)
                circles.append((path, cosmetic_pen(colour, 2.2)))
            self.light_circles.set_outlines(circles)
        self.counters.set_side_view(a.side_sight if a.side is not None else {})
        self._draw_selection()
        self._draw_field(a)
        self._draw_placements()

    def _draw_field(self, a) -> None:
        f = a.field
        if f is None or (a.viewer == self.document.viewer and self.hides_viewer(a.side)):
            self.sight.set_areas([])
            self.viewer_blind.set_mask(None)
            self.nvr_ring.set_outlines([])
            self.moving_rings.set_outlines([])
            return
        codes = np.asarray(f.codes)
        self.sight.live = self.document.dragging
        gf_edge = cosmetic_pen(style.SIGHT_GUNFLASH_EDGE, 2.0, dashes=[3, 2])
        self.sight.set_areas([(style.SIGHT_NONE, codes == api.night.Sight.NONE.code, None),
                              (style.SIGHT_NVR, codes == api.night.Sight.NVR.code, None),
                              (style.SIGHT_GUNFLASH, codes == api.night.Sight.GUNFLASH.code, gf_edge)])
        self.viewer_blind.set_mask(np.asarray(f.blind_at_night))    # A6.4 where it matters
        if not a.scenario.night:    # rules.md 11.5: a day position has no NVR, no rings
            self.nvr_ring.set_outlines([])
            self.moving_rings.set_outlines([])
            return
        m = a.scenario.map
        at = m.pos(m.index(a.scenario.unit(a.viewer).hex))
        label = self._ring_label(at, a.nvr, f"NVR {a.nvr}", style.NVR_RING)
        self.nvr_ring.set_outlines([(disc_outline(at, a.nvr),
                                     cosmetic_pen(style.NVR_RING, 2.6, dashes=[6, 3]))],
                                   [label] if label else [])
        rings, labels = [], []
        for radius, text in sorted({a.moving_ranges[0]: "1.5\u00d7 NVR moving vehicle",
                                    a.moving_ranges[1]: "2\u00d7 NVR tracked"}.items()):
            if a.moving_ranges[0] == a.moving_ranges[1]:
                text = "1.5\u00d7/2\u00d7 NVR moving vehicle"
            rings.append((disc_outline(at, radius),
                          cosmetic_pen(style.MOVING_RING, 1.6, dashes=[1.5, 3])))
            labels.append(self._ring_label(at, radius, text, style.MOVING_RING))
        self.moving_rings.set_outlines(rings, [label for label in labels if label])

    def _ring_label(self, at, radius: int, text: str, colour):
        """A label just north of the ring's northernmost hexside, or south of its southernmost
        when that is off the map; when both are, just inside the map's top edge over the
        ring's centre (within the ring there; the labels keep clear of each other)."""
        rect = map_rect(self.map)
        for sign in (-1, 1):
            x, y = center(at[0], at[1] + sign * radius)
            anchor = QPointF(x * style.SCALE, (y + sign * 0.87) * style.SCALE)
            inside = QPointF(anchor.x(), anchor.y() + sign * 0.3 * style.SCALE)
            if rect.contains(inside):
                return (anchor, text, colour, sign < 0)
        x, _ = center(at[0], at[1])
        return (QPointF(x * style.SCALE, rect.top()), text, colour, False)

    # --------------------------------------------------------------------- hover
    def set_hovered(self, hex_index: int) -> None:
        if hex_index == self.hovered:
            return
        self.hovered = hex_index
        if hex_index < 0:
            self.hover.set_outlines([])
            return
        path = QPainterPath()
        path.addPolygon(hex_polygon(self.map, hex_index, 0.94))
        path.closeSubpath()
        labels = []
        if self.counters.ppu < style.LOD_COORDINATES:     # zoomed out: its id over it
            top = scene_center(self.map, hex_index) - QPointF(0, 0.95 * style.SCALE)
            labels.append((top, self.map.names[hex_index], style.BOARD_LABEL, True))
        self.hover.set_outlines([(path, cosmetic_pen(style.HOVER, 1.5))], labels)
