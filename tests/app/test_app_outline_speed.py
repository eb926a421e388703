"""What makes the rings cheap to draw during a drag keeps their picture: a ring's label that stays
(a ring moved by a drag step) is drawn from an image of it, which looks like the label drawn
directly; a ring moved by a step is drawn from the stamp of its shape; labels still keep clear of
what ``keep_clear`` lists and of each other, at the spot the full search over every try finds."""
from __future__ import annotations

import math
import random

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage, QPainter
from support import board

from app import style
from app.hex_geometry import disc_outline, map_rect
from app.night.scene import outline_overlay, overlays
from engine.maps import Map, Placement

BACK = QColor("#203040")
TEXT = "1.5\u00d7 NVR moving vehicle"


def _map() -> Map:
    return Map([Placement(board("b1"), (0, 0))])


def _render(item, scale: float, dx: float, dy: float, size=(700, 500)) -> np.ndarray:
    """The item painted as the view paints it (raster, antialiased), at ``scale`` moved by
    (dx, dy) device pixels: rgb rows."""
    w, h = size
    img = QImage(w, h, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(BACK)
    p = QPainter(img)
    p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    p.translate(dx, dy)
    p.scale(scale, scale)
    item.paint(p, None)
    p.end()
    return np.frombuffer(img.constBits(), np.uint8).reshape(h, w, 4)[:, :, :3].astype(int)


def _ink(a: np.ndarray) -> np.ndarray:
    return np.abs(a - np.array([BACK.blue(), BACK.green(), BACK.red()])).max(axis=2) > 0


def _mass(a: np.ndarray) -> int:
    return int(np.abs(a - np.array([BACK.blue(), BACK.green(), BACK.red()])).sum())


def _box(a: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(_ink(a))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _label(at: QPointF, text: str = TEXT):
    return (at, text, QColor(style.MOVING_RING), True)


def test_a_label_drawn_from_its_image_looks_like_the_label_drawn_directly(qtbot):
    for scale in (0.33, 0.7, 1.0):
        item = outline_overlay.OutlineItem(_map(), 31, clip=False)
        label = _label(QPointF(300 / scale, 200 / scale))
        item.set_outlines([], [label])                     # shown for the first time: direct
        rect = item.label_rects(scale)[0][0]
        # the label's top left on a whole pixel, where the image is drawn at the same spot
        dx = math.ceil(rect.left() * scale) - rect.left() * scale
        dy = math.ceil(rect.top() * scale) - rect.top() * scale
        direct = _render(item, scale, dx, dy)
        assert not item._label_images
        item.set_outlines([], [_label(QPointF(0, 0))])     # moved away and back: it stays
        item.set_outlines([], [label])
        stamped = _render(item, scale, dx, dy)
        assert len(item._label_images) == 1                # drawn from its image
        assert _ink(direct).sum() > 1500                   # the label is there
        differ = np.abs(stamped - direct).max(axis=2)
        assert (differ > 2).mean() < 0.0002                # the same pixels, up to rounding
        assert differ.max() <= 64


def test_a_label_at_any_fraction_of_a_pixel_is_drawn_within_half_a_pixel_of_the_direct_one(qtbot):
    item = outline_overlay.OutlineItem(_map(), 31, clip=False)
    scale = 0.37
    label = _label(QPointF(300 / scale, 200 / scale))
    for dx, dy in [(0.1, 0.3), (0.49, 0.51), (0.8, 0.05), (0.25, 0.75)]:
        item.set_outlines([], [label])
        direct = _render(item, scale, dx, dy)
        item.set_outlines([], [_label(QPointF(0, 0))])
        item.set_outlines([], [label])
        stamped = _render(item, scale, dx, dy)
        item.set_outlines([], [])                          # gone: new again the next time
        assert all(abs(a - b) <= 1 for a, b in zip(_box(direct), _box(stamped)))
        # as much ink, spread by the shift over the edges' pixels
        assert abs(_mass(direct) - _mass(stamped)) < 0.03 * _mass(direct)
    assert len(item._label_images) == 1                    # one image for every spot


def test_a_label_shown_for_the_first_time_is_drawn_directly(qtbot):
    """The hovered hex's name changes every step of a drag: an image made for each would cost
    more than the text."""
    item = outline_overlay.OutlineItem(_map(), 46, clip=False)
    for k, name in enumerate(["2K7", "2L7", "2M8"]):
        item.set_outlines([], [(QPointF(300 + 60 * k, 300), name, QColor(style.BOARD_LABEL), True)])
        assert _ink(_render(item, 0.5, 0, 0)).sum() > 100
    assert not item._label_images


def test_a_ring_moved_by_a_drag_step_is_drawn_from_its_stamp_as_drawn_directly(qtbot, monkeypatch):
    item = outline_overlay.OutlineItem(_map(), 31, clip=False)
    pen = overlays.cosmetic_pen(QColor(style.MOVING_RING), 1.6, dashes=[1.5, 3])
    scale = 0.41
    images = set()
    for at in [(8, 4), (10, 4), (10, 5), (12, 6), (8, 4)]:      # columns of one parity: one shape
        item.set_outlines([(disc_outline(at, 4), pen)],
                          [_label(QPointF(*(v * style.SCALE for v in at)))])
        stamped = _render(item, scale, 0.3, 0.6)
        images |= {id(image) for *_, image in item._stamps}
        with monkeypatch.context() as mp:
            mp.setattr(outline_overlay.OutlineItem, "_stampable", staticmethod(lambda painter, t: False))
            direct = _render(item, scale, 0.3, 0.6)
        drawn, ref = _ink(stamped), _ink(direct)
        assert ref.sum() > 2000                            # the ring and its label are there
        # the same pixels, but for half a pixel of rounding along the ring's and label's edges
        assert (drawn & ref).sum() >= 0.9 * ref.sum()
        assert (drawn & ~ref).sum() <= 0.1 * ref.sum()
    assert len(item._stamps) == 1 and len(images) == 1     # one image, moved to every hex
    assert len(item._label_images) == 1


def _clear_spot_everywhere(avoid, x0, y0, w, h, gap, away, top, bottom):
    """The spot ``_clear_spot`` must find, by testing every try against every rectangle."""
    def clear(x, y):
        return not any(a < x + w + gap and c > x - gap and b < y + h + gap and d > y - gap
                       for a, b, c, d in avoid)
    if clear(x0, y0):
        return x0, y0
    for dy, dx in outline_overlay._TRIES:
        x, y = x0 + dx * w, y0 + away * dy * h
        if top <= y and y + h <= bottom and clear(x, y):
            return x, y
    return x0, y0


def test_a_label_goes_to_the_spot_the_search_over_every_try_finds(qtbot):
    rng = random.Random(7)
    moved = 0
    for _ in range(400):
        avoid = []
        for _ in range(rng.choice([0, 3, 40, 200])):
            x, y = rng.uniform(0, 2000), rng.uniform(0, 1000)
            avoid.append((x, y, x + rng.uniform(5, 120), y + rng.uniform(5, 40)))
        x0, y0 = rng.uniform(0, 2000), rng.uniform(0, 1000)
        args = (rng.uniform(80, 300), rng.uniform(15, 40), rng.uniform(0, 6), rng.choice([-1, 1]),
                0.0, 1000.0)
        found = outline_overlay._clear_spot(np.array(avoid).reshape(-1, 4), x0, y0, *args)
        expected = _clear_spot_everywhere(avoid, x0, y0, *args)
        assert np.allclose(found, expected, rtol=0, atol=1e-9)
        moved += found != (x0, y0)
    assert moved > 50                                      # many had to move


def test_labels_keep_clear_of_what_keep_clear_lists_and_of_each_other(qtbot):
    m = _map()
    item = outline_overlay.OutlineItem(m, 31)
    scale = 0.35
    at = QPointF(12 * 1.5 * style.SCALE, 3 * style.SCALE)
    # rectangles all over the anchor's neighbourhood but for a few gaps
    blocks = np.array([(at.x() - 400 + 90 * i, at.y() - 60 + 50 * j,
                        at.x() - 330 + 90 * i, at.y() - 25 + 50 * j)
                       for i in range(9) for j in range(3) if (i, j) not in [(0, 0), (7, 2)]])
    item.keep_clear = lambda s: blocks
    item.set_outlines([], [_label(at), _label(at, "2\u00d7 NVR tracked")])
    rects = [r for r, _, _ in item.label_rects(scale)]
    assert len(rects) == 2
    board_rect = map_rect(m)
    gap = 2 / scale
    for r in rects:
        assert board_rect.top() <= r.top() and r.bottom() <= board_rect.bottom()
        assert not any(r.left() - gap < c and a < r.right() + gap
                       and r.top() - gap < d and b < r.bottom() + gap for a, b, c, d in blocks)
    assert not rects[0].adjusted(-gap, -gap, gap, gap).intersects(rects[1])
    item.keep_clear = None                                 # nothing to avoid: right over it
    assert abs(item.label_rects(scale)[0][0].center().x() - at.x()) < 1e-9


def test_labels_reused_only_when_what_moved_could_not_move_them():
    """A label placement is reused when the rectangles it keeps clear of moved only out of its
    reach (``_unmoved_near``): in such cases placing it again gives the same spot, on 2,000
    seeded random layouts of rectangles and labels."""
    from app.night.scene.outline_overlay import _clear_spot, _reach, _unmoved_near
    rng = np.random.default_rng(11)
    reused = 0
    for _ in range(2000):
        n = int(rng.integers(1, 30))
        xy = rng.uniform(0, 400, (n, 2))
        wh = rng.uniform(5, 60, (n, 2))
        before = np.hstack([xy, xy + wh])
        now = before.copy()
        moved = rng.choice(n, int(rng.integers(1, min(n, 3) + 1)), replace=False)
        shift = rng.uniform(-150, 150, (len(moved), 2))
        now[moved] += np.hstack([shift, shift])
        labels = [(float(rng.uniform(0, 400)), float(rng.uniform(0, 400)),
                   float(rng.uniform(20, 80)), float(rng.uniform(8, 16)))
                  for _ in range(int(rng.integers(1, 3)))]
        gap = 2.0
        reach = np.array([_reach(x, y, w, h, gap) for x, y, w, h in labels])
        if not _unmoved_near(before, now, reach):
            continue
        reused += 1
        for x, y, w, h in labels:
            assert _clear_spot(before, x, y, w, h, gap, -1, 0, 500) == \
                _clear_spot(now, x, y, w, h, gap, -1, 0, 500)
    assert reused > 200
