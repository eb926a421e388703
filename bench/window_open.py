"""Benchmark: opening a map of real boards in the window, to its first drawn night field.

    python bench/window_open.py [SCENARIO.json | GAME.vsav] [--select UNIT] [--boards DIR]
                                [--repeat N]

Wall seconds from asking the room to open the file (``app.rooms.open_window``, as the command
line does, a unit selected as ``--select`` does) to the selected unit's night field drawn in
the map (its answers in and the view painted), in a fresh process each time (``--repeat``
runs, the median printed), headless (offscreen).  Also printed: how far the map's LOS table
had got by then (the window never waits for it: ``api.table_progress``).

Without a file: the test suite's synthetic VASL board (tests/vasl_synth.py: real size and
drawing density) imported as boards 2, 4 and 3 and stacked as Hill 621's, with a squad on each
board.  Target (Hill 621's save with its three real boards): <= 2 s.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))


def generated_scenario(folder: Path) -> tuple[str, str]:
    """Three generated real-size drawn boards, stacked as 2, 4, 3, a squad on each: the
    scenario file written in ``folder`` and the unit to select."""
    from real_boards import synthetic_boards

    paths = synthetic_boards(folder)
    units = [{"id": f"U{i}", "side": side, "type": "squad", "hex": f"{Path(p).stem[2:]}{h}"}
             for i, (p, side, h) in enumerate(zip(paths, ("allied", "axis", "allied"),
                                                  ("K5", "P4", "W6")))]
    data = {"format": "starshell-scenario", "version": 1, "title": "three drawn boards",
            "map": [{"board": Path(p).name, "at": [0, i]} for i, p in enumerate(paths)],
            "nvr": 3, "units": units, "markers": []}
    path = folder / "drawn.json"
    path.write_text(json.dumps(data))
    return str(path), "U0"


def _child(path: str, select: str | None, boards: str | None) -> dict:
    """One opening, measured in this process."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app import rooms
    from engine import api
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as settings:
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings)
        options = {"boards": boards} if boards else {}
        # a saved game's summary box (modal) closed as a player would, at once
        from PySide6.QtCore import QTimer
        closer = QTimer()
        closer.setInterval(20)
        closer.timeout.connect(lambda: app.activeModalWidget() and app.activeModalWidget().accept())
        closer.start()
        start = time.perf_counter()
        window = rooms.open_window(path, select=select, recover=False, **options)
        window.resize(1600, 900)
        window.show()
        doc = window.document
        if select is None:                      # a saved game: its first unit
            select = doc.scenario.units[0].id
            doc.select(select)
        deadline = start + 120
        while time.perf_counter() < deadline:
            app.processEvents()
            a = doc.answers
            if a is not None and a.viewer == select and a.field is not None and doc.is_settled:
                break
        window.view.viewport().repaint()        # the field drawn
        wall = time.perf_counter() - start
        progress = api.table_progress(doc.scenario)
        window.close()
    return {"wall": wall, "hexes": doc.scenario.map.size, "viewer": select,
            "table_done_then": None if progress is None else round(progress["done"], 3)}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("file", nargs="?", help="a scenario file or a VASL saved game")
    p.add_argument("--select", default=None, help="the unit whose field is drawn")
    p.add_argument("--boards", default=None, help="a saved game's boards folder")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        print(json.dumps(_child(a.file, a.select, a.boards)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        path, select = (a.file, a.select) if a.file else generated_scenario(Path(tmp))
        runs = []
        for _ in range(a.repeat):
            cmd = [sys.executable, __file__, path, "--child"]
            cmd += ["--select", select] if select else []
            cmd += ["--boards", a.boards] if a.boards else []
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode:
                sys.exit(f"the opening failed:\n{done.stderr}")
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(json.dumps(runs[-1]), flush=True)
    print(json.dumps({"file": Path(path).name if a.file else "generated 2, 4, 3",
                      "open_to_field_wall_median": round(statistics.median(
                          r["wall"] for r in runs), 3), "target": 2.0}))


if __name__ == "__main__":
    main()
