"""`python -m engine advise | threat | route`: the JSON of SPEC.md ("Turn-three extensions"),
plain text citing rules, and bad input named with exit status 2."""
import json
from fractions import Fraction

import pytest
from support import SCENARIOS, cli, run

from engine.cli import main
from engine.hexes import COLUMN_NAMES, board_hexes
from engine.night import planner_cli
from engine.night.planner_cli import MAX_WORK


def test_advise_json_keys_and_exact_fractions():
    doc = cli("advise", SCENARIOS / "W-10.json", "--unit", "L1")
    assert doc["unit"] == "L1" and doc["options"]
    keys = {"method", "at", "usage", "enemy_lit", "friendly_lit", "expected_enemy_lit",
            "any_enemy_lit"}
    for o in doc["options"]:
        assert keys <= set(o)
        assert o["method"] in ("1", "2", "3", "ir-los", "ir-6") and o["usage"] == "4/6"
        assert all(0 <= Fraction(p) <= 1 for p in o["enemy_lit"].values())
        assert set(o["friendly_lit"]) == {"L1"} and set(o["enemy_lit"]) == {"S1"}
        assert isinstance(o["expected_enemy_lit"], float)
        Fraction(o["any_enemy_lit"])
    expected = [o["expected_enemy_lit"] for o in doc["options"]]
    assert expected == sorted(expected, reverse=True)


def test_advise_for_a_target_hex_and_for_a_side():
    doc = cli("advise", SCENARIOS / "W-10.json", "--unit", "L1", "--objective",
                   "target:2BB5")
    assert doc["objective"] == "target:2BB5"
    assert all(o["target"] == "2BB5" and o["target_lit"] == "1" for o in doc["options"])
    side = cli("advise", SCENARIOS / "W-21.json", "--side", "allied")
    assert side["unit"] is None and {o["by"] for o in side["options"]} >= {"M1", "M2"}


def test_threat_json():
    doc = cli("threat", SCENARIOS / "W-14.json", "--side", "allied")
    assert doc["side"] == "allied" and len(doc["hexes"]) == 346
    assert doc["hexes"]["2DD6"] == {"nvr": 0, "gunflash": 0, "moving_vehicle": 0,
                                    "moving_tracked": 0}
    assert all(set(v) >= {"nvr", "gunflash", "moving_vehicle"} for v in doc["hexes"].values())


def test_route_json(tmp_path):
    doc = cli("route", SCENARIOS / "W-10.json", "--unit", "L1", "--to", "2BB8")
    assert set(doc) >= {"path", "seen", "hexes"}
    assert doc["path"][0] == "2T6" and doc["path"][-1] == "2BB8"
    assert doc["hexes"] == len(doc["path"]) - 1 == 8
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"open": 2}))
    mp = cli("route", SCENARIOS / "W-10.json", "--unit", "L1", "--to", "2BB8", "--costs",
                  costs)
    assert mp["cost"] == 16 and mp["hexes"] == 8


def test_plain_text_cites_rules():
    code, out, _ = run("advise", SCENARIOS / "W-10.json", "--unit", "L1")
    assert code == 0 and "E1.921" in out and "E1.92" in out and "2T6" in out
    code, out, _ = run("threat", SCENARIOS / "W-14.json", "--side", "allied")
    assert code == 0 and "E1.101" in out
    code, out, _ = run("route", SCENARIOS / "W-10.json", "--unit", "L1", "--to", "2BB8")
    assert code == 0 and "2T6 -> " in out and "unseen" in out


@pytest.mark.parametrize("args, words", [
    (("advise", "W-10.json", "--unit", "NOPE"), ["--unit", "NOPE"]),
    (("advise", "W-10.json", "--unit", "L1", "--objective", "target:2ZZ9"), ["--objective"]),
    (("advise", "W-10.json", "--unit", "L1", "--objective", "everything"), ["everything"]),
    (("advise", "W-10.json"), ["--unit"]),
    (("threat", "W-10.json", "--side", "martians"), ["--side", "martians", "allied"]),
    (("route", "W-10.json", "--unit", "NOPE", "--to", "2BB8"), ["--unit", "NOPE"]),
    (("route", "W-10.json", "--unit", "L1", "--to", "2QQ99"), ["--to"]),
    (("route", "W-10.json", "--unit", "L1"), ["--to"]),
])
def test_bad_input_is_named(args, words):
    cmd, file, *rest = args
    code, out, err = run(cmd, SCENARIOS / file, *rest, "--json")
    assert code == 2 and out == ""
    assert err.startswith("error:") and "Traceback" not in err
    for w in words:
        assert w in err, (w, err)


