"""A save's pieces read as VASSAL reads them: the trait stack (basic piece, layers and their
active level) decides the name and the state.  Saves written by tests/vsav_synth.py after the
shapes of VASL's piece definitions: each night marker, fire layer, "?", CE/BU vehicle, counter
name and waiting counter."""
from __future__ import annotations

import pytest
import vsav_synth as vs

from engine.importers import vsav
from engine.night.files import scenario_to_json

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def position(result) -> dict:
    """The position read, as its file says it (SPEC.md): built from the objects, written."""
    return scenario_to_json(result.scenario())


def read(tmp_path, pieces):
    return vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS, pieces))


def markers(r) -> dict[str, str]:
    return {m["hex"]: m["type"] for m in position(r)["markers"]}


@pytest.mark.parametrize("shown, want", [("Prep Fire", "prep_fire"),
                                         ("Bnd. Fire", "bounding_fire"),
                                         ("Opp. Fire", "opportunity_fire"),
                                         ("Adv. Fire", "advancing_fire")])
def test_the_fire_markers_layer_decides_what_it_is(tmp_path, shown, want):
    r = read(tmp_path, [vs.fire_marker(shown, vs.hex_pixel("K5"))])
    assert [{k: m[k] for k in ("type", "hex", "vasl_name")} for m in position(r)["markers"]] == [
        {"type": want, "hex": "2K5", "vasl_name": shown}]
    s = r.scenario()
    assert s.markers[0].is_gunflash                 # every fire marker: a Gunflash (E1.8)


def test_first_and_final_fire_by_the_outer_layer(tmp_path):
    r = read(tmp_path, [vs.first_fire_marker(vs.hex_pixel("K5")),
                        vs.first_fire_marker(vs.hex_pixel("K6"), final=True),
                        vs.first_fire_marker(vs.hex_pixel("K7"), version=3),
                        vs.intensive_fire(vs.hex_pixel("K8")),
                        vs.intensive_fire(vs.hex_pixel("K9"), no_fire=True)])
    assert markers(r) == {"2K5": "first_fire", "2K6": "final_fire", "2K7": "first_fire",
                          "2K8": "intensive_fire"}
    assert {s["piece"] for s in r.skipped} == {"No Fire"}


@pytest.mark.parametrize("name, want", [("Starshell", "starshell"), ("IR", "ir"),
                                        ("Trip Flare", "trip_flare")])
@pytest.mark.parametrize("colour", [1, 2, 3])
def test_night_lights_under_their_colour_layer(tmp_path, name, want, colour):
    r = read(tmp_path, [vs.light_marker(name, vs.hex_pixel("K5"), colour)])
    assert markers(r) == {"2K5": want}
    assert position(r)["markers"][0]["vasl_name"] == vs.COLOURS[colour - 1][:-1] + name


def test_blazes_flames_gunflash_ffe_and_smoke(tmp_path):
    names = ["Blaze", "1-level Blaze", "3-level Blaze", "Flame", "Gunflash", "FFE"]
    pieces = [vs.marker(n, "MS/x", vs.hex_pixel(f"K{k + 1}")) for k, n in enumerate(names)]
    pieces.append(vs.smoke(vs.hex_pixel("L5"), strength=2))
    pieces.append(vs.marker("Starshell Attempt (PF)", "MS/x", vs.hex_pixel("L6")))
    r = read(tmp_path, pieces)
    assert markers(r) == {"2K1": "blaze", "2K2": "blaze", "2K3": "blaze", "2K4": "flame",
                          "2K5": "gunflash", "2K6": "ffe", "2L5": "smoke"}
    assert [s["piece"] for s in r.skipped] == ["Starshell Attempt (PF)"]    # not a starshell


def test_question_mark_from_vasls_counter_conceals_its_side(tmp_path):
    at = vs.hex_pixel("K5")
    r = read(tmp_path, [vs.squad("4-6-7 1sq", at), vs.qmark(at, "ge"),
                        vs.squad("4-4-7 1sq", at, nation="ru"),
                        vs.tank("PzKw IVH", at)])
    units = {u["name"]: u for u in position(r)["units"]}
    assert units["4-6-7"].get("concealed") is True
    assert not units["4-4-7"].get("concealed")
    assert not units["PzKw IVH"].get("concealed")         # a vehicle is never concealed so


