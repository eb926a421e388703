"""Counters in LOS (rules.md 11.4): smoke, vehicles, wrecks and fire for effect add hindrances
to the lines they lie on, six in all block (A6.1); every verdict reads them."""
from __future__ import annotations

import numpy as np
import pytest
from support import board, marker, position, unit

from engine.night.counters import line_counters
from engine.night.planner_threat import threat
from engine.night.unit_verdicts import unit_verdict
from engine.night.verdicts import all_fields, visibility_from


def hindrance(s, viewer: str, target: str, viewer_level: int = 0, target_level: int = 0) -> int:
    m = s.map
    return int(line_counters(s, m.index(viewer), viewer_level, m.index(target),
                             target_level).extra[0])


def smoke(hex_id: str, kind: str = "white+3", **extra):
    return marker("smoke", hex_id, extra={"kind": kind, **extra})


def open_board(hexes=None):
    return board("t1", hexes or {})


# ----------------------------------------------------------------------------------- smoke
@pytest.mark.parametrize("kind, amount", [("white+3", 3), ("white+2", 2), ("gray+2", 2),
                                          ("wp+2", 2), ("wp+1", 1), ("gray-wp+1", 1),
                                          ("smoke-grenade", 2), ("wp-grenade", 1)])
def test_smoke_between_two_ground_units_adds_its_own_hindrance(kind, amount):
    s = position(open_board(), markers=[smoke("t1Q7", kind)])
    assert hindrance(s, "t1Q9", "t1Q5") == amount
    assert hindrance(s, "t1Q9", "t1S5") == 0           # a line that misses the smoke hex


def test_two_white_smokes_make_six_hindrances_and_block_the_line():
    s = position(open_board(), units=[unit("A", "t1Q9"), unit("B", "t1Q4", side="axis")],
                 markers=[smoke("t1Q7"), smoke("t1Q6")], nvr=6)
    assert hindrance(s, "t1Q9", "t1Q4") == 6
    field = visibility_from(s, "A")
    assert field["t1Q4"].sight == "none"
    assert any("smoke in t1Q7" in r and "+3 hindrance" in r for r in field["t1Q4"].reasons)
    assert any("six or more" in r for r in field["t1Q4"].reasons)
    assert unit_verdict(s, "A", "B").sight == "none"
    # without the second smoke, three hindrances: seen within NVR
    one = s.replace(markers=s.markers[:1])
    assert visibility_from(one, "A")["t1Q4"].sight == "nvr"


def test_a_source_in_smoke_adds_one_and_its_hex_gives_at_most_four():
    s = position(open_board(), markers=[smoke("t1Q9", "gray+2")])
    assert hindrance(s, "t1Q9", "t1Q5") == 3           # +2 and +1 for the source in it
    s = position(open_board(), markers=[smoke("t1Q9"), smoke("t1Q9", "gray+2")])
    assert hindrance(s, "t1Q9", "t1Q5") == 4           # 4 + 3 capped at 4


def test_a_hex_between_gives_at_most_three():
    s = position(open_board(), markers=[smoke("t1Q7"), smoke("t1Q7", "wp+2")])
    assert hindrance(s, "t1Q9", "t1Q5") == 3


def test_the_largest_smoke_at_one_range_counts_alone():
    # the line t1Q9 -> t1S9 runs along the hexside of t1R8 and t1R9, both one hex away
    s = position(open_board(), markers=[smoke("t1R8", "wp+1"), smoke("t1R9", "gray+2")])
    assert hindrance(s, "t1Q9", "t1S9") == 2


def test_smoke_in_the_targets_hex_counts_when_the_source_is_at_its_level():
    s = position(open_board(), markers=[smoke("t1Q5", "gray+2")])
    assert hindrance(s, "t1Q9", "t1Q5") == 2
    # a smoke above the source's level in the target's hex does not
    s = position(open_board(), markers=[smoke("t1Q5", "gray+2", level=2)])
    assert hindrance(s, "t1Q9", "t1Q5") == 0


def test_smoke_below_both_ends_at_one_level_does_not_hinder():
    hill = {h: {"level": 3} for h in ("Q9", "Q5")}
    s = position(open_board(hill), markers=[smoke("t1Q7")])    # smoke 0..2, ends at level 3
    assert hindrance(s, "t1Q9", "t1Q5") == 0


def test_smoke_makes_a_blind_hex_below_a_high_viewer():
    hill = {"Q9": {"level": 3}}
    s = position(open_board(hill), markers=[smoke("t1Q6")])
    # from level 3 down to level 0 one hex behind the smoke: blind (A6.4), so hindered
    assert hindrance(s, "t1Q9", "t1Q5") == 3
    # far behind it the smoke's shadow ends
    assert hindrance(s, "t1Q9", "t1Q1") == 0


