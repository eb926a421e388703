"""The worked visibility examples of rules.md 6, one test each, on the stand-in boards.

Each test loads the bundled scenario of its example (assets/scenarios/W-nn.json) and checks the
example's sentences; the docstring is the example.  NVR 3 unless a case says otherwise.
"""
from support import changed, example, marker, sees, sight, with_markers, without_markers

from engine import illuminated_hexes, illumination, reveal, visibility_from


def test_W01_starshell_lights_every_hex_within_3():
    """W-01 A starshell in 2Y4 illuminates every hex within 3, including 2V5 and 2W4."""
    s = example("W-01")
    lit = illuminated_hexes(s)
    assert {"2V5", "2W4", "2Y4", "2Y1", "2Y7", "2BB4"} <= lit
    m = s.map
    within = {m.names[i] for i in range(m.size) if m.distance(m.index("2Y4"), i) <= 3}
    assert lit == within
    assert len(lit) == 37                       # a full disc of radius 3: 1 + 3*3*4
    assert "2U4" not in lit and "2Y8" not in lit   # 4 hexes away


def test_W02_IR_in_building_interior_lights_the_rest_of_the_building():
    """W-02 An IR in 1X4, a building interior hex, does not illuminate 1X4 but does illuminate the
    building's other hexes."""
    s = example("W-02")
    lit = illuminated_hexes(s)
    assert "1X4" not in lit
    assert {"1X3", "1Y4", "1Y5", "1X5", "1W5", "1W4"} <= lit
    assert {"1X10", "1R4", "1DD4"} <= lit         # 6 hexes away: the IR's radius (E1.933)
    assert "1Q4" not in lit                       # 7 hexes away
    why = illumination(s).why_dark(s, s.map.index("1X4"))
    assert "building interior" in why and "E1.933" in why


def test_W03_starshell_does_not_light_light_jungle_unless_bypassing():
    """W-03 A starshell in 34V5 does not illuminate 34U6 (jungle) but would light a unit bypassing
    light jungle there."""
    s = example("W-03")
    assert "34U6" not in illuminated_hexes(s)
    assert "34V6" in illuminated_hexes(s)
    ill = illumination(s)
    assert ill.unit_lit(s.unit("B1"))             # bypassing
    assert not ill.unit_lit(s.unit("B2"))         # in the jungle itself


def test_W11_NVR_from_2CC6_and_a_BU_AFV():
    """W-11 A unit in 2CC6 has LOS to 2CC8 but not to 2EE9 (beyond NVR) nor to 2CC9 (the level 2
    hill 2CC8 blocks). A BU AFV in 2CC6 has NVR 1: it sees unlit hexes only within 1 (lit hexes,
    Gunflashes and moving vehicles as usual)."""
    s = example("W-11")
    f = visibility_from(s, "A1")
    assert f["2CC8"].sight == "nvr"
    assert f["2EE9"].sight == "none" and "beyond" in " ".join(f["2EE9"].reasons)
    assert f["2CC9"].sight == "none"
    assert any("2CC8" in r and "A6.2" in r for r in f["2CC9"].reasons)

    t = visibility_from(s, "T1")
    assert t.nvr == 1
    assert t["2CC7"].sight == "nvr" and t["2CC8"].sight == "none"
    lit = with_markers(s, marker("starshell", "2CC10"), marker("gunflash", "2EE5"))
    t = visibility_from(lit, "T1")
    assert t["2CC8"].sight == "nvr"              # lit: within NVR at any range
    assert t["2EE5"].sight == "gunflash"         # 2 hexes away, a Gunflash
    # a moving vehicle 2 hexes away: 1.5 x NVR 1 = 2 (fractions up)
    s2 = changed(s, "E1", type="afv", moving="entered", hex="2EE6")
    assert sees(s2, "T1", "E1").sight == "nvr"
    assert sees(changed(s2, "E1", moving="stopped"), "T1", "E1").sight == "none"


