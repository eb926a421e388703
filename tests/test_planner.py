"""The night planner (rules.md 10): the best starshell, what the enemy sees, the dark way.

Each answer is checked against the plain computation done the slow way here: every drift
outcome fired with FixedDice and the lights recomputed, every observer's ``unit_verdict`` on a
unit standing in the hex, every way relaxed until nothing changes."""
import math
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import board, example, marker, position, unit, with_markers, without_markers

from engine.hexes import COLUMN_NAMES, board_hexes
from engine.night.drift import FixedDice, lit_probability_after_exact
from engine.night.light import illumination
from engine.night.planner import advise
from engine.night.planner_costs import asl_step_costs
from engine.night.planner_route import route
from engine.night.planner_threat import threat
from engine.night.starshells import fire
from engine.night.unit_verdicts import unit_verdict

ALL = [f"{COLUMN_NAMES[c]}{r}" for c, r in board_hexes()]
TERRAIN = st.sampled_from([{"terrain": "woods"}, {"terrain": "grain"}, {"level": 1},
                           {"terrain": "building", "building": "b"}, {"terrain": "light_jungle"},
                           {"terrain": "dense_jungle"}, {"level": 2}])
hex_ids = st.sampled_from(ALL)
boards = st.dictionaries(hex_ids, TERRAIN, min_size=5, max_size=60).map(lambda h: board("t1", h))
SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def night(b, friends, enemies, shells=(), flashes=(), blazes=(), **kw):
    units = [unit(f"A{k}", "t1" + h, "allied", t, **x) for k, (h, t, x) in enumerate(friends)]
    units += [unit(f"E{k}", "t1" + h, "axis", t, **x) for k, (h, t, x) in enumerate(enemies)]
    markers = [marker("starshell", "t1" + h) for h in shells]
    markers += [marker("gunflash", "t1" + h, side="axis") for h in flashes]
    markers += [marker("blaze", "t1" + h, radius=1) for h in blazes]
    return position(b, units=units, markers=markers, starshells_used="earlier",
                    attacker="allied", phase="PFPh", **kw)


enemy_units = st.lists(st.tuples(hex_ids, st.sampled_from(["squad", "leader", "afv"]),
                                 st.sampled_from([{}, {"bypass": True}, {"level": -1},
                                                  {"broken": True}])),
                       min_size=1, max_size=3)
friend_units = st.lists(st.tuples(hex_ids, st.sampled_from(["squad"]), st.just({})), max_size=2)


# ------------------------------------------------------------------------ best starshell

def slow_counts(s, option):
    """Fire the option with each of the 36 dice (direction, distance) after a passed usage dr,
    recompute the lights, and count the outcomes in which each unit ends Illuminated."""
    counts = {u.id: 0 for u in s.units}
    for d in range(1, 7):
        for r in range(1, 7):
            dice = (d, r) if option.usage_dr_max is None else (1, d, r)
            after, result = fire(s, option.by, option.at, option.method, FixedDice(dice))
            assert result.success
            light = illumination(after)
            for u in after.units:
                counts[u.id] += light.unit_lit(u)
    return counts


@SETTINGS
@given(b=boards, leader=hex_ids, mortar=hex_ids, enemies=enemy_units, friends=friend_units,
       shells=st.lists(hex_ids, max_size=1), flashes=st.lists(hex_ids, max_size=1),
       pick=st.randoms(use_true_random=False))
def test_advise_equals_every_outcome_fired(b, leader, mortar, enemies, friends, shells, flashes,
                                          pick):
    s = night(b, [(leader, "leader", {}), (mortar, "mortar", {"ir": True})] + friends, enemies,
              shells, flashes)
    for uid in ("A0", "A1"):
        advice = advise(s, uid)
        # rules.md 11.7's order: enemies newly lit and seen first; then the fewest lost from
        # sight and friends blinded (E1.101), the likeliest to light one seen; then the most lit
        for a, b in zip(advice.options, advice.options[1:]):
            first = (-a.seen_count, a.lost_count, a.blinded_count, -a.any_seen_count)
            then = (-b.seen_count, b.lost_count, b.blinded_count, -b.any_seen_count)
            assert first <= then
            assert first < then or a.expected_enemy_lit >= b.expected_enemy_lit
        for option in pick.sample(advice.options, min(3, len(advice.options))):
            counts = slow_counts(s, option)
            assert option.enemy_lit == {e: Fraction(counts[e], 36) for e in option.enemy_ids}
            assert option.friendly_lit == {f: Fraction(counts[f], 36)
                                           for f in option.friendly_ids}
            assert set(option.enemy_ids) | set(option.friendly_ids) == set(counts)


