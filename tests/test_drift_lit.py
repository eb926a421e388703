"""`drift --lit`: the chance each hex ends up lit counts the lights already on the map
(E1.923, SPEC.md).

Rulings of an independent rules audit (the seeds, /work/shared/seeds/000_*, 001_*): each test
is one ruling, its docstring the ruling and the source it rests on."""
from fractions import Fraction

import pytest
from support import cli, cli_help, example, saved

from engine.night import drift
from engine.night.light import illumination


def test_drift_lit_counts_the_lights_already_on_the_map(tmp_path):
    """E1.923, SPEC.md `drift --lit`: "the probability that each hex ends up illuminated" counts
    every light after the flare lands.  A hex already lit is lit for sure (1), not by the new
    flare's own share (1/6 below).

    W-10: a starshell in 2BB3 lights 2Z1.  A flare placed in 2V3 by method 1 drifts 1 hex: it
    lights 2Z1 (4 hexes from 2V3) only when it drifts towards it, 1 in 6 outcomes, but 2Z1 is
    lit anyway: 1.  2R1, 4 hexes on the other side and unlit now, keeps the flare's 1/6."""
    s = example("W-10")
    m = s.map
    at = m.index("2V3")
    own = drift.lit_probability_exact(m, at, "1")
    after = drift.lit_probability_after_exact(s, at, "1")
    z1, r1 = m.index("2Z1"), m.index("2R1")
    assert illumination(s).lit[z1] and not illumination(s).lit[r1]
    assert own[z1] == Fraction(1, 6)
    assert after[z1] == 1
    assert after[r1] == own[r1] == Fraction(1, 6)
    assert all(after[i] == 1 for i in map(int, illumination(s).lit.nonzero()[0]))
    fast = drift.lit_probability_after(s, at, "1")
    assert all(fast[i] == pytest.approx(float(p)) for i, p in after.items())
    assert (fast > 0).sum() == len(after)
    doc = cli("drift", saved(s, tmp_path), "--at", "2V3", "--method", "1", "--lit")
    assert doc["lit_probability"] == {m.names[i]: pytest.approx(float(p))
                                      for i, p in after.items()}
    assert doc["lit_probability"]["2Z1"] == 1.0
    assert "counting the lights already on the map" in cli_help("drift")
