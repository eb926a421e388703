"""The position file's counter keys (SPEC.md turn-four extensions, rules.md 11.4): read, kept
as written, and a bad value refused naming the file and the place."""
from __future__ import annotations

import copy

import pytest

from engine.errors import ScenarioError
from engine.night.counters import los_counters
from engine.night.files import scenario_from_json, scenario_to_json

POSITION = {
    "format": "starshell-scenario", "version": 1, "map": [{"board": "2", "at": [0, 0]}],
    "units": [
        {"id": "T", "side": "axis", "type": "afv", "hex": "2Q5", "bypass": True, "bypass_side": 3},
        {"id": "A", "side": "allied", "type": "squad", "hex": "2Q9"},
    ],
    "markers": [
        {"type": "smoke", "hex": "2Q7", "kind": "wp+2", "level": 0},
        {"type": "smoke", "hex": "2R7"},
        {"type": "blaze", "hex": "2S7", "radius": 1, "levels": 2},
        {"type": "blaze", "hex": "2T7", "building": True},
        {"type": "wreck", "hex": "2U7", "burnt": True},
        {"type": "rubble", "hex": "2V7", "material": "wood", "level": 1},
        {"type": "foxhole", "hex": "2W7"}, {"type": "trench", "hex": "2X7"},
        {"type": "ad_ditch", "hex": "2Y7"}, {"type": "ffe", "hex": "2Z7", "side": "axis"},
    ],
}


def test_the_counter_keys_are_read_and_written_back_as_they_were():
    s = scenario_from_json(copy.deepcopy(POSITION), file="p.json")
    out = scenario_to_json(s)
    assert out["markers"] == POSITION["markers"]
    assert out["units"][0]["bypass_side"] == 3
    counters = los_counters(s)
    names = sorted(c.name for c in counters.smoke)
    assert names == ["2-level Blaze", "Blazing Building", "White +2 WP", "White +3 Smoke"]
    heights = {c.name: (c.hindrance, c.height) for c in counters.smoke}
    assert heights["2-level Blaze"] == (3, 5) and heights["White +2 WP"] == (2, 4)
    assert sorted(v.name for v in counters.vehicles) == ["Burnt Out Wreck", "T (afv)"]
    assert [v.bypass_side for v in counters.vehicles if v.name == "T (afv)"] == [3]
    assert len(counters.ffe) == 1


@pytest.mark.parametrize("where, key, value, place", [
    ("markers", 0, {"kind": "purple"}, "markers[0].kind"),
    ("markers", 0, {"level": 9}, "markers[0].level"),
    ("markers", 0, {"level": "one"}, "markers[0].level"),
    ("markers", 2, {"levels": 5}, "markers[2].levels"),
    ("markers", 3, {"building": "yes"}, "markers[3].building"),
    ("markers", 3, {"levels": 1}, "markers[3].building"),
    ("markers", 4, {"burnt": 1}, "markers[4].burnt"),
    ("markers", 5, {"material": "glass"}, "markers[5].material"),
    ("markers", 5, {"level": 4}, "markers[5].level"),
    ("markers", 6, {"kind": "white+3"}, "markers[6].kind"),
    ("markers", 9, {"burnt": True}, "markers[9].burnt"),
    ("markers", 4, {"material": "stone"}, "markers[4].material"),
    ("units", 0, {"bypass_side": 6}, "units[0].bypass_side"),
    ("units", 0, {"bypass_side": -1}, "units[0].bypass_side"),
])
def test_a_bad_counter_key_is_refused_naming_file_and_place(where, key, value, place):
    data = copy.deepcopy(POSITION)
    data[where][key].update(value)
    with pytest.raises(ScenarioError) as err:
        scenario_from_json(data, file="p.json")
    assert err.value.file == "p.json"
    assert err.value.place == place


def test_rubble_needs_its_material():
    data = copy.deepcopy(POSITION)
    del data["markers"][5]["material"]
    with pytest.raises(ScenarioError) as err:
        scenario_from_json(data, file="p.json")
    assert err.value.place == "markers[5].material"


def test_the_command_line_names_each_counter_on_a_line(tmp_path):
    import json

    from support import cli
    data = {"format": "starshell-scenario", "version": 1, "nvr": 6,
            "map": [{"board": "2", "at": [0, 0]}],
            "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "2Q9"},
                      {"id": "B", "side": "axis", "type": "squad", "hex": "2Q4"}],
            "markers": [{"type": "smoke", "hex": "2Q7"}, {"type": "wreck", "hex": "2Q6"},
                        {"type": "smoke", "hex": "2Q5", "kind": "wp+2"}]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    doc = cli("visibility", path, "--from", "A", "--to", "B")
    reasons = doc["reasons"]
    # 3 + 1 + 2 on an open line: six hindrances block (A6.1)
    assert doc["sight"] == "none" and doc["fire"] == "none"
    assert reasons[0].startswith("6 hindrances in all (0 of the terrain, 6 of counters)")
    assert any(r.startswith("smoke in 2Q7: White +3 Smoke (+3 hindrance") for r in reasons)
    assert any(r.startswith("vehicle in 2Q6: Wreck (+1 hindrance") for r in reasons)
    assert any(r.startswith("smoke in 2Q5: White +2 WP (+2 hindrance") for r in reasons)
