"""Worked examples W-04 .. W-10 and W-21 (rules.md 6): who may fire a starshell, when,
where, and where it drifts.  The docstring of each test is its example."""
import pytest
from support import changed, example, marker, sees, sight, with_markers, without_markers

from engine import ScenarioError
from engine.night.drift import FixedDice
from engine.night.starshells import fire, hex_starshell_roller, starshell_options
from engine.night.unit_verdicts import unit_verdict


def may(s, unit_id):
    return starshell_options(s, unit_id).as_json()["may_fire"]


def reasons(s, unit_id):
    return " ".join(starshell_options(s, unit_id).as_json()["reasons"])


def test_W04_hidden_infantry_comes_into_view():
    """W-04 A unit in 2Y4 may try the first starshell when a hidden enemy infantry unit moving from
    2CC6 through 2BB6 to 2AA6 comes into its LOS (an enemy unit, known or not). The seed says "when
    it enters 2CC6", but 2CC6 and 2BB6 are 4 hexes from 2Y4, beyond NVR 3 for infantry: the
    infantry is first seen in 2AA6 (3 hexes). Test that reading and say so in the test.

    Our reading (the seed's "oculta" is a concealed unit): in 2CC6 and 2BB6 the concealed squad is
    beyond NVR, so 2Y4 has no LOS to an enemy unit and no other trigger exists; in 2AA6 it has."""
    s = example("W-04")
    assert not may(s, "A1")
    assert "E1.91" in reasons(s, "A1")
    assert not may(changed(s, "E1", hex="2BB6"), "A1")
    in_view = changed(s, "E1", hex="2AA6")
    assert sees(in_view, "A1", "E1").sight == "nvr" and not sees(in_view, "A1", "E1").known
    assert may(in_view, "A1")
    assert "(a) A1 has LOS to enemy E1" in reasons(in_view, "A1")


def test_W05_an_enemy_vehicle_enters_2BB6():
    """W-05 Same move by an enemy vehicle: 2Y4 may try as soon as it enters its first new hex, 2BB6
    (4 hexes; moving vehicle, 1.5 x NVR = 5, 2 x if tracked). A BU 2Y4 has NVR 1: it sees the
    infantry only when adjacent, and being BU could never fire a starshell anyway."""
    s = example("W-05")
    assert sees(s, "A1", "V1").sight == "nvr"
    assert may(s, "A1") and "(a)" in reasons(s, "A1")
    assert may(changed(s, "V1", hex="2CC6"), "A1")          # the seed's 2CC6: 4 hexes too
    bu = changed(s, "A1", type="afv", bu=True)
    infantry = changed(bu, "V1", type="squad", moving=None, hex="2AA6")
    assert sees(infantry, "A1", "V1").sight == "none"       # 2 hexes: beyond NVR 1
    assert sees(changed(infantry, "V1", hex="2Z4"), "A1", "V1").sight == "nvr"   # adjacent
    assert not may(bu, "A1")
    assert "buttoned-up" in reasons(bu, "A1")


def test_W06_vehicle_climbs_out_of_LOS_and_no_friendly_motorized_vehicle():
    """W-06 A friendly unit in 2AA6 has no LOS to 2DD6 (level 1 hill) but may try the first
    starshell when an enemy vehicle moves there from 2DD7 and no friendly motorized vehicle is on
    the map."""
    s = example("W-06")
    assert sight(s, "A1", "2DD6") == "none"
    assert may(s, "A1") and "(c)" in reasons(s, "A1")
    with_own = s.with_unit(s.units[0].replace(id="J1", type="vehicle", hex="2A1"))
    assert not may(with_own, "A1")


def test_W07_a_heros_gunflash():
    """W-07 A hero in 2AA8 fires at an enemy entering 2DD6: the hero may not fire a starshell, but a
    unit in 2AA1 may, with no LOS to firer or target (a Gunflash was placed). Same if the enemy
    broke to a minefield attack."""
    s = example("W-07")
    assert not may(s, "H1") and "hero" in reasons(s, "H1")
    assert sight(s, "A1", "2AA8") == "none" and sight(s, "A1", "2DD6") == "none"
    assert may(s, "A1") and "(b)" in reasons(s, "A1")
    minefield = with_markers(without_markers(s), marker("gunflash", "2DD6", side="axis"))
    assert may(minefield, "A1") and "(b)" in reasons(minefield, "A1")
    assert not may(without_markers(s), "A1")


def test_W08_first_starshell_after_an_enemy_FFE():
    """W-08 A CE tracked AFV stays in Motion in 2FF10. An enemy observer in 2CC6 calls an FFE on the
    pre-registered 2FF9 in his PFPh: the AFV's CE crew, or any of its friends, may fire the first
    starshell in the enemy MPh, with no LOS to the observer or to the FFE. (The seed adds that the
    observer could have fired it too, having LOS to the AFV; see section 3 on vehicles.)"""
    s = example("W-08")
    for uid in ("T1", "A1"):
        assert may(s, uid), uid
        assert "(d) the enemy fired an FFE on 2FF9" in reasons(s, uid)
    assert sees(s, "A1", "O1").sight == "none"
    # the observer, in his own PFPh, sees the AFV (it entered 2FF10: 6 hexes = 2 x NVR, tracked)
    own_turn = s.replace(phase="PFPh")
    assert unit_verdict(own_turn, "O1", "T1").sight == "nvr"
    assert may(own_turn, "O1") and "(a)" in reasons(own_turn, "O1")


