"""Tables (SPEC.md "Tabletop"), the ``shoot`` command, and the geometry's edge cases: a corner
on the front line, a gap narrower than one element, invisible enemies, range, rear ranks."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import el, run_engine, table_of

from engine.errors import ScenarioError
from engine.tabletop.rolls import shoot
from engine.tabletop.snap import snap
from engine.tabletop.table import load_table, save_table, table_to_json

REPO = Path(__file__).resolve().parent.parent
TABLES = REPO / "assets" / "tables"


def refusal(data, tmp_path) -> str:
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_table(p)
    assert str(p) in str(e.value)
    return str(e.value)


GOOD = {"format": "starshell-table", "version": 1, "elements": [el("1", "blue", "Bw", 0, 0, 0)]}


@pytest.mark.parametrize("change, place", [
    (lambda d: d["elements"][0].update(facing="north"), "elements[0].facing"),
    (lambda d: d["elements"][0].update(type="Xx"), "elements[0].type"),
    (lambda d: d["elements"][0].update(x=True), "elements[0].x"),
    (lambda d: d["elements"][0].update(depth=0), "elements[0].depth"),
    (lambda d: d["elements"][0].update(visible="yes"), "elements[0].visible"),
    (lambda d: d["elements"][0].update(colour="red"), "elements[0].colour"),
    (lambda d: d["elements"][0].pop("side"), "elements[0]"),
    (lambda d: d["elements"].append(el("1", "red", "Sp", 5, 5, 0)), "elements[1].id"),
    (lambda d: d["elements"].append(el("2", "red", "Sp", 0.5, -0.2, 0)), "elements[1]"),
    (lambda d: d.update(version=2), "version"),
    (lambda d: d.update(ruleset="dbm"), "ruleset"),
    (lambda d: d.update(elements={}), "elements"),
])
def test_bad_tables_are_refused_naming_the_file_and_the_place(tmp_path, change, place):
    data = json.loads(json.dumps(GOOD))
    change(data)
    assert f": {place}: " in refusal(data, tmp_path)


def test_overlapping_bases_are_refused_but_touching_ones_are_not(tmp_path):
    msg = refusal({**GOOD, "elements": [el("1", "blue", "Bw", 0, 0, 0),
                                        el("2", "red", "Sp", 0.9, 0, 0)]}, tmp_path)
    assert "overlaps element '1'" in msg
    t = table_of(el("1", "blue", "Bw", 0, 0, 0), el("2", "blue", "Bw", 1, 0, 0),
             el("3", "red", "Sp", 0, 0, 180))
    assert len(t.elements) == 3


def test_save_and_load_round_trip(tmp_path):
    t = load_table(TABLES / "S-06.json")
    save_table(t, tmp_path / "x.json")
    assert load_table(tmp_path / "x.json") == t
    assert table_to_json(load_table(tmp_path / "x.json")) == table_to_json(t)


def test_a_corner_on_the_front_line_is_not_in_front():
    # the target's rear corners exactly on the line of the shooter's front, front corners behind
    t = table_of(el("1", "blue", "Bw", 0, 0, 0), el("A", "red", "Sp", 2, -0.375, 180))
    a = shoot(t, "1")["targets"]["A"]
    assert a["corners_in_front"] == 0 and a["in_front"] is False
    # a hair forward: two corners in front
    t = table_of(el("1", "blue", "Bw", 0, 0, 0), el("A", "red", "Sp", 2, -0.374, 180))
    assert shoot(t, "1")["targets"]["A"]["corners_in_front"] == 2


def _gap_table(gap: float, visible: bool = True):
    # two enemy blocks between 1 and its target, ``gap`` BW apart; the shot can squeeze through
    # between them only along its narrowest pair of lines (to T's two east corners)
    return table_of(el("1", "blue", "Bw", 0, 0, 0), el("T", "red", "Sp", 0, 2.5, 180),
                el("L", "red", "Sp", -0.6, 1.2, 180, visible=visible),
                el("R", "red", "Sp", -0.1 + gap + 0.5, 1.2, 180, visible=visible))


def test_a_gap_narrower_than_one_element_closes_the_shot():
    t = shoot(_gap_table(0.65), "1")["targets"]["T"]
    assert t["clear"] is False and ["L", "R"] in t["narrow_gaps"]
    assert "the gap between L and R is 0.65 BW, narrower than one element" in " ".join(t["reasons"])
    wide = shoot(_gap_table(1.0), "1")["targets"]["T"]
    assert wide["clear"] is True and wide["narrow_gaps"] == []


def test_invisible_enemies_do_not_block_and_are_no_target():
    out = shoot(_gap_table(0.3, visible=False), "1")
    assert out["targets"]["T"]["clear"] is True
    assert out["targets"]["L"]["legal"] is False and out["targets"]["L"]["visible"] is False


def test_a_friend_between_the_lines_blocks():
    t = table_of(el("1", "blue", "Bw", 0, 0, 0), el("F", "blue", "Sp", 0, 1.5, 0),
             el("T", "red", "Sp", 0, 2.8, 180))
    v = shoot(t, "1")["targets"]["T"]
    assert v["clear"] is False and v["blocked_by"] == ["F"]


def test_range_from_the_front_edge_and_artillery_that_moved():
    near = table_of(el("1", "blue", "Bw", 0, 0, 0), el("T", "red", "Sp", 0, 3.0, 180))
    far = table_of(el("1", "blue", "Bw", 0, 0, 0), el("T", "red", "Sp", 0, 3.01, 180))
    assert shoot(near, "1")["targets"]["T"]["in_range"] is True
    assert shoot(far, "1")["targets"]["T"]["in_range"] is False
    art = table_of(el("G", "blue", "Art", 0, 0, 0), el("T", "red", "Sp", 0, 4.5, 180))
    assert shoot(art, "G")["must_shoot"] == ["T"] and shoot(art, "G")["range"] == 5
    moved = table_of(el("G", "blue", "Art", 0, 0, 0, moved=True), el("T", "red", "Sp", 0, 4.5, 180))
    assert shoot(moved, "G")["range"] is None and shoot(moved, "G")["must_shoot"] == []


def test_bw_size_setting_changes_depths():
    t = table_of(el("1", "blue", "Bw", 0, 0, 0), bw_mm=20)
    rear = t.corners(t.elements[0])["rear-left"]
    assert rear[1] == pytest.approx(-1.0)        # 20 mm deep on a 20 mm base width


def test_snap_to_front_contact_and_behind():
    t = table_of(el("A", "red", "Sp", 0, 0, 180), el("1", "blue", "Bw", 5, 5, 10))
    assert snap(t, "1", 0.1, 0.15, 10)[3:] == ("front", "A")
    x, y, f, how, other = snap(t, "1", 0.1, 0.55, 170)
    assert (how, other) == ("behind", "A") and (x, y, f) == pytest.approx((0, 0.375, 180))
    assert snap(t, "1", 3, 3, 0)[3] is None



def test_shoot_command_prints_what_spec_says():
    r = run_engine("shoot", TABLES / "S-06.json", "--shooter", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"shooter", "range", "targets", "must_shoot", "rear_rank_of", "supporters"} <= set(out)
    assert out["shooter"] == "1" and out["range"] == 3 and out["must_shoot"] == ["A"]
    assert out["supporters"]["A"] == ["2"] and out["rear_rank_of"] is None
    a = out["targets"]["A"]
    assert {"legal", "in_front", "clear", "in_range", "bisector_distance", "reasons"} <= set(a)


def test_shoot_command_refuses_an_unknown_shooter_and_a_bad_table(tmp_path):
    r = run_engine("shoot", TABLES / "S-06.json", "--shooter", "Z", "--json")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: ") and "--shooter" in r.stderr and "'Z'" in r.stderr
    bad = tmp_path / "t.json"
    bad.write_text(json.dumps({**GOOD, "elements": [el("1", "blue", "Bw", 0, 0, 1e400)]})
                   .replace("Infinity", "1e999"))
    r = run_engine("shoot", bad, "--shooter", "1")
    assert r.returncode == 2 and "Traceback" not in r.stderr and str(bad) in r.stderr


def test_shoot_command_refuses_a_turn_of_no_side():
    r = run_engine("shoot", TABLES / "S-03.json", "--shooter", "X", "--turn", "green", "--json")
    assert r.returncode == 2 and "--turn" in r.stderr and "blue, red" in r.stderr


def test_shoot_json_never_prints_minus_zero():
    """S-06 turns its elements: coordinates that round to zero print as 0.0, never -0.0."""
    for shooter in ("1", "2", "3", "4"):
        out = json.dumps(shoot(load_table(REPO / "assets" / "tables" / "S-06.json"), shooter))
        assert "-0.0," not in out and "-0.0]" not in out


def test_a_table_whose_turn_names_no_side_is_refused_naming_the_file_and_turn(tmp_path):
    """The table's "turn" orders the rolls (seed ex. 2): a side no element has is refused, by
    the loader and by the ``shoot`` command, naming the file and "turn", never used silently."""
    data = json.loads(json.dumps(GOOD)) | {"turn": "green"}
    assert ": turn: no element of side 'green' on the table (sides: blue)" in refusal(
        data, tmp_path)
    r = run_engine("shoot", tmp_path / "bad.json", "--shooter", "1")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: {tmp_path / 'bad.json'}: turn: no element of side 'green'")
    assert table_of(el("1", "blue", "Bw", 0, 0, 0), turn="blue").turn == "blue"


def test_shoot_plain_text_reads_as_words():
    """Without --json the shot is told in lines a player reads (no JSON dumped): whom it must
    shoot, each target legal or not with its reasons, the supporters and the rolls in order."""
    r = run_engine("shoot", TABLES / "S-06.json", "--shooter", "1")
    d = json.loads(run_engine("shoot", TABLES / "S-06.json", "--shooter", "1", "--json").stdout)
    assert r.returncode == 0, r.stderr
    assert "{" not in r.stdout and "None" not in r.stdout
    assert f"Must shoot: {', '.join(d['must_shoot'])}" in r.stdout
    for tid, t in d["targets"].items():
        assert f"  {tid}: {'legal' if t['legal'] else 'not legal'}" in r.stdout
        assert all(reason in r.stdout for reason in t["reasons"])
    for step in d["resolution"][d["must_shoot"][0]]["steps"]:
        assert step["text"] in r.stdout
    assert f"(-1 to its combat factor): {', '.join(d['supporters']['A'])}" in r.stdout
