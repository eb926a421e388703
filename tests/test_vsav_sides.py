"""The two sides of a VASL game: each nationality on its usual side by default; a save of more
than two nationalities may be split otherwise (``--sides ge+fi,ru``, the window's dialog), a
nationality left out is reported, never guessed.  Saves by tests/vsav_synth.py."""
from __future__ import annotations

import json

import pytest
import vsav_synth as vs

from engine.cli import main
from engine.errors import ScenarioError
from engine.importers import sides as sd
from engine.importers import vsav
from engine.night.files import scenario_to_json

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def position(result) -> dict:
    """The position read, as its file says it (SPEC.md): built from the objects, written."""
    return scenario_to_json(result.scenario())


def three_nations(tmp_path):
    return vs.write_vsav(tmp_path / "g.vsav", BOARDS, [
        vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),                  # ge
        vs.squad("4-6-7 1sq", vs.hex_pixel("K6")),
        vs.squad("6-4-8 1sq", vs.hex_pixel("M5"), nation="fi"),
        vs.squad("4-4-7 1sq", vs.hex_pixel("P5"), nation="ru"),
        vs.marker("Gunflash", "MS/x", vs.hex_pixel("P5")),
        vs.turn_marker("Axis", 2, "PFPh")])


def sides_of(r) -> dict[str, str]:
    return {u["id"]: u["side"] for u in position(r)["units"]}


def test_nationalities_and_their_usual_sides(tmp_path):
    path = three_nations(tmp_path)
    nations = sd.save_nations(path)
    assert nations == ["ge", "fi", "ru"]                  # most counters first
    assert sd.default_sides(nations) == sd.Sides(("ge", "fi"), ("ru",))
    assert sd.default_sides(nations).names == ("axis", "allied")
    r = vsav.read_vsav(path, sides=sd.default_sides(nations))
    assert sides_of(r) == {"ge1": "axis", "ge2": "axis", "fi1": "axis", "ru1": "allied"}
    assert position(r)["attacker"] == "axis"
    assert "sides: ge+fi (axis) against ru (allied), as asked" in r.notes


def test_finns_against_germans_named_by_their_nationalities(tmp_path):
    r = vsav.read_vsav(three_nations(tmp_path), sides=sd.parse_sides("fi,ge"))
    assert sides_of(r) == {"ge1": "ge", "ge2": "ge", "fi1": "fi"}
    assert [s["why"] for s in r.skipped if "squad" in s["why"]] == [
        "a squad of nationality 'ru', on neither side of the game (fi,ge)"]
    assert "sides: fi against ge, as asked" in r.notes
    assert position(r)["attacker"] == "ge"          # VASL's "Axis Turn" names no side here
    s = r.scenario()
    assert sorted(s.sides) == ["fi", "ge"]


def test_parse_sides_refuses_what_is_not_two_sides():
    assert sd.parse_sides(" GE + fi , ru ") == sd.Sides(("ge", "fi"), ("ru",))
    assert sd.parse_sides("ru,ge+fi").names == ("allied", "axis")
    for bad, says in [("ge", "two sides"), ("ge,ru,fi", "two sides"), ("ge,", "without"),
                      ("ge,r/u", "not a nationality"), ("ge+ru,ru", "both sides")]:
        with pytest.raises(ScenarioError, match=says) as e:
            sd.parse_sides(bad)
        assert "--sides" in str(e.value)


def test_cli_sides(tmp_path, capsys):
    path, out = three_nations(tmp_path), tmp_path / "pos.json"
    assert main(["import-vsav", str(path), "-o", str(out), "--json", "--sides", "ge+ru,fi"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["units"] == 4
    data = json.loads(out.read_text(encoding="utf-8"))
    assert {u["side"] for u in data["units"]} == {"ge+ru", "fi"}
    assert main(["import-vsav", str(path), "-o", str(out), "--sides", "ge"]) == 2
    assert "--sides" in capsys.readouterr().err
