"""Property tests on random boards (hypothesis): what must hold whatever the terrain."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import board, marker, position, unit

from engine.hexes import COLUMN_NAMES, board_hexes
from engine.los import los_table
from engine.night.light import illumination
from engine.night.verdicts import visibility_from

ALL = [f"{COLUMN_NAMES[c]}{r}" for c, r in board_hexes()]
TERRAIN = st.sampled_from([{"terrain": "woods"}, {"terrain": "grain"}, {"terrain": "brush"},
                           {"terrain": "orchard"}, {"terrain": "dense_jungle"},
                           {"terrain": "building", "building": "b", "upper_levels": 1},
                           {"level": 1}, {"level": 2}, {"terrain": "woods", "level": 1},
                           {"level": -1}, {"terrain": "grain", "level": -1},
                           {"terrain": "light_jungle"}, {"terrain": "bamboo"}])
hex_ids = st.sampled_from(ALL)
boards = st.dictionaries(hex_ids, TERRAIN, min_size=10, max_size=120).map(lambda h: board("t1", h))
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(b=boards, a=hex_ids, level=st.integers(0, 1))
def test_daytime_los_is_symmetric(b, a, level):
    s = position(b)
    m = s.map
    table = los_table(m)
    i = m.index("t1" + a)
    if level and m.terrain_name(i) != "building":
        level = 0
    out = table.from_location(i, level)
    for j in range(0, m.size, 7):              # a spread of targets, both directions
        back = table.lines(j, int(m.level[j]), np.array([i]), np.array([int(m.level[i]) + level]))
        assert bool(out.clear[j]) == bool(back.clear[0]), (m.names[i], m.names[j])


@SETTINGS
@given(b=boards, a=hex_ids, nvr=st.integers(0, 6), more=st.integers(1, 5),
       shells=st.lists(hex_ids, max_size=2), flashes=st.lists(hex_ids, max_size=2))
def test_a_larger_nvr_never_removes_an_nvr_verdict(b, a, nvr, more, shells, flashes):
    s = position(b, units=[unit("V", "t1" + a)],
                 markers=[marker("starshell", "t1" + h) for h in shells]
                 + [marker("gunflash", "t1" + h) for h in flashes])
    small = visibility_from(s.replace(nvr=nvr), "V").codes
    large = visibility_from(s.replace(nvr=nvr + more), "V").codes
    assert np.all(large[small == 1] == 1)


@SETTINGS
@given(b=boards, a=hex_ids, radius=st.integers(0, 2), flashes=st.lists(hex_ids, max_size=3),
       shells=st.lists(hex_ids, max_size=2))
def test_a_lit_viewer_sees_only_lit_hexes_and_gunflashes(b, a, radius, flashes, shells):
    s = position(b, units=[unit("V", "t1" + a)],
                 markers=[marker("blaze", "t1" + a, radius=radius)]
                 + [marker("starshell", "t1" + h) for h in shells]
                 + [marker("gunflash", "t1" + h) for h in flashes])
    ill = illumination(s)
    assert ill.unit_lit(s.unit("V"))
    f = visibility_from(s, "V")
    m = s.map
    gun = np.zeros(m.size, dtype=bool)
    for h in flashes:
        gun[m.index("t1" + h)] = True
    seen = f.codes != 0
    seen[m.index("t1" + a)] = False             # its own hex
    assert np.all(ill.lit[seen] | gun[seen])
    assert np.all(f.codes[seen & ~ill.lit] == 2)   # unlit Gunflashes: beyond NVR treatment


@SETTINGS
@given(b=boards, a=hex_ids, shell=hex_ids, others=st.lists(hex_ids, max_size=2),
       flashes=st.lists(hex_ids, max_size=3), nvr=st.integers(0, 4))
def test_a_starshell_never_makes_a_viewer_outside_its_circle_see_less(b, a, shell, others,
                                                                      flashes, nvr):
    base = [marker("starshell", "t1" + h) for h in others] + \
           [marker("gunflash", "t1" + h) for h in flashes]
    s = position(b, units=[unit("V", "t1" + a)], markers=base, nvr=nvr)
    m = s.map
    if m.distance(m.index("t1" + a), m.index("t1" + shell)) <= 3:
        return                                  # inside its circle: it may blind the viewer
    before = visibility_from(s, "V").codes
    after = visibility_from(s.with_marker(marker("starshell", "t1" + shell)), "V").codes
    assert not np.any((before == 1) & (after != 1))
    assert not np.any((before == 2) & (after == 0))
