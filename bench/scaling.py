"""Benchmark: how the first field, the next ones, ``prepare`` and memory grow with the map.

    python bench/scaling.py [--layouts 1x1,2x1,2x2,4x2,4x4,8x4] [--no-prepare] [--seed 1]
                            [--repeat 3]

For each layout (boards tall x wide: ``8x4`` is 8 rows of 4 boards, the widest the map's span
allows) a fresh process writes random boards (``mapgen.random_board``: hills, woods, buildings,
walls, hedges...) and an 80-unit position to a temporary folder, then measures, in seconds:

- ``first_field``: ``load_scenario`` of the files and the first unit's night field (what the app
  does before showing the map), and ``first_field_cpu``, the processor time it took (steadier
  than the clock on a busy machine);
- ``next_field``: another unit's field after it (lazy rows: no table yet);
- ``prepare``: ``api.prepare`` (the map's LOS table; ``null`` beyond ``MAX_TABLE_HEXES``, where
  it returns at once) and ``field_after``, a field read from it;
- ``peak_mib``: the process's peak resident memory after the first field, and at the end.

Each layout is measured in ``--repeat`` fresh processes, the layouts taken in turn (1x1, 2x2,
... then again), and each figure is the median of its runs (``first_field_runs`` lists them):
on a shared machine one process's clock can swing by half.  Prints one JSON document; ``ratios``
divides every first field by the 2 x 2 map's.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

LAYOUTS = "1x1,2x1,2x2,4x2,4x4,8x4"


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write(folder: Path, tall: int, wide: int, seed: int) -> Path:
    from mapgen import busy_scenario, random_board

    from engine.boards import save_board
    from engine.jsonio import atomic_write_json
    from engine.maps import Map, Placement
    from engine.night.files import scenario_to_json
    rng = random.Random(seed)
    placements = []
    for row in range(tall):
        for col in range(wide):
            b = random_board(f"r{row * wide + col}", rng)
            save_board(b, folder / f"{b.id}.json")
            placements.append(Placement(b, (col, row)))
    s = busy_scenario(Map(placements), seed + 1)
    data = scenario_to_json(s, folder)
    for entry in data["map"]:
        entry["board"] = f"{entry['board']}.json"
    path = folder / "position.json"
    atomic_write_json(path, data, backup=False)
    return path


def measure(path: str, do_prepare: bool) -> dict:
    """In a fresh process: what opening the map and asking it costs."""
    from engine import api
    t0, c0 = time.perf_counter(), time.process_time()
    s = api.night.load_scenario(path)
    int(api.night.visibility_from(s, s.units[0].id).codes.sum())
    first, first_cpu = time.perf_counter() - t0, time.process_time() - c0
    peak_first = peak_mib()
    t0 = time.perf_counter()
    int(api.night.visibility_from(s, s.units[1].id).codes.sum())
    nxt = time.perf_counter() - t0
    out = {"hexes": s.map.size, "first_field": first, "first_field_cpu": first_cpu,
           "next_field": nxt,
           "peak_mib_first_field": peak_first}
    if do_prepare:
        t0 = time.perf_counter()
        info = api.prepare(s)
        took = time.perf_counter() - t0
        out["prepare"] = took if info["table"] else None
        t0 = time.perf_counter()
        int(api.night.visibility_from(s, s.units[2].id).codes.sum())
        out["field_after"] = time.perf_counter() - t0
        out["table_mib"] = info.get("bytes", 0) / 2**20
    out["peak_mib"] = peak_mib()
    return out


def _median_row(found: list[dict]) -> dict:
    """Each figure's median over the runs (an error: the error)."""
    if "error" in found[0]:
        return found[0]
    row = {}
    for key, value in found[0].items():
        values = [r[key] for r in found if isinstance(r.get(key), (int, float))]
        row[key] = statistics.median(values) if values else value
    row["first_field_runs"] = [round(r["first_field"], 4) for r in found]
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layouts", default=LAYOUTS)
    ap.add_argument("--no-prepare", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per layout")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.measure:
        print(json.dumps(measure(a.measure, not a.no_prepare)))
        return
    runs: dict[str, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for layout in a.layouts.split(","):
            tall, wide = (int(v) for v in layout.lower().split("x"))
            folder = Path(tmp) / layout
            folder.mkdir()
            paths[layout] = write(folder, tall, wide, a.seed)
        for _ in range(max(1, a.repeat)):
            for layout, path in paths.items():
                cmd = [sys.executable, __file__, "--measure", str(path)]
                if a.no_prepare:
                    cmd.append("--no-prepare")
                done = subprocess.run(cmd, capture_output=True, text=True)
                if done.returncode:
                    runs[layout] = [{"error": done.stderr.strip().splitlines()[-1]}]
                elif "error" not in runs.get(layout, [{}])[0]:
                    runs.setdefault(layout, []).append(json.loads(done.stdout))
                print(layout, json.dumps(runs[layout][-1]), file=sys.stderr, flush=True)
    rows = {layout: _median_row(found) for layout, found in runs.items()}
    base = rows.get("2x2", {}).get("first_field")
    out = {"layouts": rows}
    if base:
        cpu = rows["2x2"]["first_field_cpu"]
        out["ratios"] = {k: {"first_field": round(v["first_field"] / base, 2),
                             "first_field_cpu": round(v["first_field_cpu"] / cpu, 2)}
                         for k, v in rows.items() if "first_field" in v}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
