"""A scenario's SSRs from a save to the position (rules.md 11.1; SPEC.md turn-four keys): board
records read whole, map slots keeping ``ssr``, ``overlays`` and ``crop``, the rules applied
when the map is built, and the colour rules on a board picture (rules.md 11.2)."""
from __future__ import annotations

import json

import numpy as np
import pytest
import vsav_synth as vs
from PIL import Image
from test_raster_los import Drawing, centre

from engine.boards import board_raster, save_board
from engine.errors import ScenarioError
from engine.importers.pieces import VsavOverlay, parse_board_records, parse_saved_game
from engine.night.files import load_scenario, save_scenario, scenario_from_json
from engine.ssr.picture import colour_map, colours, recolour
from engine.ssr.pixels import codes

C = codes()


def test_a_record_as_vasl_writes_it_is_read_whole_RULES_11_1():
    """The record of the example: every OVR and every SSR name kept apart."""
    rec = "bd\t0\t0\t02\tVER\t6.1\tOVR\t3\tB4\tB5\tOVR\tx1\tN4\tN4\tSSR\tWoodsToBrush\t" \
          "OrchardsToOpenGround\tNoStairwells"
    (b,) = parse_board_records(rec, "command 1")
    assert (b.column, b.row, b.name, b.version, b.reversed, b.crop) == (0, 0, "02", "6.1",
                                                                         False, None)
    assert b.overlays == (VsavOverlay("3", "B4", "B5"), VsavOverlay("x1", "N4", "N4"))
    assert b.ssr == ("WoodsToBrush", "OrchardsToOpenGround", "NoStairwells")


def test_records_written_by_the_synthetic_vasl_keep_turning_crop_overlays_rules_and_zoom():
    text = vs.game_text([(1, 0, "r34", "6.2", (0, 0, 500, 645),
                          {"overlays": [("be2", "C4", "D4")], "ssr": ["NoGrain", "Winter"],
                           "zoom": 1.5}),
                         (0, 0, "02")], [])
    b34, b02 = parse_saved_game(text).boards
    assert (b34.name, b34.reversed, b34.crop, b34.version) == ("34", True, (0, 0, 500, 645), "6.2")
    assert b34.overlays == (VsavOverlay("be2", "C4", "D4"),)
    assert b34.ssr == ("NoGrain", "Winter") and b34.zoom == 1.5
    assert (b02.ssr, b02.overlays, b02.zoom) == ((), (), None)


def test_a_bad_zoom_names_the_command():
    with pytest.raises(ScenarioError, match="ZOOM") as e:
        parse_board_records("bd\t0\t0\t02\tVER\t6.1\tZOOM\tbig", "command 4")
    assert "command 4" in str(e.value)


# --------------------------------------------------------------------- the position
def _position(tmp_path, slot: dict, top: dict | None = None):
    d = Drawing()
    d.disc(*centre("E3"), 30, code=C["Grain"])
    save_board(d.board({"E3": "grain"}), tmp_path / "t1.json")
    data = {"format": "starshell-scenario", "version": 1, "title": "ssr",
            "map": [{"board": "t1.json", "at": [0, 0]} | slot], "units": [], "markers": []}
    data |= top or {}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    return path


def test_a_slot_s_rules_are_applied_when_the_map_is_built_and_kept_when_saved(tmp_path):
    path = _position(tmp_path, {"ssr": ["NoGrain", "NoSuchRule"],
                                "overlays": [{"name": "x1", "hex1": "E3", "hex2": "E3"}],
                                "crop": [0, 0, 300, -1]})
    s = load_scenario(path)
    i = s.map.index("t1E3")
    assert s.map.terrain_name(i) == "open"                    # no grain (rules.md 11.2)
    r = board_raster(s.map.placements[0].board)
    assert not (r.terrain == C["Grain"]).any()
    e = s.map_entries[0]
    assert e.ssr == ("NoGrain", "NoSuchRule") and e.overlays == (("x1", "E3", "E3"),)
    assert e.crop == (0, 0, 300, -1)
    save_scenario(s, tmp_path / "q.json")
    again = json.loads((tmp_path / "q.json").read_text())["map"][0]
    assert again["ssr"] == ["NoGrain", "NoSuchRule"] and again["crop"] == [0, 0, 300, -1]
    assert again["overlays"] == [{"name": "x1", "hex1": "E3", "hex2": "E3"}]
    assert load_scenario(tmp_path / "q.json").map.terrain_name(i) == "open"


