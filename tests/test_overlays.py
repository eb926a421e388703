"""VASL overlays (rules.md 11.3): archives generated here in VASL's format (``overlay_synth``)
read, placed a..f, decoded colour by colour and pasted into a board's pixels."""
from __future__ import annotations

import io
import math
import zipfile

import numpy as np
import pytest
from overlay_synth import archive, data_file, filled, gif, hexagon_mask, rgb_of

from engine import api
from engine.boards import Board, HexTerrain, board_raster, with_raster
from engine.errors import ScenarioError
from engine.importers.overlays import (
    X_BUILDINGS,
    archive_name,
    find_archive,
    image_name,
    import_overlay,
    read_overlay,
)
from engine.importers.vasl5_image import colour_table
from engine.los import HILL, los_table
from engine.maps import Map, Placement
from engine.overlay_file import (
    KEEP_LEVEL,
    KEEP_TERRAIN,
    OverlayFile,
    load_overlay,
    overlay_from_bytes,
    save_overlay,
)
from engine.overlay_paste import (
    GEOMORPHIC,
    left_to_ssr,
    origin_shift,
    overlay_picture,
    overlays_hook,
    paste_overlay,
    place_overlay,
    with_pasted_hexes,
)
from engine.raster_file import Raster
from engine.ssr.apply import board_with_rules
from engine.vasl_terrain import VASL_TERRAIN

CODE = {t.name: c for c, t in VASL_TERRAIN.items()}
WOODS, STONE, WOODEN, OPEN, WALL, GULLY = 60, 40, 50, 0, 72, 30
SIX = "b2;b1;c1;d1;d2;c3"


def centre(name: str, geo=GEOMORPHIC) -> tuple[float, float]:
    """VASL's hex centre in pixels (written out here, apart from the engine's)."""
    letters = name.rstrip("0123456789").upper()
    row = int(name[len(letters):])
    col = (len(letters) - 1) * 26 + ord(letters[0]) - ord("A")
    a1_x, a1_y, w, h = geo
    if col % 2 == 0:
        return a1_x + w * col, a1_y + h * (row - 1)
    return a1_x + w * col, a1_y + h * row - h / 2


def whole(p):
    return math.floor(p[0] + 0.5), math.floor(p[1] + 0.5)


def six_images(name: str, shape=(70, 80), colour="WoodsGreen") -> dict:
    return {f"ovr{name}{o}.gif": gif(filled(shape, colour, hexagon_mask(shape, (40, 35))))
            for o in "abcdef"}


@pytest.mark.parametrize("name, expected", [
    ("x12", "ovrX"), ("x1", "ovrX"), ("rr10", "ovrRR"), ("1", "ovr1"), ("3", "ovr3"),
    ("be2", "ovrBE"), ("w4", "ovrW"), ("BFPDW3", "ovrBFPDW"), ("st10", "ovrST")])
def test_archive_name_drops_the_trailing_digits_of_a_letter_name(name, expected):
    assert archive_name(name) == expected


def test_shared_archives_give_their_images_to_the_names_that_share_them():
    assert image_name("be2", "c") == "ovrbe1c.gif"
    assert image_name("be6", "a") == "ovrbe4a.gif"
    assert image_name("oc2", "f") == "ovroc1f.gif"
    assert image_name("oc4", "b") == "ovroc3b.gif"
    assert image_name("x12", "a") == "ovrx12a.gif"


@pytest.mark.parametrize("hex1, hex2, expected", [
    ("E4", "E5", "d"), ("E5", "E4", "a"), ("F5", "E5", "f"), ("F4", "E5", "e"),
    ("E5", "F4", "b"), ("E5", "F5", "c")])
def test_each_orientation_and_its_origin_place_the_image(tmp_path, hex1, hex2, expected):
    origins = "b2;c3;d4;e5;f6;g7"
    path = archive(tmp_path / "ovrW", six_images("w2"), data_file({"w2": origins}))
    ov, _ = read_overlay(path, "w2")
    placed = place_overlay(ov, hex1, hex2)
    assert placed.orientation == expected
    origin = origins.split(";")["abcdef".index(expected)]
    (x1, y1), (ox, oy) = whole(centre(hex1)), whole(centre(origin))
    assert (placed.x, placed.y) == (x1 - ox, y1 - oy)
    assert placed.image is ov.images[expected]