def test_vehicles_ce_or_bu_by_their_layer(tmp_path):
    r = read(tmp_path, [vs.tank("PzKw IVH", vs.hex_pixel("K5"), bu=True),
                        vs.tank("SPW 251/1", vs.hex_pixel("K6"), bu=False),
                        vs.truck("ZIS-5", vs.hex_pixel("K7"))])
    units = {u["name"]: u for u in position(r)["units"]}
    assert units["PzKw IVH"]["bu"] is True and "ce" not in units["PzKw IVH"]
    assert units["SPW 251/1"].get("ce") is True and not units["SPW 251/1"].get("bu")
    assert units["ZIS-5"]["type"] == "vehicle" and "bu" not in units["ZIS-5"]


def test_vehicles_tracked_or_not_by_vasls_palette_list(tmp_path):
    r = read(tmp_path, [vs.tank("PzKw IVH", vs.hex_pixel("K5"), palette="Ttw"),
                        vs.tank("SPW 251/1", vs.hex_pixel("K6"), bu=False, palette="htw"),
                        vs.truck("ZIS-5", vs.hex_pixel("K7"), palette="trw"),
                        vs.tank("Sherman III(a)", vs.hex_pixel("K8"), nation="ru", palette="LLw"),
                        vs.tank("T-34 M43", vs.hex_pixel("K9"), nation="ru")])
    units = {u["name"]: u for u in position(r)["units"]}
    assert units["PzKw IVH"].get("tracked") is True
    assert units["SPW 251/1"].get("tracked") is True        # a half-track counts as tracked
    for name in ("ZIS-5", "Sherman III(a)", "T-34 M43"):
        assert not units[name].get("tracked")
    said = " ".join(r.notes)
    assert "ZIS-5: not tracked, VASL files it as a truck (trw)" in said
    assert "SPW 251/1: tracked, VASL files it as a half-track (htw)" in said
    asked = next(n for n in r.notes if n.startswith("vehicles the save does not say"))
    assert "Sherman III(a), T-34 M43" in asked and "PzKw" not in asked
    s = r.scenario()
    assert {u.extra["name"]: u.tracked for u in s.units} == {
        "PzKw IVH": True, "SPW 251/1": True, "ZIS-5": False, "Sherman III(a)": False,
        "T-34 M43": False}


def test_units_keep_their_counter_names(tmp_path):
    r = read(tmp_path, [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                        vs.leader("9-2", vs.hex_pixel("K6")),
                        vs.squad("2-4-7 1hs", vs.hex_pixel("K7"), broken=True),
                        vs.tank("StuG IIIG", vs.hex_pixel("K8"))])
    names = sorted(u["name"] for u in position(r)["units"])
    assert names == ["2-4-7", "4-6-7", "9-2", "StuG IIIG"]
    s = r.scenario()
    assert sorted(u.extra["name"] for u in s.units) == names


def test_waiting_counters_are_kept_with_their_names(tmp_path):
    r = read(tmp_path, [vs.squad("4-6-7 1sq", (150, 300)), vs.leader("9-2", (150, 380)),
                        vs.squad("4-4-7 1sq", vs.hex_pixel("K5"), nation="ru")])
    waiting = r.summary()["waiting"]
    assert [(w["name"], w["side"], w["type"], w["at"]) for w in waiting] == [
        ("4-6-7", "axis", "squad", [150, 300]), ("9-2", "axis", "leader", [150, 380])]
    assert [u["name"] for u in position(r)["units"]] == ["4-4-7"]
    ids = [w["id"] for w in waiting] + [u["id"] for u in position(r)["units"]]
    assert len(set(ids)) == 3                          # one numbering for all
    s = r.scenario()
    assert [w["name"] for w in s.extra["vasl_waiting"]] == ["4-6-7", "9-2"]


