"""The fast engine gives exactly the verdicts of the straightforward one-line-at-a-time
implementation (engine/night/reference.py) on random boards (speed without skipping the rules)."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import board, marker, position, unit
from test_night_properties import ALL, boards, hex_ids

from engine.hexes import parse_local
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


# ------------------------------------------------------------------ hexside terrain, half levels

HEXSIDE_NAMES = ["wall", "hedge", "cactus_hedge", "bocage", "cliff", "rowhouse_wall"]
side_keys = st.tuples(st.sampled_from(ALL), st.integers(1, 6)).map(lambda hd: f"{hd[0]}/{hd[1]}")
SIDE_TERRAIN = st.sampled_from([{"terrain": "woods"}, {"level": 1}, {"level": 2},
                                {"terrain": "rubble"}, {"terrain": "grain"},
                                {"terrain": "orchard"}, {"terrain": "woods", "half_level": True},
                                {"terrain": "building", "building": "b", "upper_levels": 1},
                                {"terrain": "rubble", "level": 1}, {"level": -1}])


@st.composite
def boards_with_hexsides(draw):
    from engine.boards import board_from_json
    hexes = draw(st.dictionaries(st.sampled_from(ALL), SIDE_TERRAIN, min_size=10, max_size=90))
    sides = draw(st.dictionaries(side_keys, st.sampled_from(HEXSIDE_NAMES), min_size=20,
                                 max_size=160))
    data = {"format": "starshell-board", "version": 1, "id": "t1", "hexes": hexes, "hexsides": {}}
    board = board_from_json(data)
    for key, name in sides.items():             # the last value named for a hexside wins
        h, d = key.split("/")
        board = board.with_hexside(*parse_local(h), int(d), name)
    return board


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards_with_hexsides(), viewers=st.lists(st.sampled_from(ALL), min_size=1, max_size=3),
       levels=st.lists(st.integers(0, 3), min_size=1, max_size=2), rotated=st.booleans())
def test_the_fast_path_equals_the_per_pair_lines_on_maps_with_hexsides(b, viewers, levels, rotated):
    """engine.los (vectorised, cached crossings) and reference.daytime_clear (one line at a
    time) agree on every line from a few viewers at a few levels, walls, hedges, bocage, cliffs,
    rowhouse walls and half levels included, on a board alone or turned next to another."""
    from engine.los import los_table
    from engine.maps import Map, Placement
    placements = [Placement(b, (0, 0))]
    if rotated:
        other = b.__class__("t2", b.title, b.default, b.hexes, hexsides=b.hexsides)
        placements.append(Placement(other, (1, 0), True))
    m = Map(placements)
    table = los_table(m)
    for v in viewers:
        i = m.index("t1" + v)
        for level in levels:
            day = table.from_location(i, level)
            for j in range(m.size):
                assert bool(day.clear[j]) == reference.daytime_clear(m, i, level, j, 0), \
                    (m.names[i], level, m.names[j])


def test_the_per_pair_implementation_counts_the_counters_too():
    # rules.md 11.4, A24, A6.1: two White +3 smoke between the ends make six hindrances; the
    # per-pair verdict blocks the line as the field does (it used to look at the terrain alone)
    s = position(board(), units=[unit("V", "t1E1"), unit("T", "t1E8", side="axis")],
                 markers=[marker("smoke", "t1E3", extra={"kind": "white+3"}),
                          marker("smoke", "t1E5", extra={"kind": "white+3"})], nvr=9)
    assert reference.sight(s, "V", s.map.canonical("t1E8")) == "none"
    assert visibility_from(s, "V").sight_at(s.map.index(s.map.canonical("t1E8"))) == "none"
    assert reference.sight(s, "V", s.map.canonical("t1E4")) == "nvr"     # one smoke: +3
