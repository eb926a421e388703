"""rules.md 8, worked cases N-01..N-10 (seed 002): one test per case, on the bundled
positions assets/fire/N-xx.json and the bundled sample chart pack."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from engine.api import assets_dir
from engine.api import napoleonic as nap


def case(name: str):
    return nap.load_position(assets_dir() / "fire" / f"{name}.json")


def test_N01_skirmish_x3_and_column_printed():
    """N-01 three increments of French light infantry in skirmish (x3) fire 9; in column, the
    printed 8."""
    pos = case("N-01")
    for uid, formation in (("F1", "skirmish"), ("F2", "column")):
        u = pos.unit(uid)
        assert (u.nation, u.troop, u.arm, u.formation, u.increments, u.printed) == (
            "french", "light", "infantry", formation, 3, 8)
    skirmish = nap.fire_value(pos, pos.unit("F1"))
    column = nap.fire_value(pos, pos.unit("F2"))
    assert (skirmish.value, skirmish.how) == (9, "x3 x 3 increments")
    assert (column.value, column.how) == (8, "printed 8")
    a = nap.assess(pos, "n1E4", ["F1"])
    assert a.allowed and a.fire == 9


def test_N02_first_fire_line_x3_becomes_x4_not_skirmish():
    """N-02 with first fire, a line unit's x3 becomes x4; a skirmish unit's does not."""
    pos = case("N-02")
    assert pos.first_fire
    line = nap.fire_value(pos, pos.unit("F1"))
    skirmish = nap.fire_value(pos, pos.unit("F2"))
    already_fired = nap.fire_value(pos, pos.unit("F3"))
    assert (line.value, line.how) == (12, "x4 x 3 increments")
    assert (skirmish.value, skirmish.how) == (9, "x3 x 3 increments")
    assert already_fired.value == 9
    off = replace(pos, first_fire=False)
    assert nap.fire_value(off, off.unit("F1")).value == 9
    # once it has fired, the bonus is spent
    after = nap.record_attack(pos, nap.assess(pos, "n1E4", ["F1"]))
    assert after.unit("F1").fired and nap.fire_value(after, after.unit("F1")).value == 9


def test_N03_18_against_7_is_the_2_5_to_1_column():
    """N-03 18 against defence 7 is the 2.5 : 1 column."""
    a = nap.assess(case("N-03"), "n1E4")
    assert [f.id for f in a.counted()] == ["F1", "F2"]
    assert (a.fire, a.defence) == (18, 7)
    assert a.ratio == Fraction(18, 7) and round(float(a.ratio), 2) == 2.57
    assert a.column == "2.5:1"
    assert "infantry / line / open = 7" in a.defence_how


def test_N04_target_of_11_increments_plus_3_43_becomes_46():
    """N-04 a target of 11 increments: +3, a roll of 43 becomes 46."""
    a = nap.assess(case("N-04"), "n1E4", dice=(4, 3))
    assert a.drms == [("target size: 11 increments in n1E4 (9-12)", 3)]
    assert a.drm == 3
    assert (a.roll, a.modified) == (43, 46)
    assert sum(u.increments for u in case("N-04").units_in("n1E4")) == 11
    bands = nap.load_charts("sample")
    assert bands.size_band(9).drm == bands.size_band(12).drm == 3       # 9 to 12 increments
    # applied once, as the dice modifier: the defence of the hex is not changed by it
    assert a.defence == 7 and "size" not in a.defence_how
    assert nap.step_roll(46, 1) == 51 and nap.step_roll(66, 3) == 66 and nap.step_roll(11, -2) == 11


def test_N05_46_at_2_5_to_1_loses_one_more_needs_64_65_66():
    """N-05 46 at 2.5 : 1 loses one increment; more than one needs 64, 65 or 66 (the sample chart
    must say so)."""
    pos = case("N-05")
    a = nap.assess(pos, "n1E4", dice=(4, 6))
    assert (a.column, a.drm, a.modified, a.result) == ("2.5:1", 0, 46, "1")
    two_or_more = []
    for t in range(1, 7):
        for u in range(1, 7):
            r = nap.assess(pos, "n1E4", dice=(t, u)).result
            if r and int(r.split("/")[0]) > 1:
                two_or_more.append(10 * t + u)
    assert two_or_more == [64, 65, 66]
    assert a.outcomes == {"": Fraction(23, 36), "1": Fraction(10, 36), "2": Fraction(3, 36)}
    assert sum(a.outcomes.values()) == 1


def test_N06_disorder_printed_8_fires_4_opportunity_2():
    """N-06 a unit in disorder with printed 8 fires 4; in opportunity fire, 2."""
    pos = case("N-06")
    assert (pos.unit("F1").formation, pos.unit("F1").printed) == ("disorder", 8)
    fire = nap.fire_value(pos, pos.unit("F1"))
    assert fire.value == 4 and "halved (disorder)" in fire.how
    opp = replace(pos, segment="opportunity")
    assert nap.fire_value(opp, opp.unit("F1")).value == 2
    assert nap.assess(opp, "n1E4").fire == 2


def test_N07_odds_below_1_to_3_refused_1_to_3_allowed_above_10_to_1_is_10_to_1():
    """N-07 5 against defence 16 (1 : 3.2) may not be made, 5 against 15 (exactly 1 : 3) may;
    75 against 7 is a 10 : 1 attack."""
    pos = case("N-07")
    village = nap.assess(pos, "n1N6", ["F1"])
    assert (village.fire, village.defence) == (5, 16)
    assert village.ratio == 1 / Fraction("3.2")               # 1 : 3.2
    assert not village.allowed and "below 1:3" in village.reasons[0]
    wood = nap.assess(pos, "n1L3", ["F1"])
    assert (wood.fire, wood.defence, wood.column, wood.allowed) == (5, 15, "1:3", True)
    big = nap.assess(pos, "n1P6", ["F2", "F3", "F4", "F5", "F6"])
    assert (big.fire, big.defence, big.column, big.allowed) == (75, 7, "10:1", True)


def test_N08_no_los_no_fire():
    """N-08 a unit without LOS to the target hex cannot add its fire."""
    pos = case("N-08")
    a = nap.assess(pos, "n1H5")
    f1 = next(f for f in a.firers if f.id == "F1")
    assert not f1.los and not f1.counted and "n1F5" in f1.reasons[0]
    assert a.fire == 9 and [f.id for f in a.counted()] == ["F2"]
    named = nap.assess(pos, "n1H5", ["F1", "F2"])
    assert not named.allowed and any("F1 has no LOS" in r for r in named.reasons)


def test_N09_artillery_two_hexes_away_without_artillery_leader_cannot_combine():
    """N-09 artillery two hexes away with no artillery leader stacked or adjacent cannot
    combine."""
    pos = case("N-09")
    two_away = [pos.map.distance(pos.map.index(pos.unit(k).hex), pos.map.index("n1E4"))
                for k in ("A1", "A2")]
    assert two_away == [2, 2]
    a = nap.assess(pos, "n1E4")
    by = {f.id: f for f in a.firers}
    assert not by["A1"].combines and not by["A1"].counted
    assert by["A2"].combines and by["A2"].counted          # L1, an artillery leader, is adjacent
    assert a.fire == 10 + 9
    assert not nap.assess(pos, "n1E4", ["A1", "F1"]).allowed
    assert nap.assess(pos, "n1E4", ["A1"]).allowed          # alone it need not combine
    moved = replace(pos, units=tuple(replace(u, hex="n1C3") if u.id == "L1" else u for u in pos.units))
    assert nap.assess(moved, "n1E4", ["A1", "F1"]).allowed


def test_N10_second_intentional_attack_on_a_hex_in_the_fire_segment_refused():
    """N-10 a second intentional attack on the same hex in the Fire Segment is refused."""
    pos = case("N-10")
    assert pos.attacked == ("n1E4",)
    again = nap.assess(pos, "n1E4")
    assert not again.allowed and "already been the target" in again.reasons[0]
    # the exception is for artillery's inadvertent hits only (rules.md 10): 18.9, 18.15
    assert nap.assess(pos, "n1E4", ["A1"], kind="roundshot").allowed
    assert nap.assess(pos, "n1E4", ["A1"], kind="scatter").allowed
    assert not nap.assess(pos, "n1E4", ["F1"], kind="roundshot").allowed
    other = nap.assess(pos, "n1E6")
    assert other.allowed
    after = nap.record_attack(pos, other)
    assert not nap.assess(after, "n1E6").allowed


# ---------------------------------------------------------------- LOS reasons in the room's words
def test_N08_blocked_firer_reason_cites_the_napoleonic_rule_not_asl():
    """N-08 a unit without LOS to the target hex cannot add its fire: its reason says so in the
    fire room's words (the wood's height from the chart pack, rules.md 8), never ASL's A6."""
    pos = case("N-08")
    f1 = next(f for f in nap.assess(pos, "n1H5").firers if f.id == "F1")
    why = f1.reasons[0]
    assert not f1.los
    assert "n1F5 (woods: 1 level high, ground level 0) blocks LOS from n1D5 to n1H5" in why
    assert "every firer needs LOS" in why and "rules.md" not in why and "chart pack's terrain table" in why
    assert "A6" not in why and "daytime" not in why


