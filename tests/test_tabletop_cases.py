"""The seed's shooting examples (seed ``004_*``; rules.md 9, cases S-01..S-06), each on
its bundled table ``assets/tables/S-NN.json``.  The geometry is ours; the verdicts are the seed's.
"""
from __future__ import annotations

from pathlib import Path

from engine.tabletop.rolls import shoot
from engine.tabletop.table import load_table

TABLES = Path(__file__).resolve().parent.parent / "assets" / "tables"


def table(case: str):
    return load_table(TABLES / f"{case}.json")


def test_S01_psiloi_off_to_one_side_is_a_legal_target():
    """S-01 archer 1, psiloi A off to one side: A's two left-flank corners join 1's front corners
    with nothing between and A's rear corners are in front of 1's front line: legal."""
    t = table("S-01")
    out = shoot(t, "1")
    a = out["targets"]["A"]
    corners = t.corners(t.element("A"))
    # A faces west: its left flank is its south side, north of 1's front line (y 0), and so
    # are its rear corners
    assert corners["front-left"][1] > 0 and corners["rear-left"][1] > 0
    assert corners["rear-right"][1] > 0
    # the lines from 1's front corners to A's two left-flank corners have nothing between them
    from shapely.geometry import Polygon
    fl, fr = t.corners(t.element("1"))["front-left"], t.corners(t.element("1"))["front-right"]
    between = Polygon([fl, fr, corners["rear-left"], corners["front-left"]])
    assert between.is_valid and between.area > 0
    assert not any(between.buffer(-1e-6).intersects(Polygon(list(t.corners(e).values())))
                   for e in t.elements if e.id not in ("1", "A"))
    assert (a["in_front"], a["clear"], a["in_range"], a["legal"]) == (True, True, True, True)
    assert a["blocked_by"] == [] and a["bearing"] == "right"
    assert a["corners_in_front"] == 4
    assert out["must_shoot"] == ["A"]


def test_S02_psiloi_behind_the_front_line_is_not_legal():
    """S-02 the same with every corner of A behind that line: not legal."""
    t = table("S-02")
    out = shoot(t, "1")
    a = out["targets"]["A"]
    assert all(p[1] < 0 for p in t.corners(t.element("A")).values())
    assert a["clear"] is True                 # the first condition still holds
    assert a["in_front"] is False and a["corners_in_front"] == 0
    assert a["legal"] is False
    assert out["must_shoot"] == [] and out["resolution"] == {}
    assert any("not a legal target" in r for r in a["reasons"])


def test_S03_archer_facing_spears_rolls_defensively_against_an_archer_it_cannot_answer():
    """S-03 (example 2) an archer facing a spear element and shot at by an enemy archer it cannot
    answer: its own shot at the spears, then a defensive roll against the archer; when the enemy
    archer shoots first, its result applies before the defender's own shot."""
    t = table("S-03")
    own_turn = shoot(t, "X", turn="blue")
    assert own_turn["must_shoot"] == ["S"]
    assert own_turn["targets"]["E"]["legal"] and own_turn["targets"]["E"]["bisector_distance"] > 0
    assert own_turn["shot_at_by"] == ["E"]
    steps = own_turn["resolution"]["S"]["steps"]
    assert [(s["roll"], s["by"], s["at"]) for s in steps] == [
        ("shot", "X", "S"), ("defensive", "X", "E")]
    assert own_turn["resolution"]["S"]["mutual"] is False
    assert "two rolls, but one shot; winning does not harm E" in steps[1]["text"]
    enemy_turn = shoot(t, "X", turn="red")
    steps = enemy_turn["resolution"]["S"]["steps"]
    assert [(s["roll"], s["by"], s["at"]) for s in steps] == [
        ("defensive", "X", "E"), ("shot", "X", "S")]
    assert "applies before X's own shot" in steps[0]["text"]
    assert "destroyed, or recoiled out of range, X loses its shot" in steps[0]["text"]
    e = shoot(t, "E", turn="red")
    assert e["must_shoot"] == ["X"]
    assert [(s["roll"], s["by"], s["at"]) for s in e["resolution"]["X"]["steps"]] == [
        ("shot", "E", "X"), ("shot", "X", "S")]


def test_S04_A_shoots_archer_1_with_B_supporting_one_roll():
    """S-04 (example 3) A shoots at archer 1 with B supporting: 1 has -1; one roll for A and 1."""
    out = shoot(table("S-04"), "A")
    assert out["must_shoot"] == ["1"]
    assert out["supporters"] == {"1": ["B"]}
    res = out["resolution"]["1"]
    assert res["mutual"] is True and res["target_modifier"] == -1
    assert [(s["roll"], s["by"], s["at"]) for s in res["steps"]] == [("mutual", "A", "1")]


def test_S05_B_shoots_with_A_supporting_1_defends_first_then_shoots_A():
    """S-05 (example 4) B shoots with A supporting: 1 has -1, rolls defensively against B first,
    then, if still there and in range, shoots at A, which only rolls to defend."""
    t = table("S-05")
    out = shoot(t, "B")
    assert out["must_shoot"] == ["1"] and out["supporters"] == {"1": ["A"]}
    assert shoot(t, "1")["must_shoot"] == ["A"]          # 1 cannot answer B
    res = out["resolution"]["1"]
    assert res["mutual"] is False and res["target_modifier"] == -1
    steps = res["steps"]
    assert [(s["roll"], s["by"], s["at"]) for s in steps] == [("shot", "B", "1"), ("shot", "1", "A")]
    assert "only rolls to defend" in steps[0]["text"]
    assert steps[1]["then"] and "if not destroyed or recoiled out of its range" in steps[1]["text"]
    assert "A supported B's shot and only rolls to defend" in steps[1]["text"]


def test_S06_archers_1_to_4_facing_pikes_A_to_C():
    """S-06 (example 5) archers 1-4 facing pikes A-C, A's rear edge exactly on the line of 3's
    front: 1 must shoot A, supported by 2; 3 may not support against A (no two corners in front);
    3 may shoot B or C, equally near its bisector (the player's choice); 4 shoots where 3 does, in
    support (4 behind 3 is one consistent layout)."""
    t = table("S-06")
    a_rear = [p[1] for k, p in t.corners(t.element("A")).items() if k.startswith("rear")]
    three_front = [p[1] for k, p in t.corners(t.element("3")).items() if k.startswith("front")]
    assert a_rear[0] == a_rear[1] == three_front[0] == three_front[1]   # exactly on the line
    one = shoot(t, "1")
    assert one["must_shoot"] == ["A"]
    assert one["supporters"]["A"] == ["2"]
    assert "3" in one["not_supporting"]["A"]
    three = shoot(t, "3")
    a = three["targets"]["A"]
    assert a["in_front"] is False and a["corners_in_front"] == 0
    assert "2 on it, which is not in front" in " ".join(a["reasons"])
    assert three["must_shoot"] == ["B", "C"]
    assert three["targets"]["B"]["bisector_distance"] == three["targets"]["C"]["bisector_distance"]
    assert three["supporters"] == {"B": ["4"], "C": ["4"]}
    four = shoot(t, "4")
    assert four["rear_rank_of"] == "3"
    assert four["must_shoot"] == ["B", "C"]