def test_W12_starshell_makes_2Y4_visible_from_2CC6_but_not_back():
    """W-12 2CC6 normally has no LOS to 2Y4; with a starshell in 2Y4 it does (lit, so within its
    NVR). A unit in 2Y4 then has no LOS to 2CC6."""
    s = example("W-12")
    assert sight(without_markers(s), "A", "2Y4") == "none"
    assert sight(s, "A", "2Y4") == "nvr"
    assert sees(s, "A", "B").sight == "nvr" and sees(s, "A", "B").known
    assert sight(s, "B", "2CC6") == "none"
    assert any("E1.101" in r for r in sees(s, "B", "A").reasons)


def test_W13_a_unit_in_the_only_lit_hex_sees_only_gunflashes():
    """W-13 A unit in the only lit hex of the map (e.g. a Blaze of radius 0 in its hex) has LOS to
    no other hex except Gunflash locations, while every other unit sees it if the daytime LOS is
    clear."""
    s = example("W-13")
    assert illuminated_hexes(s) == {"2M5"}
    f = visibility_from(s, "A")
    seen = {h for h in f if f[h].sight != "none"}
    assert seen == {"2M5", "2O6"}
    assert f["2O6"].sight == "gunflash"
    assert sees(s, "B", "A").sight == "nvr"      # 3 hexes away
    assert sees(s, "C", "A").sight == "nvr"      # 5 hexes away: lit, so within NVR


def test_W14_moving_unseen_between_two_lit_hexes():
    """W-14 Enemy units in 2DD5 and 2DD7, starshells in 2DD10 and 2AA4: a friendly unit may move
    into 2DD6 unseen although adjacent to both (they are lit, 2DD6 is not). Every unit on the map
    sees 2DD5 and 2DD7 (clear LOS assumed). It may do anything there but fire without being seen."""
    s = example("W-14")
    lit = illuminated_hexes(s)
    assert {"2DD5", "2DD7"} <= lit and "2DD6" not in lit
    assert sees(s, "E1", "F1").sight == "none"
    assert sees(s, "E2", "F1").sight == "none"
    for viewer in ("F1", "F2", "F3"):
        assert sees(s, viewer, "E1").sight == "nvr", viewer
        assert sees(s, viewer, "E2").sight == "nvr", viewer
    fired = with_markers(s, marker("prep_fire", "2DD6", side="allied"))
    assert sees(fired, "E1", "F1").sight == "gunflash"


def test_W15_concealed_unit_fires_from_2CC8():
    """W-15 2Y7 has no LOS to 2CC8. A concealed unit in 2CC8 fires at a broken unit in 2AA8: no
    Good Order enemy within NVR, so it stays concealed, but 2Y7 now has LOS (Gunflash) and fires at
    it as at a concealed unit (halved / Case K, once). If 2AA8 were Good Order, 2CC8 would lose
    concealment but 2Y7 would still fire as at a concealed unit (beyond NVR). If 2CC8 were lit and
    fired, it would lose concealment even with 2AA8 broken, be within 2Y7's NVR, and 2Y7's fire
    would not be halved."""
    s = example("W-15")
    assert sees(without_markers(s), "Y", "C").sight == "none"
    assert reveal(s, "C", "2AA8").loses_concealment is False
    v = sees(s, "Y", "C")
    assert (v.sight, v.known, v.fire) == ("gunflash", False, "halved")
    assert sum("once" in r for r in v.reasons) == 1
    good_order = changed(s, "B", broken=False)
    assert reveal(good_order, "C", "2AA8").loses_concealment is True
    after = changed(good_order, "C", concealed=False)
    assert sees(after, "Y", "C").fire == "halved"       # beyond NVR: a Gunflash only
    lit = with_markers(s, marker("starshell", "2CC10"))
    assert reveal(lit, "C", "2AA8").loses_concealment is True
    after = changed(lit, "C", concealed=False)
    v = sees(after, "Y", "C")
    assert (v.sight, v.known, v.fire) == ("nvr", True, "normal")


