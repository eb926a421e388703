"""The tabletop as DBA 3.0 is played (rules.md 9 and 10; SPEC.md turn three "Tabletop"): rear
ranks only support, a target that ties between two shooters answers one of them, the order of
the rolls is the phasing player's choice, close combat, and terrain pieces that block."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import el, run_engine, table_of

from engine.errors import ScenarioError
from engine.tabletop.rolls import shoot
from engine.tabletop.table import load_table, save_table

REPO = Path(__file__).resolve().parent.parent
TABLES = REPO / "assets" / "tables"


def rolls(res):
    return [(s["roll"], s["by"], s["at"]) for s in res["steps"]]


# -- rear ranks -----------------------------------------------------------------------------
def test_a_rear_rank_archer_is_never_the_main_shooter():
    four = shoot(load_table(TABLES / "S-06.json"), "4")
    assert four["main"] is False and four["supports"] == "3"
    assert four["resolution"] == {} and four["supporters"] == {}
    assert any("where 3 shoots (B or C), 4 supports it" in r for r in four["reasons"])
    three = shoot(load_table(TABLES / "S-06.json"), "3")
    assert three["main"] is True and three["supports"] is None


def test_an_enemy_rear_rank_gets_no_defensive_roll_of_its_own():
    """Enemy archers E (front) and R (its rear rank) shoot X: only E's shot is rolled."""
    t = table_of(el("X", "blue", "Bw", 0, 0, 0), el("S", "red", "Sp", 0, 1.5, 180),
             el("E", "red", "Bw", 1, 1.5, 180), el("R", "red", "Bw", 1, 2.0, 180))
    assert shoot(t, "R")["rear_rank_of"] == "E"
    out = shoot(t, "X", turn="blue")
    assert out["shot_at_by"] == ["E"]
    assert rolls(out["resolution"]["S"]) == [("shot", "X", "S"), ("defensive", "X", "E")]
    assert shoot(t, "E")["supporters"] == {"X": ["R"]}


# -- a target two shooters tie for -----------------------------------------------------------
def _tie():
    return table_of(el("T", "red", "Bw", 0, 2, 180), el("A", "blue", "Bw", -1, 0, 0),
                el("B", "blue", "Bw", 1, 0, 0))


def test_a_tied_target_shoots_back_at_one_shooter_only():
    t = _tie()
    assert shoot(t, "T")["must_shoot"] == ["A", "B"]
    a, b = shoot(t, "A")["resolution"]["T"], shoot(t, "B")["resolution"]["T"]
    assert (a["mutual"], b["mutual"]) == (True, False)
    assert rolls(a) == [("mutual", "A", "T")]
    assert rolls(b) == [("shot", "B", "T"), ("shot", "T", "A")]
    assert "T shoots A, not B, and only rolls to defend" in b["steps"][0]["text"]
    assert a["target_may_shoot"] == ["A", "B"] and a["target_shoots"] == "A"


def test_the_tied_target_s_player_may_choose_the_other_shooter():
    t = _tie()
    a = shoot(t, "A", choices={"T": "B"})["resolution"]["T"]
    b = shoot(t, "B", choices={"T": "B"})["resolution"]["T"]
    assert (a["mutual"], b["mutual"]) == (False, True)
    with pytest.raises(ScenarioError, match="T may shoot only A or B"):
        shoot(t, "A", choices={"T": "Z"})


# -- the order of the rolls -------------------------------------------------------------------
def test_the_phasing_player_chooses_which_roll_comes_first():
    t = load_table(TABLES / "S-03.json")
    default = shoot(t, "X", turn="blue")["resolution"]["S"]
    assert default["order"] == {"chosen_by": "blue", "first": "shot", "default": "shot",
                                "choices": ["shot", "defensive"]}
    chosen = shoot(t, "X", turn="blue", first="defensive")["resolution"]["S"]
    assert rolls(chosen) == [("defensive", "X", "E"), ("shot", "X", "S")]
    assert "the blue player's choice of order" in chosen["steps"][0]["text"]
    red = shoot(t, "X", turn="red", first="shot")["resolution"]["S"]
    assert rolls(red) == [("shot", "X", "S"), ("defensive", "X", "E")]
    with pytest.raises(ScenarioError, match="--first"):
        shoot(t, "X", first="later")


# -- close combat -----------------------------------------------------------------------------
def test_elements_in_close_combat_neither_shoot_nor_are_shot_at():
    t = table_of(el("X", "blue", "Bw", 0, 0, 0), el("S", "red", "Sp", 0, 0, 180),
             el("E", "red", "Bw", 1.5, 1.5, 180))
    x = shoot(t, "X")
    assert x["range"] is None and x["must_shoot"] == []
    assert "X is in close combat with S: it does not shoot (DBA 3.0 close combat)" in x["reasons"]
    e = shoot(t, "E")
    assert e["targets"]["X"]["in_close_combat"] is True and e["targets"]["X"]["legal"] is False
    assert e["must_shoot"] == []
    # touching at a corner only is no close combat
    corner = table_of(el("X", "blue", "Bw", 0, 0, 0), el("S", "red", "Sp", 1.0, 0.0, 180))
    assert shoot(corner, "X")["range"] == 3