def test_phase_and_attacker_from_vasls_turn_marker(tmp_path):
    r = read(tmp_path, [vs.turn_marker("Allied", 2, "MPh"),
                        vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    assert position(r)["phase"] == "MPh" and position(r)["attacker"] == "allied"
    r = read(tmp_path, [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    assert position(r)["phase"] == "PFPh" and position(r)["attacker"] == "axis"


def test_unknown_traits_are_listed_never_a_traceback(tmp_path):
    odd = vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))
    odd.more.append(("strangeTrait;1;2", "x"))
    from engine.importers.pieces import parse_saved_game
    from engine.importers.vassal import read_saved_game
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS, [odd])
    game = parse_saved_game(read_saved_game(path))
    assert game.pieces[0].unknown_traits == ["strangeTrait"]
    assert [u["name"] for u in position(vsav.read_vsav(path))["units"]] == ["4-6-7"]


def test_a_waiting_counter_is_placed_with_its_name(tmp_path):
    from engine.importers.waiting import place_waiting, waiting_units
    r = read(tmp_path, [vs.squad("4-6-7 1sq", (150, 300)),
                        vs.tank("PzKw IVH", (150, 380), bu=False)])
    s = r.scenario()
    tank_id = next(w["id"] for w in waiting_units(s) if w["name"] == "PzKw IVH")
    after = place_waiting(s, tank_id, "2K5")
    u = after.unit(tank_id)
    assert (u.hex, u.type, u.side, u.is_ce, u.extra["name"]) == ("2K5", "afv", "axis", True,
                                                                  "PzKw IVH")
    assert [w["name"] for w in waiting_units(after)] == ["4-6-7"]
    squad_id = waiting_units(after)[0]["id"]
    last = place_waiting(after, squad_id, "34C3")
    assert waiting_units(last) == [] and "vasl_waiting" not in last.extra
    with pytest.raises(Exception, match="waits to be placed"):
        place_waiting(last, squad_id, "2K6")


def test_support_weapons_and_guns_kept_on_their_hex(tmp_path):
    from engine.importers.waiting import kept_pieces
    r = read(tmp_path, [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                        vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"), counter_type="common",
                                 nation="ge"),
                        vs.plain("75L AT PaK 40 ca3", "ge/gun/geAT75L", vs.hex_pixel("K6"),
                                 counter_type="common", nation="ge"),
                        vs.plain("MMG", "ru/ruMMG", (150, 300), counter_type="common")])
    got = [{k: p.get(k) for k in ("name", "kind", "hex", "at")} for p in r.summary()["pieces"]]
    assert got == [{"name": "LMG", "kind": "support_weapon", "hex": "2K5", "at": None},
                   {"name": "75L AT PaK 40 ca3", "kind": "gun", "hex": "2K6", "at": None},
                   {"name": "MMG", "kind": "support_weapon", "hex": None, "at": [150, 300]}]
    s = r.scenario()
    assert [p["name"] for p in kept_pieces(s)] == ["LMG", "75L AT PaK 40 ca3"]
    assert [u.extra["name"] for u in s.units] == ["4-6-7"]          # no viewer among them


def test_support_weapons_waiting_in_the_margin_are_placed_on_a_hex(tmp_path):
    from engine.importers.waiting import kept_pieces, place_piece, waiting_pieces
    r = read(tmp_path, [vs.squad("4-6-7 1sq", (150, 300)),
                        vs.plain("LMG", "ge/geLMG", (150, 300), counter_type="common",
                                 nation="ge", pid=41),
                        vs.plain("45L AT", "ru/ord/ru45LAT", (150, 380), counter_type="common",
                                 nation="ru", pid=42)])
    s = r.scenario()
    assert [(p["name"], p["kind"], p.get("side")) for p in waiting_pieces(s)] == [
        ("LMG", "support_weapon", "axis"), ("45L AT", "gun", "allied")]
    assert kept_pieces(s) == []
    after = place_piece(s, "42", "2K6")
    assert [(p["name"], p["hex"]) for p in kept_pieces(after)] == [("45L AT", "2K6")]
    assert [p["name"] for p in waiting_pieces(after)] == ["LMG"]
    assert [p["name"] for p in waiting_pieces(s)] == ["LMG", "45L AT"]     # s unchanged
    with pytest.raises(Exception, match="waits to be placed"):
        place_piece(after, "42", "2K7")
    with pytest.raises(Exception, match="not on this map"):
        place_piece(after, "41", "9K7")
