"""The field's image (app/night/scene/field_image.py): pixels updated hex by hex must be the pixels of
the image drawn whole for the same classes and hatched hexes, on a map of four boards, at a
zoom and scroll that leave fractions of a pixel."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PySide6.QtGui import QColor

from app import style
from app.night.scene.field_image import FieldImage, HexRaster
from app.night.scene.hatch_overlay import HatchOverlay

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from mapgen import random_map  # noqa: E402


def test_hex_by_hex_updates_equal_the_image_drawn_whole(qapp):
    _, m = random_map()
    raster = HexRaster(m, 0.31, 17.4, -23.6, 700, 520)
    colours = [QColor(10, 10, 30, 150), QColor(90, 160, 255, 70), QColor(255, 170, 0, 90)]
    look = HatchOverlay(m, 20.5, style.VIEWER_BLIND, cross=True).look
    rng = np.random.default_rng(7)
    classes = rng.integers(0, 4, m.size)
    hatched = rng.random(m.size) < 0.1
    live = FieldImage(raster)
    live.show(colours, classes, look, hatched)
    for _ in range(12):                           # drag steps: a few dozen hexes change
        some = rng.choice(m.size, 40, replace=False)
        classes[some] = rng.integers(0, 4, 40)
        hatched[rng.choice(m.size, 8, replace=False)] ^= True
        live.show(colours, classes, look, hatched)
        whole = FieldImage(raster)
        whole.show(colours, classes, look, hatched)
        assert np.array_equal(live.pixels, whole.pixels)
    live.show(colours, classes)                  # the hatching's layer hidden
    whole = FieldImage(raster)
    whole.show(colours, classes)
    assert np.array_equal(live.pixels, whole.pixels)
    # the hexes' own pixels: off the map nothing, a hatched hex many shades (tile and border)
    first = raster.first
    assert not live.pixels[first < 0].any()
    live.show(colours, classes, look, hatched)
    one = int(np.flatnonzero(hatched & (classes == 0))[0])
    assert len(np.unique(live.pixels[first == one])) > 10