@pytest.mark.parametrize("extra, height", [({}, 2), ({"building": True}, 4), ({"levels": 2}, 5)])
def test_blaze_smoke_rises_to_its_height(extra, height):
    hill = {h: {"level": height - 1} for h in ("Q9", "Q5")}
    s = position(open_board(hill), markers=[marker("blaze", "t1Q7", extra=extra)])
    assert hindrance(s, "t1Q9", "t1Q5") == 3
    higher = {h: {"level": height} for h in ("Q9", "Q5")}
    s = position(open_board(higher), markers=[marker("blaze", "t1Q7", extra=extra)])
    assert hindrance(s, "t1Q9", "t1Q5") == 0


# ------------------------------------------------------------------------- vehicles, wrecks
def test_a_stopped_vehicle_between_two_ground_units_hinders_a_moving_one_does_not():
    tank = unit("T", "t1Q7", side="axis", type="afv")
    s = position(open_board(), units=[tank])
    assert hindrance(s, "t1Q9", "t1Q5") == 1
    assert hindrance(s, "t1Q9", "t1Q7") == 0           # not in an end's hex
    moving = position(open_board(), units=[tank.replace(moving="entered")])
    assert hindrance(moving, "t1Q9", "t1Q5") == 0


def test_a_vehicle_hinders_only_lines_at_its_own_level():
    hill = {"Q9": {"level": 1}}
    s = position(open_board(hill), units=[unit("T", "t1Q7", type="vehicle")])
    assert hindrance(s, "t1Q9", "t1Q5") == 0


def test_wrecks_hinder_as_vehicles_and_a_blaze_over_them_counts_two():
    s = position(open_board(), markers=[marker("wreck", "t1Q7"),
                                        marker("wreck", "t1Q6", extra={"burnt": True})])
    assert hindrance(s, "t1Q9", "t1Q4") == 2
    s = position(open_board(), markers=[marker("wreck", "t1Q7"), marker("blaze", "t1Q7")])
    assert hindrance(s, "t1Q9", "t1Q5") == 2           # the Blaze's smoke 2, the wreck none


def test_a_vehicle_in_bypass_hinders_only_lines_past_its_hexside():
    # side 0 is the top hexside: the line t1P7 -> t1R7 runs near the bottom of t1Q7
    v = unit("T", "t1Q7", type="vehicle", bypass=True, extra={"bypass_side": 0})
    s = position(open_board(), units=[v])
    assert hindrance(s, "t1Q9", "t1Q5") == 1           # straight up through the top side
    assert hindrance(s, "t1P8", "t1R8") == 0           # below the centre, far from the top


def test_a_vehicle_hidden_from_an_end_does_not_hinder():
    walls = {"Q8": {"terrain": "building", "upper_levels": 1}}
    s = position(open_board(walls), units=[unit("T", "t1Q7", type="vehicle")])
    assert hindrance(s, "t1Q9", "t1Q5") == 0


# ---------------------------------------------------------------------------- fire for effect
def test_fire_for_effect_hinders_lines_from_or_to_its_blast_area_once():
    s = position(open_board(), markers=[marker("ffe", "t1Q6", side="axis")])
    assert hindrance(s, "t1Q9", "t1Q5") == 1           # the target is in the blast area
    assert hindrance(s, "t1Q9", "t1Q3") == 1           # the line crosses it at ground level
    assert hindrance(s, "t1A1", "t1A9") == 0


# ------------------------------------------------------------------------- every verdict alike
def test_fields_threat_map_and_single_lines_agree_with_counters():
    rng = np.random.default_rng(7)
    b = open_board({"H4": {"terrain": "woods"}, "M6": {"level": 1}})
    units = [unit(f"A{k}", f"t1{c}{r}") for k, (c, r) in enumerate([("C", 3), ("K", 8), ("S", 2)])]
    units.append(unit("E", "t1P5", side="axis"))
    kinds = ["white+3", "gray+2", "wp+2", "smoke-grenade"]
    markers = [smoke(f"t1{'DFHJLNPR'[k]}{int(rng.integers(1, 10))}", kinds[k % 4])
               for k in range(8)] + [marker("wreck", "t1G5"), marker("ffe", "t1L4")]
    s = position(b, units=units + [unit("V", "t1N7", type="vehicle")], markers=markers, nvr=20)
    rows = all_fields(s, [u.id for u in units])
    for k, u in enumerate(units):
        field = visibility_from(s, u.id)
        assert np.array_equal(rows[k], field.codes)
        for other in units:
            if other.side != u.side:
                assert unit_verdict(s, u.id, other.id).sight == field[other.hex].sight
    # the threat map: the axis unit's sight of an allied unit standing in each hex
    seen = threat(s, "allied")
    e = visibility_from(s, "E")
    assert np.array_equal(seen.codes[0], e.codes)
