"""Outlines drawn as a stamp (an image drawn once per ring shape, pen and zoom, then moved: what
a drag repaints every frame) look like the outline drawn directly, wherever the ring moves."""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor, QImage, QPainter
from support import board

from app import style
from app.hex_geometry import disc_outline
from app.night.scene import outline_overlay, overlays
from engine.maps import Map, Placement


def _image(item, scale: float) -> np.ndarray:
    img = QImage(700, 500, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(0)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(scale, scale)
    item.draw(p)
    p.end()
    return np.frombuffer(img.constBits(), np.uint8).reshape(500, 700, 4)[:, :, 3].copy()


def test_a_ring_moved_hex_by_hex_is_drawn_where_the_direct_drawing_draws_it(qtbot, monkeypatch):
    m = Map([Placement(board("b1"), (0, 0))])
    item = outline_overlay.OutlineItem(m, 31)
    pen = overlays.cosmetic_pen(QColor(style.MOVING_RING), 1.6, dashes=[1.5, 3])
    for at in [(8, 4), (9, 4), (10, 5), (9, 4)]:
        item.set_outlines([(disc_outline(at, 3), pen)])
        stamped = _image(item, 0.37)
        with monkeypatch.context() as mp:
            mp.setattr(outline_overlay.OutlineItem, "_draw_stamp",
                       lambda self, painter, t, path, pen: outline_overlay._draw_glowing(painter, path,
                                                                                  pen))
            direct = _image(item, 0.37)
        drawn, ref = stamped > 40, direct > 40
        assert ref.sum() > 500                          # the ring is there
        # the same pixels, but for half a pixel of rounding along the ring's edges
        assert (drawn & ref).sum() >= 0.85 * ref.sum()
        assert (drawn & ~ref).sum() <= 0.15 * ref.sum()
    assert len(item._stamps) == 1                       # one image, moved to every hex
