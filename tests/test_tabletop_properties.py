"""Invariances of the shooting verdicts (rules.md 9): moving or rotating the whole table
changes no verdict; mirroring it swaps left and right and nothing else."""
from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.tabletop.rolls import shoot
from engine.tabletop.table import Element, Table, overlaps

TYPES = ("Bw", "Bw", "Cb", "Sp", "Ps", "Art", "Kn")

element = st.tuples(st.sampled_from(("blue", "red")), st.sampled_from(TYPES),
                    st.integers(-10, 10), st.integers(-10, 10), st.integers(0, 7))


@st.composite
def tables(draw):
    rows = draw(st.lists(element, min_size=2, max_size=6))
    els = tuple(Element(str(i), side, kind, x / 4, y / 4, 45.0 * f)
                for i, (side, kind, x, y, f) in enumerate(rows))
    t = Table(els)
    assume(not overlaps(t))
    return t


def moved(t: Table, angle: float, dx: float, dy: float) -> Table:
    a = math.radians(angle)     # clockwise, as facings turn
    c, s = math.cos(a), math.sin(a)
    return replace(t, elements=tuple(
        replace(e, x=e.x * c + e.y * s + dx, y=-e.x * s + e.y * c + dy,
                facing=(e.facing + angle) % 360.0) for e in t.elements))


def mirrored(t: Table) -> Table:
    return replace(t, elements=tuple(replace(e, x=-e.x, facing=(-e.facing) % 360.0)
                                     for e in t.elements))


SWAP = {"left": "right", "right": "left", "centre": "centre"}


def verdicts(t: Table, swap: bool = False):
    """Every shooter's verdicts, with its numbers apart (compared with a tolerance)."""
    exact, numbers = {}, {}
    for e in t.elements:
        out = shoot(t, e.id)
        exact[e.id] = (sorted(out["must_shoot"]), out["rear_rank_of"], out["supporters"],
                       out["shot_at_by"], {k: r["mutual"] for k, r in out["resolution"].items()},
                       {tid: (v["legal"], v["in_front"], v["clear"], v["in_range"],
                              v["corners_in_front"], SWAP[v["bearing"]] if swap else v["bearing"],
                              sorted(v["blocked_by"]), sorted(map(sorted, v["narrow_gaps"])))
                        for tid, v in out["targets"].items()})
        numbers[e.id] = {tid: (v["bisector_distance"], v["distance"])
                         for tid, v in out["targets"].items()}
    return exact, numbers


def same_numbers(a, b):
    for k in a:
        for tid in a[k]:
            for x, y in zip(a[k][tid], b[k][tid]):
                assert math.isclose(x, y, abs_tol=1e-5), (k, tid, x, y)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tables(), st.floats(0, 360), st.floats(-50, 50), st.floats(-50, 50))
def test_moving_or_rotating_the_whole_table_changes_no_verdict(t, angle, dx, dy):
    exact, numbers = verdicts(t)
    exact2, numbers2 = verdicts(moved(t, angle, dx, dy))
    assert exact2 == exact
    same_numbers(numbers, numbers2)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tables())
def test_mirroring_the_table_swaps_left_and_right(t):
    exact, numbers = verdicts(t)
    exact2, numbers2 = verdicts(mirrored(t), swap=True)
    assert exact2 == exact
    same_numbers(numbers, numbers2)


def test_the_worked_tables_turned_a_third_of_a_turn_keep_their_verdicts():
    from pathlib import Path

    from engine.tabletop.table import load_table
    folder = Path(__file__).resolve().parent.parent / "assets" / "tables"
    for path in sorted(folder.glob("S-*.json")):
        t = load_table(path)
        assert verdicts(moved(t, 120.0, 3.3, -7.1))[0] == verdicts(t)[0], path.name
        assert verdicts(mirrored(t), swap=True)[0] == verdicts(t)[0], path.name
