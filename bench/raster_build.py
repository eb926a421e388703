"""Benchmark: the LOS table of the largest legal map of noisy drawn terrain (engine.los.raster).

    python bench/raster_build.py [--boards 8x4] [--codes 0,63,24,60,8,90] [--levels 0:3]
                                 [--code DIR ...] [--rounds 2]

The map: ``--boards`` boards (columns x rows, 32 at most as docs/formats.md allows) of a
geomorphic board's size (33 x 10 hexes on 1801 x 645 pixels), every pixel's terrain drawn at
random among ``--codes`` (VASL's terrain codes) and its ground level among ``--levels`` (low:high,
within the raster file's -10..10), a fixed seed: every pixel its own run, millions of pixel
classes, every file limit kept.  8 x 4 boards of the defaults: about 3.75 million classes.

Each build in a child process of its own (peak memory is that build's), processor time of the
process; with several ``--code`` folders (a checkout each: the code before and after a change)
the children alternate, ``--rounds`` times, on the same map.  Printed as JSON per code:

- ``frame_cpu``: the map's pixel frame (``build_frame``: the pixels' hexes and classes);
- ``table_cpu``: the whole LOS table (``los_table``: the frame, the hex table, the compiled walk
  loaded; the first run after an install compiles the walk's 32-bit version, seconds);
- ``peak_mib``: the child's peak resident memory; ``classes``: the pixel classes;
- ``digest``: a hash of the frame's arrays (the same on every code: the same answers);
- and per code after the first, each figure over the first's (medians).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZE, GEO, WIDTH, HEIGHT = (33, 10), (0.0, 32.25, 56.25, 64.5), 1801, 645
KEYS = ("pix_cls", "cls_from", "cls_level", "cls_code", "cls_hex", "cls_edge", "cls_side",
        "cls_centre", "cls_flags", "cls_top", "cls_low", "cls_nbr", "tile_max")


def noisy_map(columns: int, rows: int, codes: list[int], low: int, high: int):
    """The map of the module doc (fixed seed)."""
    import numpy as np

    from engine.boards import Board, HexTerrain, with_raster
    from engine.maps import Map, Placement
    from engine.raster_file import Raster
    rng = np.random.default_rng(1)
    table = np.array(codes, np.uint8)
    placed = []
    for k in range(columns * rows):
        terrain = table[rng.integers(0, len(table), (HEIGHT, WIDTH))]
        level = rng.integers(low, high + 1, (HEIGHT, WIDTH)).astype(np.int8)
        board = with_raster(Board(f"n{k}", "noisy", HexTerrain(), {}, size=SIZE),
                            Raster(terrain, level, GEO, SIZE))
        placed.append(Placement(board, (k % columns, k // columns)))
    return Map(placed)


def child(a) -> None:
    """One build, in this process, with ``a.code`` first on the path: its figures as JSON."""
    sys.path.insert(0, a.code[0])
    import resource
    import time

    from engine.los import los_table
    from engine.los.raster.frame import build_frame, map_rasters
    columns, rows = map(int, a.boards.split("x"))
    low, high = map(int, a.levels.split(":"))
    m = noisy_map(columns, rows, [int(c) for c in a.codes.split(",")], low, high)
    rasters = map_rasters(m)
    t = time.process_time()
    frame = build_frame(m, rasters)
    frame_cpu = time.process_time() - t
    digest = hashlib.sha1()
    for key in KEYS:
        digest.update(getattr(frame, key).tobytes())
    classes = len(frame.cls_level)
    del frame
    t = time.process_time()
    los_table(m)
    table_cpu = time.process_time() - t
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"frame_cpu": round(frame_cpu, 2), "table_cpu": round(table_cpu, 2),
                      "peak_mib": round(peak), "classes": classes,
                      "digest": digest.hexdigest()[:12]}))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--boards", default="8x4")
    p.add_argument("--codes", default="0,63,24,60,8,90")
    p.add_argument("--levels", default="0:3")
    p.add_argument("--code", action="append")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--child", action="store_true")
    a = p.parse_args()
    if a.child:
        child(a)
        return
    codes = a.code or [str(HERE.parent)]
    runs: dict[str, list[dict]] = {code: [] for code in codes}
    for _ in range(a.rounds):
        for code in codes:
            cmd = [sys.executable, __file__, "--child", "--code", code, "--boards", a.boards,
                   "--codes", a.codes, f"--levels={a.levels}"]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            runs[code].append(json.loads(done.stdout.strip().splitlines()[-1]))
    out = {}
    for code, got in runs.items():
        out[code] = {key: [run[key] for run in got] for key in got[0]}
        if code != codes[0]:
            first = runs[codes[0]]
            out[code]["over_first"] = {
                key: round(statistics.median(r[key] for r in got)
                           / statistics.median(r[key] for r in first), 3)
                for key in ("frame_cpu", "table_cpu", "peak_mib")}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
