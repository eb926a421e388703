"""VASL's location counters in a save (rules.md 11.4; VASL's ``getLocation``): a Building Level
counter under a unit sets its level (B23), an entrenchment over it puts it in the entrenchment
(B27); Roof, Climb and Crest leave it where it stands, as VASL's LOS does."""
from __future__ import annotations

import vsav_synth as vs

from engine.importers import vsav
from engine.night.files import scenario_to_json

BOARDS = [(0, 0, "01")]


def read(tmp_path, pieces, stacks):
    return vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS, pieces, stacks=stacks))


def units_by_hex(r):
    return {u["hex"]: u for u in scenario_to_json(r.scenario())["units"]}


def test_a_building_level_counter_under_a_unit_sets_its_level(tmp_path):
    at = vs.hex_pixel("X3")                   # a building with one upper level on board 1
    level, squad = vs.marker("Building Level 1", "MS/x", at), vs.squad("4-6-7", at)
    r = read(tmp_path, [level, squad], [[level, squad]])
    u = units_by_hex(r)["1X3"]
    assert u["level"] == 1 and u["vasl_location"] == "Building Level 1"
    assert any("at level 1" in n and "Building Level 1" in n for n in r.notes)


def test_a_unit_under_the_level_counter_is_not_on_that_level(tmp_path):
    at = vs.hex_pixel("X3")
    level, squad = vs.marker("Building Level 1", "MS/x", at), vs.squad("4-6-7", at)
    r = read(tmp_path, [level, squad], [[squad, level]])   # the counter on top of the squad
    assert "level" not in units_by_hex(r)["1X3"]


def test_a_level_the_hex_cannot_hold_stays_at_ground_and_is_said(tmp_path):
    at = vs.hex_pixel("K5")                   # open ground
    level, squad = vs.marker("Building Level 2", "MS/x", at), vs.squad("4-6-7", at)
    r = read(tmp_path, [level, squad], [[level, squad]])
    assert "level" not in units_by_hex(r)["1K5"]
    assert any("no such level" in n and "1K5" in n for n in r.notes)


def test_an_entrenchment_over_a_unit_puts_it_in_and_a_roof_leaves_it(tmp_path):
    fox_at, roof_at = vs.hex_pixel("K5"), vs.hex_pixel("X3")
    fox, dug = vs.marker("1S Foxhole", "MS/x", fox_at), vs.squad("4-6-7", fox_at)
    roof, top = vs.marker("Building Roof Level", "MS/x", roof_at), vs.squad("4-4-7", roof_at)
    r = read(tmp_path, [fox, dug, roof, top], [[dug, fox], [roof, top]])
    got = units_by_hex(r)
    assert got["1K5"]["entrenched"] is True
    assert "level" not in got["1X3"] and "entrenched" not in got["1X3"]
    assert any("Building Roof Level" in n and "where they stand" in n for n in r.notes)
