"""Importing VASL 5 boards (a board image in VASL's colours): synthetic archives painted hex by
hex (tests/vasl5_synth.py), imported and compared hex by hex; bad archives refused cleanly."""
from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
import vasl5_synth as synth
from PIL import Image
from support import refused

from engine.boards import hexside_key, load_board
from engine.cli import main
from engine.hexes import board_hexes, column_name, parse_local
from engine.importers import grid, hexside_stations, vasl


@pytest.fixture(scope="module")
def painted():
    return synth.random_board(seed=5)


@pytest.fixture(scope="module")
def archive(painted, tmp_path_factory):
    return painted.write(tmp_path_factory.mktemp("vasl5") / "bd77")


@pytest.fixture(scope="module")
def imported(archive):
    return vasl.import_board(archive)


def expected_sides(b: synth.SynthBoard) -> dict:
    out = {}
    for key, name in b.sides.items():
        hex_id, d = key.split("/")
        col, row = parse_local(hex_id, b.size)
        out[hexside_key(col, row, int(d), b.size)] = name
    return out


def assert_round_trip(b: synth.SynthBoard, board) -> None:
    wrong = []
    for col, row in board_hexes(b.size):
        name = f"{column_name(col)}{row}"
        terrain, level = b.hexes.get(name, ("open", 0))
        got = board.at(col, row)
        if (got.terrain, got.level, got.half_level) != (terrain, level, terrain == "rubble"):
            wrong.append((name, (terrain, level), (got.terrain, got.level, got.half_level)))
    assert wrong == []
    assert board.hexsides == expected_sides(b)


# ----------------------------------------------------------------------------- round trips
def test_painted_board_imports_hex_by_hex(painted, imported):
    board, report = imported
    assert board.id == "77" and board.size == (33, 10)
    assert_round_trip(painted, board)
    counts = {}
    for col, row in board_hexes():
        t = board.at(col, row).terrain
        counts[t] = counts.get(t, 0) + 1
    line = next(r for r in report if r.startswith("terrain: "))
    for t, n in counts.items():
        assert f"{t} {n}" in line


def test_png_and_other_seeds_round_trip(tmp_path):
    for seed, kind in ((11, "png"), (12, "gif")):
        b = synth.random_board(seed)
        board, _ = vasl.import_board(b.write(tmp_path / f"bd{seed}", kind=kind))
        assert_round_trip(b, board)


def test_without_colors_file_our_table_names_the_colours(painted, tmp_path):
    board, report = vasl.import_board(painted.write(tmp_path / "bd78", colors=False))
    assert_round_trip(painted, board)
    assert "Starshell's copy of VASL's colour table" in report[0]


def test_buildings_grouped_across_hexes(tmp_path):
    b = synth.SynthBoard()
    b.building(["E4", "E5", "F5"], level=1)
    b.hex_("J3", "building", 0)
    b.hex_("K3", "woods", 2)
    board, _ = vasl.import_board(b.write(tmp_path / "bd3"))
    groups = {h: board.at(*parse_local(h)).building for h in ("E4", "E5", "F5", "J3")}
    assert groups == {"E4": "E4", "E5": "E4", "F5": "E4", "J3": None}
    assert board.at(*parse_local("E5")).upper_levels == 2       # "Stone Building, 2 Level"
    assert board.at(*parse_local("E5")).level == 1
    assert board.at(*parse_local("K3")).terrain == "woods"


def test_large_map_imports_with_its_size(tmp_path):
    """A 2363 x 971 pixel map of standard hexes holds 43 x 15 of them."""
    b = synth.SynthBoard(size=(43, 15), pixels=(2363, 971))
    b.hex_("PP14", "woods", 2)
    b.hex_("A15", "grain", 1)
    b.side("OO7", 3, "wall")
    board, report = vasl.import_board(b.write(tmp_path / "bdHASL"))
    assert board.size == (43, 15)
    assert "43 x 15 hexes" in report[0]
    assert_round_trip(b, board)


def test_map_with_offset_grid_reads_x0_y0(tmp_path):
    """A map with margins: x0, y0 place A1; the hexes are those inside equal margins."""
    b = synth.SynthBoard(size=(12, 6), a1=(70, 62), pixels=(759, 448))
    b.hex_("C3", "woods", 1)
    b.side("F4", 2, "hedge")
    path = b.write(tmp_path / "bdX", data="version 1.0\nx0 70\ny0 62\n")
    board, _ = vasl.import_board(path)
    assert board.size == (12, 6)
    assert board.extra["image"]["a1"] == [70, 62]
    assert_round_trip(b, board)


