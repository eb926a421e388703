"""The LOS thread and "view as side" answers the app draws."""
from support import changed, example, marker, with_markers

from engine.night.los_thread import los_thread, seen_by_side


def test_thread_along_a_hexside_W20():
    s = example("W-20")
    t = los_thread(s, "34G8", "34I8")
    assert t.crossed == [] and t.hexsides == [("34H7", "34H8")]
    assert t.day_clear and t.range == 2
    assert t.night_sight == "nvr"


def test_thread_blocked_by_the_2CC8_hill_W11():
    s = example("W-11")
    t = los_thread(s, "2CC6", "2CC9", viewer_id="A1")
    assert t.crossed == ["2CC7", "2CC8"]
    assert not t.day_clear and t.blocking == ["2CC8"] and not t.blind
    assert "A6.2" in t.day_reason and t.night_sight == "none" and t.viewer == "A1"


def test_thread_night_verdict_from_an_empty_hex_and_a_lit_target():
    s = example("W-12")
    t = los_thread(s, "2DD5", "2Y4")
    assert t.viewer is None and t.night_sight == "nvr"          # 2Y4 is lit
    assert any("E1.101" in r for r in t.night_reasons)
    assert los_thread(s, "2DD5", "2Y8").night_sight == "none"   # beyond NVR, dark


def test_thread_from_a_building_upper_level_to_a_unit_level(tmp_path):
    s = example("W-02")
    t = los_thread(s, "1X3", "1X10", start_level=1)
    assert t.start_elevation == 1 and t.end_elevation == 0


def test_seen_by_side_W14():
    s = example("W-14")
    # F2 in 2Y4 stands in the light of the 2AA4 starshell: lit observers see lit locations
    assert seen_by_side(s, "axis") == {"F1": "none", "F2": "nvr", "F3": "none"}
    assert seen_by_side(s, "allied") == {"E1": "nvr", "E2": "nvr"}
    fired = with_markers(s, marker("prep_fire", "2DD6", side="allied"))
    assert seen_by_side(fired, "axis")["F1"] == "gunflash"
    moved = changed(s, "F1", hex="2EE6")              # still dark: the lit E1, E2 miss it
    assert seen_by_side(moved, "axis")["F1"] == "none"


def test_seen_by_side_equals_asking_every_pair_on_a_busy_map():
    import sys

    from support import ROOT
    sys.path.insert(0, str(ROOT / "bench"))
    from mapgen import busy_scenario, random_map

    from engine.night.unit_verdicts import unit_verdict
    _, m = random_map(5)
    s = busy_scenario(m, 6, units=30)
    s = s.with_unit(s.units[0].replace(bypass=True))
    rank = {"none": 0, "gunflash": 1, "nvr": 2}
    for side in ("allied", "axis"):
        got = seen_by_side(s, side)
        for e in s.units:
            if e.side == side:
                continue
            best = max((unit_verdict(s, f.id, e.id).sight for f in s.units if f.side == side),
                       key=rank.get, default="none")
            assert got[e.id] == best, e
