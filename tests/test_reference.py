"""The fast engine gives exactly the verdicts of the straightforward one-line-at-a-time
implementation (engine/reference.py) on random boards (issue 5: speed without skipping rules)."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import marker, position, unit
from test_night_properties import ALL, boards, hex_ids

from engine.night import reference
from engine.night.verdicts import visibility_from


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards, viewers=st.lists(hex_ids, min_size=1, max_size=3), seed=st.integers(0, 999),
       nvr=st.integers(0, 5))
def test_engine_equals_the_per_pair_implementation(b, viewers, seed, nvr):
    rng = random.Random(seed)
    markers = [marker("starshell", "t1" + rng.choice(ALL)),
               marker("ir", "t1" + rng.choice(ALL)),
               marker("blaze", "t1" + rng.choice(ALL), radius=rng.randint(0, 3)),
               marker("gunflash", "t1" + rng.choice(ALL)),
               marker("prep_fire", "t1" + rng.choice(ALL))]
    units = [unit(f"V{k}", "t1" + h, bypass=rng.random() < 0.3,
                  level=-1 if rng.random() < 0.2 else 0) for k, h in enumerate(viewers)]
    units += [unit("M1", "t1" + rng.choice(ALL), side="axis", type="afv", tracked=True,
                   moving=rng.choice(["entered", "stopped", "changed_ca"])),
              unit("M2", "t1" + rng.choice(ALL), side="axis", type="vehicle", moving="entered")]
    s = position(b, units=units, markers=markers, nvr=nvr)
    m = s.map
    for u in s.units:
        if m.terrain_name(m.index(u.hex)) == "building" and m.upper_levels[m.index(u.hex)]:
            s = s.with_unit(u.replace(level=1))
    for u in s.units[:len(viewers)]:
        field = visibility_from(s, u.id)
        for i, name in enumerate(m.names):
            assert field.sight_at(i) == reference.sight(s, u.id, name), (u, name)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b1=boards, b2=boards, rotated=st.booleans(), vertical=st.booleans(),
       viewer=st.sampled_from(ALL), seed=st.integers(0, 99))
def test_engine_equals_the_per_pair_implementation_across_joined_and_rotated_boards(
        b1, b2, rotated, vertical, viewer, seed):
    from engine.maps import Map, Placement
    from engine.night.scenario import MapEntry, Scenario
    b2 = b2.__class__("t2", b2.title, b2.default, b2.hexes)
    at2 = (0, 1) if vertical else (1 + seed % 2, 0)         # sometimes a gap between the boards
    m = Map([Placement(b1, (0, 0)), Placement(b2, at2, rotated)])
    rng = random.Random(seed)
    names = m.names
    s = Scenario((MapEntry("t1", (0, 0)), MapEntry("t2", at2, rotated)), m, nvr=4,
                 units=(unit("V", m.canonical("t1" + viewer)),),
                 markers=(marker("starshell", rng.choice(names)),
                          marker("gunflash", rng.choice(names))))
    field = visibility_from(s, "V")
    for i, name in enumerate(names):
        assert field.sight_at(i) == reference.sight(s, "V", name), name
