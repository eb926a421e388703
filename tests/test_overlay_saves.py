"""A save's overlays laid on its boards (rules.md 11.1, 11.3): ``import-vsav`` reads each ``OVR``
record's archive from the boards folder's ``overlays/``, keeps the overlay decoded beside the
position's boards, and the position loads with it pasted into the board's drawn terrain; an
overlay whose archive or file is missing is named, never dropped silently."""
from __future__ import annotations

import json
import math

import vsav_synth as vs
from overlay_synth import archive, data_file, filled, gif, hexagon_mask
from test_vsav_boards import v5_board

from engine.cli import main
from engine.night.files import load_scenario, missing_overlays
from engine.overlay_file import overlay_file_name

A1_X, A1_Y, HEX_W, HEX_H = 0.0, 32.25, 56.25, 64.5     # a geomorphic board's grid (rules.md 1)


def _centre_b2():
    """Hex B2's centre in a board's pixels (column 1 is shifted down half a hex)."""
    return math.floor(A1_X + HEX_W + 0.5), math.floor(A1_Y + HEX_H * 2 - HEX_H / 2 + 0.5)


def _woods_overlay(boards):
    """A one-hex overlay ``wd1`` of woods drawn on its origin hex B2 (archive ``ovrWD``)."""
    shape = (200, 120)
    mask = hexagon_mask(shape, _centre_b2())
    folder = boards / "overlays"
    folder.mkdir()
    archive(folder / "ovrWD", {"ovrwd1a.gif": gif(filled(shape, "WoodsGreen", mask))},
            data_file({"wd1": "b2; ; ; ; ; "}))


def _import(tmp_path, capsys, overlays):
    boards = tmp_path / "boards"
    boards.mkdir()
    v5_board(boards)
    game = vs.write_vsav(tmp_path / "g.vsav",
                         [(0, 0, "05", "6.1", None, {"overlays": overlays})],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 0)))])
    return boards, game


def test_a_saves_woods_overlay_is_laid_on_its_board_and_kept_beside_it(tmp_path, capsys):
    boards, game = _import(tmp_path, capsys, [("wd1", "C3", "C3")])
    _woods_overlay(boards)
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(game), "-o", str(out), "--boards", str(boards), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert str(tmp_path / overlay_file_name("wd1")) in printed["board_files"]
    assert any("overlay wd1" in n and "opaque pixels" in n for n in printed["notes"])
    s = load_scenario(out)
    assert s.map.terrain_name(s.map.index("5C3")) == "woods"      # the overlay's woods
    assert s.map.terrain_name(s.map.index("5C5")) == "open"       # beside it: the board's own
    assert missing_overlays(s) == []


def test_an_overlay_without_its_archive_or_file_is_named_and_left_out(tmp_path, capsys):
    boards, game = _import(tmp_path, capsys, [("wd1", "C3", "C3")])     # no overlays/ folder
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(game), "-o", str(out), "--boards", str(boards), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert any("overlay wd1" in n and "not laid" in n for n in printed["notes"])
    s = load_scenario(out)
    assert s.map.terrain_name(s.map.index("5C3")) == "open"
    [note] = missing_overlays(s)
    assert "wd1" in note and overlay_file_name("wd1") in note


def test_an_overlay_file_removed_later_is_named_when_the_position_loads(tmp_path, capsys):
    boards, game = _import(tmp_path, capsys, [("wd1", "C3", "C3")])
    _woods_overlay(boards)
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(game), "-o", str(out), "--boards", str(boards)]) == 0
    capsys.readouterr()
    (tmp_path / overlay_file_name("wd1")).unlink()
    s = load_scenario(out)
    assert s.map.terrain_name(s.map.index("5C3")) == "open"
    assert len(missing_overlays(s)) == 1
