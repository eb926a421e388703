"""The counter table (a set of counters' hindrances to every ground line of a map, built once:
rules.md 11.4) against the plain computation, line by line, on generated boards with random
counters (seeded), hex model and drawn: the same hindrances, the same fields (A6.1)."""
import random

import numpy as np
import pytest
import vasl_synth
from support import board, marker, position, unit

from engine.importers.vasl import import_board
from engine.los import ground as los_ground
from engine.los import los_table
from engine.los.counter_table import counter_table, fields_before_table, forget_tables
from engine.los.counters import counter_lines, with_counters
from engine.maps import Map, Placement
from engine.night.counters import (
    SMOKE_KINDS,
    ends_of,
    field_rows,
    line_counters,
    los_counters,
    night_clear,
)
from engine.night.scenario import MapEntry, Scenario

TERRAIN = ["open", "open", "open", "grain", "woods", "brush", "orchard", "building"]


def _hilly_board(rng: random.Random, board_id: str = "t1"):
    """A board with random terrain and levels (hills, woods, buildings, grain)."""
    hexes = {}
    for col in "BCDEFGHIJKLMNOPQRSTUVW":
        for row in range(1, 10):
            terrain, level = rng.choice(TERRAIN), rng.choice([0, 0, 0, 1, 2])
            if terrain != "open" or level:
                hexes[f"{col}{row}"] = {"terrain": terrain, "level": level}
    return board(board_id, hexes)


def _counters(m: Map, rng: random.Random, count: int):
    """``count`` random counters of every kind (smoke of each kind and level, Blazes, N-level
    and building blazes, vehicles at levels and in bypass, wrecks, FFE), some sharing a hex,
    some next to another (lines along their hexside meet both at one range)."""
    spots = rng.sample(range(m.size), count)
    units, markers = [], []
    for k, i in enumerate(spots):
        name, pick = m.names[i], rng.randrange(6)
        if k > 3 and rng.random() < 0.4:    # smoke or a wreck next to (or on) an earlier one
            near = m.neighbours[rng.choice(spots[:k])]
            name = m.names[rng.choice([int(h) for h in near if h >= 0] + spots[:k])]
            pick = rng.choice([0, 4])
        if pick == 0:
            kind = rng.choice(list(SMOKE_KINDS))
            extra = {"kind": kind}
            if rng.random() < 0.3:
                extra["level"] = int(m.level[m.index(name)]) + rng.choice([1, 2])
            markers.append(marker("smoke", name, extra=extra))
        elif pick == 1:
            extra = rng.choice([{}, {"levels": rng.randint(1, 4)}, {"building": True}])
            markers.append(marker("blaze", name, radius=1, extra=extra))
        elif pick in (2, 3):
            side = {"bypass_side": rng.randrange(6)} if rng.random() < 0.3 else {}
            units.append(unit(f"V{k}", name, side="axis", type=rng.choice(["afv", "vehicle"]),
                              level=rng.choice([0, 0, 1]), extra=side))
        elif pick == 4:
            markers.append(marker("wreck", name, extra={"burnt": rng.random() < 0.5}))
        else:
            markers.append(marker("ffe", name, side="axis"))
    return units, markers


def _check(s: Scenario, rng: random.Random, lines: int) -> int:
    """The table's hindrances of every ground line against each viewer's lines and, for
    ``lines`` random lines, against the line computed alone; returns the lines hindered."""
    m = s.map
    counters = los_counters(s)
    table = counter_table(m, counters, now=True)
    los = los_table(m)
    everyone = np.arange(m.size)
    hindered = 0
    for v in range(m.size):
        ends = ends_of(s, v, 0, everyone, np.zeros(m.size, dtype=np.int64))
        want = counter_lines(los, counters, ends).extra
        assert np.array_equal(table.extra_row(v), want), m.names[v]
        hindered += int((want > 0).sum())
    for _ in range(lines):      # the plain computation: one line at a time
        v, t = rng.randrange(m.size), rng.randrange(m.size)
        assert table.extra_row(v)[t] == line_counters(s, v, 0, t, 0).extra[0], (v, t)
    return hindered


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_table_is_each_lines_own_count_on_a_hilly_board(seed):
    rng = random.Random(seed)
    b = _hilly_board(rng)
    m = position(b).map
    units, markers = _counters(m, rng, 14)
    s = position(b, units=units, markers=markers)
    assert _check(s, rng, 150) > 200


def test_the_table_is_each_lines_own_count_on_a_drawn_board(tmp_path):
    """On a drawn board the lines near a hex's corner are the pixels' walk: the table walks
    every viewer's at once, the same answers (rules.md 11.4)."""
    rng = random.Random(11)
    drawn, _ = import_board(vasl_synth.standard_board("95").write(tmp_path / "bd95"))
    m = Map([Placement(drawn, (0, 0))])
    units, markers = _counters(m, rng, 12)
    units = tuple(u.replace(hex=m.canonical(u.hex)) for u in units)
    markers = tuple(mk.replace(hex=m.canonical(mk.hex)) for mk in markers)
    s = Scenario((MapEntry(drawn.id, (0, 0)),), m, units=units, markers=markers)
    assert _check(s, rng, 100) > 200


def test_a_prepared_field_from_the_table_is_the_plain_field():
    """night_clear's field (the table's hindrances added to the ground table's row, A6.1: six
    block) is the plain one: each viewer's lines with their counters, counted."""
    rng = random.Random(21)
    b = _hilly_board(rng)
    m = position(b).map
    units, markers = _counters(m, rng, 16)
    s = position(b, units=units, markers=markers)
    m = s.map
    los_ground.prepare(m)
    assert counter_table(m, los_counters(s), now=True) is not None
    los = los_table(m)
    everyone, ground = np.arange(m.size), np.zeros(m.size, dtype=np.int64)
    blocked = 0
    for v in range(m.size):
        field_rows.cache_clear()
        day = los_ground.ground_row(m, v)[0]
        got = night_clear(s.replace(nvr=s.nvr), v, 0, everyone, ground, day)
        want = with_counters(los, los_counters(s), ends_of(s, v, 0, everyone, ground), day)[0]
        assert np.array_equal(got, want), m.names[v]
        blocked += int((day & ~got).sum())
    assert blocked > 20


def test_a_set_of_counters_gets_its_table_once_enough_fields_are_asked():
    """A set of counters asked for a few fields (a drag's step) is answered line by line; its
    table is built once enough fields have been asked (``fields_before_table``), with the
    same fields (rules.md 11.4)."""
    rng = random.Random(31)
    b = _hilly_board(rng)
    m = position(b).map
    units, markers = _counters(m, rng, 10)
    s = position(b, units=units, markers=markers)
    m = s.map
    forget_tables()
    los = los_table(m)
    everyone, ground = np.arange(m.size), np.zeros(m.size, dtype=np.int64)
    needed = fields_before_table(m)
    viewers = [v % m.size for v in range(0, 7 * (needed + 2), 7)]
    fields = []
    for k, v in enumerate(viewers):
        built = counter_table(m, los_counters(s), fields=0) is not None
        assert built == (k >= needed), k
        field_rows.cache_clear()
        day = los.from_location(v, 0)
        fields.append((v, night_clear(s.replace(nvr=s.nvr), v, 0, everyone, ground, day.clear,
                                      day.hindrances)))
    forget_tables()
    for v, got in fields:           # the same fields, all of them line by line
        day = los.from_location(v, 0)
        want = with_counters(los, los_counters(s), ends_of(s, v, 0, everyone, ground), day.clear,
                             day.hindrances)[0]
        assert np.array_equal(got, want), m.names[v]
