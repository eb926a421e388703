"""The map's precomputed LOS table (engine/los/ground.py) gives exactly what engine.los and the
per-pair reference (engine/night/reference.py) give, is built once whoever asks, and is left out
for maps beyond its size."""
import random
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import board, marker, position, unit
from test_night_properties import ALL
from test_reference import boards_with_hexsides

from engine import api
from engine.los import BLIND, los_table
from engine.los import ground as los_ground
from engine.maps import Map, Placement
from engine.night import reference
from engine.night.scenario import MapEntry, Scenario
from engine.night.verdicts import visibility_from


def _map(b, rotated: bool) -> Map:
    placements = [Placement(b, (0, 0))]
    if rotated:
        other = b.__class__("t2", b.title, b.default, b.hexes, hexsides=b.hexsides)
        placements.append(Placement(other, (1, 0), True))
    return Map(placements)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards_with_hexsides(), rotated=st.booleans(), seed=st.integers(0, 999))
def test_every_row_equals_engine_los_and_the_reference_on_maps_with_hexsides(b, rotated, seed):
    """Every ground-level viewer's clear and blind row (built with the symmetry of ground lines)
    is engine.los's own row; a sample of lines is also the reference's (walls, hedges, bocage,
    cliffs, rowhouse walls, half levels, a board turned next to another)."""
    m = _map(b, rotated)
    assert los_ground.prepare(m)["complete"]
    table = los_table(m)
    for v in range(m.size):
        day = table.from_location(v, 0)
        clear, blind = los_ground.ground_row(m, v)
        assert np.array_equal(clear, day.clear), m.names[v]
        assert np.array_equal(blind, day.kind == BLIND), m.names[v]
    rng = random.Random(seed)
    for _ in range(300):
        v, t = rng.randrange(m.size), rng.randrange(m.size)
        assert bool(los_ground.ground_row(m, v)[0][t]) == reference.daytime_clear(m, v, 0, t, 0), \
            (m.names[v], m.names[t])


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(b=boards_with_hexsides(), viewers=st.lists(st.sampled_from(ALL), min_size=1, max_size=3),
       seed=st.integers(0, 999), nvr=st.integers(0, 5))
def test_night_fields_from_the_table_equal_the_per_pair_reference(b, viewers, seed, nvr):
    """After ``prepare`` the night verdict of every hex is the reference's, for viewers at
    ground level (the table) and above it (lazy rows); the explanation of a hex is the one the
    lazy path gives."""
    rng = random.Random(seed)
    markers = [marker("starshell", "t1" + rng.choice(ALL)),
               marker("blaze", "t1" + rng.choice(ALL), radius=rng.randint(0, 3)),
               marker("gunflash", "t1" + rng.choice(ALL))]
    units = [unit(f"V{k}", "t1" + h) for k, h in enumerate(viewers)]
    s = position(b, units=units, markers=markers, nvr=nvr)
    m = s.map
    lazy = {u.id: visibility_from(s, u.id) for u in s.units}
    api.prepare(s)
    for u in s.units:
        s2 = s.replace()                             # nothing derived: lights again, on the table
        field = visibility_from(s2, u.id)
        assert field._day is None                    # read from the table
        assert np.array_equal(field.codes, lazy[u.id].codes)
        assert np.array_equal(field.blind, lazy[u.id].blind)
        for i, name in enumerate(m.names):
            assert field.sight_at(i) == reference.sight(s2, u.id, name), (u, name)
        for i in range(0, m.size, 37):
            assert field.reasons_at(i) == lazy[u.id].reasons_at(i)


def test_a_viewer_above_ground_keeps_its_lazy_row():
    """A unit on a building's upper level is not in the table: its field is computed as before
    and equals the reference."""
    b = board("t1", {"E5": {"terrain": "building", "building": "b", "upper_levels": 1},
                     "H5": {"terrain": "woods"}, "G7": {"level": 1}})
    s = position(b, units=[unit("U", "t1E5", level=1), unit("G", "t1E5")], nvr=4)
    api.prepare(s)
    up = visibility_from(s, "U")
    assert up._day is not None
    ground = visibility_from(s, "G")
    assert ground._day is None
    for i, name in enumerate(s.map.names):
        assert up.sight_at(i) == reference.sight(s, "U", name), name
        assert ground.sight_at(i) == reference.sight(s, "G", name), name


