"""The night a save says (rules.md 11.5): VASL's scenario record in each of its layouts sets the
position's NVR and night, and the import says where each came from; a starshell or IR on the map
means starshells have been fired, at least this player turn (E1.92)."""
from __future__ import annotations

import json

import pytest
import vsav_synth as vs

from engine.cli import main
from engine.importers import vsav
from engine.importers.scen_info import parse_scen_info, read_scen_info
from engine.importers.vassal import read_saved_game
from engine.night.files import load_scenario

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def squads():
    return [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"), pid=11),
            vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru", pid=13)]


def read(tmp_path, info=None, pieces=None):
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS, squads() if pieces is None else pieces,
                         info=info)
    return vsav.read_vsav(path)


@pytest.mark.parametrize("nvr", [0, 2, 5])
def test_the_weather_layout_gives_night_and_nvr(tmp_path, nvr):
    result = read(tmp_path, vs.info_record("weather", night=True, nvr=nvr, weather="Overcast"))
    s = result.scenario()
    assert (s.nvr, result.nvr_from, result.night) == (nvr, "save", True)
    assert s.extra[vsav.NIGHT_KEY] is True
    summary = result.summary()
    assert (summary["nvr"], summary["nvr_from"], summary["night"]) == (nvr, "save", True)
    assert any(n.startswith(f"NVR {nvr} from the save") for n in summary["notes"])


def test_a_day_game_gives_no_nvr(tmp_path):
    """VASL's Night: No (its NVR field then holds its default 0): NVR 3 by default, said so."""
    result = read(tmp_path, vs.info_record("weather", night=False, nvr=0))
    assert (result.scenario().nvr, result.nvr_from, result.night) == (3, "default", False)
    assert any("no night game (VASL's Night: No)" in n for n in result.notes)
    assert result.scenario().extra[vsav.NIGHT_KEY] is False


@pytest.mark.parametrize("night", [True, False])
def test_the_shader_layout_says_night_but_no_nvr(tmp_path, night):
    result = read(tmp_path, vs.info_record("shader", night=night))
    assert (result.scenario().nvr, result.nvr_from, result.night) == (3, "default", night)
    assert any("VASL's night shader) but gives no NVR" in n for n in result.notes)


@pytest.mark.parametrize("layout, notes", [("older", ""), ("older", "Clear skies tonight"),
                                           ("older", "Clear"), ("older", "true"),
                                           ("short", "")])
def test_older_saves_are_recognised(tmp_path, layout, notes):
    """Nine fields and notes (a 2020 save), or fewer: no night, no NVR, never a guess from the
    notes (only a tenth field that is a weather or a shader flag names a layout)."""
    result = read(tmp_path, vs.info_record(layout, notes=notes))
    assert (result.scenario().nvr, result.nvr_from, result.night) == (3, "default", None)
    assert vsav.NIGHT_KEY not in result.scenario().extra
    assert any("NVR 3 by default" in n for n in result.notes)


def test_a_save_without_a_scenario_record(tmp_path):
    text = vs.game_text(BOARDS, squads()).replace(vs.info_record(), "GlobalProperty\t;x;0;y")
    assert read_scen_info(text).layout == "none"
    path = tmp_path / "g.vsav"
    vs.write_vsav(path, BOARDS, [], raw=vs.obfuscate(text))
    result = vsav.read_vsav(path)
    assert result.nvr_from == "default"
    assert any("has no scenario record" in n for n in result.notes)


@pytest.mark.parametrize("night, nvr, words", [("Maybe", "2", "night 'Maybe' is neither Yes nor No"),
                                               ("Yes", "9", "NVR '9' is not a whole number from 0 to 6"),
                                               ("Yes", "x", "NVR 'x' is not a whole number")])
def test_an_unreadable_night_or_nvr_is_named_with_its_place(night, nvr, words):
    fields = list(vs.OLDER_INFO) + ["Clear", "0", "None", "1", night, nvr, ""]
    info = parse_scen_info("INFO\t" + vs.join(fields, "\t"), "command 4")
    assert info.layout == "weather"
    assert any(p.startswith("command 4, VASL's scenario record: ") and words in p
               for p in info.problems)


def test_the_last_record_wins_and_escaped_tabs_stay_in_the_notes(tmp_path):
    first = vs.info_record("weather", nvr=1)
    last = vs.info_record("weather", nvr=4, notes="a\ttab")
    text = vs.game_text(BOARDS, squads(), extra=(last,), info=first)
    path = tmp_path / "g.vsav"
    vs.write_vsav(path, BOARDS, [], raw=vs.obfuscate(text))
    assert read_scen_info(read_saved_game(path)).nvr == 4


# ------------------------------------------------------------------- the starshell state
def night_pieces():
    """As a night game's save holds them: a Starshell in 2T6 and an IR in 4P7 (board 34
    stands for 4 here), units of both sides."""
    return squads() + [vs.light_marker("Starshell", vs.hex_pixel("T6")),
                       vs.light_marker("IR", vs.hex_pixel("P7", (1, 0)), colour=2)]


def test_a_starshell_and_an_ir_on_the_map_mean_starshells_fired(tmp_path):
    result = read(tmp_path, vs.info_record("weather", nvr=2), night_pieces())
    s = result.scenario()
    assert s.starshells_used == "this_turn"         # E1.92: never "none fired yet"
    assert any("a Starshell and an IR on the map" in n for n in result.notes)
    assert result.summary()["starshells_used"] == "this_turn"


@pytest.mark.parametrize("name", ["Starshell", "IR"])
def test_either_light_alone_is_enough(tmp_path, name):
    pieces = squads() + [vs.light_marker(name, vs.hex_pixel("T6"))]
    assert read(tmp_path, None, pieces).scenario().starshells_used == "this_turn"


def test_no_light_on_the_map_and_one_in_the_margin_fire_nothing(tmp_path):
    pieces = squads() + [vs.light_marker("Starshell", (20, 20)),       # off the boards
                         vs.light_marker("Trip Flare", vs.hex_pixel("T6"))]
    assert read(tmp_path, None, pieces).scenario().starshells_used == "never"


def test_cli_prints_where_the_nvr_came_from(tmp_path, capsys):
    path = vs.write_vsav(tmp_path / "night.vsav", BOARDS, night_pieces(),
                         info=vs.info_record("weather", nvr=2))
    out = tmp_path / "night.json"
    assert main(["import-vsav", str(path), "-o", str(out), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert (said["nvr"], said["nvr_from"], said["starshells_used"]) == (2, "save", "this_turn")
    s = load_scenario(out)
    assert (s.nvr, s.starshells_used, s.extra[vsav.NIGHT_KEY]) == (2, "this_turn", True)
    assert main(["import-vsav", str(path), "-o", str(out)]) == 0
    assert "2 (from the save)" in capsys.readouterr().out
