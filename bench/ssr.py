"""Benchmark: a scenario's terrain SSRs applied to a map's boards (rules.md 11.2).

    python bench/ssr.py [BOARD.json ...] [--rules NAME ...] [--repeat 5]

BOARD.json: imported board files carrying their raster.  Without them, the test suite's
synthetic VASL board (tests/vasl_synth.py: real size, 1800 x 645 pixels) is drawn and imported
three times (boards 2, 4 and 3).  Printed (processor seconds, median of ``--repeat`` runs): the
rules applied to all the boards cold (every board's drawing and hex model changed, no cache:
``cold``), and the same asked again (``kept``: the cache per board content and rules).  Target:
cold under 0.3 s for three boards.  Default rules: a November day of a level-rule scenario:
OrchardOutOfSeason, NoGrain, BrushToOpenGround, Level1ToLevel0, NoStairwells, RoadsToPaths,
SwampToSwampPattern.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from engine.boards import board_raster, load_board  # noqa: E402
from engine.ssr import apply as ssr_apply  # noqa: E402
from engine.ssr import pixels as ssr_pixels  # noqa: E402

RULES = ["OrchardOutOfSeason", "NoGrain", "BrushToOpenGround", "Level1ToLevel0", "NoStairwells",
         "RoadsToPaths", "SwampToSwampPattern"]


def synthetic(folder: Path) -> list[str]:
    from real_boards import synthetic_boards
    return synthetic_boards(folder)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("boards", nargs="*")
    p.add_argument("--rules", nargs="+", default=RULES)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        paths = a.boards or synthetic(Path(tmp))
        boards = [load_board(x) for x in paths]
        for b in boards:
            board_raster(b)                     # the raster files read once (kept)
        cold, kept = [], []
        for _ in range(a.repeat):
            ssr_apply._cached.cache_clear()
            ssr_pixels._pixel_hex.cache_clear()      # the pixels' hexes worked out again
            t0 = time.process_time()
            out = [ssr_apply.board_with_rules(b, a.rules) for b in boards]
            cold.append(time.process_time() - t0)
            t0 = time.process_time()
            for b in boards:
                ssr_apply.board_with_rules(b, a.rules)
            kept.append(time.process_time() - t0)
    print(json.dumps({"boards": len(boards), "rules": a.rules,
                      "cold_s": round(statistics.median(cold), 4),
                      "cold_max_s": round(max(cold), 4),
                      "kept_s": round(statistics.median(kept), 5),
                      "outcome": out[0].outcome.as_dict()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
