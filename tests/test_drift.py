"""Drift (E1.922, E1.932): exact ends for given dice, exact distributions, lit probabilities."""
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from support import example

from engine.night.drift import (
    METHODS,
    FixedDice,
    RandomDice,
    distribution,
    drift_distance,
    drift_end,
    lit_probability,
    lit_probability_exact,
    outcomes,
)
from engine.night.light import illuminated_hexes
from engine.night.scenario import Marker

PLACES = ["2W6", "2A1", "2GG10", "2B0", "2Q5", "2FF1"]   # inside, corners, half hexes


def brute_force(m, at, method):
    counts = {}
    for d, r in product(range(1, 7), repeat=2):
        end = drift_end(m, at, method, d, r)
        key = "off-map" if end is None else m.names[end]
        counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, 36) for k, v in counts.items()}


def test_drift_distances_follow_the_methods():
    assert [drift_distance("1", r) for r in range(1, 7)] == [1] * 6
    assert [drift_distance("2", r) for r in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [drift_distance("ir-los", r) for r in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [drift_distance("3", r) for r in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert [drift_distance("ir-6", r) for r in range(1, 7)] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("place", PLACES)
def test_distribution_sums_to_one_and_matches_brute_force(method, place):
    m = example("W-10").map
    at = m.index(place)
    got = distribution(m, at, method)
    expected = brute_force(m, at, method)
    assert set(got) == set(expected) | {"off-map"}
    for k, p in expected.items():
        assert got[k] == pytest.approx(float(p), abs=1e-15)
    assert sum(Fraction(v).limit_denominator(36) for v in got.values()) == 1


def test_off_map_outcomes_are_counted():
    m = example("W-10").map
    # from the corner half hex 2A1, directions 1 (N), 5 (SW) and 6 (NW) leave the board
    got = distribution(m, m.index("2A1"), "1")
    assert got["off-map"] == pytest.approx(3 / 6)
    assert distribution(m, m.index("2W6"), "1")["off-map"] == 0.0
    assert drift_end(m, m.index("2A1"), "3", 1, 6) is None


def test_method_1_drifts_one_hex_in_each_direction_with_probability_one_sixth():
    m = example("W-10").map
    got = distribution(m, m.index("2T6"), "1")
    assert {k for k, v in got.items() if v} == {"2T5", "2U6", "2U7", "2T7", "2S7", "2S6"}
    assert all(v == pytest.approx(1 / 6) for k, v in got.items() if k != "off-map")


@pytest.mark.parametrize("method", ["1", "2", "3", "ir-los", "ir-6"])
@pytest.mark.parametrize("place", ["2W6", "2A1", "1X4"])
def test_lit_probability_equals_enumerating_every_drift_with_the_light_rules(method, place):
    s = example("W-02") if place.startswith("1") else example("W-10").replace(markers=())
    s = s.replace(markers=())
    m = s.map
    at = m.index(place)
    kind = "ir" if method.startswith("ir") else "starshell"
    expected = np.zeros(m.size, dtype=object)
    expected[:] = Fraction(0)
    for d, r in product(range(1, 7), repeat=2):
        end = drift_end(m, at, method, d, r)
        if end is None:
            continue
        for h in illuminated_hexes(s.with_marker(Marker(kind, m.names[end]))):
            expected[m.index(h)] += Fraction(1, 36)
    exact = lit_probability_exact(m, at, method)
    fast = lit_probability(m, at, method)
    for i in range(m.size):
        assert exact.get(i, Fraction(0)) == expected[i]
        assert fast[i] == pytest.approx(float(expected[i]), abs=1e-12)


def test_building_interior_is_never_lit_by_a_drifting_IR():
    m = example("W-02").map
    p = lit_probability(m, m.index("1X4"), "ir-los")
    assert p[m.index("1X4")] == 0.0 and p[m.index("1X3")] == 1.0


def test_dice_sources():
    dice = FixedDice([2, 5])
    assert (dice.roll(), dice.roll()) == (2, 5)
    with pytest.raises(ValueError):
        dice.roll()
    with pytest.raises(ValueError):
        FixedDice([7])
    rolls = [RandomDice(seed=1).roll() for _ in range(3)]
    assert all(1 <= r <= 6 for r in rolls)
    seq = RandomDice(seed=7)
    again = RandomDice(seed=7)
    assert [seq.roll() for _ in range(20)] == [again.roll() for _ in range(20)]


def test_outcomes_group_the_36_rolls():
    m = example("W-10").map
    oc = outcomes(m, m.index("2W6"), "3")
    assert int(oc.weights.sum()) == 36
    expected = brute_force(m, m.index("2W6"), "3")
    got = {("off-map" if e < 0 else m.names[e]): Fraction(int(w), 36)
           for e, w in zip(oc.ends, oc.weights)}
    assert got == expected
    assert expected["off-map"] == Fraction(3, 36)      # north 4, 5 and 6 hexes leave the board