def test_a_one_hex_overlay_is_always_orientation_a(tmp_path):
    img = {"ovrx1a.gif": six_images("x1")["ovrx1a.gif"]}
    ov, _ = read_overlay(archive(tmp_path / "ovrX", img, data_file({"x1": SIX})), "x1")
    for hex1, hex2 in (("N4", "N4"), ("N4", "N5"), ("N4", "O4")):
        placed = place_overlay(ov, hex1, hex2)
        assert placed.orientation == "a"
        assert (placed.x, placed.y) == tuple(a - b for a, b in zip(whole(centre("N4")),
                                                                    whole(centre("b2"))))


def test_origin_hexes_move_onto_boards_whose_first_hexes_lie_off_the_picture(tmp_path):
    """rules.md 11.3: b halves (A1 901 px left of the picture) shift columns by 16; a board
    whose A1 lies 10 hexes above shifts rows by 10."""
    b_half = (-901.0, 32.25, 56.3125, 64.5)
    assert origin_shift(b_half) == (16, 0)
    assert origin_shift(GEOMORPHIC) == (0, 0)
    assert origin_shift((0.0, 32.25 - 645.0, 56.25, 64.5)) == (0, 10)
    img = {"ovrx1a.gif": six_images("x1")["ovrx1a.gif"]}
    ov, _ = read_overlay(archive(tmp_path / "ovrX", img, data_file({"x1": SIX})), "x1")
    placed = place_overlay(ov, "T4", "T4", b_half)
    (x1, y1), (ox, oy) = whole(centre("T4", b_half)), whole(centre("R2", b_half))
    assert (placed.x, placed.y) == (x1 - ox, y1 - oy)
    unshifted = place_overlay(ov, "T4", "T4", b_half, shift=(0, 0))
    assert abs(unshifted.x - placed.x - 16 * 56.3125) <= 1 and unshifted.y == placed.y


def _decodable_names(rng, count):
    """Colour names with a terrain our table knows and a level, a colour no other name has,
    and no depression or white (their own rules are tested apart)."""
    table = colour_table()
    rgbs = {}
    for c in table.values():
        rgbs.setdefault(c.rgb, []).append(c.name)
    names = [c.name for c in table.values() if c.terrain in CODE and len(rgbs[c.rgb]) == 1
             and c.level is not None and c.rgb != (255, 255, 255) and c.terrain not in (
                 "Gully", "Dry Stream", "Shallow Stream", "Deep Stream", "Sunken Road", "Wadi")]
    return list(rng.choice(names, size=count, replace=False))


def test_every_opaque_pixel_decodes_to_the_terrain_and_level_drawn(tmp_path):
    rng = np.random.default_rng(7)
    names = _decodable_names(rng, 40)
    grid = np.array(rng.choice(names + [""] * 8, size=(60, 90)), dtype=object)
    path = archive(tmp_path / "ovrT", {"ovrt1a.gif": gif(grid)}, data_file({"t1": SIX}))
    ov, report = read_overlay(path, "t1")
    im = ov.images["a"]
    table = colour_table()
    opaque = grid != ""
    assert np.array_equal(im.mask, opaque)
    for y, x in zip(*np.nonzero(opaque)):
        entry = table[grid[y, x]]
        assert im.terrain[y, x] == CODE[entry.terrain]
        assert im.level[y, x] == entry.level
    stats = report.images["a"]
    assert stats["opaque"] == stats["decoded"] == int(opaque.sum())
    assert stats["nearest"] == stats["unknown_colours"] == 0
    assert "0 colour(s) no table names (0 pixels)" in report.lines()[0]


