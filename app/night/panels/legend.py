"""The legend: what each colour and pattern means, with a checkbox per layer (bound to the View
menu's action of the same layer), and a key to the terrain."""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap, QPolygonF, QRegion
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QWidget

from app import style

from ..scene.hexsides import legend_swatch as hexside_swatch
from ..scene.layers import LAYERS
from ..scene.terrain_art import TERRAIN_LOOKS

W, H = 40, 26


def _hex() -> QPolygonF:
    r = H / math.sqrt(3) * 1.0
    return QPolygonF([QPointF(W / 2 + r * math.cos(math.radians(a)), H / 2 + r * math.sin(math.radians(a)))
                      for a in range(0, 360, 60)])


def swatch(fill: QColor | None = None, edge: QPen | None = None, hatch: QColor | None = None,
           cross: bool = False, ground: QColor = style.GROUND[0]) -> QPixmap:
    """A small hex of open ground with an overlay on it, as the map draws it."""
    pix = QPixmap(W, H)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    shape = _hex()
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(ground)
    p.drawPolygon(shape)
    if fill is not None:
        p.setBrush(fill)
        p.drawPolygon(shape)
    if hatch is not None:
        p.setClipRegion(QRegion(shape.toPolygon()))
        p.setPen(QPen(hatch, 1.3))
        for x in range(-H, W, 5):
            p.drawLine(QLineF(x, H, x + H, 0))
            if cross:
                p.drawLine(QLineF(x, 0, x + H, H))
    p.setClipping(False)
    if edge is not None:
        p.setPen(edge)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolygon(shape)
    p.end()
    return pix


def _pen(colour, width=2.0, dashes=None) -> QPen:
    pen = QPen(colour, width)
    if dashes:
        pen.setDashPattern(dashes)
    return pen


def layer_keys() -> dict[str, list[tuple[QPixmap, str]]]:
    return {
        "sight": [(swatch(style.SIGHT_NVR), "LOS, within NVR or lit (E1.1, E1.101)"),
                  (swatch(style.SIGHT_GUNFLASH, _pen(style.SIGHT_GUNFLASH_EDGE, 2, [3, 2])),
                   "LOS only by a Gunflash: fire halved, never Known (E1.81)"),
                  (swatch(style.SIGHT_NONE), "no LOS: hover the hex for the reason")],
        "nvr_ring": [(swatch(None, _pen(style.NVR_RING, 2.5, [4, 2])), "the unit's NVR")],
        "moving_rings": [(swatch(None, _pen(style.MOVING_RING, 2, [1, 2])),
                          "a moving vehicle is seen out to 1.5\u00d7 NVR, 2\u00d7 if tracked (E1.14)")],
        "lights": [(swatch(style.LIT, _pen(style.LIGHT_CIRCLE, 2.2)),
                    "lit by a starshell (3) or IR (6) within its circle"),
                   (swatch(style.LIT, _pen(style.LIGHT_CIRCLE_FIRE, 2.2)),
                    "lit by a Blaze or Flame (its radius)")],
        "blaze_shadows": [(swatch(None, None, style.BLAZE_SHADOW),
                           "in a fire's circle, its light cannot reach (blind)")],
        "viewer_blind": [(swatch(None, None, style.VIEWER_BLIND, True),
                          "blind hex of the selected unit (A6.4)")],
        "gunflashes": [(swatch(None, _pen(style.GUNFLASH_LOCATION, 2.5)),
                        "a Gunflash or fire marker (E1.8)")],
    }