def test_W09_a_hidden_enemy_enters_2AA2():
    """W-09 A unit in 2X2 sees a hidden enemy enter 2AA2: it may try the first starshell. If this is
    the player turn of the first starshell/IR it may try now; if they were used in earlier player
    turns, it may not fire one at that moment unless it is a leader."""
    s = example("W-09")
    assert may(s, "A1")
    assert may(s.replace(starshells_used="this_turn"), "A1")
    later = s.replace(starshells_used="earlier", extra={"phase_start": False})
    assert not may(later, "A1") and "E1.921" in reasons(later, "A1")
    assert may(later, "L1")


def test_W10_a_leader_places_a_starshell():
    """W-10 A leader in 2T6 sees a squad in 2BB5 (lit by a starshell, so within NVR and Known) and
    passes its usage dr (<= 4). Method 1: in 2T6, dr 5 drifts it to 2S7. Method 2: any of 2U6, 2V6,
    2W6, 2X6, 2Y6, 2Z5 (along the LOS, within 6; 2X5 as well, since the LOS crosses the 2X5/2X6
    hexside at its midpoint and so passes through both); placed in 2W6 with dice (2,5) it ends in
    2Z4. Method 3: exactly 3 hexes away; placed in 2W6 with dice (2,5) it ends in 2BB3. If 2BB5 were
    not lit, method 2 would not be allowed (the squad is not Known) unless 2CC6 held a Gunflash.
    From 2S7 the squad would be 9 hexes away: no method 2."""
    s = example("W-10")
    assert sees(s, "L1", "S1").known
    opts = starshell_options(s, "L1").as_json()
    assert opts["may_fire"] and opts["usage_dr_max"] == 4
    assert opts["methods"]["1"] == ["2T6"]
    assert opts["methods"]["2"] == sorted(["2U6", "2V6", "2W6", "2X5", "2X6", "2Y6", "2Z5"])
    three = opts["methods"]["3"]
    assert "2W6" in three and len(three) == 18
    # the three placements, each with a passed usage dr of 3
    for at, method, dice, end, hexes in [("2T6", "1", (5, 1), "2S7", "1 hex "),
                                         ("2W6", "2", (2, 5), "2Z4", "3 hexes"),
                                         ("2W6", "3", (2, 5), "2BB3", "5 hexes")]:
        after, result = fire(s, "L1", at, method, FixedDice((3,) + dice))
        assert result.success and result.end == end, (method, result)
        # the drift says how far the distance dr carries it by this method (E1.922)
        assert f"distance dr {dice[1]}: {hexes}" in result.reasons[0]
        assert "E1.922" in result.reasons[0] and result.reasons[0].endswith(f"ends in {end}")
        assert after.markers[-1].type == "starshell" and after.markers[-1].hex == end
        assert "2T6" in after.starshell_attempts
    dark = without_markers(s)
    assert starshell_options(dark, "L1").as_json()["methods"]["2"] == []
    flash = with_markers(dark, marker("gunflash", "2CC6", side="axis"))
    along = starshell_options(flash, "L1").as_json()["methods"]["2"]
    assert along and all(s.map.distance(s.map.index("2T6"), s.map.index(h)) <= 6 for h in along)
    assert "2CC6" not in along                       # 9 hexes: beyond the 6 of method 2
    assert starshell_options(changed(s, "L1", hex="2S7"), "L1").as_json()["methods"]["2"] == []
    with pytest.raises(ScenarioError, match="not a legal hex"):
        fire(s, "L1", "2CC6", "2", FixedDice([1, 1, 1]))


def test_W21_one_roll_per_hex_the_mortars_may_also_fire_IR():
    """W-21 A leader, two IR mortar crews, a CE AFV crew and a CE armour leader in an unarmoured
    vehicle in one hex: only one of them may roll for a starshell this phase (best: a leader, <= 4;
    a failed roll costs nothing); the mortars may also roll for IR."""
    s = example("W-21")
    best, why = hex_starshell_roller(s, "2M5")
    assert best.id in ("L", "AL") and "4 or less" in why[0]
    assert starshell_options(s, "T").as_json()["usage_dr_max"] == 2
    assert starshell_options(s, "M1").as_json()["usage_dr_max"] == 2       # a mortar's crew, as an MMC
    assert not may(s, "V")
    after, result = fire(s, "L", "2M5", "1", FixedDice([6]))     # usage dr 6 > 4: fails
    assert not result.success and after.markers == s.markers
    assert "2M5" in after.starshell_attempts
    for uid in ("L", "AL", "T", "M1", "M2"):
        assert not may(after, uid), uid
        assert "one attempt per hex per phase" in reasons(after, uid)
    for uid in ("M1", "M2"):
        ir = starshell_options(after, uid).as_json()["ir"]
        assert ir["may_fire"] and ir["usage_dr_max"] == 4, uid
        assert ir["methods"]["ir-6"]


def test_method_2_along_a_LOS_that_runs_along_hexsides():
    """E1.922 "a hex along that LOS": a LOS running along hexsides passes between the two hexes of
    each, so both may take the starshell (our reading; W-10 counts a hexside crossed at its
    midpoint the same way)."""
    from support import position, unit

    from engine.boards import bundled_board
    s = position(bundled_board("2"), units=[unit("L", "2M5", type="leader"),
                                            unit("E", "2Q5", side="axis")],
                 markers=[marker("starshell", "2Q5")], starshells_used="earlier")
    assert sees(s, "L", "E").known
    assert starshell_options(s, "L").as_json()["methods"]["2"] == ["2N4", "2N5", "2O5", "2P4", "2P5", "2Q5"]
