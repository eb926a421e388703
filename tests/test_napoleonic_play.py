"""The fire room as the game is played (SPEC.md turn three, "Fire room"; rules.md 8 and 10): the
board in its own game's terrain, ranges and units in the way, results applied to the units, the
inadvertent-hit exception, refusals that print no odds."""
from __future__ import annotations

import json

import pytest
from support import run_engine

from engine.api import ScenarioError, assets_dir
from engine.api import napoleonic as nap
from engine.boards import board_from_json

FIRE = assets_dir() / "fire"


def pack_json() -> dict:
    return json.loads((FIRE / "charts" / "sample.json").read_text())


def board_json() -> dict:
    return json.loads((FIRE / "boards" / "n1.json").read_text())


def unit(uid, side, hex_id, **kw) -> dict:
    d = {"id": uid, "side": side, "nation": side, "troop": "line", "arm": "infantry",
         "formation": "line", "increments": 4, "printed": 6, "hex": hex_id}
    d.update(kw)
    return d


def make(tmp_path, units, board=None, pack=None, **keys):
    """A position beside its own board and pack, loaded."""
    (tmp_path / "b.json").write_text(json.dumps(board or board_json()))
    (tmp_path / "p.json").write_text(json.dumps(pack or pack_json()))
    data = {"format": "starshell-fire", "version": 1, "title": "t",
            "map": [{"board": "b.json", "at": [0, 0]}], "charts": "p.json", "segment": "fire",
            "first_fire": False, "attacked": [], "units": units}
    data.update(keys)
    (tmp_path / "pos.json").write_text(json.dumps(data))
    return nap.load_position(tmp_path / "pos.json")


# ------------------------------------------------------------------ the game's own terrain

def test_a_board_uses_its_packs_terrain_names(tmp_path):
    board = board_json()
    board["hexes"]["E4"] = {"terrain": "chateau"}
    pos = make(tmp_path, [unit("F1", "french", "n1C4"), unit("B1", "british", "n1E4")], board)
    assert pos.terrain_at(pos.map.index("n1E4")) == "chateau"
    assert pos.terrain_at(pos.map.index("n1M6")) == "village"
    a = nap.assess(pos, "n1E4")
    assert a.defence == 16 and "chateau" in a.defence_how     # the pack's chateau row


def test_a_terrain_the_pack_does_not_name_is_refused_naming_file_and_hex(tmp_path):
    board = board_json()
    board["hexes"]["E4"] = {"terrain": "grain"}                # ASL's, not this pack's
    with pytest.raises(ScenarioError) as err:
        make(tmp_path, [], board)
    msg = str(err.value)
    assert "b.json" in msg and "hexes.E4.terrain" in msg and "village" in msg


def test_a_pack_terrain_row_gives_height_to_the_los(tmp_path):
    pack = pack_json()
    pack["terrain"].append({"name": "hedge_town", "height": 3, "hindrance": False})
    board = board_json()
    board["hexes"]["C5"] = {"terrain": "hedge_town"}
    units = [unit("F1", "french", "n1C4"), unit("B1", "british", "n1C6")]
    ok, why = nap.has_los(make(tmp_path, units, board, pack), "n1C4", "n1C6")
    assert not ok and "hedge_town" in why
    pack["terrain"][-1]["height"] = 0
    assert nap.has_los(make(tmp_path, units, board, pack), "n1C4", "n1C6")[0]


def test_the_night_room_keeps_asls_list():
    board = board_json()
    with pytest.raises(ScenarioError, match="unknown terrain 'village'"):
        board_from_json(board)


# ------------------------------------------------------------------ ranges, the way, the front

def test_a_firer_beyond_its_packs_range_is_left_out_saying_its_range(tmp_path):
    pos = make(tmp_path, [unit("F1", "french", "n1C1"), unit("F2", "french", "n1D4"),
                          unit("B1", "british", "n1C4")])
    a = nap.assess(pos, "n1C4")
    f1 = next(f for f in a.firers if f.id == "F1")
    assert not f1.counted and "3 hexes" in f1.why_not and "reaches 2 hexes" in f1.why_not
    assert [f.id for f in a.counted()] == ["F2"]
    named = nap.assess(pos, "n1C4", ["F1"])
    assert not named.allowed and "reaches 2 hexes" in named.reasons[0]


def test_artillery_range_bands_multiply_its_fire(tmp_path):
    gun = dict(arm="artillery", formation="unlimbered", increments=2, printed=12)
    near = make(tmp_path, [unit("A1", "french", "n1C1", **gun), unit("B1", "british", "n1C4")])
    assert nap.assess(near, "n1C4", ["A1"]).fire == 12      # the pack: 1..3 full, 4..6 x1/2
    units = [unit("A1", "french", "n1C1", **gun), unit("B2", "british", "n1C6")]
    far = nap.assess(make(tmp_path, units), "n1C6", ["A1"])
    assert far.fire == 6 and "x0.5 at this range" in far.firers[0].how
    pack = pack_json()
    pack["range"] = []                                       # no row: no limit
    pos = make(tmp_path, units, pack=pack)
    assert nap.assess(pos, "n1C6", ["A1"]).fire == 12


