"""Trip flares (rules.md 10): a light of its own radius (default 1) that lights jungle as fires
do (seed 001), where starshells do not; its shadows follow a fire's (an assumption)."""
from __future__ import annotations

import json

import pytest
from support import board, marker, position

from engine.night import reference
from engine.night.files import scenario_to_json
from engine.night.light import illumination

JUNGLE = {"K5": {"terrain": "dense_jungle"}, "K6": {"terrain": "dense_jungle"},
          "K8": {"terrain": "woods", "level": 0}}


def lit_hexes(s) -> set[str]:
    ill = illumination(s)
    return {s.map.names[i] for i in range(s.map.size) if ill.lit[i]}


def within(s, hex_id: str, radius: int) -> set[str]:
    d = s.map.distances_from(s.map.index(hex_id))
    return {s.map.names[i] for i in range(s.map.size) if d[i] <= radius}


def test_trip_flare_lights_jungle_a_starshell_does_not():
    b = board("t1", JUNGLE)
    flare = position(b, markers=[marker("trip_flare", "t1K5")])
    star = position(b, markers=[marker("starshell", "t1K5")])
    assert "t1K5" in lit_hexes(flare) and "t1K6" in lit_hexes(flare)
    assert "t1K5" not in lit_hexes(star) and "t1K6" not in lit_hexes(star)


def test_default_radius_one_and_its_own():
    b = board("t1", {})
    default = position(b, markers=[marker("trip_flare", "t1K5")])
    assert default.markers[0].light_radius == 1
    assert lit_hexes(default) == within(default, "t1K5", 1) and len(lit_hexes(default)) == 7
    wide = position(b, markers=[marker("trip_flare", "t1K5", radius=2)])
    assert lit_hexes(wide) == within(wide, "t1K5", 2) and len(lit_hexes(wide)) == 19


def test_shadow_as_a_fires():
    """Woods at K8 (an obstacle): a trip flare in K7 of radius 2 leaves K9 behind it dark, as a
    Blaze's light would."""
    b = board("t1", {"K8": {"terrain": "woods"}})
    flare = position(b, markers=[marker("trip_flare", "t1K7", radius=2)])
    blaze = position(b, markers=[marker("blaze", "t1K7", radius=2)])
    assert "t1K9" not in lit_hexes(flare)
    assert lit_hexes(flare) == lit_hexes(blaze)
    assert reference.lights(flare)[0] == reference.lights(blaze)[0]


def test_file_round_trip_keeps_the_radius():
    s = position(board("t1", {}), markers=[marker("trip_flare", "t1K5", radius=2)])
    data = json.loads(json.dumps(scenario_to_json(s)))
    assert data["markers"] == [{"type": "trip_flare", "hex": "t1K5", "radius": 2}]


@pytest.mark.parametrize("mtype", ["bounding_fire", "opportunity_fire", "advancing_fire",
                                   "intensive_fire"])
def test_every_vasl_fire_marker_is_a_gunflash(mtype):
    s = position(board("t1", {}), markers=[marker(mtype, "t1K5", side="axis")])
    assert s.markers[0].is_gunflash
    assert "(it counts as a Gunflash, E1.8)" in s.markers[0].gunflash_name


def test_smoke_gives_no_light_and_no_gunflash():
    s = position(board("t1", {}), markers=[marker("smoke", "t1K5")])
    assert lit_hexes(s) == set() and not s.markers[0].is_gunflash
