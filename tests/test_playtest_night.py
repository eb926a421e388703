"""A night player's play-test of a VASL save's counters in LOS (rules.md 11.4) and its night
(rules.md 11.5): saves written by ``vsav_synth`` on a blank board, so every hindrance on a line
is a counter's and can be counted by hand."""
from __future__ import annotations

import numpy as np
import pytest
import vsav_synth as vs

from engine.importers import vsav
from engine.importers.follow import game_changes
from engine.importers.follow_keep import merge_reading
from engine.night.counters import los_counters, night_clear
from engine.night.files import scenario_to_json
from engine.night.los_thread import los_thread
from engine.night.starshells import first_triggers
from engine.night.unit_verdicts import unit_verdict

BOARDS = [(0, 0, "77")]          # found nowhere: a blank open board (no terrain, level 0)


def read(tmp_path, pieces, info=None):
    path = vs.write_vsav(tmp_path / "g.vsav", BOARDS, pieces, info=info)
    return vsav.read_vsav(path, blank_missing=True, cache_dir=tmp_path)


def squads(viewer: str, target: str):
    return [vs.squad("4-6-7 1sq", vs.hex_pixel(viewer), nation="ge", pid=1),
            vs.squad("4-4-7 1sq", vs.hex_pixel(target), nation="ru", pid=2)]


def piece(name: str, hex_id: str, pid: int):
    p = vs.marker(name, "MS/x", vs.hex_pixel(hex_id))
    p.pid = pid
    return p


SMOKE_NAMES = ["White +3 Smoke", "White +2 Smoke", "Gray +2 Smoke", "White +2 WP",
               "White +1 WP", "Gray +1 WP", "Smoke grenade +2", "WP grenade +1"]


@pytest.mark.parametrize("name", SMOKE_NAMES)
def test_a_smoke_counter_is_smoke_by_the_name_vasl_shows(tmp_path, name):
    # rules.md 11.4: VASL's checkHexSmokeRule knows smoke by the counter's name ("White +2 WP",
    # "Smoke grenade +2"), whatever piece carries it; the colour word is part of the name
    r = read(tmp_path, squads("C1", "C9") + [piece(name, "C5", 10)])
    markers = scenario_to_json(r.scenario())["markers"]
    assert [m["type"] for m in markers] == ["smoke"]
    assert [s.name for s in los_counters(r.scenario()).smoke] == [name]


def test_hand_counted_lines_on_a_blank_board(tmp_path):
    # two White +3 Smoke between at ground level: 3 + 3 = 6 block (A24, A6.1)
    r = read(tmp_path, squads("E1", "E8") + [vs.smoke(vs.hex_pixel("E3"), 1),
                                             vs.smoke(vs.hex_pixel("E5"), 1)])
    s = r.scenario()
    v = unit_verdict(s, "ge1", "ru1")
    assert v.sight == "none"
    assert any("6 hindrances in all" in reason for reason in v.reasons)
    # a dispersed White +2 Smoke in the target's hex, the viewer at the smoke's level: +2
    r = read(tmp_path, squads("G1", "G5") + [vs.smoke(vs.hex_pixel("G5"), 2)])
    reasons = unit_verdict(r.scenario(), "ge1", "ru1").reasons
    assert any("smoke in 77G5: White +2 Smoke (+2 hindrance" in x for x in reasons)
    # the viewer in White +3 Smoke: its hindrance + 1 (rules.md 11.4)
    r = read(tmp_path, squads("Q1", "Q4") + [vs.smoke(vs.hex_pixel("Q1"), 1)])
    reasons = unit_verdict(r.scenario(), "ge1", "ru1").reasons
    assert any("smoke in 77Q1: White +3 Smoke (+4 hindrance" in x for x in reasons)
    # a Blaze over a wreck: 2, and the wreck hinders nothing there (rules.md 11.4)
    r = read(tmp_path, squads("K1", "K9") + [piece("Blaze", "K5", 10), piece("Wreck", "K5", 11)])
    reasons = unit_verdict(r.scenario(), "ge1", "ru1").reasons
    assert [x for x in reasons if "hindrance" in x] == [
        "smoke in 77K5: Blaze (+2 hindrance, A24, rules.md 11.4)"]
    # a stopped tank and a wreck between, all at level 0: +1 each
    r = read(tmp_path, squads("I1", "I9") + [vs.tank("PzKpfw IVH", vs.hex_pixel("I4"), pid=20),
                                             piece("Wreck", "I7", 10)])
    reasons = unit_verdict(r.scenario(), "ge1", "ru1").reasons
    assert sum("(+1 hindrance, rules.md 11.4)" in x for x in reasons) == 2