def test_white_unknown_colours_depressions_and_x_buildings(tmp_path):
    grid = filled((20, 40), "")
    grid[:, 0:10] = "White"
    grid[:, 10:20] = "GullyHill1"               # a gully in a level-1 hill: level 0
    grid[:, 20:30] = "StoneBldg3"
    grid[:, 30:40] = "Woods_odd"
    odd = (rgb_of("WoodsGreen")[0] + 2, rgb_of("WoodsGreen")[1] - 1, rgb_of("WoodsGreen")[2])
    raw = gif(grid, rgb={"Woods_odd": odd})
    for name, building in (("x3", WOODEN), ("x10", 52), ("x2", STONE), ("x14", 40), ("a5", STONE)):
        path = archive(tmp_path / f"ovr{name}", {f"ovr{name}a.gif": raw},
                       data_file({name: SIX}))
        ov, report = read_overlay(path, name)
        im = ov.images["a"]
        assert (im.terrain[:, 0:10] == OPEN).all() and (im.level[:, 0:10] == 0).all()
        assert (im.terrain[:, 10:20] == GULLY).all() and (im.level[:, 10:20] == 0).all()
        assert (im.terrain[:, 20:30] == building).all(), name
        # a colour no table names reads its neighbour's, unknown too: open ground (as VASL)
        assert (im.terrain[:, 30:40] == OPEN).all() and (im.level[:, 30:40] == KEEP_LEVEL).all()
        stats = report.images["a"]
        assert stats["nearest"] == stats["unknown_pixels"] == 200
        assert stats["unknown_colours"] == 1
    assert X_BUILDINGS[14] is None and X_BUILDINGS[3] == WOODEN and X_BUILDINGS[40] == 42


def test_lines_numbers_and_dots_take_the_terrain_around_them(tmp_path):
    """A pixel whose colour names no terrain (a black line, a hex number) reads the colour of
    a pixel 2..6 steps down its diagonals, never a line, dot or number; with none, the
    board's terrain stays."""
    grid = filled((40, 60), "WoodsGreenL1")
    grid[20, :] = "Black"                          # a line across the woods
    grid[5:9, 10:14] = "WhiteHexNumbers"
    grid[:, 50:] = "Black"                         # a black block wider than the search
    ov, report = read_overlay(archive(tmp_path / "ovrK", {"ovrk1a.gif": gif(grid)},
                                      data_file({"k1": SIX})), "k1")
    im = ov.images["a"]
    assert (im.terrain[:, :40] == WOODS).all() and (im.level[:, :40] == 1).all()
    assert (im.terrain[:, 57:] == KEEP_TERRAIN).all() and (im.level[:, 57:] == KEEP_LEVEL).all()
    stats = report.images["a"]
    assert stats["kept"] == int((im.terrain == KEEP_TERRAIN).sum()) >= 40 * 3
    assert stats["unknown_colours"] == 0


def test_a_colour_naming_no_level_takes_its_neighbours(tmp_path):
    grid = filled((30, 60), "Level1")
    grid[15, 10] = "WoodsGreen"                    # a woods dot in a level-1 hill
    grid[:, 30:] = "WoodsGreen"                    # a wood of no level: the board's stays
    ov, _ = read_overlay(archive(tmp_path / "ovrJ", {"ovrj1a.gif": gif(grid)},
                                 data_file({"j1": SIX})), "j1")
    im = ov.images["a"]
    assert im.terrain[15, 10] == WOODS and im.level[15, 10] == 1
    assert (im.terrain[:, 36:] == WOODS).all() and (im.level[:, 36:] == KEEP_LEVEL).all()


def test_an_archives_own_colors_file_names_its_colours(tmp_path):
    grid = filled((10, 10), "MyWoods")
    raw = gif(grid, rgb={"MyWoods": (10, 200, 30)})
    path = archive(tmp_path / "ovrQ", {"ovrq1a.gif": raw}, data_file({"q1": SIX}),
                   colors="// own colours\nWoodsGreen 10,200,30\n")
    ov, report = read_overlay(path, "q1")
    assert (ov.images["a"].terrain == WOODS).all() and report.images["a"]["nearest"] == 0


def _board_arrays(rng, shape=(323, 450)):
    return (rng.choice([OPEN, 24, 25, 63], size=shape).astype(np.uint8),
            rng.integers(0, 2, size=shape).astype(np.int8))


