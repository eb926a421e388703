"""Following a VASL game: two readings of a save compared in the player's words, and the same
counter found again by VASSAL's piece id."""
from __future__ import annotations

import vsav_synth as vs

from engine.importers import vsav
from engine.importers.follow import game_changes, same_unit

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def reading(tmp_path, pieces):
    return vsav.vsav_scenario(vs.write_vsav(tmp_path / "g.vsav", BOARDS, pieces))[0]


def pieces(squad_at="K5", leader_at="K6", extra=()):
    return [vs.squad("4-6-7 1sq", vs.hex_pixel(squad_at), pid=11),
            vs.leader("9-2", vs.hex_pixel(leader_at), pid=12),
            vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru", pid=13), *extra]


def test_moves_and_new_markers_named(tmp_path):
    before = reading(tmp_path, pieces())
    after = reading(tmp_path, pieces("K7", "L6", [vs.light_marker("Starshell", vs.hex_pixel("Y4"))]))
    # each unit that moved is named (its counter, its id) with its new hex; the starshell state
    # follows the map (E1.92)
    assert game_changes(before, after) == (
        "4-6-7 (ge1) moved to 2K7, 9-2 (ge2) moved to 2L6, Starshell in 2Y4, "
        "starshells: first fired this player turn (E1.92)")
    assert game_changes(after, after) == "nothing changed"
    assert game_changes(after, before).startswith(
        "4-6-7 (ge1) moved to 2K5, 9-2 (ge2) moved to 2K6, Starshell gone from 2Y4")
    assert game_changes(before, after, limit=1).startswith("2 units moved, Starshell in 2Y4")


def test_the_same_counter_by_its_piece_id_when_the_numbering_changes(tmp_path):
    before = reading(tmp_path, pieces())
    # a new German squad listed first takes the number ge1: the 4-6-7 is still the 4-6-7
    after = reading(tmp_path, [vs.squad("8-3-8 Esq", vs.hex_pixel("M5"), pid=77)] + pieces())
    first = next(u.id for u in before.units if u.extra["name"] == "4-6-7")
    again = same_unit(before, after, first)
    assert after.unit(again).extra["name"] == "4-6-7" and again != first
    assert game_changes(before, after) == "1 unit placed"
    assert same_unit(before, after, None) is None