def test_prepare_is_idempotent_and_safe_from_several_threads():
    """Four threads ask for the same map's table at once: one table is built, every caller
    returns when it is complete, and asking again changes nothing."""
    b = board("t1", {"E5": {"level": 1}, "F5": {"terrain": "woods"}, "K3": {"level": 2}})
    s = position(b, units=[unit("A", "t1A1")])
    answers, errors = [], []

    def ask():
        try:
            answers.append((api.prepare(s), los_ground.ground_table(s.map)))
        except Exception as e:                  # noqa: BLE001 - reported by the assertion
            errors.append(e)
    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len({id(table) for _, table in answers}) == 1
    assert all(info["complete"] for info, _ in answers)
    table = answers[0][1]
    clear = table.clear.copy()
    assert api.prepare(s) == answers[0][0]
    assert los_ground.ground_table(s.map) is table
    assert np.array_equal(table.clear, clear)


def test_fields_asked_while_the_table_is_built_are_the_same():
    """The app starts the build and keeps asking: whether a row exists yet or not, the field is
    the same."""
    b = board("t1", {"E5": {"level": 1}, "F5": {"terrain": "woods"}, "G6": {"terrain": "grain"},
                     "K3": {"level": 2}, "C8": {"terrain": "building", "building": "b"}})
    s = position(b, units=[unit(f"U{k}", "t1" + h) for k, h in
                           enumerate(["A1", "E5", "K3", "GG10", "P5", "C8"])], nvr=4)
    lazy = {u.id: visibility_from(s, u.id).codes for u in s.units}
    steps = api.table_steps(s)
    table = los_ground.ground_table(s.map)
    for _ in range(3):
        for _ in range(40):                     # a few batches of crossings, then rows
            next(steps, None)
        for u in s.units:
            assert np.array_equal(visibility_from(s.replace(), u.id).codes, lazy[u.id])
    assert 0 < api.table_progress(s)["done"] < 1.0 and table.ready.any()
    api.prepare(s)
    for u in s.units:
        assert np.array_equal(visibility_from(s.replace(), u.id).codes, lazy[u.id])


def test_a_build_dropped_midway_goes_on_where_it_stopped():
    """The caller drives a map's build a step at a time and drops it midway (another map
    opened: the app cancels its job); driven again (``prepare`` here), it goes on from the
    rows built, which stay, and completes with the same rows."""
    b1 = board("t1", {"E5": {"level": 1}, "F5": {"terrain": "woods"}})
    b2 = board("t1", {"E6": {"level": 2}, "F7": {"terrain": "grain"}})
    s1, s2 = position(b1, units=[unit("A", "t1A1")]), position(b2, units=[unit("A", "t1A1")])
    first = api.table_steps(s1)
    shares = [next(first) for _ in range(200)]
    assert shares == sorted(shares) and 0 < shares[-1] < 1.0
    first.close()                               # dropped
    table = los_ground.ground_table(s1.map)
    built = table.ready.copy()
    rows = table.clear[built].copy()
    for _ in range(50):
        next(api.table_steps(s2))               # another map's steps meanwhile
    assert np.array_equal(table.ready, built)   # nothing more without a caller
    again = api.table_steps(s1)
    assert next(again) >= shares[-1]            # goes on, not from the start
    assert np.array_equal(table.clear[built], rows)
    assert api.prepare(s1)["complete"]
    assert api.prepare(s2)["complete"]
    table = los_table(s1.map)
    for v in range(0, s1.map.size, 11):
        assert np.array_equal(los_ground.ground_row(s1.map, v)[0], table.from_location(v, 0).clear)


def test_a_map_beyond_the_size_limit_gets_no_table_and_still_answers(monkeypatch):
    """Beyond MAX_TABLE_HEXES no table is built (it refuses), ``prepare`` says so at once, and
    the lazy rows answer as the reference does."""
    monkeypatch.setattr(los_ground, "MAX_TABLE_HEXES", 300)
    b = board("t1", {"E5": {"level": 1}, "F5": {"terrain": "woods"}, "H2": {"level": 2}})
    m = Map([Placement(b, (0, 0))])
    assert m.size > 300
    with pytest.raises(los_ground.TableTooLarge):
        los_ground.GroundTable(m)
    s = Scenario((MapEntry("t1", (0, 0)),), m, nvr=3, units=(unit("V", "t1E7"),),
                 markers=(marker("starshell", "t1H4"),))
    info = api.prepare(s)
    assert info == {"hexes": m.size, "table": False, "limit": 300}
    assert los_ground.ground_table(m) is None
    field = visibility_from(s, "V")
    assert field._day is not None
    for i, name in enumerate(m.names):
        assert field.sight_at(i) == reference.sight(s, "V", name), name


