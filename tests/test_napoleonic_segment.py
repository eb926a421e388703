"""A turn of fire kept in the position (rules.md 8 and 10; SPEC.md "Napoleonic fire position",
extended): who fired and which hexes were attacked, per segment and never lost by moving to
another segment; a unit fires once per segment; losses spread as the owner chooses; a refused
attack counts no fire; the position's settings changed as one edit."""
from __future__ import annotations

import json

import pytest
from support import run_engine

from engine.api import ScenarioError, assets_dir
from engine.api import napoleonic as nap

FIRE = assets_dir() / "fire"


def unit(uid, side, hex_id, **kw) -> dict:
    d = {"id": uid, "side": side, "nation": side, "troop": "line", "arm": "infantry",
         "formation": "line", "increments": 4, "printed": 6, "hex": hex_id}
    d.update(kw)
    return d


def write(tmp_path, units, **keys):
    data = {"format": "starshell-fire", "version": 1, "title": "t",
            "map": [{"board": "n1", "at": [0, 0]}], "charts": "sample", "segment": "fire",
            "first_fire": False, "attacked": [], "units": units}
    data.update(keys)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(data))
    return path


TWO_TARGETS = [unit("F1", "french", "n1D4"), unit("B1", "british", "n1E4"),
               unit("B2", "british", "n1D5")]


def test_a_unit_fires_once_per_segment_on_the_command_line(tmp_path):
    path = write(tmp_path, TWO_TARGETS)
    out = tmp_path / "after.json"
    first = run_engine("fire", path, "--target", "n1E4", "--firers", "F1", "--dice", "1,1",
                       "--record", "-o", out, "--json")
    assert first.returncode == 0, first.stderr
    after = json.loads(out.read_text())
    assert after["fired_this_segment"] == {"F1": "n1E4"}
    second = run_engine("fire", out, "--target", "n1D5", "--firers", "F1", "--json")
    data = json.loads(second.stdout)
    assert data["allowed"] is False
    why = " ".join(data["reasons"])
    assert "F1 has already fired this fire segment (at n1E4)" in why and "rules.md 8" in why
    default = nap.assess(nap.load_position(out), "n1D5")      # every unit that may: not F1
    assert not default.allowed and "already fired" in default.firers[0].why_not


def test_the_record_of_each_segment_survives_moving_between_segments(tmp_path):
    pos = nap.load_position(write(tmp_path, TWO_TARGETS))
    a = nap.assess(pos, "n1E4", ["F1"], (1, 1))
    pos = nap.record(pos, a)[0]
    assert pos.attacked == ("n1E4",) and pos.fired_now == (("F1", "n1E4"),)
    opp = nap.with_segment(pos, "opportunity")
    assert opp.attacked == () and opp.fired_now == ()
    assert nap.assess(opp, "n1D5", ["F1"]).allowed           # another segment: F1 may fire
    back = nap.with_segment(opp, "fire")
    assert back.attacked == ("n1E4",) and back.fired_now == (("F1", "n1E4"),)
    again = nap.assess(back, "n1E4", ["F1"])
    assert not again.allowed
    saved = tmp_path / "saved.json"
    nap.save_position(opp, saved)                             # the file keeps both segments
    data = json.loads(saved.read_text())
    assert data["segments"]["fire"] == {"attacked": ["n1E4"], "fired": {"F1": "n1E4"}}
    assert nap.with_segment(nap.load_position(saved), "fire").attacked == ("n1E4",)


def test_a_new_turn_clears_every_segments_record(tmp_path):
    pos = nap.load_position(write(tmp_path, TWO_TARGETS))
    pos = nap.record(pos, nap.assess(pos, "n1E4", ["F1"], (1, 1)))[0]
    nxt = nap.next_segment(pos)
    assert nxt.segment == "opportunity"
    last = nap.next_segment(nap.next_segment(nxt))            # past the assault: a new turn
    assert last.segment == "fire" and last.attacked == () and last.fired_now == ()
    assert nap.assess(last, "n1E4", ["F1"]).allowed


