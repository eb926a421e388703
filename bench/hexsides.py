"""Benchmark: what walls and hedges cost a field (rules.md 7), on the 2 x 2-board benchmark map.

    python bench/hexsides.py [--runs 7] [--seed 1]

Builds ``mapgen.random_map`` twice, with its walls and hedges and without them (the same hexes),
and times ``LosTable.lines`` from the ground location of every seventh hex to every hex (a lazy
row: what a field costs before the map's LOS table is built), once the line geometry is known.
Each viewer's row is timed on both maps back to back (which map goes first alternates), in
processor time of this thread (steadier than the clock on a busy machine); ``--runs`` times.
Prints JSON: the medians and their ratio (target <= 1.10).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def main() -> None:
    import numpy as np
    from mapgen import random_map

    from engine.los import LosTable
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    tables = {}
    for name, sides in (("without", False), ("with", True)):
        _, m = random_map(a.seed, hexsides=sides)
        tables[name] = LosTable(m)
        tables[name].prepare()
    m = tables["with"].map
    targets = np.arange(m.size)
    viewers = range(0, m.size, 7)

    def rows() -> dict:
        """Every viewer's row on both maps, back to back (in turns: neither map always
        first), so that both meet the same load of a busy machine."""
        spent = dict.fromkeys(tables, 0.0)
        for k, v in enumerate(viewers):
            for name in (names if k % 2 else names[::-1]):
                table = tables[name]
                c0 = time.thread_time()
                table.lines(v, int(table.ground[v]), targets, table.ground[:-1])
                spent[name] += time.thread_time() - c0
        return spent
    names = list(tables)
    rows()                                               # warm up
    times = {name: [] for name in tables}
    for _ in range(a.runs):
        for name, took in rows().items():
            times[name].append(took)
    med = {name: statistics.median(v) for name, v in times.items()}
    print(json.dumps({"hexes": m.size, "rows": len(viewers),
                      "hexsides": int(np.count_nonzero(m.hexside)),
                      "rows_s_without_hexsides": round(med["without"], 4),
                      "rows_s_with_hexsides": round(med["with"], 4),
                      "ratio": round(med["with"] / med["without"], 3)}, indent=1))


if __name__ == "__main__":
    main()
