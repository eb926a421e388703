"""The engine's typed front door (engine.api): ``check(scenario)`` holds every invariant the
loader holds, on a position made in memory as on one read from a file; sight and fire verdicts,
marker kinds, placement methods, starshell options and the NVR are typed objects that print as
the command line's JSON."""
from __future__ import annotations

import copy
import json

import pytest
from support import cli

from engine import api
from engine.night.files import scenario_to_json

SCENARIOS = api.assets_dir() / "scenarios"


def w10() -> api.night.Scenario:
    return api.night.load_scenario(SCENARIOS / "W-10.json")


def refused(s: api.night.Scenario) -> api.ScenarioError:
    """check's refusal of ``s``, which the loader refuses with the same message and place."""
    with pytest.raises(api.ScenarioError) as by_check:
        api.night.check(s)
    with pytest.raises(api.ScenarioError) as by_loader:
        api.night.scenario_from_json(scenario_to_json(s), folder=s.folder)
    assert (by_loader.value.place, by_loader.value.problem) == (by_check.value.place,
                                                                by_check.value.problem)
    return by_check.value


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.json")), ids=lambda p: p.stem)
def test_every_bundled_scenario_passes_check(path):
    s = api.night.load_scenario(path)
    assert api.night.check(s) is s


def test_a_unit_both_buttoned_up_and_ce_is_refused_by_check_as_by_the_loader():
    s = w10()
    tank = api.night.Unit("T9", "axis", "afv", "2Z4", bu=True, ce=True)
    e = refused(s.with_unit(tank))
    assert e.place == "units[2]" and "both buttoned up (bu) and CE" in e.problem


@pytest.mark.parametrize("unit, place, words", [
    (api.night.Unit("Q", "allied", "squad", "2T6", bu=True), "units[2].bu", "only an AFV"),
    (api.night.Unit("Q", "allied", "squad", "2T6", tracked=True), "units[2].tracked",
     "only vehicles are tracked"),
    (api.night.Unit("Q", "allied", "squad", "2T6", ir=True), "units[2].ir", "only mortars"),
    (api.night.Unit("Q", "allied", "leader", "2T6", moving="entered"), "units[2].moving",
     "only vehicles have a motion state"),
    (api.night.Unit("Q", "allied", "squad", "2T6", level=2), "units[2].level", "level 2 is above"),
    (api.night.Unit("L1", "allied", "squad", "2T6"), "units[2].id", "used twice"),
    (api.night.Unit("Q", "russian", "squad", "2T6"), "units[2].side", "a third side"),
])
def test_impossible_units_are_refused_with_their_place(unit, place, words):
    s = w10()
    e = refused(s.replace(units=s.units + (unit,)))
    assert e.place == place and words in e.problem


STATES = {"bu": True, "ce": True, "tracked": True, "moving": "entered", "ir": True}


@pytest.mark.parametrize("unit_type", api.night.UNIT_TYPES)
def test_check_accepts_a_state_exactly_where_the_edit_panel_offers_it(unit_type):
    """One table says which unit types may be BU, CE, tracked, moving or fire IR (E1.14, E1.93):
    the Edit panel offers a state (``unit_properties``) where ``check`` (and so the loader)
    accepts it, and nowhere else."""
    s = w10()
    offered = api.night.unit_properties(unit_type)
    for key, on in STATES.items():
        unit = api.night.Unit("Q", "allied", unit_type, "2T6", **{key: on})
        if key in offered:
            assert api.night.check(s.with_unit(unit))
        else:
            assert refused(s.with_unit(unit)).place == f"units[2].{key}"


def test_a_passenger_must_stand_with_its_vehicle():
    s = w10().with_unit(api.night.Unit("V1", "axis", "vehicle", "2Z4"))
    rider = api.night.Unit("R", "axis", "squad", "2Z4", extra={"aboard": "V1"})
    assert api.night.check(s.with_unit(rider))
    e = refused(s.with_unit(rider).moved("R", "2BB5"))
    assert e.place == "units[3].aboard" and "stands in 2BB5" in e.problem


