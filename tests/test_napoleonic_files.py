"""Napoleonic fire positions and chart packs (SPEC.md "Napoleonic fire position"): loading,
refusals naming the file and the place, saving, exact distributions, the ``fire`` command."""
from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from support import run

from engine.api import ScenarioError, assets_dir
from engine.api import napoleonic as nap

FIRE = assets_dir() / "fire"


def sample_pack() -> dict:
    return json.loads((FIRE / "charts" / "sample.json").read_text())


def position_json(name="N-03") -> dict:
    return json.loads((FIRE / f"{name}.json").read_text())


def write(tmp_path, name, data) -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def test_every_column_and_drm_sums_to_one_exactly():
    pack = nap.load_charts("sample")
    assert "sample" in pack.title.lower() and "not a published game" in pack.title
    for col in pack.columns:
        for drm in range(-8, 9):
            d = nap.distribution(col, drm)
            assert sum(d.values()) == 1
            assert all(isinstance(v, Fraction) for v in d.values())


def test_every_bundled_position_loads_and_answers():
    for path in sorted(FIRE.glob("*.json")):
        pos = nap.load_position(path)
        for u in pos.units:
            a = nap.assess(pos, u.hex)
            assert a.defender in {d.id for d in pos.units_in(u.hex)}
            if a.column:
                assert sum(a.outcomes.values()) == 1


@pytest.mark.parametrize("mutate, place", [
    (lambda d: d.__setitem__("fire", []), "fire"),
    (lambda d: d["fire"][2].__setitem__("value", "y3"), "fire[2].value"),
    (lambda d: d["defence"][0].__setitem__("value", 0), "defence[0].value"),
    (lambda d: d["defence"][1].pop("terrain"), "defence[1].terrain"),
    (lambda d: d.__setitem__("columns", ["1:3", "1:2", "1:2"]), "columns[2]"),
    (lambda d: d["columns"].__setitem__(0, "one to three"), "columns[0]"),
    (lambda d: d["results"]["2.5:1"].pop("64-66"), "results.2.5:1"),
    (lambda d: d["results"]["2.5:1"].__setitem__("60-66", "3"), "results.2.5:1.60-66"),
    (lambda d: d["results"]["2.5:1"].__setitem__("17-21", "3"), "results.2.5:1.17-21"),
    (lambda d: d["results"].__setitem__("11:1", {"11-66": ""}), "results.11:1"),
    (lambda d: d["size_drm"][0].__setitem__("max", 5), "size_drm[1]"),
    (lambda d: d["terrain"][0].__setitem__("height", -1), "terrain[0].height"),
    (lambda d: d.__setitem__("enfilade", {"defence": "half"}), "enfilade.defence"),
    (lambda d: d.__setitem__("version", 2), "version"),
])
def test_a_malformed_chart_pack_is_refused_naming_the_place(tmp_path, mutate, place):
    data = sample_pack()
    mutate(data)
    path = write(tmp_path, "pack.json", data)
    with pytest.raises(ScenarioError) as e:
        nap.load_charts(path)
    assert e.value.file == path and e.value.place == place
    # through a position naming it, the same message
    pos = position_json()
    pos["charts"] = "pack.json"
    with pytest.raises(ScenarioError) as e2:
        nap.load_position(write(tmp_path, "pos.json", pos))
    assert (e2.value.file, e2.value.place) == (path, place)


@pytest.mark.parametrize("mutate, place", [
    (lambda d: d.__setitem__("format", "starshell-scenario"), "format"),
    (lambda d: d.__setitem__("segment", "lunch"), "segment"),
    (lambda d: d.__setitem__("charts", "nonesuch"), "charts"),
    (lambda d: d.__setitem__("attacked", ["n1ZZ4"]), "attacked[0]"),
    (lambda d: d["units"][1].__setitem__("hex", "n1Q99"), "units[1].hex"),
    (lambda d: d["units"][0].__setitem__("increments", -1), "units[0].increments"),
    (lambda d: d["units"][0].pop("printed"), "units[0].printed"),
    (lambda d: d["units"][2].__setitem__("arm", "navy"), "units[2].arm"),
    (lambda d: d["units"][2].__setitem__("facing", 7), "units[2].facing"),
    (lambda d: d["units"][0].__setitem__("firing", 4), "units[0].firing"),
    (lambda d: d["units"][1].__setitem__("id", "F1"), "units[1].id"),
    (lambda d: d["units"].__setitem__(0, "F1"), "units[0]"),
    (lambda d: d["map"][0].__setitem__("board", "nowhere.json"), "map[0].board"),
])
def test_a_malformed_position_is_refused_naming_the_place(tmp_path, mutate, place):
    data = position_json()
    mutate(data)
    path = write(tmp_path, "pos.json", data)
    with pytest.raises(ScenarioError) as e:
        nap.load_position(path)
    assert e.value.file == path and e.value.place == place


def test_save_and_load_round_trip(tmp_path):
    pos = nap.load_position(FIRE / "N-02.json")
    after = nap.record_attack(pos, nap.assess(pos, "n1E4", ["F1", "F2"]))
    out = tmp_path / "saved.json"
    nap.save_position(after, out)
    again = nap.load_position(out)
    assert again.attacked == ("n1E4",)
    assert again.unit("F1").fired and again.unit("F2").fired and again.first_fire
    assert nap.position_to_json(again) == nap.position_to_json(after)


def test_a_refused_attack_cannot_be_recorded():
    pos = nap.load_position(FIRE / "N-10.json")
    with pytest.raises(ScenarioError, match="may not be made"):
        nap.record_attack(pos, nap.assess(pos, "n1E4"))