def test_a_unit_in_the_way_blocks_where_the_pack_says_so(tmp_path):
    units = [unit("F1", "french", "n1C2", formation="skirmish"), unit("B9", "british", "n1C3"),
             unit("B1", "british", "n1C4")]
    a = nap.assess(make(tmp_path, units), "n1C4")
    f1 = a.firers[0]
    assert not f1.los and not f1.counted and "n1C3 (B9)" in f1.why_not
    pack = pack_json()
    pack["units_block"] = False
    assert nap.assess(make(tmp_path, units, pack=pack), "n1C4").firers[0].counted


def test_a_firer_facing_away_does_not_fire_where_the_pack_has_a_front(tmp_path):
    away = [unit("F1", "french", "n1C2", facing=1), unit("B1", "british", "n1C4")]
    a = nap.assess(make(tmp_path, away), "n1C4")
    assert not a.allowed and "faces N" in a.firers[0].why_not and "front" in a.firers[0].why_not
    toward = [unit("F1", "french", "n1C2", facing=4), unit("B1", "british", "n1C4")]
    assert nap.assess(make(tmp_path, toward), "n1C4").allowed
    square = [unit("F1", "french", "n1C2", facing=1, formation="square"),
              unit("B1", "british", "n1C4")]
    assert nap.assess(make(tmp_path, square), "n1C4").allowed     # not a front formation


def test_a_battery_that_may_not_combine_says_why_it_is_left_out(tmp_path):
    gun = dict(arm="artillery", formation="unlimbered", increments=2, printed=12)
    units = [unit("A1", "french", "n1C2", **gun), unit("F1", "french", "n1D5"),
             unit("B1", "british", "n1C5")]
    a = nap.assess(make(tmp_path, units), "n1C5")
    a1 = next(f for f in a.firers if f.id == "A1")
    assert [f.id for f in a.counted()] == ["F1"]
    assert "18.5" in a1.why_not and "left out" in a1.why_not


def test_a_hex_holding_both_sides_gets_the_other_sides_firers(tmp_path):
    units = [unit("B1", "british", "n1C5"), unit("F9", "french", "n1C5"),
             unit("F1", "french", "n1D5")]
    a = nap.assess(make(tmp_path, units), "n1C5")
    assert a.allowed and [f.id for f in a.counted()] == ["F1"] and a.defender == "B1"


def test_a_refused_attack_prints_no_odds(tmp_path):
    units = [unit("F1", "french", "n1D5"), unit("B1", "british", "n1C5")]
    pos = make(tmp_path, units, attacked=["n1C5"])
    data = nap.assess(pos, "n1C5").to_json()
    assert not data["allowed"] and data["column"] is None and data["ratio"] is None
    assert data["outcomes"] == {} and data["drms"] == []


def test_an_off_map_target_names_what_was_typed(tmp_path):
    pos = make(tmp_path, [unit("B1", "british", "n1C5")])
    with pytest.raises(ScenarioError, match="'n1Z99'"):
        nap.assess(pos, "n1Z99")


# ------------------------------------------------------------------ inadvertent hits

def test_only_artillery_hits_a_hex_inadvertently(tmp_path):
    gun = dict(arm="artillery", formation="unlimbered", increments=2, printed=12)
    units = [unit("A1", "french", "n1D5", **gun), unit("F1", "french", "n1D6"),
             unit("B1", "british", "n1C5")]
    pos = make(tmp_path, units, attacked=["n1C5"])
    musket = nap.assess(pos, "n1C5", ["F1"], kind="roundshot")
    assert not musket.allowed and any("F1 is not artillery" in r for r in musket.reasons)
    assert musket.column is None
    for kind in ("roundshot", "scatter"):
        gun_hit = nap.assess(pos, "n1C5", ["A1"], kind=kind)
        assert gun_hit.allowed and gun_hit.column is not None
    assert not nap.assess(pos, "n1C5", ["A1"]).allowed          # intentional: once only


# ------------------------------------------------------------------ results applied

def test_results_in_words():
    assert nap.result_words("") == "no effect"
    assert nap.result_words("1") == "one increment lost"
    assert nap.result_words("1/M") == "one increment lost and a morale check"
    assert nap.result_words("3/L") == "three increments lost and a leader casualty"