def test_W16_berserk_need_not_charge_an_unlit_gunflash():
    """W-16 A berserk 2Y7 need not charge a Gunflash-marked 2CC8 beyond NVR (not Known), even if
    2CC8 is not concealed; it must if 2CC8 is lit."""
    s = example("W-16")
    v = sees(s, "Y", "C")
    assert v.sight == "gunflash" and not v.known
    lit = with_markers(s, marker("starshell", "2CC10"))
    assert sees(lit, "Y", "C").known


def test_W17_lit_unit_fires_at_an_unlit_gunflash():
    """W-17 2Y4 lit, 2Y5 not (e.g. a starshell in 2Y1): a unit in 2Y4 may fire at 2Y5 only if 2Y5
    holds a Gunflash, halved; if 2Y5 returns fire it keeps its concealment and is not Known to
    2Y4."""
    s = example("W-17")
    lit = illuminated_hexes(s)
    assert "2Y4" in lit and "2Y5" not in lit
    v = sees(s, "L", "D")
    assert (v.sight, v.fire, v.known) == ("gunflash", "halved", False)
    assert sees(without_markers(s, "gunflash"), "L", "D").sight == "none"
    r = reveal(s, "D", "2Y4")
    assert r.loses_concealment is False
    assert not sees(changed(s, "D", concealed=False), "L", "D").known


def test_W18_half_track_seen_only_when_it_enters_or_changes_covered_arc():
    """W-18 A half-track (tracked) stopped in 2Z4 (covered arc AA4/AA5) is not seen from 2CC8
    (level 2 hill), 5 hexes away. Spending an MP to start: still no LOS. Entering a new hex or
    changing covered arc: LOS (within 2 x 3 = 6). A vehicle without tracks (1.5 x 3 = 5) could
    start, reverse into 2Y4 (6 hexes away, behind it) and stay unseen."""
    s = example("W-18")
    assert s.map.distance(s.map.index("2CC8"), s.map.index("2Z4")) == 5
    assert sees(s, "O", "H").sight == "none"
    assert sees(changed(s, "H", moving="started"), "O", "H").sight == "none"
    assert sees(changed(s, "H", moving="entered"), "O", "H").sight == "nvr"
    assert sees(changed(s, "H", moving="changed_ca"), "O", "H").sight == "nvr"
    wheeled = changed(s, "H", tracked=False, moving="entered", hex="2Y4")
    assert sees(wheeled, "O", "H").sight == "none"
    assert any("1.5 x NVR = 5" in r for r in sees(wheeled, "O", "H").reasons)


def test_W19_tank_seen_from_the_2U4_hill():
    """W-19 From 2U4 (level 2 hill) a tank in 2BB5 is unseen (beyond 2 x NVR); entering 2AA6 it is
    seen; stopping there, spending Delay or starting again: unseen; in 2W6 it is seen even when
    stopped (within NVR)."""
    s = example("W-19")
    assert sees(changed(s, "T", moving="entered"), "O", "T").sight == "none"   # 7 hexes
    assert sees(changed(s, "T", moving="entered", hex="2AA6"), "O", "T").sight == "nvr"
    for motion in ("stopped", "delay", "started"):
        assert sees(changed(s, "T", moving=motion, hex="2AA6"), "O", "T").sight == "none", motion
    assert sees(changed(s, "T", moving="stopped", hex="2W6"), "O", "T").sight == "nvr"


