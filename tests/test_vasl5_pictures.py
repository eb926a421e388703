"""VASL 5 pictures as VASL allows them (rules.md 11.6): a picture over VASL's 10 million pixel
grid read at one pixel in a whole step, a JPEG picture (its colours not read), and VASL's
``alternate`` hex numbering."""
from __future__ import annotations

import io
import zipfile

import pytest
import vasl5_synth as synth

from engine.hexes import parse_local
from engine.importers import vasl, vasl5_image


def _at(board, hex_id: str):
    return board.at(*parse_local(hex_id, board.size))


def _painted(size=(9, 6)):
    b = synth.SynthBoard(size=size)
    b.hex_("C3", "woods")
    b.hex_("E4", "open", 1)
    b.hex_("F2", "open", 1)
    b.building(["G4"])
    return b


@pytest.mark.parametrize("w, h, step", [(1800, 645, 1), (3162, 3162, 1), (3163, 3163, 2),
                                        (2994, 4537, 2), (3825, 5160, 2), (8000, 5000, 2)])
def test_reading_step_is_the_smallest_that_fits_the_grid(w, h, step):
    assert vasl5_image.reading_step(w, h) == step
    assert -(-w // step) * -(-h // step) <= vasl5_image.MAX_IMAGE_PIXELS
    if step > 1:
        s = step - 1
        assert -(-w // s) * -(-h // s) > vasl5_image.MAX_IMAGE_PIXELS


def test_a_large_picture_is_read_reduced_with_its_hexes(tmp_path, monkeypatch):
    b = _painted()
    path = b.write(tmp_path / "bd71")
    whole, _ = vasl.import_board(path)
    w, h = b.image.size
    # the grid bound made smaller than this picture: it is read at one pixel in 2
    monkeypatch.setattr(vasl5_image, "MAX_IMAGE_PIXELS", (w * h) // 3)
    board, report = vasl.import_board(path)
    assert any("read at one pixel in 2" in line for line in report)
    assert board.raster.shape == (-(-h // 2), -(-w // 2))
    assert board.raster.geometry == pytest.approx((0.0, 32.25 / 2, 56.25 / 2, 64.5 / 2))
    image = board.extra["image"]                  # the art is the picture, whole
    assert image["pixels"] == [w, h] and image["hex_width"] == 56.25
    assert image["a1"] == [0.0, 32.25]
    assert _at(board, "C3").terrain == "woods" and _at(board, "G4").terrain == "building"
    assert _at(board, "E4").level == 1 and _at(board, "F2").level == 1
    assert {k: (v.terrain, v.level) for k, v in board.hexes.items()} == \
        {k: (v.terrain, v.level) for k, v in whole.hexes.items()}


def test_a_jpeg_picture_imports_as_open_ground_with_its_picture(tmp_path):
    b = _painted()
    buf = io.BytesIO()
    b.render().save(buf, "JPEG", quality=90)
    path = tmp_path / "bd72"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("bd72.gif", buf.getvalue())      # VASL's JPEGs keep a .gif name
        z.writestr("data", "version 1.0\n")
    board, report = vasl.import_board(path)
    assert board.size == (9, 6)
    assert board.hexes == {} and board.default.terrain == "open" and board.default.level == 0
    assert any("a JPEG picture" in line and "no terrain is read" in line for line in report)
    assert board.image_data == buf.getvalue()
    assert int(board.raster.level.max()) == 0


@pytest.mark.parametrize("y0, ours, vasls", [(96.75, "A1", "A0"), (32.25, "B0", "B1")])
def test_an_alternate_map_imports_and_says_how_its_hexes_are_named(y0, ours, vasls, tmp_path):
    # ASLHexGrid's "alternate": the same grid, odd columns numbered from half a hex above A1.
    # Painted with A1 at y = 32.25; the data file puts VASL's A1 at y0: one hex lower
    # (our A1 is VASL's A0) or the same (our B0, at the top edge, is VASL's B1)
    b = _painted()
    path = b.write(tmp_path / "bd73", data=f"version 1.0\nalternate true \nx0 0\ny0 {y0}\n")
    board, report = vasl.import_board(path)
    assert board.size == (9, 6)
    assert _at(board, "C3").terrain == "woods" and _at(board, "G4").terrain == "building"
    assert _at(board, "E4").level == 1 and _at(board, "F2").level == 1
    note = [line for line in report if "'alternate' way" in line]
    assert len(note) == 1 and "named as VASL names them" in note[0]
    # rules.md 11.6: the hex at our position is named as VASL names it, on the map too
    from engine.maps import Map, Placement
    assert board.name(*parse_local(ours, board.size)) == vasls
    assert Map.build([Placement(board, (0, 0))]).has(f"73{vasls}")


def test_alternate_is_read_as_vasl_reads_its_data_file(tmp_path):
    # DataFile: the word after the key, Boolean.parseBoolean; "alternate=true" is one word
    b = _painted()
    for data, alternate in (("alternate=true\n", False), ("alternate TRUE\n", True),
                            ("alternate yes\n", False)):
        board, report = vasl.import_board(b.write(tmp_path / "bd74", data=data))
        assert any("'alternate' way" in line for line in report) == alternate
