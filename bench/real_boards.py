"""Benchmark: LOS fields on maps of real boards (terrain as drawn) beside the hex model.

    python bench/real_boards.py [BOARD.json ...] [--sizes 1,3,8] [--rows 12]
                                [--vasl-field SECONDS] [--no-prepare-above N]

BOARD.json: imported board files carrying their raster (``engine.importers.vasl``; the
raster file beside each).  Without them, the test suite's synthetic VASL board
(tests/vasl_synth.py: real size, 33 x 10 hexes on 1800 x 645 pixels, its drawing as dense) is
drawn and imported three times (as boards 2, 4 and 3).  A map of N boards takes the boards in
turn, stacked four to a column (3: one column, as Hill 621's 2, 4, 3; 8: two columns).

For each size, in a child process of its own (so that peak memory is that map's), processor
seconds of the process (its background thread included), once over the terrain as drawn
(``raster``) and once over the same boards' hex summaries (``hex``):

- ``load``: reading the board files and their rasters;
- ``kernel``: loading the compiled walk of lines (numba; once per process, for drawn boards
  only: the first run after an install or a change compiles it, a second or two), measured as
  a one-board map's table (its frame included);
- ``first``: the map's LOS table and one viewer's field, right after loading;
- ``lazy``: one more viewer's field before the table exists (median over ``--rows`` viewers);
- ``upper``: a viewer on a building's first floor (a hex with upper levels; on a map without
  any, a hex one level up: ``upper_viewers`` says which; median);
- ``prepare``: ``engine.los.ground.prepare`` (every ground-level pair);
- ``prepared``: a ground-level viewer's row read afterwards (median); ``upper_prepared``: a
  building's first floor afterwards (its own row, kept by ``prepare``);
- ``peak_mib``: the child's peak resident memory.

``--vasl-field`` (VASL's own time for one viewer's lines on the same boards, where measured)
is printed beside ``lazy`` as a ratio.  Targets (three real boards): first <= 0.15 s, lazy <=
5 ms, prepare <= 3 s, prepared <= 1 ms, upper <= 3 ms; eight boards < 600 MiB.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

import numpy as np  # noqa: E402

from engine.boards import load_board, save_board  # noqa: E402
from engine.los import ground as los_ground  # noqa: E402
from engine.los import los_table, map_rasters  # noqa: E402
from engine.maps import Map, Placement  # noqa: E402

PER_COLUMN = 4                  # boards stacked in one column of the map


def synthetic_boards(folder: Path) -> list[str]:
    """The synthetic VASL board drawn and imported as boards 2, 4 and 3 (board files)."""
    import vasl_synth

    from engine.importers.vasl import import_board
    paths = []
    for name in ("2", "4", "3"):
        board, _ = import_board(vasl_synth.standard_board(name).write(folder / f"bd{name}"))
        path = folder / f"bd{name}.json"
        save_board(board, path)
        paths.append(str(path))
    return paths


def build_map(paths: list[str], count: int, drawn: bool) -> Map:
    """``count`` boards taken in turn from ``paths``, four to a column; ``drawn``: with their
    rasters (else their hex summaries only)."""
    boards = []
    for i in range(count):
        b = replace(load_board(paths[i % len(paths)]), id=f"b{i}")
        if not drawn:
            b = replace(b, raster=None)
        boards.append(b)
    return Map([Placement(b, (i // PER_COLUMN, i % PER_COLUMN)) for i, b in enumerate(boards)])


def _median_cpu(calls) -> float:
    times = []
    for call in calls:
        c = time.process_time()
        call()
        times.append(time.process_time() - c)
    return statistics.median(times)


def measure(paths: list[str], count: int, drawn: bool, rows: int, prepare: bool) -> dict:
    c = time.process_time()
    m = build_map(paths, count, drawn)
    if drawn:
        map_rasters(m)                  # the raster files read (kept: engine.boards)
    load = time.process_time() - c
    rng = np.random.default_rng(count)
    # the first viewer, then others for lazy fields; a building's first floor for the upper
    # fields (hexes with upper levels, any hex one level up when the map has none), others
    # again after prepare (no viewer's lines asked twice)
    picked = rng.choice(m.size, size=min(rows + 1, m.size), replace=False)
    first, ground = int(picked[0]), picked[1:rows + 1]
    upstairs = rng.permutation(np.flatnonzero(m.upper_levels > 0))
    upper_kind = "building" if len(upstairs) else "any hex"
    if not len(upstairs):
        upstairs = rng.permutation(np.setdiff1d(np.arange(m.size), picked))
    upper, upper_after = upstairs[:rows], upstairs[rows:2 * rows]
    if not len(upper_after):
        upper_after = upper
    c = time.process_time()
    if drawn:                           # the compiled walk, loaded once per process
        los_table(Map([Placement(replace(load_board(paths[0]), id="warm"), (0, 0))]))
    kernel = time.process_time() - c
    c = time.process_time()
    table = los_table(m)
    table.from_location(first, 0)
    out = {"table": type(table).__name__, "hexes": m.size, "load": load, "kernel": kernel,
           "first": time.process_time() - c,
           "lazy": _median_cpu([lambda v=int(v): table.from_location(v, 0) for v in ground]),
           "upper": _median_cpu([lambda v=int(v): table.from_location(v, 1) for v in upper]),
           "upper_viewers": upper_kind}
    viewers = [int(v) for v in picked]
    if prepare:
        c = time.process_time()
        done = los_ground.prepare(m)
        out["prepare"] = time.process_time() - c
        out["prepare_complete"] = bool(done.get("complete", False))
        out["prepared"] = _median_cpu([lambda v=v: los_ground.ground_row(m, v)
                                       for v in viewers[1:]])
        if upper_kind == "building":
            out["upper_prepared"] = _median_cpu([lambda v=int(v): table.from_location(v, 1)
                                                 for v in upper_after])
    out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def _child(args) -> None:
    res = measure(args.boards, args.child, args.drawn, args.rows, args.prepare)
    print(json.dumps(res))


def _run_child(paths, count: int, drawn: bool, rows: int, prepare: bool) -> dict:
    cmd = [sys.executable, __file__, *paths, "--child", str(count), "--rows", str(rows)]
    cmd += ["--drawn"] if drawn else []
    cmd += ["--prepare"] if prepare else []
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _rounded(res: dict) -> dict:
    return {k: (round(v, 5) if isinstance(v, float) else v) for k, v in res.items()}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("boards", nargs="*", help="imported board files (with their rasters)")
    p.add_argument("--sizes", default="1,3,8")
    p.add_argument("--rows", type=int, default=12, help="viewers measured per figure")
    p.add_argument("--vasl-field", type=float, default=None,
                   help="VASL's seconds for one viewer's lines on the same boards")
    p.add_argument("--no-prepare-above", type=int, default=None,
                   help="skip prepare on maps of more boards than this")
    p.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--drawn", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child is not None:
        _child(a)
        return
    with tempfile.TemporaryDirectory() as tmp:
        paths = a.boards or synthetic_boards(Path(tmp))
        report = {"boards": [Path(x).name for x in paths]}
        for count in (int(x) for x in a.sizes.split(",")):
            prepare = a.no_prepare_above is None or count <= a.no_prepare_above
            raster = _run_child(paths, count, True, a.rows, prepare)
            hexes = _run_child(paths, count, False, a.rows, prepare)
            row = {"raster": _rounded(raster), "hex": _rounded(hexes)}
            ratios = {k: round(raster[k] / hexes[k], 2) for k in
                      ("first", "lazy", "upper", "prepare", "prepared", "upper_prepared")
                      if k in raster and hexes.get(k)}
            row["raster_over_hex"] = ratios
            if a.vasl_field:
                row["vasl_field"] = a.vasl_field
                row["vasl_over_lazy"] = round(a.vasl_field / raster["lazy"], 2)
            report[f"{count}_boards"] = row
            print(json.dumps({f"{count}_boards": row}), flush=True)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