def test_transparent_pixels_keep_the_board_and_opaque_ones_set_it(tmp_path):
    rng = np.random.default_rng(3)
    terrain, level = _board_arrays(rng)
    grid = np.array(rng.choice(["WoodsGreenL1", "Level1", "", ""], size=(70, 80)), dtype=object)
    ov, _ = read_overlay(archive(tmp_path / "ovrR", {"ovrr1a.gif": gif(grid)},
                                 data_file({"r1": SIX})), "r1")
    placed = place_overlay(ov, "E3", "E3")
    before = terrain.copy(), level.copy()
    pasted = paste_overlay(terrain, level, GEOMORPHIC, (9, 5), placed)
    assert np.array_equal(terrain, before[0]) and np.array_equal(level, before[1])  # pure
    ys, xs = np.mgrid[0:70, 0:80]
    by, bx = ys + placed.y, xs + placed.x
    on = (by >= 0) & (by < 323) & (bx >= 0) & (bx < 450)
    t, lv = pasted.terrain[by[on], bx[on]], pasted.level[by[on], bx[on]]
    g = grid[on]
    assert (t[g == "WoodsGreenL1"] == WOODS).all() and (lv[g == "WoodsGreenL1"] == 1).all()
    assert (t[g == "Level1"] == OPEN).all() and (lv[g == "Level1"] == 1).all()
    clear = g == ""
    assert np.array_equal(t[clear], terrain[by[on], bx[on]][clear])
    assert np.array_equal(lv[clear], level[by[on], bx[on]][clear])
    outside = np.ones(terrain.shape, bool)
    outside[by[on], bx[on]] = False
    assert np.array_equal(pasted.terrain[outside], terrain[outside])
    assert pasted.pixels == int((g != "").sum())


def test_hexside_terrain_is_set_only_near_a_hexsides_centre(tmp_path):
    wall_name = next(c.name for c in colour_table().values() if c.terrain == "Wall")
    grid = filled((130, 170), wall_name)
    ov, _ = read_overlay(archive(tmp_path / "ovrV", {"ovrv1a.gif": gif(grid)},
                                 data_file({"v1": SIX})), "v1")
    terrain = np.zeros((323, 450), np.uint8)
    pasted = paste_overlay(terrain, np.zeros_like(terrain, np.int8), GEOMORPHIC, (9, 5),
                           place_overlay(ov, "E3", "E3"))
    ys, xs = np.nonzero(pasted.terrain == WALL)
    assert len(xs) > 0
    sides = []
    for col in range(10):
        for row in range(7):
            cx, cy = centre(f"{'ABCDEFGHIJ'[col]}{row}")
            sides += [(cx, cy - 32.25), (cx, cy + 32.25), (cx + 28.125, cy - 16.125),
                      (cx + 28.125, cy + 16.125), (cx - 28.125, cy - 16.125),
                      (cx - 28.125, cy + 16.125)]
    sides = np.array(sides)
    d = np.sqrt(((xs[:, None] - sides[None, :, 0]) ** 2 + (ys[:, None] - sides[None, :, 1]) ** 2)
                ).min(axis=1)
    assert d.max() <= 10.0
    ex, ey = whole(centre("E3"))
    assert pasted.terrain[ey, ex] == OPEN           # a hex's centre is far from every side


def _board(terrain, level, hexes=None) -> Board:
    b = Board("t1", "overlay test", HexTerrain(), dict(hexes or {}), size=(9, 5))
    return with_raster(b, Raster(terrain, level, GEOMORPHIC, (9, 5)))


def _line_clear(board, a, b):
    m = Map([Placement(board, (0, 0))])
    t = los_table(m)
    va, vb = m.index("t1" + a), m.index("t1" + b)
    res = t.lines(va, int(t.ground[va]), np.array([vb]), np.array([t.ground[vb]]))
    return bool(res.clear[0]), int(res.kind[0])


def _one_hex_overlay(tmp_path, name, colour, scale=1.0):
    shape = (200, 120)
    mask = hexagon_mask(shape, whole(centre("B2")), scale=scale)     # drawn on its origin hex
    path = archive(tmp_path / archive_name(name), {f"ovr{name}a.gif": gif(filled(shape, colour,
                                                                                 mask))},
                   data_file({name: "b2; ; ; ; ; "}))
    ov, _ = read_overlay(path, name)
    return ov


def test_a_woods_overlay_blocks_a_line_that_was_clear(tmp_path):
    """A6.2: woods laid by an overlay on E3 block the line A3-I3 through it."""
    terrain, level = np.zeros((323, 450), np.uint8), np.zeros((323, 450), np.int8)
    board = _board(terrain, level)
    assert _line_clear(board, "A3", "I3")[0]
    ov = _one_hex_overlay(tmp_path, "wd1", "WoodsGreen")
    placed = place_overlay(ov, "E3", "E3", GEOMORPHIC, shift=(0, 0))
    pasted = paste_overlay(terrain, level, GEOMORPHIC, (9, 5), placed)
    assert pasted.hexes[(4, 3)] == HexTerrain("woods", 0)
    after = with_raster(with_pasted_hexes(board, pasted),
                        Raster(pasted.terrain, pasted.level, GEOMORPHIC, (9, 5)))
    assert after.at(4, 3).terrain == "woods"
    assert not _line_clear(after, "A3", "I3")[0]
    assert _line_clear(after, "A1", "I1")[0]