def test_W10_which_placement_lights_2BB5_and_with_what_chance():
    """W-10 without the starshell over 2BB5, and a Gunflash in 2CC6 (the example's "unless 2CC6
    held a Gunflash"): the leader in 2T6 may place by method 2 along the LOS to the Gunflash.
    The chance that 2BB5 ends lit is counted here from the drift rule (E1.922: direction dr,
    then 1 hex / half the dr rounded up / the full dr; a starshell lights 3 hexes, E1.923)."""
    s = with_markers(without_markers(example("W-10")), marker("gunflash", "2CC6", side="axis"))
    m = s.map
    target = m.index("2BB5")
    advice = advise(s, "L1", objective="target:2BB5")
    hexes = {"1": lambda dr: 1, "2": lambda dr: math.ceil(dr / 2), "3": lambda dr: dr}
    for o in advice.options:
        lit = 0
        for direction in range(6):
            for dr in range(1, 7):
                end = m.index(o.at)
                for _ in range(hexes[o.method](dr)):
                    end = int(m.neighbours[end, direction]) if end >= 0 else -1
                lit += end >= 0 and int(m.distance(end, target)) <= 3
        assert o.target_lit == Fraction(lit, 36), (o.method, o.at)
        assert o.enemy_lit == {"S1": o.target_lit}            # the squad stands in 2BB5
        assert o.target_lit == lit_probability_after_exact(s, m.index(o.at), o.method).get(
            target, 0)
    best = advice.best
    assert (best.method, best.at, best.target_lit) == ("2", "2Z6", Fraction(2, 3))
    assert best.usage == Fraction(4, 6) and best.as_json()["usage"] == "4/6"     # E1.921
    assert best.attempt_hex == "2T6"                                              # E1.92
    assert {o.method for o in advice.options} == {"1", "2", "3"}
    # 2BB5 lit already (the example as written): every placement gains nothing (E1.9)
    lit = advise(example("W-10"), "L1")
    assert all(o.enemy_lit == {"S1": 1} and o.expected_enemy_gain == 0 for o in lit.options)


def test_one_starshell_attempt_per_hex_per_phase():
    """E1.92: a hex that made its attempt this phase fires no more starshells; W-21: of a hex's
    units only the best roller (the leader) is offered, while the IR mortars may all fire."""
    s = example("W-10")
    assert advise(s.replace(starshell_attempts=("2T6",)), "L1").options == ()
    side = advise(example("W-21"), None, side="allied")
    by = {(o.by, o.method[:2]) for o in side.options}
    stars = {who for who, kind in by if kind != "ir"}
    assert len(stars) == 1 and stars <= {"L", "AL"}
    assert {who for who, kind in by if kind == "ir"} == {"M1", "M2"}


# ------------------------------------------------------------------------ what the enemy sees

def slow_threat(s, side, i):
    """Counts of Good Order enemies whose ``unit_verdict`` on a probe unit of ``side`` in hex i
    is within NVR / Gunflash only / within NVR for a moving vehicle (E1.14) there."""
    name = s.map.names[i]
    out = {"nvr": 0, "gunflash": 0, "moving_vehicle": 0, "moving_tracked": 0}
    probes = {"": unit("PROBE", name, side), "moving_vehicle":
              unit("PROBE", name, side, "vehicle", moving="entered"),
              "moving_tracked": unit("PROBE", name, side, "vehicle", moving="entered",
                                     tracked=True)}
    for key, probe in probes.items():
        t = s.with_unit(probe)
        for e in s.units:
            if e.side == side or e.broken:
                continue
            sight = unit_verdict(t, e.id, "PROBE").sight
            if key:
                out[key] += sight == "nvr"
            else:
                out["nvr"] += sight == "nvr"
                out["gunflash"] += sight == "gunflash"
    return out


viewer_units = st.lists(st.tuples(hex_ids, st.sampled_from(["squad", "afv"]),
                                  st.sampled_from([{}, {"bu": True}, {"broken": True}])),
                        min_size=1, max_size=3)


@SETTINGS
@given(b=boards, enemies=viewer_units, nvr=st.integers(1, 5),
       shells=st.lists(hex_ids, max_size=1), flashes=st.lists(hex_ids, max_size=2),
       blazes=st.lists(hex_ids, max_size=1), mover=hex_ids, start=st.integers(0, 12))
def test_threat_equals_every_observers_verdict(b, enemies, nvr, shells, flashes, blazes, mover,
                                              start):
    friends = [(mover, "afv", {"moving": "entered", "tracked": True})]
    s = night(b, friends, [(h, t, dict(x, **({"ce": False} if x.get("bu") else {})))
                           for h, t, x in enemies], shells, flashes, blazes, nvr=nvr)
    th = threat(s, "allied")
    assert th.viewers == tuple(u.id for u in s.units if u.side == "axis" and not u.broken)
    for i in range(start, s.map.size, 13):
        assert th.at(i) == slow_threat(s, "allied", i), s.map.names[i]