def test_enfilade_halves_the_defence_of_a_line_fired_on_from_outside_its_front(tmp_path):
    data = position_json()
    data["units"][2]["facing"] = 1             # B1 at E4 faces north: C3 and C5 lie on its flank
    pos = nap.load_position(write(tmp_path, "pos.json", data))
    a = nap.assess(pos, "n1E4")
    assert a.defence == Fraction(7, 2) and "enfilade" in a.defence_how
    data["units"][2]["facing"] = 5             # faces south-west: both firers in front
    pos = nap.load_position(write(tmp_path, "pos2.json", data))
    assert nap.assess(pos, "n1E4").defence == 7



def test_fire_command_json_as_spec_says():
    code, out, err = run("fire", str(FIRE / "N-04.json"), "--target", "n1E4", "--dice", "4,3", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["allowed"] and d["fire"] == 18 and d["defence"] == 7 and d["column"] == "2.5:1"
    assert d["ratio"] == 2.571 and d["drm"] == 3
    assert (d["roll"], d["modified"], d["result"]) == (43, 46, "1")
    assert [f["id"] for f in d["firers"]] == ["F1", "F2"]
    assert d["firers"][0]["how"] == "x3 x 3 increments" and d["firers"][0]["los"] is True
    assert abs(sum(d["outcomes"].values()) - 1) < 1e-12
    assert sum(Fraction(v) for v in d["outcomes_exact"].values()) == 1


def test_fire_command_refusals_and_bad_input():
    code, out, _ = run("fire", str(FIRE / "N-10.json"), "--target", "n1E4", "--json")
    assert code == 0 and json.loads(out)["allowed"] is False
    code, _, err = run("fire", str(FIRE / "N-10.json"), "--target", "n1E4", "--firers", "F1,Z9", "--json")
    assert code == 2 and err.startswith("error:") and "--firers" in err and "Z9" in err
    code, _, err = run("fire", str(FIRE / "N-10.json"), "--target", "n1E4", "--dice", "0,3", "--json")
    assert code == 2 and "--dice" in err


def test_a_hostile_pack_is_bounded(tmp_path):
    data = sample_pack()
    data["fire"] = data["fire"] * 200
    with pytest.raises(ScenarioError) as e:
        nap.load_charts(write(tmp_path, "big.json", data))
    assert e.value.place == "fire"
    data = copy.deepcopy(sample_pack())
    data["fire"][0]["nation"] = "x" * 100
    with pytest.raises(ScenarioError) as e:
        nap.load_charts(write(tmp_path, "long.json", data))
    assert e.value.place == "fire[0].nation"


def test_fire_command_names_the_napoleonic_los_rule():
    """The ``fire`` command's reason for a blocked firer (N-08's F1 behind the wood) cites the
    fire room's rule (rules.md 8) and the chart pack, not ASL's A6; so does its text output."""
    code, out, err = run("fire", str(FIRE / "N-08.json"), "--target", "n1H5", "--json")
    assert code == 0, err
    f1 = next(f for f in json.loads(out)["firers"] if f["id"] == "F1")
    assert f1["los"] is False
    assert "n1F5 (woods: 1 level high" in f1["reasons"][0]
    why = f1["reasons"][0]
    assert "every firer needs LOS" in why and "rules.md" not in why and "A6" not in why
    code, out, err = run("fire", str(FIRE / "N-08.json"), "--target", "n1H5")
    assert code == 0, err
    assert "every firer needs LOS" in out and "rules.md" not in out and "A6" not in out


def test_a_wall_on_the_map_blocks_fire_in_the_rooms_words(tmp_path):
    """A wall drawn on a hexside of the fire map (the board's ``hexsides``) blocks a line at
    ground level crossing it; the firer's reason names the wall and rules.md 8, not ASL's
    B9.2 / A6."""
    board = json.loads((FIRE / "boards" / "n1.json").read_text())
    board["hexsides"] = {"C2/2": "wall"}
    write(tmp_path, "walled.json", board)
    data = position_json("N-08")
    data["map"][0]["board"] = "walled.json"
    data["units"][0]["hex"] = "n1A1"                    # F1 fires at B1 moved to n1E2
    data["units"][2]["hex"] = "n1E2"
    pos = nap.load_position(write(tmp_path, "pos.json", data))
    f1 = next(f for f in nap.assess(pos, "n1E2").firers if f.id == "F1")
    assert not f1.los
    why = f1.reasons[0]
    assert "the wall on the n1C2/n1D1 hexside blocks LOS from n1A1 to n1E2" in why
    assert "every firer needs LOS" in why and "rules.md" not in why and "B9" not in why and "A6" not in why


def test_fire_command_plain_text_reads_as_words(tmp_path):
    """Without --json the attack is told in lines a player reads (no JSON dumped): each firer
    with its value or why it is left out, the column, the chances and the roll's result."""
    code, out, err = run("fire", str(FIRE / "sample.json"), "--target", "n1J6", "--dice", "6,6")
    assert code == 0, err
    d = json.loads(run("fire", str(FIRE / "sample.json"), "--target", "n1J6", "--dice", "6,6",
                       "--json")[1])
    assert "{" not in out and "[" not in out
    for f in d["firers"]:
        told = f"{f['id']} in {f['hex']}: " + (f"{f['value_exact']} ({f['how']})" if f["counted"]
                                               else f"left out: {f['why_not']}")
        assert told in out
    assert f"the {d['column']} column" in out and d["result_words"] in out
    assert all(p in out for p in d["outcomes_exact"].values())


def test_fire_command_o_without_record_is_refused(tmp_path):
    out = tmp_path / "after.json"
    code, _, err = run("fire", str(FIRE / "sample.json"), "--target", "n1J6", "--dice", "6,6",
                       "-o", str(out))
    assert code == 2 and err.startswith("error:") and "-o" in err and "--record" in err
    assert not out.exists()
