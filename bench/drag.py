"""Benchmark: one step of a drag on the 2 x 2-board benchmark map.

    python bench/drag.py [--steps 40] [--size 1400x800]

Opens the main window (offscreen) on ``mapgen.busy_scenario`` (80 units, lights, Gunflashes),
selects a unit and drags it with real mouse events across the map, one hex per step.  For each
step it measures, in milliseconds:

- handler: the mouse move on the window's thread (the hand moves the counter, the Document
  shows the new position, the counters are rebuilt);
- engine: the engine's answers for that position (lights, the viewer's field, its verdicts on
  the 40 enemy units), on the job runner's thread (app/jobs.py);
- overlays: the scene turning those answers into paths (fields, rings, circles) and the panels
  showing them;
- paint: the window repainting what changed (the events the step posted: the view's changed
  region, the panels), as the app does after a mouse move;
- total: the sum, the time from the mouse move to the new picture (the Document's debounce,
  a single-shot timer of one frame that condenses a burst of moves, is not counted);
- full_repaint: then one repaint of the whole view, for comparison (not in the total);
- total_cpu: the processor time of the window's thread over the step (the engine's thread not
  counted): on a machine shared with other jobs the clock times swell, this much less.

The first step of a drag after a zoom or a scroll also numbers the view's pixels by hex for
the field's image (``app/night/scene/field_image.py``, about 0.1 s); it is in the 90th percentile
of a short drag, not in the median.

Prints JSON: the median and the 90th percentile of each, for two drags in one run: right
after the window opens (``while_table_builds``: the map's LOS table is being built in the
background, as in the app) and after ``api.prepare`` (``after_prepare``: fields read from it).
Target: total median <= 8 ms offscreen.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def measure(steps: int = 40, size=(1400, 800), prepared: bool = False) -> dict:
    from mapgen import busy_scenario, random_map
    from PySide6.QtCore import QPoint, QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from app.hex_geometry import scene_center
    from app.night import answers as answers_module
    from app.night import document as document_module
    from app.night.document import Document
    from app.night.window import NightWindow as MainWindow
    from engine import api

    app = QApplication.instance() or QApplication([])
    _, m = random_map()
    s = busy_scenario(m)
    unit = s.units[1]
    if prepared:
        api.prepare(s)
    settings = QSettings(str(Path(os.environ.get("TMPDIR", "/tmp")) / "starshell-bench.ini"),
                         QSettings.Format.IniFormat)
    window = MainWindow(Document(s), settings)
    window.resize(*size)
    window.show()
    QTest.qWaitForWindowExposed(window)
    doc, view = window.document, window.view
    doc.select(unit.id)
    doc.settle()
    view.fit_map()
    app.processEvents()

    engine_ms: list[float] = []
    real_ask = answers_module.ask_engine

    def timed_ask(*args):
        t = time.perf_counter()
        out = real_ask(*args)
        engine_ms.append((time.perf_counter() - t) * 1000)
        return out
    document_module.ask_engine = timed_ask

    figures = {"handler": [], "engine": [], "overlays": [], "paint": [], "total": [],
               "full_repaint": [], "total_cpu": []}
    vp = view.viewport()
    start = view.mapFromScene(scene_center(m, m.index(unit.hex)))
    item = window.scene.counters.item("unit", unit.id)
    start = item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect()).center().toPoint()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(vp, start + QPoint(8, 8))
    step = view.mapFromScene(scene_center(m, 1)) - view.mapFromScene(scene_center(m, 0))   # one hex south
    across = QPoint(round(abs(step.y()) * 0.87), 0)
    at = start
    try:
        for k in range(steps):
            at = at + (across if (k // 8) % 2 == 0 else -across) + (step if k % 8 == 7 else QPoint())
            c0, t0 = time.thread_time(), time.perf_counter()
            QTest.mouseMove(vp, at)
            t1 = time.perf_counter()
            before = len(engine_ms)
            doc.settle()                     # ask now (no debounce wait); the scene redraws
            answered = doc.answers
            t2 = time.perf_counter()
            app.sendPostedEvents()           # the window repaints what changed, as in the app
            t3, c3 = time.perf_counter(), time.thread_time()
            vp.repaint()                     # the whole view, for comparison (not in the total)
            t4 = time.perf_counter()
            if len(engine_ms) == before or answered.scenario is not doc.scenario:
                continue                     # the mouse stayed in the same hex
            eng = engine_ms[-1]
            figures["handler"].append((t1 - t0) * 1000)
            figures["engine"].append(eng)
            figures["overlays"].append((t2 - t1) * 1000 - eng)
            figures["paint"].append((t3 - t2) * 1000)
            figures["total"].append((t3 - t0) * 1000)
            figures["full_repaint"].append((t4 - t3) * 1000)
            figures["total_cpu"].append((c3 - c0) * 1000)
    finally:
        QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
        document_module.ask_engine = real_ask
    out = {"hexes": m.size, "units": len(s.units), "steps": len(figures["total"]),
           "from_hex": unit.hex, "to_hex": doc.scenario.unit(unit.id).hex,
           "undo_steps": doc.undo_stack.count()}
    for name, values in figures.items():
        values = sorted(values)
        out[f"{name}_ms_median"] = round(statistics.median(values), 2)
        out[f"{name}_ms_p90"] = round(values[int(0.9 * (len(values) - 1))], 2)
    doc.undo_stack.setClean()          # no question about unsaved changes
    window.statusBar().clearMessage()  # its timer goes with the message
    window.close()
    window.deleteLater()
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--size", default="1400x800")
    args = p.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    print(json.dumps({"while_table_builds": measure(args.steps, (w, h)),
                      "after_prepare": measure(args.steps, (w, h), prepared=True)}, indent=1))


if __name__ == "__main__":
    main()
