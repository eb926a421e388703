"""Benchmark: daytime LOS on a board that keeps its terrain as drawn (engine.los.raster).

    python bench/raster_los.py [BOARD_ARCHIVE] [--rows 40]

BOARD_ARCHIVE is a VASL board archive of either kind (``bd02``...; not in the repository: use
your own).  Without it, the test suite's synthetic VASL board (tests/vasl_synth.py) is drawn and
imported.  Prints JSON figures (seconds, medians over rows):

- ``import``: importing the archive (the raster included); ``table``: the map's raster LOS
  table (the pixels' hexes and classes);
- ``row``: one viewer's lines to every hex, computed (what a field costs before ``prepare``);
  ``*_cpu``: the same in CPU seconds of this process (steadier on a busy machine);
- ``prepare``: ``engine.los.ground.prepare`` (every ground-level pair of the board, in the way the
  app's background thread builds it); ``field_after``: one viewer's row read afterwards.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

import numpy as np  # noqa: E402

from engine.boards import load_board, save_board  # noqa: E402
from engine.importers.vasl import import_board  # noqa: E402
from engine.los import ground as los_ground  # noqa: E402
from engine.los import los_table  # noqa: E402
from engine.maps import Map, Placement  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("archive", nargs="?")
    p.add_argument("--rows", type=int, default=40)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = a.archive
        if archive is None:
            import vasl_synth
            archive = vasl_synth.standard_board("99").write(Path(tmp) / "bd99")
        t = time.perf_counter()
        board, _ = import_board(archive)
        t_import = time.perf_counter() - t
        save_board(board, Path(tmp) / "board.json")
        board = load_board(Path(tmp) / "board.json")
        m = Map([Placement(board, (0, 0))])
        t = time.perf_counter()
        table = los_table(m)
        t_table = time.perf_counter() - t
        g = table.ground[:-1]
        every = np.arange(m.size)
        rows, rows_cpu = [], []
        for v in np.linspace(0, m.size - 1, a.rows).astype(int):
            t, c = time.perf_counter(), time.process_time()
            table.lines(int(v), int(g[v]), every, g)
            rows.append(time.perf_counter() - t)
            rows_cpu.append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        los_ground.prepare(m)
        t_prepare = time.perf_counter() - t
        c_prepare = time.process_time() - c
        after = []
        for v in range(0, m.size, max(1, m.size // a.rows)):
            t = time.perf_counter()
            los_ground.ground_row(m, v)
            after.append(time.perf_counter() - t)
        print(json.dumps({"table_class": type(table).__name__, "hexes": m.size,
                          "import": round(t_import, 4), "table": round(t_table, 4),
                          "row": round(statistics.median(rows), 5),
                          "row_cpu": round(statistics.median(rows_cpu), 5),
                          "prepare": round(t_prepare, 3), "prepare_cpu": round(c_prepare, 3),
                          "field_after": round(statistics.median(after), 6)}, indent=1))


if __name__ == "__main__":
    main()