def test_all_fields_at_once_are_the_fields_one_by_one():
    """``all_fields`` (every viewer's codes together) gives each unit's ``visibility_from``
    codes, before and after the table, for units lit or dark, above ground, BU AFVs (half NVR),
    next to dense jungle and beside moving vehicles."""
    b = board("t1", {"E5": {"terrain": "building", "building": "b", "upper_levels": 1},
                     "F5": {"terrain": "woods"}, "G7": {"level": 1}, "H3": {"level": 2},
                     "J5": {"terrain": "dense_jungle"}, "J6": {"terrain": "dense_jungle"},
                     "L4": {"terrain": "grain"}})
    rng = random.Random(5)
    units = [unit(f"U{k}", "t1" + rng.choice(ALL), side="allied" if k % 2 else "axis")
             for k in range(10)]
    units += [unit("UP", "t1E5", level=1), unit("J", "t1J5"),
              unit("T", "t1" + rng.choice(ALL), type="afv", bu=True, tracked=True,
                   moving="entered", side="axis"),
              unit("M", "t1" + rng.choice(ALL), type="vehicle", moving="entered", side="axis")]
    markers = [marker("starshell", "t1" + rng.choice(ALL)), marker("blaze", "t1J6", radius=2),
               marker("gunflash", "t1" + rng.choice(ALL)), marker("gunflash", "t1K8")]
    s = position(b, units=units, markers=markers, nvr=3)
    for prepared in (False, True):
        if prepared:
            api.prepare(s)
        s2 = s.replace()
        codes = api.night.all_fields(s2)
        assert codes.shape == (len(s2.units), s2.map.size)
        for k, u in enumerate(s2.units):
            assert np.array_equal(codes[k], visibility_from(s2, u.id).codes), (prepared, u.id)
        assert np.array_equal(api.night.all_fields(s2, ["J", "U3"])[0], codes[len(units) - 3])


@settings(max_examples=60, deadline=None)
@given(dq=st.integers(-60, 60), dr=st.integers(-60, 60))
def test_line_samples_round_to_the_hexes_cube_round_gives(dq, dr):
    """The exact line crossing rounds its samples all at once: the same hexes as ``cube_round``
    one sample at a time (half-way samples included, rounded half to even)."""
    from engine.hex_lines import cube_round_many
    from engine.hexes import axial_distance, cube_round
    n = max(axial_distance(dq, dr), 1)
    ts = np.arange(2 * n + 1) / (2 * n)
    q, r = cube_round_many(ts * dq, ts * dr)
    assert list(zip(q.tolist(), r.tolist())) == [cube_round(float(a), float(b))
                                                 for a, b in zip(ts * dq, ts * dr)]


def test_the_table_is_built_only_by_its_caller_and_its_steps_report_their_share():
    """The engine starts no thread: a table asked for (``table_steps``) builds nothing until
    its steps are driven; each step yields the share built, rising to 1.0, and the rows are
    the direct computation's.  (That a field asked meanwhile runs before the next step is the
    app's job runner's: tests/app/test_jobs.py.)"""
    b = board("t1", {"E5": {"level": 1}, "F5": {"terrain": "woods"}, "H3": {"level": 2}})
    s = position(b, units=[unit("A", "t1A1")])
    threads = threading.active_count()
    steps = api.table_steps(s)
    table = los_ground.ground_table(s.map)
    field = visibility_from(s, "A").codes       # the caller's work meanwhile
    assert not table.ready.any() and api.table_progress(s)["done"] == 0.0
    assert threading.active_count() == threads
    shares = list(steps)
    assert shares == sorted(shares) and shares[-1] == 1.0 and table.done
    assert api.table_progress(s)["done"] == 1.0 and list(api.table_steps(s)) == []
    assert np.array_equal(visibility_from(s.replace(), "A").codes, field)
    lines = los_table(s.map)
    for v in range(0, s.map.size, 13):
        assert np.array_equal(los_ground.ground_row(s.map, v)[0], lines.from_location(v, 0).clear)