def test_los_reasons_of_the_fire_room_never_cite_asl():
    """Every reason and step of every attack on every unit of the bundled positions, and the
    ridge, hindrance and along-a-hexside lines of the sample map, cite rules.md 8 and no ASL
    rule (A6, B9...)."""
    for path in sorted((assets_dir() / "fire").glob("N-*.json")):
        pos = nap.load_position(path)
        for u in pos.units:
            a = nap.assess(pos, u.hex)
            texts = a.reasons + [t for f in a.firers for t in f.reasons + f.steps]
            for t in texts:
                assert "A6" not in t and "B9" not in t and "B24" not in t, (path.name, t)
    pos = case("N-08")
    lines = {("n1Q2", "n1T2"): (False, "n1R2 (open, ground level 1) blocks"),   # the ridge
             ("n1F8", "n1K8"): (True, "across 2 hindering hexes"),              # orchard, brush
             ("n1L6", "n1P6"): (False, "hexside of n1M6"),                      # the village
             ("n1S2", "n1S5"): (False, "as high as the higher end")}
    for (a, b), (clear, words) in lines.items():
        seen, why = nap.has_los(pos, a, b)
        assert seen is clear and words in why and "every firer needs LOS" in why, why
        assert "rules.md" not in why, why
        assert "A6" not in why and "DRM" not in why, why
