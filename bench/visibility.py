"""Benchmark: visibility at the speed of a mouse drag (issue 5).

    python bench/visibility.py [--runs 5] [--seed 1]

Builds a 2 x 2-board map with random terrain (woods, buildings, grain, brush, orchards, hills of
levels 1-2), 80 units, starshells, an IR, blazes and Gunflashes, writes the boards and two
positions on that map to a temporary folder as ordinary files, and prints JSON figures (seconds;
medians of several runs):

- first_load: a cold process loads the scenario and computes the first viewer's field (all
  per-map work the engine does is in here); each run is a fresh subprocess;
- same_map_load: loading a second scenario on the same map after that;
- one_viewer_field: ``visibility_from`` for one unit not seen before, then ``.sight`` of every hex;
- all_80_viewers: the 80 units' fields, none seen before;
- drift_preview: a starshell drift preview (distribution and lit probabilities) at a new hex;
- reference_*: the straightforward one-line-at-a-time implementation on a few viewers, and the
  real engine's speed-up over it, measured in the same run (their verdicts are compared too).
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

import engine  # noqa: E402
from engine import los  # noqa: E402
from engine.boards import save_board  # noqa: E402
from engine.jsonio import atomic_write_json  # noqa: E402
from engine.night import drift, reference  # noqa: E402
from engine.night.files import scenario_to_json  # noqa: E402

TARGETS = {"first_load": 3.0, "same_map_load": 0.3, "one_viewer_field": 0.002,
           "all_80_viewers": 0.25, "drift_preview": 0.016}


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
    return sum(1 for h in field if field[h].sight != "none")


def cold_first_load(path: str) -> float:
    t0 = time.perf_counter()
    s = engine.load_scenario(path)
    read_field(engine.visibility_from(s, s.units[0].id))
    return time.perf_counter() - t0


def forget_viewers() -> None:
    """Drop the per-viewer rows, keep the per-map work (what a long session has)."""
    for table in los._TABLES.values():
        table._cache.clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.cold:
        print(cold_first_load(a.cold))
        return
    with tempfile.TemporaryDirectory() as tmp:
        p1, p2 = write_files(Path(tmp), a.seed)
        firsts = [float(subprocess.run([sys.executable, __file__, "--cold", str(p1)],
                                       capture_output=True, text=True, check=True).stdout)
                  for _ in range(a.runs)]
        s1 = engine.load_scenario(p1)
        read_field(engine.visibility_from(s1, s1.units[0].id))
        same = []
        for _ in range(a.runs):
            t0 = time.perf_counter()
            engine.load_scenario(p2)
            same.append(time.perf_counter() - t0)

        units = [u.id for u in s1.units]
        one, every = [], []
        for _ in range(a.runs):
            forget_viewers()
            for uid in units[1:21]:
                t0 = time.perf_counter()
                read_field(engine.visibility_from(s1, uid))
                one.append(time.perf_counter() - t0)
            forget_viewers()
            s1 = s1.replace()                        # a new position: nothing derived yet
            t0 = time.perf_counter()
            for uid in units:
                read_field(engine.visibility_from(s1, uid))
            every.append(time.perf_counter() - t0)

        m = s1.map
        drift.lit_probability(m, 0, "3")             # per map: the light-reach table
        previews = []
        for i in range(1, 60, 3):
            t0 = time.perf_counter()
            drift.distribution(m, i * 11 % m.size, "3")
            drift.lit_probability(m, i * 11 % m.size, "3")
            previews.append(time.perf_counter() - t0)

        # the straightforward implementation on a few viewers, and the same viewers by the engine
        ref_times, eng_times, mismatches = [], [], 0
        for uid in units[:3]:
            t0 = time.perf_counter()
            ref = {h: reference.sight(s1, uid, h) for h in m.names}
            ref_times.append(time.perf_counter() - t0)
            forget_viewers()
            s1 = s1.replace()
            t0 = time.perf_counter()
            field = engine.visibility_from(s1, uid)
            got = {h: field[h].sight for h in m.names}
            eng_times.append(time.perf_counter() - t0)
            mismatches += sum(ref[h] != got[h] for h in m.names)

    figures = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "processor": platform.machine()},
        "map": {"boards": 4, "hexes": m.size, "units": len(units), "markers": len(s1.markers)},
        "first_load": statistics.median(firsts),
        "same_map_load": statistics.median(same),
        "one_viewer_field": statistics.median(one),
        "all_80_viewers": statistics.median(every),
        "drift_preview": statistics.median(previews),
        "reference_viewer_field": statistics.median(ref_times),
        "engine_viewer_field": statistics.median(eng_times),
        "speedup_over_reference": statistics.median(ref_times) / statistics.median(eng_times),
        "reference_mismatches": mismatches,
    }
    figures["targets_met"] = {k: figures[k] <= v for k, v in TARGETS.items()}
    figures["targets_met"]["speedup_over_reference"] = figures["speedup_over_reference"] >= 20
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
