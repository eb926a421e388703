"""One way to run background work: no module of ``app`` or ``engine`` starts a thread but the
app's job runner (``app/jobs.py``).  The source is scanned (its syntax, not its words: a
docstring naming QThread is no use of it); the scanner is shown to catch a planted use."""
from __future__ import annotations

import ast
import shutil
from pathlib import Path

from support import ROOT

RUNNER = ("app/jobs.py",)       # the job runner's module(s): the only ones allowed
# names whose use starts a thread, or a pool of them
THREAD_NAMES = {"QThread", "QThreadPool", "QRunnable", "ThreadPoolExecutor",
                "ProcessPoolExecutor", "start_new_thread"}
THREAD_MODULES = ("concurrent.futures", "_thread", "multiprocessing")
THREADING_STARTERS = {"Thread", "Timer"}            # threading's


def _uses(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names
                      if a.name.startswith(THREAD_MODULES)]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(THREAD_MODULES) or (
                    node.module == "concurrent" and any(a.name == "futures" for a in node.names)):
                found.append((node.lineno, f"from {node.module} import ..."))
            elif node.module == "threading":
                found += [(node.lineno, f"threading.{a.name}") for a in node.names
                          if a.name in THREADING_STARTERS]
        elif isinstance(node, ast.Name) and node.id in THREAD_NAMES:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            if node.attr in THREAD_NAMES:
                found.append((node.lineno, node.attr))
            elif (node.attr in THREADING_STARTERS and isinstance(node.value, ast.Name)
                  and node.value.id == "threading"):
                found.append((node.lineno, f"threading.{node.attr}"))
    return sorted(set(found))


def scan(root: Path) -> list[str]:
    """Every use of a thread (or a pool of them) in ``root``'s app/ and engine/ outside the job
    runner: "path:line: what"."""
    found = []
    for package in ("app", "engine"):
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel in RUNNER:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
            found += [f"{rel}:{line}: {what}" for line, what in _uses(tree)]
    return found


def test_no_module_but_the_job_runner_starts_a_thread():
    assert scan(ROOT) == []
    runner = ROOT / RUNNER[0]
    assert runner.exists() and _uses(ast.parse(runner.read_text(encoding="utf-8")))


def test_the_scan_finds_a_thread_planted_anywhere_else(tmp_path):
    """A copy of the job runner's module where it belongs passes; the same code planted in the
    engine, a QThread subclass, a pool of threads and threading.Thread in the app are each
    reported with their file and line."""
    (tmp_path / "app" / "night").mkdir(parents=True)
    (tmp_path / "engine" / "los").mkdir(parents=True)
    shutil.copy(ROOT / RUNNER[0], tmp_path / RUNNER[0])
    assert scan(tmp_path) == []
    shutil.copy(ROOT / RUNNER[0], tmp_path / "engine" / "los" / "builder.py")
    (tmp_path / "app" / "night" / "worker.py").write_text(
        '"""Mentions QThread and threading.Thread in words only."""\n'
        "from PySide6.QtCore import QObject\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "\n"
        "class Worker(QObject):\n"
        "    pass\n")
    (tmp_path / "app" / "night" / "reader.py").write_text(
        "import threading\n"
        "from PySide6 import QtCore\n"
        "\n"
        "def read(job):\n"
        "    threading.Thread(target=job, daemon=True).start()\n"
        "    return QtCore.QThreadPool.globalInstance()\n")
    found = scan(tmp_path)
    assert "app/night/worker.py:3: from concurrent.futures import ..." in found
    assert "app/night/reader.py:5: threading.Thread" in found
    assert "app/night/reader.py:6: QThreadPool" in found
    assert not any(f.startswith("app/night/worker.py:1") for f in found)   # words only
    planted = [f for f in found if f.startswith("engine/los/builder.py:")]
    assert any(f.endswith(": threading.Thread") for f in planted)
    assert any(f.endswith(": QThread") for f in planted)