def test_the_thread_says_six_counter_hindrances_block_by_day_too(tmp_path):
    # A24/A6.1: smoke hinders by day as by night; six hindrances block the line whatever they
    # are, so the thread's daytime verdict cannot be "clear" while it lists six
    r = read(tmp_path, squads("E1", "E8") + [vs.smoke(vs.hex_pixel("E3"), 1),
                                             vs.smoke(vs.hex_pixel("E5"), 1)])
    s = r.scenario()
    t = los_thread(s, "77E1", "77E8", viewer_id="ge1")
    assert t.hindrances + t.counter_hindrances == 6
    assert t.night_sight == "none"
    assert not t.day_clear
    assert t.day_reason.startswith("6 hindrances in all (0 of the terrain, 6 of counters)")


def test_the_night_field_and_the_one_line_agree(tmp_path):
    r = read(tmp_path, squads("E1", "E8") + [vs.smoke(vs.hex_pixel("E3"), 1),
                                             vs.smoke(vs.hex_pixel("E5"), 1)])
    s = r.scenario()
    m = s.map
    targets = np.arange(m.size)
    clear = night_clear(s, m.index("77E1"), 0, targets, np.zeros(m.size, dtype=np.int64),
                        np.ones(m.size, dtype=bool))
    assert not clear[m.index("77E8")] and clear[m.index("77E4")] and clear[m.index("77G8")]


def test_following_keeps_the_nvr_the_player_set_while_the_save_still_says_its_own(tmp_path):
    # E1.1, rules.md 11.5: VASL writes the save at every move; its NVR unchanged, the NVR the
    # player set stays; when the save's NVR changes, the save's is taken and said
    def reading(nvr, target="E8"):
        path = vs.write_vsav(tmp_path / "g.vsav", BOARDS, squads("E1", target),
                             info=vs.info_record("weather", nvr=nvr))
        return vsav.vsav_scenario(path, blank_missing=True)
    first, _ = reading(2)
    shown = first.replace(nvr=4)
    new, summary = reading(2, "E7")
    merge = merge_reading(shown, first, new, summary)
    assert merge.scenario().nvr == 4
    assert "NVR 4 kept as you set it (the save still says 2)" in merge.said
    assert game_changes(shown, merge.scenario()) == "4-4-7 (ru1) moved to 77E7"
    changed, summary = reading(5, "E7")
    merge = merge_reading(shown, new, changed, summary)
    assert merge.scenario().nvr == 5
    assert game_changes(shown, merge.scenario()) == "NVR 5 from the save"


def test_a_saves_ffe_of_no_side_is_not_the_enemys_fire_for_both_sides(tmp_path):
    # E(C)1.91 (d): the *enemy's* FFE allows the first starshell; VASL's "Red OBA FFE:1" says
    # no side, so the import cannot make it the enemy's of both sides at once
    r = read(tmp_path, squads("C1", "C9") + [piece("Red OBA FFE:1", "M5", 10)])
    s = r.scenario()
    by_ffe = [u.id for u in s.units if any(t.startswith("(d)") for t in first_triggers(s, u))]
    assert by_ffe == []             # on an empty hex: nobody's
    r = read(tmp_path, squads("C1", "C9") + [piece("Red OBA FFE:1", "C9", 10)])
    s = r.scenario()
    by_ffe = [u.id for u in s.units if any(t.startswith("(d)") for t in first_triggers(s, u))]
    assert by_ffe == ["ru1"]        # on the Russian: the German's fire, a trigger for ru1 only
