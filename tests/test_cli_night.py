"""`python -m engine` night subcommands: the JSON shapes of SPEC.md, on real files."""
import json
import shutil
from fractions import Fraction

import pytest
from support import ROOT, SCENARIOS, cli, run


def test_visibility_field_covers_every_hex_with_reasons():
    doc = cli("visibility", SCENARIOS / "W-12.json", "--from", "A")
    assert doc["viewer"] == "A" and doc["nvr"] == 3
    assert len(doc["hexes"]) == 346
    assert doc["hexes"]["2Y4"]["sight"] == "nvr"
    assert doc["hexes"]["2CC6"]["sight"] == "nvr"              # its own hex
    assert doc["hexes"]["2CC9"]["sight"] == "none"
    assert any("E1.101" in r for r in doc["hexes"]["2Y4"]["reasons"])
    assert all(v["reasons"] for v in doc["hexes"].values())


def test_visibility_unit_to_unit():
    doc = cli("visibility", SCENARIOS / "W-15.json", "--from", "Y", "--to", "C")
    assert doc == {**doc, "sight": "gunflash", "known": False, "fire": "halved"}
    assert set(doc) == {"sight", "known", "fire", "reasons"}


def test_bu_afv_reports_its_halved_nvr():
    doc = cli("visibility", SCENARIOS / "W-11.json", "--from", "T1")
    assert doc["nvr"] == 1


def test_visibility_on_a_four_board_map(tmp_path):
    board = json.loads((ROOT / "assets" / "boards" / "2.json").read_text())
    board["id"] = "t4"
    (tmp_path / "t4.json").write_text(json.dumps(board))
    scenario = {"format": "starshell-scenario", "version": 1,
                "map": [{"board": "1", "at": [0, 0]}, {"board": "2", "at": [1, 0]},
                        {"board": "34", "at": [0, 1], "rotated": True},
                        {"board": "t4.json", "at": [1, 1]}],
                "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "2A5"},
                          {"id": "B", "side": "axis", "type": "squad", "hex": "t4CC6"}],
                "markers": [{"type": "starshell", "hex": "t4CC8"}]}
    path = tmp_path / "four.json"
    path.write_text(json.dumps(scenario))
    doc = cli("visibility", path, "--from", "A")
    assert len(doc["hexes"]) == 4 * 346 - 10 - 10 - 16 - 16
    assert doc["hexes"]["2A5"]["sight"] == "nvr"               # canonical name of 1GG5 / 2A5
    assert "1GG5" not in doc["hexes"]
    # the level 2 hill t4U4 stands between 2A5 and the level 2 hill t4CC8: no height advantage
    assert doc["hexes"]["t4CC8"]["sight"] == "none"
    assert "t4U4" in doc["hexes"]["t4CC8"]["reasons"][0] and "A6.2" in \
        doc["hexes"]["t4CC8"]["reasons"][0]
    verdict = cli("visibility", path, "--from", "A", "--to", "B")
    assert (verdict["sight"], verdict["known"], verdict["fire"]) == ("nvr", True, "normal")


def test_illumination_lists_sorted_lit_and_blind_hexes(tmp_path):
    src = json.loads((SCENARIOS / "W-20.json").read_text())
    src["markers"] = [{"type": "blaze", "hex": "34J8", "radius": 2}]
    path = tmp_path / "blaze.json"
    path.write_text(json.dumps(src))
    doc = cli("illumination", path)
    assert doc["illuminated"] == sorted(doc["illuminated"])
    assert "34J8" in doc["illuminated"] and "34I8" in doc["illuminated"]
    assert "34H7" in doc["blind"]                      # behind the dense jungle of 34I8
    assert not set(doc["blind"]) & set(doc["illuminated"])


def test_reveal():
    doc = cli("reveal", SCENARIOS / "W-15.json", "--unit", "C", "--target", "2AA8")
    assert doc["loses_concealment"] is False and doc["reasons"]
    doc = cli("reveal", SCENARIOS / "W-17.json", "--unit", "D", "--target", "2Y4")
    assert doc["loses_concealment"] is False