def test_a_hill_overlay_raises_a_hill_that_blocks_ground_lines(tmp_path):
    terrain, level = np.zeros((323, 450), np.uint8), np.zeros((323, 450), np.int8)
    ov = _one_hex_overlay(tmp_path, "h9", "Level1", scale=1.6)
    pasted = paste_overlay(terrain, level, GEOMORPHIC, (9, 5),
                           place_overlay(ov, "E3", "E3", GEOMORPHIC, shift=(0, 0)))
    assert pasted.hexes[(4, 3)] == HexTerrain("open", 1)
    after = with_raster(with_pasted_hexes(_board(terrain, level), pasted),
                        Raster(pasted.terrain, pasted.level, GEOMORPHIC, (9, 5)))
    assert after.at(4, 3).level == 1
    clear, kind = _line_clear(after, "A3", "I3")
    assert not clear and kind == HILL


def test_the_board_pipeline_pastes_overlays_after_the_ssrs(tmp_path):
    """rules.md 11.2: SSRs on the pixels, then overlays (the hook ``overlays_hook``)."""
    terrain, level = np.zeros((323, 450), np.uint8), np.zeros((323, 450), np.int8)
    woods = _one_hex_overlay(tmp_path, "wd1", "WoodsGreen")
    hill = _one_hex_overlay(tmp_path, "h9", "Level1", scale=1.6)
    step = overlays_hook([(woods, "C2", "C2"), (hill, "G3", "G3")])
    board, raster = step(_board(terrain, level), board_raster(_board(terrain, level)))
    assert board.at(2, 2).terrain == "woods" and board.at(6, 3).level == 1
    assert (raster.terrain == WOODS).sum() > 0 and (raster.level == 1).sum() > 0
    applied = board_with_rules(_board(terrain, level), ["NoStairwells"], overlays=step)
    assert applied.board.at(2, 2).terrain == "woods"
    plain = Board("t1", "no raster", HexTerrain(), {}, size=(9, 5))
    assert step(plain, None) == (plain, None)


def test_overlays_left_to_their_ssr_are_named():
    assert left_to_ssr("NoCliffs") and left_to_ssr("LightWoods2") and left_to_ssr("RB_Gutted")
    assert not left_to_ssr("x1")


def test_the_overlay_file_keeps_what_was_decoded_and_the_picture(tmp_path):
    ov, _ = read_overlay(archive(tmp_path / "ovrW", six_images("w2"), data_file({"w2": SIX})),
                         "w2")
    save_overlay(ov, tmp_path / "w2.overlay.npz")
    back = load_overlay(tmp_path / "w2.overlay.npz")
    assert back.name == "w2" and back.origins == tuple(SIX.split(";"))
    for o, im in ov.images.items():
        for key in ("terrain", "level", "mask", "hexside"):
            assert np.array_equal(getattr(back.images[o], key), getattr(im, key))
    placed = place_overlay(back, "E4", "E5")
    picture, at = overlay_picture(placed)
    assert picture.size == (80, 70) and at == (placed.x, placed.y)
    alpha = np.asarray(picture)[..., 3] > 0
    assert np.array_equal(alpha, back.images["d"].mask)


def test_a_hostile_overlay_file_is_refused_naming_the_member(tmp_path):
    ov, _ = read_overlay(archive(tmp_path / "ovrW", six_images("w2"), data_file({"w2": SIX})),
                         "w2")
    raw = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(ov.to_bytes())) as z, zipfile.ZipFile(raw, "w") as out:
        for info in z.infolist():
            out.writestr(info, z.read(info))
        out.writestr("evil.npy", b"x")
    with pytest.raises(ScenarioError, match="not a member") as e:
        overlay_from_bytes(raw.getvalue())
    assert e.value.place == "evil.npy"
    with pytest.raises(ScenarioError, match="not an overlay file"):
        overlay_from_bytes(b"not a zip")
    assert isinstance(overlay_from_bytes(ov.to_bytes()), OverlayFile)


