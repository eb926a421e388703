"""The engine never imports Qt (DEVELOPERS.md): checked on the source and at run time; and every
package of the source is installed."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"
QT_NAMES = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "PySide2")


def test_engine_source_imports_no_qt():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in QT_NAMES]
    assert offenders == []


def test_engine_runs_without_loading_qt():
    code = ("import sys, engine, engine.cli, engine.night.verdicts, engine.night.light, engine.los;"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (QT_NAMES,))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ENGINE.parent, check=True)
    assert out.stdout.strip() == "[]"


def test_every_package_of_the_source_is_installed():
    """`pip install .` (the README's first command) installs the packages pyproject.toml
    lists: each folder of app/ and engine/ with an __init__.py must be among them (one
    was not once, and the installed program failed to start outside the source folder)."""
    tomllib = pytest.importorskip("tomllib")      # Python 3.11 and newer
    root = Path(__file__).resolve().parents[1]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    found = {".".join(init.parent.relative_to(root).parts)
             for top in ("app", "engine") for init in (root / top).rglob("__init__.py")}
    assert found and found <= listed, sorted(found - listed)