def test_drift_with_dice_without_and_lit_for_W10():
    s = SCENARIOS / "W-10.json"
    assert cli("drift", s, "--at", "2W6", "--method", "2", "--dice", "2,5") == {"end": "2Z4"}
    assert cli("drift", s, "--at", "2W6", "--method", "3", "--dice", "2,5") == {"end": "2BB3"}
    assert cli("drift", s, "--at", "2T6", "--method", "1", "--dice", "5,4") == {"end": "2S7"}
    assert cli("drift", s, "--at", "2W6", "--method", "3", "--dice", "1,6") == {"end": None}
    dist = cli("drift", s, "--at", "2W6", "--method", "2")["distribution"]
    assert sum(Fraction(v).limit_denominator(36) for v in dist.values()) == 1
    assert dist["2Z4"] == pytest.approx(1 / 18) and "off-map" in dist
    lit = cli("drift", s, "--at", "2W6", "--method", "2", "--lit")["lit_probability"]
    assert lit["2W6"] == pytest.approx(1.0)             # every drift of 1-3 hexes still lights it
    assert all(0 < p <= 1 for p in lit.values())


def test_starshell_for_W10():
    doc = cli("starshell", SCENARIOS / "W-10.json", "--unit", "L1")
    assert doc["may_fire"] is True and doc["usage_dr_max"] == 4
    assert doc["methods"]["2"] == ["2U6", "2V6", "2W6", "2X5", "2X6", "2Y6", "2Z5"]
    assert doc["ir"] == {**doc["ir"], "may_fire": False, "usage_dr_max": None,
                         "methods": {"ir-los": [], "ir-6": []}}


@pytest.mark.parametrize("args, place", [
    (("visibility", "W-12.json", "--from", "Z"), "--from"),
    (("visibility", "W-12.json", "--from", "A", "--to", "Q"), "--to"),
    (("drift", "W-10.json", "--at", "2ZZ9", "--method", "2"), "--at"),
    (("drift", "W-10.json", "--at", "2W6", "--method", "7"), "--method"),
    (("drift", "W-10.json", "--at", "2W6", "--method", "2", "--dice", "9,1"), "--dice"),
    (("drift", "W-10.json", "--at", "2W6", "--method", "2", "--dice", "x"), "--dice"),
    (("reveal", "W-10.json", "--unit", "L1", "--target", "3A1"), "--target"),
    (("starshell", "W-10.json", "--unit", "nobody"), "--unit"),
])
def test_bad_arguments_exit_2_with_the_file_and_place(args, place):
    cmd, file, *rest = args
    code, out, err = run(cmd, SCENARIOS / file, *rest, "--json")
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:")
    assert file in lines[0] and place in lines[0]


def test_installed_assets_are_used_when_the_source_tree_is_elsewhere(tmp_path):
    shutil.copy(SCENARIOS / "W-01.json", tmp_path / "w1.json")
    code, out, err = run("check", tmp_path / "w1.json", "--json")
    assert code == 0 and json.loads(out)["hexes"] == 346


def test_visibility_says_which_hexes_are_lit():
    """E1.101: a lit hex beyond NVR is "nvr" (seen as if within NVR): ``"lit": true`` says why;
    an unlit hex has no ``lit``."""
    from support import example

    from engine.night.light import illumination
    s = example("W-12")
    lit = set(illumination(s).lit_names())
    doc = cli("visibility", SCENARIOS / "W-12.json", "--from", "A")
    assert {h for h, v in doc["hexes"].items() if v.get("lit")} == lit
    assert doc["hexes"]["2Y4"]["lit"] is True and doc["hexes"]["2Y4"]["sight"] == "nvr"
    assert "lit" not in doc["hexes"]["2CC9"]


def test_help_names_the_three_rooms():
    code, out, _ = run("--help")
    assert code == 0
    assert "night-visibility engine" not in out
    assert "Napoleonic" in out and "DBA" in out and "night" in out