def test_hexes_whose_centres_fall_past_the_picture_read_what_is_there(tmp_path):
    """A map with margins whose last half hexes' centres lie beyond the picture's edge."""
    b = synth.SynthBoard(size=(12, 6), a1=(37, 32), pixels=(693, 360))
    b.hex_("D2", "woods", 1)
    path = b.write(tmp_path / "bdY", data="version 1.0\nx0 37\ny0 32\n")
    board, _ = vasl.import_board(path)
    assert board.size == (12, 6)
    assert board.at(*parse_local("D2", (12, 6))).terrain == "woods"
    assert board.at(*parse_local("L6", (12, 6))).terrain == "open"


def test_deluxe_size_hexes(tmp_path):
    """Deluxe boards' pictures: hexes of 168.72 x 193.53 pixels (``dx``, ``dy``)."""
    b = synth.SynthBoard(size=(15, 5), a1=(0, 97), hex_w=168.72, hex_h=193.53,
                         pixels=(2363, 971))
    b.hex_("C3", "woods", 1)
    b.hex_("F2", "grain", 0)
    b.side("H3", 2, "wall")
    path = b.write(tmp_path / "bdZ", data="dy 193.53\ndx 168.72\ny0 97\nversion 5.0\n")
    board, _ = vasl.import_board(path)
    assert board.size == (15, 5)
    assert_round_trip(b, board)


# --------------------------------------------------------------------------------- reports
def test_report_names_unknown_and_unnamed_colours(tmp_path):
    b = synth.SynthBoard()
    b.hex_("C3", "woods", 0)
    b.render()
    b.draw.rectangle([300, 300, 320, 320], fill=(1, 2, 3))         # a colour nobody names
    b.render = lambda: b.image
    text = synth.colors_file() + "MyOwnGreen 1,2,3\n"
    board, report = vasl.import_board(b.write(tmp_path / "bd4", colors=text, kind="png"))
    assert any("MyOwnGreen (441 pixels)" in r and "does not know" in r for r in report)
    b2 = synth.SynthBoard()
    b2.render()
    b2.draw.rectangle([300, 300, 320, 320], fill=(1, 2, 3))
    b2.render = lambda: b2.image                 # keep the extra colour
    board, report = vasl.import_board(b2.write(tmp_path / "bd5", kind="png"))
    assert any("1,2,3 (441 pixels)" in r and "does not name" in r for r in report)


def test_close_vote_is_reported(tmp_path):
    b = synth.SynthBoard()
    b.render()
    x, y = synth.centre(*parse_local("G4"))
    # half the centre disc woods, half grain
    b.draw.rectangle([x - 20, y - 20, x, y + 20], fill=synth.COLOURS["WoodsGreen"])
    b.draw.rectangle([x + 1, y - 20, x + 20, y + 20], fill=synth.COLOURS["GrainL0"])
    b.render = lambda: b.image
    board, report = vasl.import_board(b.write(tmp_path / "bd6", kind="png"))
    close = next(r for r in report if r.startswith("close votes"))
    assert "6G4 (" in close and "woods" in close and "grain" in close
    assert "6J4" not in close and board.at(*parse_local("J4")).level == 0


def test_close_level_vote_is_reported(tmp_path):
    b = synth.SynthBoard()
    b.render()
    x, y = synth.centre(*parse_local("J4"))
    b.draw.rectangle([x - 20, y - 20, x - 1, y + 20], fill=synth.COLOURS["Level1"])
    b.draw.rectangle([x, y - 20, x + 20, y + 20], fill=synth.COLOURS["Level2"])
    b.render = lambda: b.image
    board, report = vasl.import_board(b.write(tmp_path / "bd6", kind="png"))
    close = next(r for r in report if r.startswith("close votes"))
    assert "6J4 (level 2" in close and "level 1" in close
    assert board.at(*parse_local("J4")).level == 2