def test_markers_and_settings_are_checked():
    s = w10()
    assert refused(s.with_marker(api.night.Marker("starshell", "2A1", radius=2))).place == \
        "markers[1].radius"
    assert refused(s.replace(nvr=100)).place == "nvr"
    assert refused(s.replace(phase="Lunch")).place == "phase"
    assert refused(s.replace(attacker="russian")).place == "attacker"


def test_sight_and_fire_are_enums_that_print_as_the_file_strings():
    s = api.night.load_scenario(SCENARIOS / "W-12.json")
    v = api.night.unit_verdict(s, "A", "B")
    assert isinstance(v.sight, api.night.Sight) and isinstance(v.fire, api.night.Fire)
    assert json.loads(json.dumps(v.as_json()))["sight"] == v.sight.value
    field = api.night.visibility_from(s, "A")
    for i in range(s.map.size):
        assert api.night.Sight.of_code(field.codes[i]) == field.sight_at(i)
    assert [api.night.Sight.of_code(c) for c in (0, 1, 2)] == [api.night.Sight.NONE, api.night.Sight.NVR,
                                                       api.night.Sight.GUNFLASH]


def test_marker_kinds_carry_light_radius_and_side():
    kinds = api.night.MARKER_KINDS
    assert set(kinds) == set(api.night.MARKER_TYPES)
    assert (kinds["starshell"].radius, kinds["starshell"].rule) == (3, "E1.923")
    assert (kinds["ir"].radius, kinds["ir"].rule) == (6, "E1.933")
    assert {t for t, k in kinds.items() if k.light is api.night.Light.STAR} == {"starshell", "ir"}
    assert {t for t, k in kinds.items() if k.light is api.night.Light.FIRE} == {
        "blaze", "flame", "trip_flare"}                 # rules.md 10: a trip flare is a fire's light
    assert {t for t, k in kinds.items() if k.sided} == {
        "gunflash", "prep_fire", "bounding_fire", "opportunity_fire", "advancing_fire",
        "first_fire", "final_fire", "intensive_fire", "ffe"}
    assert api.night.Marker("trip_flare", "2A1").light_radius == 1     # rules.md 10
    assert api.night.Marker("starshell", "2A1").light_radius == 3
    assert api.night.Marker("ir", "2A1").light_radius == 6
    assert api.night.Marker("blaze", "2A1").light_radius == 2          # rules.md 4: no radius given
    assert api.night.Marker("flame", "2A1", radius=4).light_radius == 4
    assert api.night.Marker("gunflash", "2A1").light_radius == -1


def test_starshell_options_are_typed_and_print_as_the_starshell_command():
    """W-10: leader L1 in 2T6 may place in 2W6 by method 2 or 3; "the first legal" is 2."""
    s = w10()
    o = api.night.starshell_options(s, "L1")
    assert isinstance(o, api.night.StarshellOptions)
    assert o.as_json() == cli("starshell", SCENARIOS / "W-10.json", "--unit", "L1")
    assert o.method_for("2W6") == "2"
    assert o.method_for("2W6", "3") == "3"
    assert o.method_for("2W6", "1") is None
    assert o.method_for("2T6") == "1"
    assert [m.key for m in api.night.METHODS] == ["1", "2", "3", "ir-los", "ir-6"]
    assert api.night.FLARE_OF["ir-6"] == "ir" and api.night.FLARE_OF["3"] == "starshell"


def test_a_buttoned_up_afv_has_half_the_nvr():
    """E1.14: a BU AFV has half the NVR, fractions dropped."""
    s = w10().replace(nvr=5)
    tank = api.night.Unit("T9", "axis", "afv", "2Z4", bu=True)
    assert api.night.nvr_of(s, tank) == api.night.Nvr(2, True)
    assert api.night.nvr_of(s, tank.replace(bu=False)) == api.night.Nvr(5, False)


def test_the_loader_keeps_unknown_keys_through_check():
    data = json.loads((SCENARIOS / "W-10.json").read_text())
    data = copy.deepcopy(data)
    data["units"][0]["note"] = "kept"
    s = api.night.scenario_from_json(data)
    assert s.units[0].extra == {"note": "kept"}
