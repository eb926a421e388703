"""A position's terrain SSRs set and changed (rules.md 11.2): the whole map's or one board's
rules, each board rebuilt from its board without the old rules; the season presets VASL offers
and the rules in a player's words (``engine.api.ssr``)."""
from __future__ import annotations

import pytest
from test_raster_los import Drawing, centre

from engine import api
from engine.maps import Map, Placement
from engine.night.los_thread import los_thread
from engine.night.scenario import MapEntry, Scenario
from engine.ssr import table as T

ORCHARD = 63          # VASL's Orchard terrain code


def orchard_row(board_id="t1"):
    """A board with an orchard in E3, on the line A2-I4 (as test_raster_los draws it)."""
    d = Drawing()
    d.disc(*centre("E3"), 24, code=ORCHARD)
    return d.board({"E3": "orchard"}, board_id)


def position(board, entry_ssr=(), ssr=()):
    m = Map([Placement(api.night.board_for_slot(board, entry_ssr, ssr), (0, 0))])
    return Scenario((MapEntry("t1.json", (0, 0), ssr=tuple(entry_ssr)),), m, ssr=tuple(ssr))


def test_orchards_out_of_season_open_a_line_and_taking_the_rule_off_closes_it_B14_3():
    """From level 1 an orchard in season blocks; out of season it only hinders (B14.3)."""
    s = position(orchard_row())
    assert not los_thread(s, "t1A2", "t1I4", start_level=1).day_clear
    bare = api.night.with_ssr(s, ["OrchardOutOfSeason"]).scenario
    assert bare.ssr == ("OrchardOutOfSeason",)
    t = los_thread(bare, "t1A2", "t1I4", start_level=1)
    assert t.day_clear and t.hindrances == 1
    back = api.night.with_ssr(bare, []).scenario
    assert not los_thread(back, "t1A2", "t1I4", start_level=1).day_clear
    assert back.map.content_key == s.map.content_key


def test_one_board_rules_are_kept_in_its_slot_and_its_board_without_them_is_the_file_board():
    board = orchard_row()
    s = api.night.with_ssr(position(board), ["OrchardOutOfSeason", "Foo"], index=0).scenario
    assert s.map_entries[0].ssr == ("OrchardOutOfSeason", "Foo") and s.ssr == ()
    assert api.night.board_without_rules(s, 0).content_key == board.content_key
    assert api.night.scenario_to_json(s)["map"][0]["ssr"] == ["OrchardOutOfSeason", "Foo"]
    assert api.ssr.not_applied(s.map_entries[0].ssr) == ["Foo"]


def test_a_board_edited_under_its_rules_cannot_have_them_taken_off():
    s = api.night.with_ssr(position(orchard_row()), ["OrchardOutOfSeason"]).scenario
    placed = s.map.placements[0].board
    edited = api.night.with_board(s, placed.with_hex(0, 1, api.HexTerrain("woods"))).scenario
    assert api.night.board_without_rules(edited, 0) is None
    with pytest.raises(api.ScenarioError, match="edited on the map under its SSRs"):
        api.night.with_ssr(edited, [])


@pytest.mark.parametrize("month, ground, want", [
    (11, "", ("OrchardOutOfSeason", "NoGrain")),          # November to March; October to March
    (10, "", ("NoGrain",)),
    (4, "", ("PlowedFields",)),                            # April and May
    (7, "", ()),
    (1, "snow", ("OrchardOutOfSeason", "NoGrain", "MarshToOpenGround")),
    (6, "deep snow", ("NoGrain", "MarshToOpenGround", "BrushToOpenGround")),
])
def test_season_presets_as_VASL_offers_them_RULES_11_2(month, ground, want):
    assert api.ssr.preset(month, ground) == want
    assert all(n in T.rules() for n in want)


def test_every_rule_of_VASL_is_offered_once_the_common_ones_in_words():
    names = [n for n, _ in api.ssr.choices()]
    assert sorted(names) == sorted(T.rules()) and len(set(names)) == len(names)
    assert api.ssr.in_words("OrchardOutOfSeason") == "Orchards out of season"
    assert api.ssr.in_words("Level4ToGrain") == "Level4ToGrain"
    assert "not applied" in api.ssr.describe("Foo")
