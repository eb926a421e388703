"""Following a VASL game keeps what the player set that the save does not say: the NVR when the
save gives none (rules.md 11.5), the starshell state (E1.92), the turn without VASL's turn marker,
units moved, changed, placed or deleted by hand; a counter the save changed too is a conflict
the player settles."""
from __future__ import annotations

import vsav_synth as vs

from engine.importers import vsav
from engine.importers.follow import game_changes
from engine.importers.follow_keep import merge_reading
from engine.importers.waiting import place_waiting
from engine.night.scenario import Marker

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def reading(tmp_path, pieces, info=None):
    return vsav.vsav_scenario(vs.write_vsav(tmp_path / "g.vsav", BOARDS, pieces, info=info))


def pieces(squad_at="K5", leader_at="K6", extra=()):
    return [vs.squad("4-6-7 1sq", vs.hex_pixel(squad_at), pid=11),
            vs.leader("9-2", vs.hex_pixel(leader_at), pid=12),
            vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru", pid=13), *extra]


def named(s, name):
    return next(u for u in s.units if u.extra["name"] == name)


def test_the_players_nvr_stays_when_the_save_gives_none(tmp_path):
    first, _ = reading(tmp_path, pieces())
    shown = first.replace(nvr=2)
    new, summary = reading(tmp_path, pieces("K7"))
    merged = merge_reading(shown, first, new, summary).scenario()
    assert summary["nvr_from"] == "default" and merged.nvr == 2
    assert game_changes(shown, merged) == "4-6-7 (ge1) moved to 2K7"


def test_the_saves_nvr_wins_and_is_said(tmp_path):
    first, _ = reading(tmp_path, pieces())
    shown = first.replace(nvr=4)
    new, summary = reading(tmp_path, pieces(), vs.info_record("weather", nvr=2))
    merged = merge_reading(shown, first, new, summary).scenario()
    assert merged.nvr == 2
    assert game_changes(shown, merged) == "NVR 2 from the save"


def test_the_starshell_state_keeps_the_later_of_the_players_and_the_saves(tmp_path):
    first, _ = reading(tmp_path, pieces())
    shown = first.replace(starshells_used="earlier")     # the player knows more than the map
    lit = [vs.light_marker("Starshell", vs.hex_pixel("T6"))]
    new, summary = reading(tmp_path, pieces(extra=lit))
    assert new.starshells_used == "this_turn"
    assert merge_reading(shown, first, new, summary).scenario().starshells_used == "earlier"
    # set "none fired yet" by hand, then a starshell appears: the map wins (E1.92)
    merged = merge_reading(first, first, new, summary).scenario()
    assert merged.starshells_used == "this_turn"
    assert "starshells: first fired this player turn (E1.92)" in game_changes(first, merged)


def test_a_new_player_turn_makes_the_first_starshell_earlier(tmp_path):
    turn1 = [vs.turn_marker("Axis", 1, "PFPh"), vs.light_marker("IR", vs.hex_pixel("T6"))]
    first, summary = reading(tmp_path, pieces(extra=turn1))
    assert (summary["turn_from"], first.starshells_used) == ("save", "this_turn")
    new, summary = reading(tmp_path, pieces(extra=[vs.turn_marker("Allied", 1, "MPh")]))
    merged = merge_reading(first, first, new, summary).scenario()
    assert (merged.attacker, merged.starshells_used) == ("allied", "earlier")


def test_the_players_turn_stays_without_a_turn_marker(tmp_path):
    first, _ = reading(tmp_path, pieces())
    shown = first.replace(phase="DFPh", attacker="allied")
    new, summary = reading(tmp_path, pieces("K7"))
    assert summary["turn_from"] == "default"
    merged = merge_reading(shown, first, new, summary).scenario()
    assert (merged.phase, merged.attacker) == ("DFPh", "allied")


def test_a_unit_moved_by_hand_stays_while_the_save_leaves_it(tmp_path):
    first, _ = reading(tmp_path, pieces())
    squad = named(first, "4-6-7")
    shown = first.moved(squad.id, "2M3").with_unit(named(first, "4-4-7").replace(broken=True))
    new, summary = reading(tmp_path, pieces(leader_at="L6"))     # the leader moved in VASL
    merge = merge_reading(shown, first, new, summary)
    assert not merge.conflicts
    merged = merge.scenario()
    assert named(merged, "4-6-7").hex == "2M3"                  # kept as the player left it
    assert named(merged, "4-4-7").broken                        # changed by hand: kept
    assert named(merged, "9-2").hex == "2L6"
    assert game_changes(shown, merged) == "9-2 (ge2) moved to 2L6"


def test_a_counter_both_changed_is_a_conflict_the_player_settles(tmp_path):
    first, _ = reading(tmp_path, pieces())
    squad = named(first, "4-6-7")
    shown = first.moved(squad.id, "2M3")
    new, summary = reading(tmp_path, pieces("K7"))
    merge = merge_reading(shown, first, new, summary)
    assert [(t.hex, m.hex) for t, m in merge.conflicts] == [("2K7", "2M3")]
    assert merge.conflict_words() == [
        "4-6-7 (ge1): you left it in 2M3, the save has it in 2K7"]
    assert named(merge.scenario(keep=True), "4-6-7").hex == "2M3"
    assert named(merge.scenario(keep=False), "4-6-7").hex == "2K7"
    # the same move in both: no conflict
    same = merge_reading(first.moved(squad.id, "2K7"), first, new, summary)
    assert not same.conflicts


def test_units_placed_and_deleted_by_hand(tmp_path):
    waiting = [vs.squad("5-4-8 1sq", (30, 30), pid=20)]        # in the margin
    first, _ = reading(tmp_path, pieces(extra=waiting))
    entry = first.extra["vasl_waiting"][0]
    shown = place_waiting(first, entry["id"], "2P4").without_unit(named(first, "9-2").id)
    new, summary = reading(tmp_path, pieces("K7", extra=waiting))
    merge = merge_reading(shown, first, new, summary)
    merged = merge.scenario()
    assert named(merged, "5-4-8").hex == "2P4" and "vasl_waiting" not in merged.extra
    assert "9-2" not in {u.extra["name"] for u in merged.units}     # deleted: stays gone
    assert merge.said == ["5-4-8 (ge3) kept where you placed it (2P4)"]
    assert game_changes(shown, merged) == "4-6-7 (ge1) moved to 2K7"
    # the save moves the leader the player deleted: it comes back
    again, summary = reading(tmp_path, pieces("K7", "L9", extra=waiting))
    assert "9-2" in {u.extra["name"] for u in merge_reading(shown, first, again,
                                                              summary).scenario().units}


def test_the_first_reading_keeps_no_hand_change(tmp_path):
    new, summary = reading(tmp_path, pieces())
    shown = new.replace(nvr=5)
    merged = merge_reading(shown, None, new, summary).scenario()
    assert merged.units == new.units and merged.nvr == 5


def test_markers_placed_or_taken_away_by_hand(tmp_path):
    lit = [vs.light_marker("IR", vs.hex_pixel("T6"))]
    first, _ = reading(tmp_path, pieces(extra=lit))
    shown = first.with_marker(Marker("starshell", "2P3")).without_marker(0)
    new, summary = reading(tmp_path, pieces("K7", extra=lit))
    merge = merge_reading(shown, first, new, summary)
    merged = merge.scenario()
    assert [(m.type, m.hex) for m in merged.markers] == [("starshell", "2P3")]
    assert merge.said == ["Starshell in 2P3 kept where you placed it"]
    assert game_changes(shown, merged) == "4-6-7 (ge1) moved to 2K7"
    # VASL places the same starshell: one, not two
    both, summary = reading(tmp_path, pieces(extra=[vs.light_marker("Starshell",
                                                                     vs.hex_pixel("P3"))]))
    assert [(m.type, m.hex) for m in merge_reading(shown, first, both, summary)
            .scenario().markers] == [("starshell", "2P3")]
