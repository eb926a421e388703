"""Element types a DBA 3.0 army list needs, their base depths (docs/rules.md "Element types and
their bases"), and placement helps: a drop pushed flush against a neighbour or refused for a
gap too narrow, facings turned by 15-degree steps or towards a neighbour."""
from __future__ import annotations

import pytest

from engine import api

tt = api.tabletop
LISTED = {"HCh": 40, "LCh": 40, "SCh": 40, "8Bw": 30, "8Sp": 30, "8Cb": 30, "6Cv": 40,
          "3Bw": 20, "4Bw": 15, "3Kn": 30, "4Kn": 30, "6Kn": 40}


def table(*elements):
    """A table read as a file would be (every check applied)."""
    keys = ("id", "side", "type", "x", "y", "facing")
    return tt.table_from_json({"format": "starshell-table", "version": 1,
                               "elements": [dict(zip(keys, e)) for e in elements]})


@pytest.mark.parametrize("code,mm", sorted(LISTED.items()))
def test_every_listed_type_loads_with_its_base_depth(code, mm):
    t = table(("1", "blue", code, 0.0, 0.0, 0.0))
    assert t.element("1").depth_bw() == pytest.approx(mm / 40.0)


def test_double_based_bows_shoot_as_bows():
    assert tt.TROOPS["8Bw"].range_bw == 3 and tt.TROOPS["8Bw"].archer
    assert tt.TROOPS["HCh"].range_bw is None


def test_a_deep_chariot_shows_two_corners_ahead_where_a_shallow_bow_does_not():
    # the target faces away (south), its front half a BW behind the archer's front line: its
    # rear corners are ahead only if the base is deeper than half a BW
    for code, legal in (("HCh", True), ("4Bw", False)):
        t = table(("1", "blue", "Bw", 0.0, 0.0, 0.0), ("A", "red", code, 1.6, -0.5, 180.0))
        verdict = tt.shoot(t, "1")["targets"]["A"]
        assert verdict["legal"] is legal, code


def test_a_drop_overlapping_by_a_hair_is_pushed_flush():
    t = tt.Table((tt.Element("1", "blue", "Bd", 0.0, 0.0, 0.0),
                  tt.Element("2", "blue", "Bd", 0.98, 0.0, 0.0)))       # dropped 0.02 BW into 1
    pushed, touched = tt.push_flush(t, "2")
    assert touched == ["1"] and pushed.x == pytest.approx(1.0) and pushed.y == pytest.approx(0.0)
    assert tt.overlaps(t.with_element(pushed)) == []


def test_a_blade_does_not_fit_a_gap_narrower_than_its_base():
    t = tt.Table((tt.Element("1", "blue", "Bd", 0.0, 0.0, 0.0),
                  tt.Element("3", "blue", "Bd", 1.986, 0.0, 0.0)))
    t = t.with_element(tt.Element("2", "blue", "Bd", 0.993, 0.0, 0.0))
    pushed, touched = tt.push_flush(t, "2")
    assert pushed is None and touched
    assert "does not fit there: it would overlap 1, 3" in tt.gap_needed(t, "2")


def test_facings_turn_by_steps_and_towards_neighbours():
    assert tt.turned(7.0, 15.0) == 15.0 and tt.turned(0.0, -15.0) == 345.0
    t = table(("1", "blue", "Bw", 0.0, 0.0, 33.0), ("2", "blue", "Bw", 3.0, 0.0, 10.0),
              ("A", "red", "Sp", 0.0, 3.0, 170.0))
    assert tt.facing_to(t, "1", "enemy") == (350.0, "A")
    assert tt.facing_to(t, "1", "friend") == (10.0, "2")
    lone = table(("1", "blue", "Bw", 0.0, 0.0, 33.0))
    assert tt.facing_to(lone, "1", "enemy") == (33.0, None)


def test_terrain_made_by_hand_is_checked_and_keeps_its_crest():
    hill = tt.TerrainPiece("hill", ((0, 0), (2, 0), (2, 1), (0, 1)), ((0, 0.5), (2, 0.5)))
    turned = tt.transformed(hill, turn=90.0, move=(1.0, 0.0))
    xs = sorted(round(x, 6) for x, _ in turned.polygon)
    assert xs == [1.5, 1.5, 2.5, 2.5] and turned.crest[0] == pytest.approx((2.0, 1.5))
    with pytest.raises(api.ScenarioError, match="crosses itself"):
        tt.checked_piece("woods", [(0, 0), (1, 1), (1, 0), (0, 1)])
    spiky = tt.checked_piece("woods", [(0, 0), (2, 0), (2, 1), (1.0000000004, 1), (0, 1)])
    assert tt.table_from_json(tt.table_to_json(tt.Table((), terrain=(spiky,)))).terrain == (spiky,)
