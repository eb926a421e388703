"""Benchmark: importing a VASL 5 board (a board image in VASL's colours).

    python bench/vasl5_import.py [--runs 5] [--seed 1] [ARCHIVE...]

Paints a random geomorphic board with the tests' generator (tests/vasl5_synth.py: woods, grain,
brush, orchards, rubble, buildings, hills, 30 hexsides), writes it as a VASL 5 archive, and prints
JSON figures: the median seconds of ``import_board`` (reading the archive, decoding the picture,
the per-hex votes, buildings and hexsides), over several runs.  Archives named on the command line
(your own VASL boards) are timed as well.  Target: under 2 s for one board.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from engine.importers.vasl import import_board  # noqa: E402


def timed(path, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        import_board(path)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("archives", nargs="*")
    a = ap.parse_args()
    import vasl5_synth
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = vasl5_synth.random_board(a.seed).write(Path(tmp) / "bd97")
        out["synthetic_board"] = round(timed(path, a.runs), 3)
    for archive in a.archives:
        out[Path(archive).name] = round(timed(archive, a.runs), 3)
    out["target"] = 2.0
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
