"""A VASL 6 archive imports with its board picture, aligned as VASL draws it (its pixel (0, 0) at
the LOS grid's), and its SSR overlay images listed, not applied."""
from __future__ import annotations

import io

import numpy as np
import pytest
import vasl_synth as synth
from PIL import Image

from engine.boards import load_board, save_board
from engine.hexes import center, parse_local
from engine.importers import vasl
from engine.importers.grid import GEO
from engine.maps import Map, Placement

MARKED = ("C5", "P7", "Y2")        # hexes whose centre pixel the picture paints red


def picture(size=(1800, 645), marked=MARKED) -> bytes:
    """A board picture: grey, a red dot at the centre of each marked hex (VASL's geometry)."""
    pixels = np.full((size[1], size[0], 3), 128, dtype=np.uint8)
    for hex_id in marked:
        col, row = parse_local(hex_id)
        x, y = GEO.centres(np.array([col]), np.array([row]))
        cx, cy = int(round(float(x[0]))), int(round(float(y[0])))
        pixels[cy - 2:cy + 3, cx - 2:cx + 3] = (255, 0, 0)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


OVERLAYS = (b'<overlaySSRules><overlaySSRule name="NoCliffs" image="98_NoCliffs.gif" x="487" '
            b'y="90" /><overlaySSRule name="DenseJungle" image="98_DenseJungle.gif" x="1" '
            b'y="1" /></overlaySSRules>')


def archive(tmp_path, image: bytes, name="bd98.png", overlays=b"") -> object:
    drawn = synth.standard_board("98")
    meta = synth.metadata_xml("98").replace(b'boardImageFileName="bd98.gif"',
                                            f'boardImageFileName="{name}"'.encode())
    meta = meta.replace(b"</boardMetadata>", overlays + b"</boardMetadata>")
    return synth.write_archive(tmp_path / "bd98", {
        "BoardMetadata.xml": meta, name: image, "data": b"VERSION 1.0\n",
        "LOSData": synth.los_data(drawn.payload())})


def test_picture_kept_and_written_beside_the_board(tmp_path):
    raw = picture()
    board, report = vasl.import_board(archive(tmp_path, raw))
    image = board.extra["image"]
    assert image["file"] == "bd98.png" and image["pixels"] == [1800, 645]
    assert image["a1"] == [GEO.a1_x, GEO.a1_y] and image["hex_width"] == GEO.hex_width
    assert board.image_data == raw
    out = tmp_path / "out" / "bd98.json"
    out.parent.mkdir()
    save_board(board, out)
    assert (out.parent / "bd98.png").read_bytes() == raw
    assert not any("picture" in line for line in report)


@pytest.mark.parametrize("turned", [False, True])
def test_picture_lies_on_its_hexes(tmp_path, turned):
    """The picture's red dots land on the centres of their hexes on the map (turned or not)."""
    out = tmp_path / "bd98.json"
    save_board(vasl.import_board(archive(tmp_path, picture()))[0], out)
    m = Map([Placement(load_board(out), (0, 0), turned)])
    where = vasl.vasl5.board_image_placement(m, 0)
    a, b, c, d, e, f = where["affine"]
    with Image.open(where["path"]) as im:
        red = np.argwhere(np.all(np.asarray(im.convert("RGB")) == (255, 0, 0), axis=2))
    dots = {(int(u), int(v)) for v, u in red}
    for hex_id in MARKED:
        col, row = parse_local(hex_id)
        x, y = GEO.centres(np.array([col]), np.array([row]))
        u, v = float(x[0]), float(y[0])
        assert (round(u), round(v)) in dots
        gx, gy = a * u + b * v + c, d * u + e * v + f
        want = _map_centre(m, hex_id, turned)
        assert abs(gx - want[0]) < 1e-6 and abs(gy - want[1]) < 1e-6, (hex_id, turned)


def _map_centre(m: Map, hex_id: str, turned: bool) -> tuple[float, float]:
    from engine.maps import place_in_slot
    col, row = parse_local(hex_id)
    p = m.placements[0]
    pc, pn = place_in_slot(col, row, turned, p.board.size)
    ox, oy = m.origins[0]
    return center(ox + pc, oy + pn)


def test_ssr_overlays_listed_not_applied(tmp_path):
    board, report = vasl.import_board(archive(tmp_path, picture(), overlays=OVERLAYS))
    listed = board.extra["image"]["ssr_overlays"]
    assert [o["name"] for o in listed] == ["NoCliffs", "DenseJungle"]
    assert listed[0] == {"name": "NoCliffs", "image": "98_NoCliffs.gif", "at": ["487", "90"]}
    assert any("2 SSR overlay image(s) listed, not applied: NoCliffs, DenseJungle" in line
               for line in report)


def test_picture_of_another_size_is_not_drawn(tmp_path):
    board, report = vasl.import_board(archive(tmp_path, picture(size=(900, 300), marked=())))
    assert "image" not in board.extra and board.image_data is None
    assert any("900 x 300 pixels but the LOS data covers 1800 x 645: not drawn" in line
               for line in report), report


def test_damaged_picture_imports_the_terrain_without_it(tmp_path):
    board, report = vasl.import_board(archive(tmp_path, b"GIF89a not an image"))
    assert "image" not in board.extra and board.hexes
    assert any(line.startswith("bd98.png: the board picture cannot be read") for line in report)

