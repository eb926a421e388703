"""Benchmark: night fields before and after the map's LOS table, beside the per-pair reference.

    python bench/visibility.py [--runs 3] [--seed 1]

Builds a 2 x 2-board map with random terrain (woods, buildings, grain, brush, orchards, hills of
levels 1-2, walls, hedges and bocage), 80 units, starshells, an IR, blazes and Gunflashes, writes
the boards and two positions on that map to a temporary folder as ordinary files, and prints
JSON figures (seconds; medians), all measured in this one run:

- ``first_field``: a cold process loads the position and computes the first viewer's field
  (every per-map cost the engine pays before answering is in here); each run a fresh process;
- ``prepare``: ``api.prepare`` after that first field (the map's LOS table, built once per map);
- ``one_field`` / ``all_80_fields`` / ``drift_preview``: before (``*_before``) and after
  ``prepare``; a field is read as its codes array (as the app does), viewers not seen before;
  all 80 fields are asked together (``api.all_fields``: every row at once), and one by one
  (``all_80_one_by_one``); the position's lights are known before the clock starts;
- ``reference_field``: the straightforward one-line-at-a-time implementation
  (engine/night/reference.py) for one viewer, and ``reference_all_80`` (that times 80);
- ``ratios``: the engine's speed-up over the reference, all 80 fields over one field, drift
  after over before; ``reference_mismatches`` counts verdicts that differ from the reference
  (fields before and after ``prepare``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from mapgen import busy_scenario, random_map  # noqa: E402

from engine import api, los  # noqa: E402
from engine.boards import save_board  # noqa: E402
from engine.jsonio import atomic_write_json  # noqa: E402
from engine.night import drift, reference  # noqa: E402
from engine.night.files import scenario_to_json  # noqa: E402

# (figure, how it is judged, target)
TARGETS = [("prepare", "<=", 10.0), ("one_field_speedup_over_reference", ">=", 150.0),
           ("all_80_over_one_field", "<=", 20.0), ("drift_after_over_before", "<=", 1.25)]


def write_files(folder: Path, seed: int) -> tuple[Path, Path]:
    boards, game_map = random_map(seed)
    for b in boards:
        save_board(b, folder / f"{b.id}.json")
    paths = []
    for k, sseed in enumerate((seed + 1, seed + 2)):
        s = busy_scenario(game_map, sseed)
        data = scenario_to_json(s, folder)
        for entry in data["map"]:
            entry["board"] = f"{entry['board']}.json"
        p = folder / f"position{k + 1}.json"
        atomic_write_json(p, data, backup=False)
        paths.append(p)
    return paths[0], paths[1]


def read_field(field) -> int:
    """What the app reads of a field: its codes array (0 none, 1 nvr, 2 gunflash)."""
    return int((field.codes != 0).sum())


def cold_first_field(path: str) -> float:
    t0 = time.perf_counter()
    s = api.night.load_scenario(path)
    read_field(api.night.visibility_from(s, s.units[0].id))
    return time.perf_counter() - t0


def forget_viewers() -> None:
    """Drop the per-viewer rows engine.los keeps, keep the per-map work (a long session)."""
    for table in los._table.cached_values():
        table._cache.clear()


def fields(s, units, runs):
    """(one field: median over 20 viewers; all 80 fields together, ``api.all_fields``, and
    one by one: medians over ``runs``; the first two also in processor time of this thread,
    steadier than the clock on a busy machine).  Each in a position whose lights are known (a
    new position's lights cost the same whatever is asked next)."""
    one, every, by_one, one_cpu, every_cpu = [], [], [], [], []
    for _ in range(runs):
        forget_viewers()
        s = s.replace()                              # a new position: nothing derived yet
        api.night.illumination(s)
        for uid in units[1:21]:
            t0, c0 = time.perf_counter(), time.thread_time()
            read_field(api.night.visibility_from(s, uid))
            one.append(time.perf_counter() - t0)
            one_cpu.append(time.thread_time() - c0)
        for _ in range(10):
            forget_viewers()
            s = s.replace()
            api.night.illumination(s)
            t0, c0 = time.perf_counter(), time.thread_time()
            int((api.night.all_fields(s) != 0).sum())
            every.append(time.perf_counter() - t0)
            every_cpu.append(time.thread_time() - c0)
        forget_viewers()
        s = s.replace()
        api.night.illumination(s)
        t0 = time.perf_counter()
        for uid in units:
            read_field(api.night.visibility_from(s, uid))
        by_one.append(time.perf_counter() - t0)
    med = statistics.median
    return med(one), med(every), med(by_one), med(one_cpu), med(every_cpu)


def drift_previews(s) -> float:
    """A drift preview's numbers as the app asks them per mouse move (starshell_preview's
    ``drift_numbers``): the end hexes, the flare's own lit chances, and each hex's lit chance
    once it has landed with every light on the map counted (``lit_probability_after``)."""
    m, out = s.map, []
    for i in range(1, 60, 3):
        at = i * 11 % m.size
        t0 = time.perf_counter()
        drift.distribution(m, at, "3")
        drift.lit_probability(m, at, "3")
        drift.lit_probability_after(s, at, "3")
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.cold:
        print(cold_first_field(a.cold))
        return
    with tempfile.TemporaryDirectory() as tmp:
        p1, _ = write_files(Path(tmp), a.seed)
        firsts = [float(subprocess.run([sys.executable, __file__, "--cold", str(p1)],
                                       capture_output=True, text=True, check=True).stdout)
                  for _ in range(a.runs)]
        s = api.night.load_scenario(p1)
    m = s.map
    units = [u.id for u in s.units]
    api.night.visibility_from(s, units[0])                 # the first field, as in the app

    one_before, all_before, by_one_before, _, _ = fields(s, units, a.runs)
    drift.lit_probability_after(s, 0, "3")           # per map: the light-reach table
    drift_before = drift_previews(s)
    lazy = {uid: api.night.visibility_from(s.replace(), uid).sights for uid in units[:3]}

    t0 = time.perf_counter()
    built = api.prepare(s)
    prepare_s = time.perf_counter() - t0

    one_after, all_after, by_one_after, one_cpu, all_cpu = fields(s, units, a.runs)
    drift_after = drift_previews(s)

    # the straightforward implementation on a few viewers; the engine's verdicts compared to it
    ref_times, mismatches = [], {"before_prepare": 0, "after_prepare": 0}
    for uid in units[:3]:
        t0 = time.perf_counter()
        ref = [reference.sight(s, uid, h) for h in m.names]
        ref_times.append(time.perf_counter() - t0)
        after = api.night.visibility_from(s.replace(), uid)
        mismatches["after_prepare"] += sum(r != g for r, g in zip(ref, after.sights))
        mismatches["before_prepare"] += sum(r != g for r, g in zip(ref, lazy[uid]))
    ref_field = statistics.median(ref_times)

    figures = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "processor": platform.machine()},
        "map": {"boards": len(m.placements), "hexes": m.size, "units": len(units),
                "markers": len(s.markers), "table_bytes": built.get("bytes", 0)},
        "first_field": statistics.median(firsts),
        "prepare": prepare_s,
        "one_field_before": one_before,
        "one_field": one_after,
        "all_80_fields_before": all_before,
        "all_80_fields": all_after,
        "all_80_one_by_one_before": by_one_before,
        "all_80_one_by_one": by_one_after,
        "drift_preview_before": drift_before,
        "drift_preview": drift_after,
        "reference_field": ref_field,
        "reference_all_80": 80 * ref_field,
        "reference_mismatches": mismatches,
    }
    figures["ratios"] = {
        "one_field_speedup_over_reference": ref_field / one_after,
        "one_field_before_speedup_over_reference": ref_field / one_before,
        "all_80_speedup_over_reference": 80 * ref_field / all_after,
        "all_80_over_one_field": all_after / one_after,
        "all_80_over_one_field_cpu": all_cpu / one_cpu,
        "one_field_before_over_after": one_before / one_after,
        "drift_after_over_before": drift_after / drift_before,
        "first_field_over_reference_field": figures["first_field"] / ref_field,
    }
    flat = {**figures, **figures["ratios"]}
    figures["targets_met"] = {k: (flat[k] <= v if op == "<=" else flat[k] >= v)
                              for k, op, v in TARGETS}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