def test_colors_lines_without_a_colour_are_left_out_and_reported(painted, tmp_path):
    text = synth.colors_file().replace("WoodsBlack 44,42,22", "WoodsBlack\nOddLine 300,1,1")
    board, report = vasl.import_board(painted.write(tmp_path / "bd8", colors=text))
    line = next(r for r in report if r.startswith("colors file lines"))
    assert '"WoodsBlack"' in line and '"OddLine 300,1,1"' in line
    # VASL's board colours are its shared table with the colors file's names over it: a
    # colour the file leaves out is still named by the shared table (WoodsBlack is woods)
    assert not any("44,42,22" in r and "does not name" in r for r in report)
    woods = [h for h, (t, _) in painted.hexes.items() if t == "woods"]
    assert woods and all(board.at(*parse_local(h)).terrain == "woods" for h in woods)


def test_approximated_terrain_is_reported(tmp_path):
    b = synth.SynthBoard()
    b.render()
    x, y = synth.centre(*parse_local("H5"))
    b.draw.ellipse([x - 20, y - 20, x + 20, y + 20], fill=(177, 136, 57))     # Shellhole1
    b.render = lambda: b.image
    text = synth.colors_file() + "Shellhole1 177,136,57\n"
    board, report = vasl.import_board(b.write(tmp_path / "bd7", kind="png", colors=text))
    assert board.at(*parse_local("H5")).terrain == "open"
    assert any("'Shellholes' imported as 'open'" in r and "7H5" in r for r in report)


# ------------------------------------------------------------------------------ the files
def test_cli_writes_board_and_image(archive, tmp_path, capsys):
    out = tmp_path / "b.json"
    assert main(["import-vasl", str(archive), "-o", str(out), "--json"]) == 0
    data = json.loads(out.read_text())
    assert data["image"]["file"] == "bd77.gif"
    assert data["image"]["hex_width"] == 56.25 and data["image"]["a1"] == [0.0, 32.25]
    with zipfile.ZipFile(archive) as z:
        assert (tmp_path / "bd77.gif").read_bytes() == z.read("bd77.gif")
    board = load_board(out)
    assert board.hexsides and board.path == str(out)
    capsys.readouterr()


def test_saving_elsewhere_copies_the_image(archive, tmp_path):
    from engine.boards import save_board
    out = tmp_path / "a" / "b.json"
    out.parent.mkdir()
    board, _ = vasl.import_board(archive)
    save_board(board, out)
    loaded = load_board(out)
    again = tmp_path / "c" / "d.json"
    again.parent.mkdir()
    save_board(loaded, again)
    assert (again.parent / "bd77.gif").read_bytes() == (out.parent / "bd77.gif").read_bytes()


@pytest.mark.parametrize("case, words", [
    ("colors", ("colors", "names no colour")),
    ("huge", ("pixels", "at most 40000000")),
    ("noimage", ("no LOSData",)),
    ("badimage", ("bd9.gif", "cannot be decoded")),
])
def test_bad_archives_refused_and_nothing_written(case, words, tmp_path, capsys):
    path = tmp_path / "bd9"
    b = synth.SynthBoard(size=(4, 3))
    if case == "colors":
        b.write(path, colors="// x\nWoodsGreen lots\n")
    elif case == "huge":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            import io
            buf = io.BytesIO()
            Image.new("1", (8000, 5001)).save(buf, "PNG")     # the size read from its header
            z.writestr("bd9.gif", buf.getvalue())
    elif case == "noimage":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("colors", synth.colors_file())
    elif case == "badimage":
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("bd9.gif", b"GIF89a" + bytes(40))
    refused(path, *words)
    out = tmp_path / "out.json"
    assert main(["import-vasl", str(path), "-o", str(out)]) == 2
    assert not out.exists() and not (tmp_path / "bd9.gif").exists()
    capsys.readouterr()


def test_geometry_sides_are_the_hexagon(tmp_path):
    """Side k of the hexagon runs between corners shared with the neighbour in direction k."""
    seg = hexside_stations.side_segments(grid.GEO)
    for d in range(1, 7):
        mid = seg[d - 1].mean(axis=0)
        # the neighbour's centre is twice the side's midpoint away (regular spacing)
        col, row = 10, 5
        from engine.hexes import DIRECTIONS, from_axial, to_axial
        q, r = to_axial(col, row)
        nc, nr = from_axial(q + DIRECTIONS[d][0], r + DIRECTIONS[d][1])
        x0, y0 = grid.GEO.centres(np.array([col]), np.array([row]))
        x1, y1 = grid.GEO.centres(np.array([nc]), np.array([nr]))
        assert abs(2 * mid[0] - (x1[0] - x0[0])) < 1e-9
        assert abs(2 * mid[1] - (y1[0] - y0[0])) < 1e-9