def map_key_entries() -> list[tuple[QPixmap, str]]:
    """The short key printed on the map (screenshots)."""
    return [(swatch(style.SIGHT_NVR), "within NVR or lit"),
            (swatch(style.SIGHT_GUNFLASH, _pen(style.SIGHT_GUNFLASH_EDGE, 2, [3, 2])),
             "Gunflash only: fire halved"),
            (swatch(style.SIGHT_NONE), "no LOS"),
            (swatch(style.LIT, _pen(style.LIGHT_CIRCLE, 2.2)), "lit: starshell / IR circle"),
            (swatch(style.LIT, _pen(style.LIGHT_CIRCLE_FIRE, 2.2)), "lit: Blaze / Flame circle"),
            (swatch(None, None, style.BLAZE_SHADOW), "blind to the fire's light"),
            (swatch(None, None, style.VIEWER_BLIND, True), "blind hex of the viewer (A6.4)"),
            (swatch(None, _pen(style.GUNFLASH_LOCATION, 2.5)), "Gunflash / fire marker"),
            (swatch(None, _pen(style.NVR_RING, 2.5, [4, 2])), "NVR ring"),
            (swatch(None, _pen(style.MOVING_RING, 2, [1, 2])), "moving vehicle 1.5× / 2× NVR")]


def level_swatch(level: int) -> QPixmap:
    """A hill hex as the map draws it: its level's ground, its contour and its number; the
    right half under the night veil (no LOS), where the number and contour still read."""
    pix = swatch(ground=style.GROUND[level])
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setClipRect(W // 2, 0, W - W // 2, H)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(style.SIGHT_NONE)
    p.drawPolygon(_hex())
    p.setClipping(False)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.setPen(QPen(style.HILL_CONTOUR, 1.4))
    p.drawPolygon(_hex())
    p.setPen(style.LEVEL_TEXT)
    p.setFont(style.font(10, bold=True))
    p.drawText(pix.rect(), Qt.AlignmentFlag.AlignCenter, f"L{level}")
    p.end()
    return pix


def building_swatch() -> QPixmap:
    """A building hex: the whole hex is building, its walls drawn inside."""
    pix = swatch(ground=style.BUILDING_GROUND)
    p = QPainter(pix)
    p.setPen(_pen(style.BUILDING_EDGE, 1.5))
    p.setBrush(style.BUILDING)
    p.drawRect(W // 2 - 11, H // 2 - 8, 22, 16)
    p.end()
    return pix


def terrain_keys() -> list[tuple[QPixmap, str]]:
    keys = [(level_swatch(level), f"hill, level {level}: its number and contour show at night "
             "too (right half: no LOS)" if level == 1 else f"hill, level {level}")
            for level in (1, 2, 3)]
    keys.append((building_swatch(), "building (the whole hex; +N lvl: its upper levels)"))
    for name in ("woods", "grain", "brush", "orchard", "dense_jungle", "light_jungle", "bamboo"):
        look = TERRAIN_LOOKS[name]
        keys.append((swatch(None, _pen(look.detail, 2), ground=look.fill), name.replace("_", " ")))
    keys.append((hexside_swatch(W, H), "hexsides (rules.md 7): wall (grey, N), hedge (green, "
                 "NE), bocage (thick, SE), cliff (brown ticks, S), rowhouse wall (black, SW)"))
    return keys


class LegendPanel(QWidget):
    def __init__(self, actions: dict, parent=None):
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setVerticalSpacing(3)
        keys = layer_keys()
        row = 0
        self.checkboxes = {}
        for layer in LAYERS:
            box = QCheckBox(layer.label)
            action = actions[layer.name]
            box.setChecked(action.isChecked())
            box.toggled.connect(action.setChecked)
            action.toggled.connect(box.setChecked)
            self.checkboxes[layer.name] = box
            grid.addWidget(box, row, 0, 1, 2)
            row += 1
            for pix, text in keys.get(layer.name, []):
                row = self._key_row(grid, row, pix, text)
        grid.addWidget(QLabel("<b>Terrain</b>"), row, 0, 1, 2)
        row += 1
        for pix, text in terrain_keys():
            row = self._key_row(grid, row, pix, text)
        grid.setRowStretch(row, 1)

    @staticmethod
    def _key_row(grid: QGridLayout, row: int, pix: QPixmap, text: str) -> int:
        icon = QLabel()
        icon.setPixmap(pix)
        label = QLabel(text)
        label.setWordWrap(True)
        grid.addWidget(icon, row, 0, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(label, row, 1)
        return row + 1