def test_a_refused_attack_counts_nothing(tmp_path):
    gun = dict(arm="artillery", formation="unlimbered", increments=2, printed=12)
    units = [unit("A1", "french", "n1C2", **gun), unit("F1", "french", "n1D5"),
             unit("B1", "british", "n1C5")]
    path = write(tmp_path, units)
    proc = run_engine("fire", path, "--target", "n1C5", "--firers", "F1,A1", "--json")
    data = json.loads(proc.stdout)
    assert data["allowed"] is False and "18.5" in " ".join(data["reasons"])
    assert not any(f["counted"] for f in data["firers"]) and data["fire"] == 0
    text = run_engine("fire", path, "--target", "n1C5", "--firers", "F1,A1").stdout
    assert "refused" in text and "Fire 21" not in text and "nothing counted" in text


def test_losses_spread_as_the_owner_chooses(tmp_path):
    units = [unit("F1", "french", "n1D4", increments=12, formation="skirmish"),
             unit("B1", "british", "n1E4", increments=3), unit("B2", "british", "n1E4"),
             unit("L1", "british", "n1E4", arm="leader", increments=0)]
    pos = nap.load_position(write(tmp_path, units))
    after, applied = nap.apply_result(pos, "B1", "2", {"B1": 1, "B2": 1})
    assert (after.unit("B1").increments, after.unit("B2").increments) == (2, 3)
    assert nap.applied_words(applied) == ["B1 loses 1 increment (3 -> 2)",
                                          "B2 loses 1 increment (4 -> 3)"]
    top, _ = nap.apply_result(pos, "B1", "2")                 # the default: the top unit first
    assert (top.unit("B1").increments, top.unit("B2").increments) == (1, 4)
    for result, spread, words in (("3", {"B1": 2}, "3 increments are lost, 2 are named"),
                                  ("2", {"B1": 1, "B2": 2}, "2 increments are lost, 3 are named"),
                                  ("2", {"B1": 4}, "B1 has 3 increments"),
                                  ("2", {"L1": 1, "B1": 1}, "L1 cannot take"),
                                  ("2", {"F1": 2}, "F1 cannot take")):
        with pytest.raises(ScenarioError, match=words):
            nap.apply_result(pos, "B1", result, spread)
    assert nap.loss_takers(pos, "B1") == ["B1", "B2"]
    path = write(tmp_path, units)
    out = tmp_path / "o.json"
    proc = run_engine("fire", path, "--target", "n1E4", "--firers", "F1", "--dice", "6,6",
                      "--record", "--losses", "B2:2", "-o", out, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["result"].startswith("2") and data["applied_words"][0].startswith("B2 loses 2")
    assert nap.load_position(out).unit("B2").increments == 2


def test_settings_change_as_one_new_position(tmp_path):
    pos = nap.load_position(write(tmp_path, TWO_TARGETS))
    changed = nap.with_settings(pos, title="Hougoumont", first_fire=True, charts="worked")
    assert (changed.title, changed.first_fire, changed.charts_ref) == ("Hougoumont", True, "worked")
    assert [u.id for u in changed.units] == ["F1", "B1", "B2"]
    with pytest.raises(ScenarioError, match="map"):
        nap.with_settings(pos, board="no_such_board_here")
    renamed = nap.with_unit(nap.record(pos, nap.assess(pos, "n1E4", ["F1"], (1, 1)))[0],
                            {**unit("Grenadiers", "french", "n1D4")}, replacing="F1")
    assert renamed.fired_now == (("Grenadiers", "n1E4"),)     # the record follows a new name


def test_the_command_line_goes_on_to_the_next_segment_keeping_the_record(tmp_path):
    path = write(tmp_path, TWO_TARGETS)
    fired = tmp_path / "fired.json"
    assert run_engine("fire", path, "--target", "n1E4", "--firers", "F1", "--dice", "1,1",
                      "--record", "-o", fired).returncode == 0
    opp, back = tmp_path / "opp.json", tmp_path / "back.json"
    proc = run_engine("fire-segment", fired, "--to", "next", "-o", opp, "--json")
    assert json.loads(proc.stdout) == {"segment": "opportunity", "attacked": [], "fired": {},
                                       "written": str(opp)}
    text = run_engine("fire-segment", opp, "--to", "fire", "-o", back).stdout
    assert "The fire segment: fired F1 (at n1E4); hexes attacked n1E4" in text
    bad = run_engine("fire-segment", opp, "--to", "melee", "-o", back)
    assert bad.returncode == 2 and "--to" in bad.stderr and "'melee'" in bad.stderr