def test_W20_dense_jungle_at_night():
    """W-20 Dense jungle: no LOS between 34H7 and 34I8, but 34G8 sees 34I8. A starshell in 34H8
    does not change that, unless a unit is bypassing light jungle. If 34I8 fires (at 34H9, say),
    34H7 may fire at it, halved (not within NVR). If 34H9 holds a Flame, 34H7 and 34I8 are both lit
    and see each other."""
    s = example("W-20")
    assert sees(s, "A", "B").sight == "none"
    assert any("G2.3" in r for r in sees(s, "A", "B").reasons)
    assert sees(s, "C", "B").sight == "nvr"
    shell = with_markers(s, marker("starshell", "34H8"))
    assert sees(shell, "A", "B").sight == "none" and sees(shell, "C", "B").sight == "nvr"
    fired = with_markers(s, marker("prep_fire", "34I8", side="axis"))
    v = sees(fired, "A", "B")
    assert (v.sight, v.fire) == ("gunflash", "halved")
    flame = with_markers(s, marker("flame", "34H9"))
    assert {"34H7", "34I8"} <= illuminated_hexes(flame)
    assert sees(flame, "A", "B").sight == "nvr" and sees(flame, "B", "A").sight == "nvr"


def test_passengers_of_a_moving_vehicle_are_seen_with_it():
    """E1.14: a vehicle *and its passengers/riders* (the seed: and crew) that enter a new hex are
    within NVR out to 1.5 x NVR; the optional ``aboard`` key names the vehicle."""
    s = example("W-18")
    rider = s.unit("O").replace(id="P", side="axis", hex="2Z4", extra={"aboard": "H"})
    s = s.with_unit(rider)
    assert sees(s, "O", "P").sight == "none"
    assert sees(changed(s, "H", moving="entered"), "O", "P").sight == "nvr"


def test_field_tells_whether_the_viewer_is_lit_and_why_its_nvr():
    s = example("W-12")
    assert visibility_from(s, "B").viewer_lit and not visibility_from(s, "A").viewer_lit
    t = visibility_from(example("W-11"), "T1")
    assert "halved" in t.nvr_reason and "E1.14" in t.nvr_reason
    circles = illumination(s).circles
    assert len(circles) == 1 and circles[0][2] == 3 and circles[0][3].sum() == 37


def test_W18_W19_the_field_shows_the_moving_vehicles_hex_too():
    """The per-hex field agrees with the unit verdicts of W-18 and W-19 (E1.14)."""
    s = example("W-18")
    assert visibility_from(s, "O")["2Z4"].sight == "none"
    moving = changed(s, "H", moving="entered")
    v = visibility_from(moving, "O")["2Z4"]
    assert v.sight == "nvr" and any("E1.14" in r for r in v.reasons)
    assert visibility_from(changed(s, "H", moving="started"), "O")["2Z4"].sight == "none"
    w19 = example("W-19")
    assert visibility_from(changed(w19, "T", moving="entered"), "O")["2BB5"].sight == "none"
    assert visibility_from(changed(w19, "T", moving="entered", hex="2AA6"), "O")["2AA6"].sight \
        == "nvr"


def test_a_bu_afv_with_nvr_1_has_nvr_0_and_sees_only_lit_gunflash_and_moving():
    """E1.14: NVR 1 halved, fractions dropped, is 0: not even adjacent unlit hexes; a moving
    vehicle 1.5 x 0 = 0 hexes away is no nearer than its own hex."""
    s = example("W-11").replace(nvr=1)
    f = visibility_from(s, "T1")
    assert f.nvr == 0 and f["2CC7"].sight == "none" and f["2CC6"].sight == "nvr"
    lit = with_markers(s, marker("starshell", "2CC10"))
    assert visibility_from(lit, "T1")["2CC8"].sight == "nvr"


def test_a_lit_viewer_does_not_see_an_unlit_moving_vehicle():
    """Our reading (the seeds leave it open): E1.101 -- an observer in an Illuminated location
    sees only Illuminated locations and Gunflashes, moving vehicles included."""
    s = with_markers(changed(example("W-18"), "H", moving="entered"),
                     marker("starshell", "2CC10"))
    assert illumination(s).unit_lit(s.unit("O"))
    assert sees(s, "O", "H").sight == "none"
    assert visibility_from(s, "O")["2Z4"].sight == "none"
