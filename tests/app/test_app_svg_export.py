"""The SVG export draws nothing past the boards' edges (QSvgGenerator writes no clipping): rings and
dark hexes, and a board picture with margins cut to its board."""
from __future__ import annotations

import json
import re
from pathlib import Path

import vasl5_synth as synth
from app_testing import settle
from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from app import style
from app.export import export_png, export_svg
from app.hex_geometry import map_rect, placement_rect
from engine.boards import save_board
from engine.importers import vasl


def test_svg_export_keeps_rings_and_dark_hexes_inside_the_boards(window, qtbot, tmp_path):
    """The SVG has no drawing past the boards' edges (the screen clips there; QSvgGenerator
    writes no clipping)."""
    view, doc = window.view, window.document
    doc.select("L1")                      # a dark veil over every hex, half hexes too
    settle(qtbot, doc)
    view.fit_map()
    path = tmp_path / "view.svg"
    export_svg(view, str(path))
    size = view.viewport().size()
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(path)).render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    edge = view.mapFromScene(map_rect(doc.scenario.map).topLeft())
    bottom = view.mapFromScene(map_rect(doc.scenario.map).bottomLeft())
    bg = style.BACKGROUND
    for y in range(edge.y() + 10, bottom.y() - 10, 7):
        c = image.pixelColor(edge.x() - 4, y)      # left of board 2's edge: half hexes of A
        off = abs(c.red() - bg.red()) + abs(c.green() - bg.green()) + abs(c.blue() - bg.blue())
        assert off < 12, (y, c.name())


MARGIN_GROUND = QColor(*synth.COLOURS["Level0"])      # the picture's margins: open ground


def board_with_margins(folder: Path) -> Path:
    """A VASL 5 board whose picture has margins (A1's centre 70 and 62 pixels in), imported:
    ``bd91.json`` beside its picture, and a position on it alone."""
    b = synth.SynthBoard(size=(12, 6), a1=(70, 62), pixels=(759, 448))
    b.hex_("C3", "woods", 1)
    board, _ = vasl.import_board(b.write(folder / "bd91", data="version 1.0\nx0 70\ny0 62\n"))
    save_board(board, folder / "bd91.json")
    s = {"format": "starshell-scenario", "version": 1, "title": "margins",
         "map": [{"board": "bd91.json", "at": [0, 0], "rotated": False}],
         "nvr": 3, "phase": "PFPh", "attacker": "allied", "starshells_used": "never",
         "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "91F3"}],
         "markers": []}
    path = folder / "margins.json"
    path.write_text(json.dumps(s))
    return path


def picture_pixels(image: QImage, board: QRect, inside: bool) -> int:
    """How many pixels of the picture's open ground lie inside (or outside) ``board``."""
    n = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            if board.contains(x, y) != inside:
                continue
            c = image.pixelColor(x, y)
            if max(abs(c.red() - MARGIN_GROUND.red()), abs(c.green() - MARGIN_GROUND.green()),
                   abs(c.blue() - MARGIN_GROUND.blue())) <= 12:
                n += 1
    return n


def test_svg_export_cuts_a_board_picture_with_margins_to_its_board(window_on, qtbot, tmp_path):
    """A board imported from a VASL picture with margins: the screen and the PNG export cut the
    picture at the board's edge, but the SVG export drew the whole picture, margins and all,
    past the board's edges (QSvgGenerator writes no clipping).  Now the picture is cropped to
    the board before it is drawn: rendered back, the SVG shows the picture inside the board
    and nothing of it outside."""
    w = window_on(board_with_margins(tmp_path))
    assert len(w.scene.board_art) == 1
    view = w.view
    view.fit_map()
    size = view.viewport().size()
    board = view.mapFromScene(placement_rect(w.scene.map, 0)).boundingRect()
    inner, outer = board.adjusted(3, 3, -3, -3), board.adjusted(-3, -3, 3, 3)
    assert QRect(0, 0, size.width(), size.height()).contains(outer.adjusted(-20, -20, 20, 20))
    png = tmp_path / "view.png"
    export_png(view, str(png))
    at = view.export_rect().topLeft()                   # the PNG: the map's part of the view
    assert picture_pixels(QImage(str(png)), outer.translated(-at), inside=False) == 0
    svg = tmp_path / "view.svg"
    export_svg(view, str(svg))
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    assert picture_pixels(image, inner, inside=True) > inner.width() * inner.height() / 8
    assert picture_pixels(image, outer, inside=False) == 0
    # the board's own picture at its own resolution, cut to its 12 x 6 hexes (56.25 x 64.5
    # pixels each), not a copy of the screen
    sizes = [(int(a), int(b)) for a, b in
             re.findall(r'<image [^>]*width="(\d+)" height="(\d+)"', svg.read_text())]
    assert any(abs(a - 12 * 56.25) <= 2 and abs(b - 6 * 64.5) <= 2 for a, b in sizes), sizes