def test_W14_a_dark_hex_between_two_lit_enemies():
    """W-14: 2DD6 is adjacent to the lit enemies in 2DD5 and 2DD7, yet unseen (it is dark and
    they are lit: they see only lit locations, E1.101); 2DD5 itself is seen (lit)."""
    s = example("W-14")
    th = threat(s, "allied").as_json()
    assert th["side"] == "allied" and set(th) >= {"side", "hexes"}
    assert th["hexes"]["2DD6"] == {"nvr": 0, "gunflash": 0, "moving_vehicle": 0,
                                   "moving_tracked": 0}
    assert th["hexes"]["2DD5"]["nvr"] >= 1
    for name in ("2DD5", "2DD6", "2DD7", "2Y4"):
        assert th["hexes"][name] == slow_threat(s, "allied", s.map.index(name)), name


# ------------------------------------------------------------------------ the dark way

def best_costs(count, neighbours, start, mf):
    """Bellman-Ford over (sightings, seen hexes, MF, hexes): relax every hex until nothing
    changes (``mf[i][k]``: the MF of the step from hex i to its k-th neighbour, NaN barred)."""
    inf = (math.inf, math.inf, math.inf, math.inf)
    best = [inf] * len(count)
    best[start] = (0, 0, 0, 0)
    changed = True
    while changed:
        changed = False
        for i in range(len(count)):
            if best[i] == inf:
                continue
            for j, cost in zip(neighbours[i], mf[i]):
                if j < 0 or math.isnan(cost):
                    continue
                k = (best[i][0] + count[j], best[i][1] + (count[j] > 0), best[i][2] + cost,
                     best[i][3] + 1)
                if k < best[j]:
                    best[j], changed = k, True
    return best


@SETTINGS
@given(b=boards, walker=hex_ids, goal=hex_ids, enemies=viewer_units,
       shells=st.lists(hex_ids, max_size=1), vehicle=st.booleans())
def test_route_is_the_least_seen_way_and_names_who_sees_it(b, walker, goal, enemies, shells,
                                                          vehicle):
    kind = ("afv", {"tracked": True}) if vehicle else ("squad", {})
    s = night(b, [(walker, *kind)], enemies, shells)
    r = route(s, "A0", "t1" + goal)
    m = s.map
    path = [m.index(h) for h in r.path]
    assert path[0] == m.index("t1" + walker) and path[-1] == m.index("t1" + goal)
    assert all(int(m.distance(a, c)) == 1 for a, c in zip(path, path[1:]))
    assert r.hexes == len(path) - 1
    mf = asl_step_costs(m).tolist()
    assert r.cost == sum(mf[a][list(m.neighbours[a]).index(c)] for a, c in zip(path, path[1:]))
    # who sees each hex entered, the slow way: a probe unit (a moving vehicle for an AFV)
    count = []
    for i in range(m.size):
        probe = unit("PROBE", m.names[i], "allied", kind[0],
                     **({"moving": "entered", "tracked": True} if vehicle else {}))
        t = s.with_unit(probe)
        count.append(sum(unit_verdict(t, e.id, "PROBE").sight != "none"
                         for e in s.units if e.side == "axis" and not e.broken))
        if i in path[1:]:
            who = {e.id for e in s.units if e.side == "axis" and not e.broken
                   and unit_verdict(t, e.id, "PROBE").sight != "none"}
            assert set(r.seen.get(m.names[i], {})) == who, m.names[i]
    best = best_costs(count, m.neighbours.tolist(), path[0], mf)[path[-1]]
    assert (r.sightings, len(r.seen), r.cost, r.hexes) == best
    assert r.dark == (best[0] == 0)


def test_route_with_a_cost_table_goes_round_the_woods():
    b = board("t1", {f"{c}{n}": {"terrain": "woods"} for c in "EFG" for n in range(2, 9)})
    s = night(b, [("C5", "squad", {})], [("Z9", "squad", {})])
    plain = route(s, "A0", "t1I5")                   # ASL's chart: 3 woods at 2 MF (B13)
    assert plain.hexes == 6 and plain.dark and plain.cost == 9
    mp = route(s, "A0", "t1I5", {"woods": 4, "open": 1})
    woods = [h for h in mp.path if s.map.terrain_name(s.map.index(h)) == "woods"]
    assert woods == [] and mp.cost < 3 * 4 + 3          # round the woods is cheaper than through
    blocked = route(s, "A0", "t1I5", {"woods": None})
    assert all(s.map.terrain_name(s.map.index(h)) != "woods" for h in blocked.path)
    assert np.isfinite(blocked.cost)
