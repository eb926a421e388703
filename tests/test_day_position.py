"""A day position (rules.md 11.5: a save whose scenario record says Night: No): the night rules
(E1) off, every unit sees what its daytime LOS (A6) and the counters allow; read from and written
to the position's file, opened so from a save, kept by follow mode when the save does not say."""
from __future__ import annotations

import numpy as np
import vsav_synth as vs
from support import board, marker, position, unit

from engine.boards import bundled_board
from engine.importers import vsav
from engine.importers.follow_keep import merge_reading
from engine.night import reference
from engine.night.files import load_scenario, save_scenario, scenario_to_json
from engine.night.unit_verdicts import unit_verdict
from engine.night.verdicts import all_fields, visibility_from

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def far_apart(**kw):
    return position(board("t1", {"Q5": {"terrain": "woods"}}),
                    units=[unit("A", "t1C2"), unit("B", "t1W8", side="axis")], nvr=2, **kw)


def test_a_day_position_sees_beyond_nvr_and_the_night_rules_are_off():
    night = far_apart()
    assert visibility_from(night, "A")["t1W8"].sight == "none"       # beyond NVR 2, dark
    day = night.replace(night=False)
    field = visibility_from(day, "A")
    assert field["t1W8"].sight == "nvr"
    assert any("a day position: the night rules are off" in r for r in field["t1W8"].reasons)
    assert unit_verdict(day, "A", "B").sight == "nvr"
    assert reference.sight(day, "A", "t1W8") == "nvr"
    rows = all_fields(day, ["A"])
    assert np.array_equal(rows[0], field.codes)
    # what daytime LOS blocks stays blocked: the woods of Q5 between Q9 and Q1
    s = position(board("t1", {"Q5": {"terrain": "woods"}}), units=[unit("C", "t1Q9")],
                 night=False)
    assert visibility_from(s, "C")["t1Q1"].sight == "none"


def test_a_day_position_is_written_and_read_back(tmp_path):
    s = far_apart(night=False)
    assert scenario_to_json(s)["night"] is False
    assert "night" not in scenario_to_json(far_apart())
    path = tmp_path / "day.json"
    loaded = save_scenario(position_on_bundled(night=False), path)
    assert load_scenario(path).night is False and loaded.night is False


def position_on_bundled(**kw):
    return position(bundled_board("2"), units=[unit("A", "2K5")], **kw)


def test_a_day_game_opens_as_a_day_position_and_says_so(tmp_path):
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS, [vs.squad("4-6-7", vs.hex_pixel("K5"))],
                         info=vs.info_record("weather", night=False, nvr=0))
    result = vsav.read_vsav(path)
    assert result.scenario().night is False
    assert any("opened as a day position" in n for n in result.notes)
    night = vsav.read_vsav(vs.write_vsav(tmp_path / "n.vsav", BOARDS, [],
                                         info=vs.info_record("weather", night=True, nvr=2)))
    assert night.scenario().night is True


def test_follow_mode_keeps_the_players_day_when_the_save_does_not_say(tmp_path):
    squads = [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"), pid=11)]
    first, _ = vsav.vsav_scenario(vs.write_vsav(tmp_path / "g.vsav", BOARDS, squads))
    shown = first.replace(night=False)
    new, summary = vsav.vsav_scenario(vs.write_vsav(tmp_path / "g.vsav", BOARDS, squads))
    assert summary["night"] is None
    assert merge_reading(shown, first, new, summary).scenario().night is False
    # a save that says day stays day at every reading
    day = vs.info_record("weather", night=False, nvr=0)
    first, _ = vsav.vsav_scenario(vs.write_vsav(tmp_path / "d.vsav", BOARDS, squads, info=day))
    new, summary = vsav.vsav_scenario(vs.write_vsav(tmp_path / "d.vsav", BOARDS, squads, info=day))
    assert merge_reading(first, first, new, summary).scenario().night is False


def test_markers_do_not_matter_to_a_day_position():
    s = far_apart(night=False).replace(markers=(marker("starshell", "t1W8"),))
    assert visibility_from(s, "A")["t1W8"].sight == "nvr"