def test_a_result_is_applied_to_the_target_hexs_units(tmp_path):
    units = [unit("F1", "french", "n1D5"), unit("B1", "british", "n1C5", increments=2),
             unit("B2", "british", "n1C5", increments=3),
             unit("L1", "british", "n1C5", arm="leader", increments=0)]
    pos = make(tmp_path, units)
    after, applied = nap.apply_result(pos, "B1", "3/L")
    assert after.unit("B1").increments == 0 and after.unit("B2").increments == 2
    assert after.unit("L1").extra.get("casualty") is True
    assert applied == [{"unit": "B1", "increments": [2, 0]}, {"unit": "B2", "increments": [3, 2]},
                       {"unit": "L1", "casualty": True}]
    after, applied = nap.apply_result(pos, "B1", "9/M")      # never below 0
    assert [after.unit(u).increments for u in ("B1", "B2")] == [0, 0]
    assert not any(a.get("morale_check") for a in applied)    # none left to check
    after, _ = nap.apply_result(pos, "B1", "1/M")
    assert after.unit("B1").extra["morale_check"] and after.unit("B2").extra["morale_check"]
    assert "morale_check" not in after.unit("L1").extra
    assert nap.position_to_json(after)["units"][1]["morale_check"] is True
    alone = make(tmp_path, units[:3])
    assert nap.unmarked(alone, "B1", "1/L") == ["no leader in n1C5: the leader casualty falls on no one"]
    assert nap.unmarked(pos, "B1", "1/L") == []
    after, applied = nap.apply_result(pos, "B1", "/D")
    assert after.unit("B1").formation == "disorder" and applied == [{"unit": "B1", "disorder": True}]


def test_the_fire_command_records_the_attack(tmp_path):
    units = [unit("F1", "french", "n1D5", increments=6), unit("B1", "british", "n1C5")]
    pos = make(tmp_path, units)
    out = tmp_path / "after.json"
    a = nap.assess(pos, "n1C5", dice=(6, 6))
    proc = run_engine("fire", tmp_path / "pos.json", "--target", "n1C5", "--dice", "6,6",
                      "--record", "-o", out, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    lost = int(a.result.split("/")[0])
    assert data["result"] == a.result and data["result_words"] == nap.result_words(a.result)
    assert data["applied"][0] == {"unit": "B1", "increments": [4, 4 - lost]}
    again = nap.load_position(out)
    assert again.attacked == ("n1C5",) and again.unit("F1").fired
    assert again.unit("B1").increments == 4 - lost
    refused = run_engine("fire", out, "--target", "n1C5", "--dice", "6,6", "--record", "-o", out,
                         "--json")
    assert refused.returncode == 2 and "not recorded" in refused.stderr


# ------------------------------------------------------------------ hover words and edits

def test_a_hex_in_words_says_its_terrain_and_why(tmp_path):
    pos = make(tmp_path, [unit("B2", "british", "n1M6")])
    text = nap.describe_hex(pos, "n1M6")
    assert text.startswith("n1M6: village, ground level 0")
    assert "1 level high: it blocks" in text and "defence of B2 (infantry in line) here: 16" in text
    assert "holds B2" in text
    assert "no obstacle" in nap.describe_hex(pos, "n1C3")
    assert "a hindrance" in nap.describe_hex(pos, "n1H8")     # the orchard


def test_a_position_built_from_nothing_saves_and_loads(tmp_path):
    pos = nap.blank_position()
    assert pos.units == ()
    pos = nap.with_unit(pos, unit(nap.free_id(pos, "french"), "french", "n1C3"))
    pos = nap.with_unit(pos, unit(nap.free_id(pos, "british"), "british", "n1C5"))
    assert [u.id for u in pos.units] == ["F1", "B1"]
    changed = nap.with_unit(pos, {**nap.unit_to_json(pos.unit("F1")), "formation": "skirmish"},
                            replacing="F1")
    assert changed.unit("F1").formation == "skirmish" and [u.id for u in changed.units] == ["F1", "B1"]
    with pytest.raises(ScenarioError, match="units\\[2\\].id"):
        nap.with_unit(changed, unit("F1", "french", "n1C4"))
    with pytest.raises(ScenarioError, match="hex"):
        nap.with_unit(changed, unit("F7", "french", "n1Z40"))
    assert [u.id for u in nap.without_unit(changed, "B1").units] == ["F1"]
    nap.save_position(changed, tmp_path / "new.json")
    again = nap.load_position(tmp_path / "new.json")
    assert nap.position_to_json(again) == nap.position_to_json(changed)
    assert nap.assess(again, "n1C5").allowed


def test_a_firer_blocked_by_units_is_not_also_told_its_los_is_clear(tmp_path):
    units = [unit("F1", "french", "n1C2", formation="skirmish"), unit("B9", "british", "n1C3"),
             unit("B1", "british", "n1C4")]
    f1 = nap.assess(make(tmp_path, units), "n1C4").firers[0]
    said = [r for r in f1.reasons if "LOS" in r]
    assert said == [f1.why_not]                  # one word on its LOS: blocked, never "clear"
    assert "is clear" not in " ".join(f1.reasons) and "terrain alone" in f1.why_not