def test_a_bad_cost_table_is_named(tmp_path):
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"woods": -1}))
    code, _, err = run("route", SCENARIOS / "W-10.json", "--unit", "L1", "--to", "2BB8",
                       "--costs", costs, "--json")
    assert code == 2 and str(costs) in err and "woods" in err


def test_certain_only_for_what_the_shot_adds():
    """W-10: every placement lights S1, lit already by the starshell over it (E1.9): the old
    "at least one lit: certain" came from that; now the text says the shot gains nothing and
    advises holding fire (rules.md 11.7)."""
    code, out, _ = run("advise", SCENARIOS / "W-10.json", "--unit", "L1")
    doc = cli("advise", SCENARIOS / "W-10.json", "--unit", "L1")
    assert code == 0 and doc["options"][0]["any_enemy_lit"] == "1"
    assert doc["advice"] == "hold" and doc["options"][0]["any_enemy_seen"] == "0"
    assert out.splitlines()[1].strip() == "Don't fire: no placement helps."
    assert "certain" not in out and "lit already: no gain (E1.9)" in out


def test_advise_json_turn_four_keys():
    """SPEC.md turn four: expected_enemies_seen and expected_friends_blinded exact fractions,
    gain the number the options are sorted by, advice fire or hold."""
    doc = cli("advise", SCENARIOS / "W-21.json", "--side", "allied")
    assert doc["advice"] == "fire" and doc["says"].startswith("Fire with ")
    gains = [o["gain"] for o in doc["options"]]
    assert gains == sorted(gains, reverse=True) and gains[0] > 0
    for o in doc["options"]:
        assert Fraction(o["expected_enemies_seen"]) == Fraction(o["gain"]).limit_denominator(36)
        assert Fraction(o["expected_friends_blinded"]) == sum(
            (Fraction(p) for p in o["friends_blinded"].values()), Fraction(0))
        assert isinstance(o["says"], str) and o["says"]


def test_past_the_documented_size_the_command_line_refuses(tmp_path):
    """docs/rules.md (the planner): the command line bounds a question by its units times the
    map's hexes (planner_cli.MAX_WORK); past it a clear refusal that names the way round."""
    hexes = [f"2{COLUMN_NAMES[c]}{r}" for c, r in board_hexes()]
    units = [{"id": f"E{k}", "side": "axis", "type": "squad", "hex": hexes[k % len(hexes)]}
             for k in range(1500)]
    units.append({"id": "L1", "side": "allied", "type": "leader", "hex": "1A1"})
    doc = {"format": "starshell-scenario", "version": 1, "title": "crowded",
           "map": [{"board": "2", "at": [0, 0]}, {"board": "1", "at": [1, 0]}], "nvr": 3,
           "phase": "PFPh", "attacker": "allied", "starshells_used": "earlier", "units": units}
    big = tmp_path / "crowded.json"
    big.write_text(json.dumps(doc))
    assert 1500 * 2 * len(hexes) > MAX_WORK > len(hexes) * 2
    for args in (("threat", big, "--side", "allied"),
                 ("route", big, "--unit", "L1", "--to", "1A2"),
                 ("advise", big, "--side", "axis")):
        code, out, err = run(*args, "--json")
        assert code == 2 and out == "" and "Traceback" not in err
        assert f"{MAX_WORK:,}" in err and "--no-limit" in err and str(big) in err, err
    assert cli("advise", big, "--unit", "L1")["unit"] == "L1"      # one unit: within the bound


def test_no_limit_answers_past_the_bound(monkeypatch, capsys):
    """--no-limit: the same answer as within the bound (the bound lowered to W-14's size)."""
    monkeypatch.setattr(planner_cli, "MAX_WORK", 10)
    assert main(["threat", str(SCENARIOS / "W-14.json"), "--side", "allied", "--json"]) == 2
    assert "--no-limit" in capsys.readouterr().err
    assert main(["threat", str(SCENARIOS / "W-14.json"), "--side", "allied", "--json",
                 "--no-limit"]) == 0
    assert json.loads(capsys.readouterr().out)["hexes"]["2DD6"]["nvr"] == 0