def test_the_scenario_s_rules_apply_to_every_board(tmp_path):
    s = load_scenario(_position(tmp_path, {}, {"ssr": ["GrainToLevel1"]}))
    i = s.map.index("t1E3")
    assert s.ssr == ("GrainToLevel1",) and int(s.map.level[i]) == 1
    save_scenario(s, tmp_path / "q.json")
    assert json.loads((tmp_path / "q.json").read_text())["ssr"] == ["GrainToLevel1"]


@pytest.mark.parametrize("slot,place", [
    ({"ssr": "NoGrain"}, "map[0].ssr"), ({"ssr": ["NoGrain", 3]}, "map[0].ssr[1]"),
    ({"overlays": [{"name": "x1", "hex1": "E3"}]}, "map[0].overlays[0].hex2"),
    ({"overlays": ["x1"]}, "map[0].overlays[0]"), ({"crop": [0, 0, 10]}, "map[0].crop"),
    ({"crop": [-5, 0, 10, 10]}, "map[0].crop")])
def test_bad_set_up_is_refused_naming_the_place(tmp_path, slot, place):
    path = _position(tmp_path, slot)
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert place in str(e.value) and str(path) in str(e.value)


def test_a_scenario_without_the_keys_builds_the_board_as_drawn(tmp_path):
    data = json.loads(_position(tmp_path, {}).read_text())
    s = scenario_from_json(data, folder=str(tmp_path))
    assert s.map.terrain_name(s.map.index("t1E3")) == "grain" and s.map_entries[0].ssr == ()


# ------------------------------------------------------------------ the picture
def _rgb(name: str) -> tuple[int, int, int]:
    v = colours()[name]
    return v >> 16, (v >> 8) & 255, v & 255


def test_the_picture_takes_the_season_s_colours_palette_and_rgb():
    """OrchardOutOfSeason recolours orchard green (OrchL0) to the ground's colour (Level0); a
    palettised picture changes its palette only."""
    cmap = colour_map(("OrchardOutOfSeason",))
    assert cmap[colours()["OrchL0"]] == colours()["Level0"]
    im = Image.new("P", (4, 1))
    im.putpalette(list(_rgb("OrchL0")) + list(_rgb("WhiteHexNumbers")) + [0, 0, 0] * 254)
    im.putdata([0, 1, 0, 1])
    out = recolour(im, ["OrchardOutOfSeason"])
    assert out.mode == "P" and np.asarray(out).ravel().tolist() == [0, 1, 0, 1]
    assert tuple(out.getpalette()[:3]) == _rgb("Level0")
    assert tuple(out.getpalette()[3:6]) == _rgb("WhiteHexNumbers")
    rgb = recolour(im.convert("RGB"), ["OrchardOutOfSeason"])
    assert np.asarray(rgb)[0, 0].tolist() == list(_rgb("Level0"))
    assert tuple(im.getpalette()[:3]) == _rgb("OrchL0")           # the given one unchanged



# ------------------------------------------------------------------ import-vsav
def test_import_vsav_writes_the_set_up_and_names_the_rules_not_applied(tmp_path, capsys):
    from test_vsav_boards import v5_board

    from engine.cli import main
    boards = tmp_path / "boards"
    boards.mkdir()
    v5_board(boards)
    game = vs.write_vsav(tmp_path / "g.vsav",
                         [(0, 0, "05", "6.1", None,
                           {"overlays": [("x1", "K5", "K5")],
                            "ssr": ["WoodsToBrush", "NoSuchRule", "Winter"]})],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 0)))])
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(game), "-o", str(out), "--boards", str(boards),
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["ssr_not_applied"] == ["NoSuchRule"]
    assert any("NoSuchRule" in n and "not applied" in n for n in printed["notes"])
    slot = json.loads(out.read_text())["map"][0]
    assert slot["ssr"] == ["WoodsToBrush", "NoSuchRule", "Winter"]
    assert slot["overlays"] == [{"name": "x1", "hex1": "K5", "hex2": "K5"}]
    s = load_scenario(out)
    assert s.map.terrain_name(s.map.index("5K5")) == "brush"      # woods are brush
