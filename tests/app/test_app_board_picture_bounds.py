"""A board picture the window cannot draw (a header claiming 65,535 x 65,535 pixels, a real
picture past the 40,000,000 pixels the window draws, a damaged file): nothing decoded, the
status bar says which picture and why, and the board's terrain is drawn without it; a large
picture within the bound is drawn."""
from __future__ import annotations

import resource
import struct
import zlib
from pathlib import Path

import pytest
import vasl5_synth as synth
from PIL import Image
from support import position, unit

from app.night.scene.board_art import MAX_PICTURE_PIXELS, BoardArtItem
from engine.boards import load_board, save_board
from engine.importers import vasl


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` grey pixels and whose data is a few
    bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@pytest.fixture
def pictured(tmp_path):
    """A VASL 5 board imported and saved with its picture; the picture's path."""
    archive = synth.SynthBoard().write(tmp_path / "bd61")
    board, _ = vasl.import_board(archive)
    save_board(board, tmp_path / "bd61.json")
    board = load_board(tmp_path / "bd61.json")
    return board, Path(board.path).parent / board.extra["image"]["file"]


def big_png(path: Path, width: int, height: int) -> None:
    Image.new("L", (width, height), 128).save(path, format="PNG")


CASES = {
    "a header claiming 65,535 x 65,535": (lambda p: p.write_bytes(png_claiming(65535, 65535)),
                                          "claims 65,535 x 65,535 pixels"),
    "a real picture past the bound": (lambda p: big_png(p, 8000, 5001),
                                      "claims 8,000 x 5,001 pixels"),
    "a damaged picture": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40),
                          "could not be read"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_picture_the_window_cannot_draw_is_said_and_the_terrain_drawn(
        case, pictured, window_on):
    board, picture = pictured
    make, words = CASES[case]
    make(picture)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    w = window_on(position(board, units=[unit("A", f"{board.id}C4")]))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - grown
    said = w.statusBar().currentMessage()
    assert picture.name in said and words in said and "terrain is drawn" in said, said
    assert not [i for i in w.scene.board_art if type(i) is BoardArtItem]
    assert w.scene.terrain.scene() is w.scene and w.scene.terrain.isVisible()
    assert grown < 200 * 1024, grown          # KiB: nothing of the claimed size allocated


def test_a_large_picture_within_the_bound_is_drawn(pictured, window_on):
    board, picture = pictured
    big_png(picture, 7000, 5000)
    assert 7000 * 5000 <= MAX_PICTURE_PIXELS
    w = window_on(position(board, units=[unit("A", f"{board.id}C4")]))
    art = [i for i in w.scene.board_art if type(i) is BoardArtItem]
    assert len(art) == 1 and art[0].image.width() == 7000 and art[0].image.height() == 5000
    assert "board picture" not in w.statusBar().currentMessage()