# -- terrain ----------------------------------------------------------------------------------
SQUARE = [[-0.5, 1.0], [0.5, 1.0], [0.5, 1.6], [-0.5, 1.6]]


def _lane(*terrain, shooter_y=0.0):
    return table_of(el("1", "blue", "Bw", 0, shooter_y, 0), el("A", "red", "Sp", 0, 2.5, 180),
                terrain=list(terrain))


@pytest.mark.parametrize("kind", ["woods", "bua", "oasis"])
def test_woods_and_built_up_areas_between_block_the_shot(kind):
    out = shoot(_lane({"type": kind, "polygon": SQUARE}), "1")
    a = out["targets"]["A"]
    assert a["clear"] is False and a["blocked_by_terrain"] == [0] and a["blocked_by"] == []
    assert "(terrain[0]) lies between the lines" in " ".join(a["reasons"])
    assert out["must_shoot"] == []


@pytest.mark.parametrize("kind", ["river", "marsh", "rough", "road"])
def test_terrain_that_does_not_block_sight(kind):
    assert shoot(_lane({"type": kind, "polygon": SQUARE}), "1")["must_shoot"] == ["A"]


def test_a_shooter_in_the_woods_shoots_out_of_them():
    wood = {"type": "woods", "polygon": [[-1, -1], [1, -1], [1, 1.6], [-1, 1.6]]}
    assert shoot(_lane(wood), "1")["must_shoot"] == ["A"]


def test_a_hill_blocks_two_lower_elements_and_its_crest_one_on_it():
    hill = {"type": "hill", "polygon": SQUARE}
    assert shoot(_lane(hill), "1")["targets"]["A"]["blocked_by_terrain"] == [0]
    big = [[-2, -1], [2, -1], [2, 1.6], [-2, 1.6]]
    assert shoot(_lane({"type": "hill", "polygon": big}), "1")["must_shoot"] == ["A"]
    crest = {"type": "hill", "polygon": big, "crest": [[-2, 1.0], [2, 1.0]]}
    assert shoot(_lane(crest), "1")["targets"]["A"]["blocked_by_terrain"] == [0]


@pytest.mark.parametrize("piece, place", [
    ({"type": "lava", "polygon": SQUARE}, "terrain[0].type"),
    ({"type": "woods", "polygon": [[0, 0], [1, 1]]}, "terrain[0].polygon"),
    ({"type": "woods", "polygon": [[0, 0], [1, 1], [1, 0], [0, 1]]}, "terrain[0].polygon"),
    ({"type": "woods", "polygon": SQUARE, "crest": [[0, 0], [1, 1]]}, "terrain[0].crest"),
    ({"type": "hill", "polygon": [[0, 0], [1, "a"], [1, 0]]}, "terrain[0].polygon[1]"),
])
def test_bad_terrain_is_refused_naming_the_place(piece, place):
    with pytest.raises(ScenarioError) as e:
        _lane(piece)
    assert f"t.json: {place}: " in str(e.value)


def test_terrain_survives_a_save(tmp_path):
    t = _lane({"type": "hill", "polygon": SQUARE, "crest": [[-0.5, 1.3], [0.5, 1.3]]})
    save_table(t, tmp_path / "t.json")
    assert load_table(tmp_path / "t.json").terrain == t.terrain


# -- the command line -------------------------------------------------------------------------
def test_shoot_command_takes_the_players_choices(tmp_path):
    p = tmp_path / "tie.json"
    save_table(_tie(), p)
    r = run_engine("shoot", p, "--shooter", "A", "--choose", "T=B", "--first", "defensive",
                   "--json")
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)["resolution"]["T"]
    assert res["mutual"] is False and res["target_shoots"] == "B"
    bad = run_engine("shoot", p, "--shooter", "A", "--choose", "T", "--json")
    assert bad.returncode == 2 and "--choose" in bad.stderr


@pytest.mark.parametrize("path", sorted(TABLES.glob("S-*.json")), ids=lambda p: p.stem)
def test_the_texts_shown_name_no_file_and_no_seed(path):
    t = load_table(path)
    for e in t.elements:
        out = shoot(t, e.id)
        texts = list(out["reasons"]) + [r for v in out["targets"].values() for r in v["reasons"]]
        texts += [s["text"] for res in out["resolution"].values() for s in res["steps"]]
        for text in texts:
            assert "seed" not in text and "RULES" not in text and ".md" not in text, text
