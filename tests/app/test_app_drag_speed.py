"""A drag across the 2 x 2-board benchmark map (80 units, lights, Gunflashes) runs step by step:
mouse move, engine answers, overlays and repaint.  Speed is measured by ``bench/drag.py``, not
here (a timed test would fail on a busy machine); this checks that the measured path works."""
from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_drag_steps_on_the_benchmark_map_each_reach_the_screen(qapp):
    sys.path.insert(0, str(BENCH))
    try:
        import drag
        figures = drag.measure(steps=12)
    finally:
        sys.path.remove(str(BENCH))
    assert figures["steps"] >= 6                  # steps whose answers reached the screen
    assert figures["to_hex"] != figures["from_hex"]  # the unit went where it was dropped...
    assert figures["undo_steps"] == 1                # ... as one undo step
