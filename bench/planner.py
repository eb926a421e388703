"""Benchmark: the night planner (advise, threat, route) after ``prepare``, beside a plain
per-pair reference computed in the same run.

    python bench/planner.py [--runs 5] [--seed 1] [--boards 3]

On bench/visibility.py's map (2 x 2 random boards; ``--boards N``: N real-size boards, 33 x 10
hexes, in a row), 80 units, starshells, an IR, blazes and Gunflashes, after ``api.prepare``,
prints JSON figures (seconds; medians over ``--runs``, each on a fresh copy of the position so
nothing derived is reused):

- ``advise``: the full advice of an allied leader and of an allied IR mortar (target 50 ms);
- ``threat``: what the axis sees of an allied unit in every hex (target 20 ms);
- ``route``: an allied unit's way across the map, in ASL's MF (target 20 ms);
- ``reference_*``: the plain way, on a sample, scaled to the whole answer: each sampled option
  fired with each of the 36 dice and the lights recomputed (the advice's gain, rules.md 11.7,
  is checked against the plain count in tests/test_planner_gain.py); each sampled hex judged by every
  Good Order enemy, one line at a time (``engine.night.reference.sight``) and by
  ``unit_verdict`` on a moving-vehicle probe; the way by relaxing every hex until nothing
  changes (Bellman-Ford);
- ``mismatches``: answers that differ from the reference (must be 0); ``ratios``: reference
  over engine.
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from mapgen import busy_scenario, random_map, row_map  # noqa: E402

from engine import api  # noqa: E402
from engine.night import reference  # noqa: E402
from engine.night.drift import FixedDice  # noqa: E402
from engine.night.light import illumination  # noqa: E402
from engine.night.planner import advise  # noqa: E402
from engine.night.planner_costs import asl_step_costs  # noqa: E402
from engine.night.planner_route import route  # noqa: E402
from engine.night.planner_threat import still, threat  # noqa: E402
from engine.night.scenario import Unit  # noqa: E402
from engine.night.starshells import fire  # noqa: E402
from engine.night.unit_verdicts import unit_verdict  # noqa: E402

TARGETS = {"advise": 0.050, "threat": 0.020, "route": 0.020}
SIDE, ENEMY = "allied", "axis"


def timed(func, s, runs):
    out, answer = [], None
    for _ in range(runs):
        fresh = s.replace()
        t0 = time.perf_counter()
        answer = func(fresh)
        out.append(time.perf_counter() - t0)
    return statistics.median(out), answer


def reference_option(s, option) -> dict:
    """Counts of the 36 outcomes in which each unit ends lit: each fired, lights recomputed."""
    counts = {u.id: 0 for u in s.units}
    for d in range(1, 7):
        for r in range(1, 7):
            dice = (d, r) if option.usage_dr_max is None else (1, d, r)
            after, _ = fire(s, option.by, option.at, option.method, FixedDice(dice))
            light = illumination(after)
            for u in after.units:
                counts[u.id] += light.unit_lit(u)
    return counts


def reference_hex(s, base, i) -> dict:
    name = s.map.names[i]
    out = {"nvr": 0, "gunflash": 0, "moving_vehicle": 0, "moving_tracked": 0}
    probes = {k: Unit("PROBE", SIDE, "vehicle", name, moving="entered", tracked=k.endswith("d"))
              for k in ("moving_vehicle", "moving_tracked")}
    for e in s.units:
        if e.side == SIDE or e.broken:
            continue
        sight = reference.sight(base, e.id, name)
        out["nvr"] += sight == "nvr"
        out["gunflash"] += sight == "gunflash"
        for key, probe in probes.items():
            out[key] += unit_verdict(s.with_unit(probe), e.id, "PROBE").sight == "nvr"
    return out


def reference_way(count, neighbours, start, mf) -> list:
    inf = (math.inf,) * 4
    best = [inf] * len(count)
    best[start] = (0, 0, 0, 0)
    changed = True
    while changed:
        changed = False
        for i in range(len(count)):
            if best[i] != inf:
                for j, cost in zip(neighbours[i], mf[i]):
                    if j >= 0 and not math.isnan(cost):
                        k = (best[i][0] + count[j], best[i][1] + (count[j] > 0),
                             best[i][2] + cost, best[i][3] + 1)
                        if k < best[j]:
                            best[j], changed = k, True
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boards", type=int, default=None,
                    help="N real-size boards in a row (default: the 2 x 2 map)")
    a = ap.parse_args()
    _, m = random_map(a.seed) if a.boards is None else row_map(a.seed, a.boards)
    s = busy_scenario(m, a.seed + 1)
    api.prepare(s)
    leader = next(u.id for u in s.units if u.side == SIDE and u.type == "leader")
    mortar = next(u.id for u in s.units if u.side == SIDE and u.type == "mortar")
    walker = next(u.id for u in s.units if u.side == SIDE and u.type == "squad")
    goal = m.names[m.size - 1 - m.index(s.unit(walker).hex) % 40]
    figures, mismatches, ratios = {}, {}, {}

    adv = {}
    for uid in (leader, mortar):
        t, advice = timed(lambda x, uid=uid: advise(x, uid), s, a.runs)
        sample = advice.options[:: max(1, len(advice.options) // 4)][:4]
        t0 = time.perf_counter()
        bad = sum(any(dict(zip(o.enemy_ids + o.friendly_ids,
                               o.enemy_counts + o.friendly_counts))[k] != v
                      for k, v in reference_option(s, o).items()) for o in sample)
        ref = (time.perf_counter() - t0) / max(len(sample), 1) * len(advice.options)
        adv[uid] = {"seconds": t, "options": len(advice.options), "reference": ref}
        mismatches[f"advise {uid}"] = bad
        ratios[f"advise {uid}"] = ref / t
    figures["advise"] = adv

    t, th = timed(lambda x: threat(x, SIDE), s, a.runs)
    base = still(s)
    sample = list(range(0, m.size, 37))
    t0 = time.perf_counter()
    mismatches["threat"] = sum(reference_hex(s, base, i) != th.at(i) for i in sample)
    ref = (time.perf_counter() - t0) / len(sample) * m.size
    figures["threat"] = {"seconds": t, "hexes": m.size, "reference": ref}
    ratios["threat"] = ref / t

    t, way = timed(lambda x: route(x, walker, goal), s, a.runs)
    count = th.seen().sum(axis=0).tolist()
    t0 = time.perf_counter()
    best = reference_way(count, m.neighbours.tolist(), m.index(s.unit(walker).hex),
                         asl_step_costs(m).tolist())
    ref = time.perf_counter() - t0 + figures["threat"]["reference"]
    mismatches["route"] = int(best[m.index(goal)] != (way.sightings, len(way.seen), way.cost,
                                                      way.hexes))
    figures["route"] = {"seconds": t, "hexes": way.hexes, "sightings": way.sightings,
                        "reference": ref}
    ratios["route"] = ref / t

    figures["mismatches"] = mismatches
    figures["ratios"] = ratios
    figures["targets_met"] = {
        "advise": all(v["seconds"] <= TARGETS["advise"] for v in adv.values()),
        "threat": figures["threat"]["seconds"] <= TARGETS["threat"],
        "route": figures["route"]["seconds"] <= TARGETS["route"]}
    figures["map"] = {"hexes": m.size, "units": len(s.units), "markers": len(s.markers)}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