def test_hostile_archives_are_refused_naming_the_archive_and_the_entry(tmp_path):
    good = six_images("w2")
    path = archive(tmp_path / "ovrW", good, data_file({"w1": SIX}))
    with pytest.raises(ScenarioError, match="no line for overlay 'w2'") as e:
        read_overlay(path, "w2")
    assert e.value.file == str(path) and e.value.place == "data"
    path = archive(tmp_path / "ovrW2", good, None)
    with pytest.raises(ScenarioError, match="no 'data' file"):
        read_overlay(path, "w2")
    big = gif(filled((2000, 2100), "WoodsGreen"))
    path = archive(tmp_path / "ovrW3", {"ovrw2a.gif": big}, data_file({"w2": SIX}))
    with pytest.raises(ScenarioError, match="2100 x 2000 pixels") as e:
        read_overlay(path, "w2")
    assert e.value.place == "ovrw2a.gif"
    path = archive(tmp_path / "ovrW4", {"ovrw2a.gif": b"GIF89a" + b"\x00" * 40},
                   data_file({"w2": SIX}))
    with pytest.raises(ScenarioError, match="cannot be decoded") as e:
        read_overlay(path, "w2")
    assert e.value.place == "ovrw2a.gif" and e.value.file == str(path)
    path = archive(tmp_path / "ovrW5", good, data_file({"w2": "b2;zz;c1"}))
    with pytest.raises(ScenarioError, match="not a hex name"):
        read_overlay(path, "w2")
    (tmp_path / "ovrW6").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ScenarioError, match="not a VASL board archive|ZIP"):
        read_overlay(tmp_path / "ovrW6", "w2")


def test_an_overlay_is_found_in_the_boards_folder_or_named_missing(tmp_path):
    (tmp_path / "overlays").mkdir()
    archive(tmp_path / "overlays" / "ovrX", six_images("x5"), data_file({"x5": SIX}))
    ov, _ = import_overlay(tmp_path, "x5")
    assert set(ov.images) == set("abcdef")
    out = tmp_path / "kept"
    out.mkdir()
    path, report = api.vasl.write_overlay(tmp_path, "x5", out)
    assert path.parent == out and report.images["a"]["opaque"] == int(ov.images["a"].mask.sum())
    placed = api.place_overlay(api.load_overlay(path), "C3", "C4")
    picture, at = api.overlay_picture(placed)
    assert at == (placed.x, placed.y) and picture.size == (80, 70)
    with pytest.raises(ScenarioError, match="no archive for overlay 'rr3'") as e:
        find_archive(tmp_path, "rr3")
    assert e.value.file.endswith("ovrRR")


def test_an_orientation_without_image_or_origin_is_named(tmp_path):
    imgs = six_images("w2")
    del imgs["ovrw2c.gif"]
    ov, _ = read_overlay(archive(tmp_path / "ovrW", imgs, data_file({"w2": "b2; ;c1;d1;d2;c3"})),
                         "w2")
    with pytest.raises(ScenarioError, match="no image for orientation 'c'") as e:
        place_overlay(ov, "E5", "F5")
    assert e.value.place == "overlay w2"
    with pytest.raises(ScenarioError, match="no origin hex for orientation 'b'"):
        place_overlay(ov, "E5", "F4")
    with pytest.raises(ScenarioError, match="E5 and H5 are not neighbours"):
        place_overlay(ov, "E5", "H5")
    with pytest.raises(ScenarioError, match="'Q' is not a hex name"):
        place_overlay(ov, "Q", "E5")


def test_hexside_terrain_under_an_overlay_is_gone_and_the_rest_stays(tmp_path):
    """rules.md 11.3: the overlay's pixels replace the board's: a wall on a side of E3 that a
    hill overlay covers is gone from the hex model; a wall away from it stays."""
    terrain, level = np.zeros((323, 450), np.uint8), np.zeros((323, 450), np.int8)
    board = _board(terrain, level)
    board = board.with_hexside(4, 3, 1, "wall").with_hexside(0, 1, 3, "wall")
    board = with_raster(board, Raster(terrain, level, GEOMORPHIC, (9, 5)))
    ov = _one_hex_overlay(tmp_path, "h9", "Level1", scale=1.6)
    pasted = paste_overlay(terrain, level, GEOMORPHIC, (9, 5),
                           place_overlay(ov, "E3", "E3", GEOMORPHIC, shift=(0, 0)))
    after = with_pasted_hexes(board, pasted)
    assert after.hexside(4, 3, 1) is None
    assert after.hexside(0, 1, 3) == "wall"
