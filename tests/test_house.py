"""The house rules of engine/ and app/, checked on their source with ``ast`` (tests/ is not
checked): no import cycle between modules, no private name imported from another module, no
module over 500 lines and no function over 80 unless the module's docstring says why on a line
starting with "Long:"; and the import-linter contracts of pyproject.toml break when a forbidden
import is added."""
from __future__ import annotations

import ast
import functools
import os
import shutil
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "app")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


@functools.lru_cache(maxsize=None)
def modules() -> dict[str, tuple[Path, ast.Module]]:
    """Every module of engine/ and app/ by its dotted name (a package by its own name), parsed."""
    found = {}
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return found


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` names, its relative dots resolved."""
    if not node.level:
        return node.module or ""
    package = _package_of(name, path).split(".")
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every import anywhere in module
    ``name`` (inside functions too), kept to the modules of engine/ and app/."""
    path, tree = modules()[name]
    known = modules()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target:
                    found.append((target, None, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, path, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:                        # ``from pkg import module``
                    found.append((sub, None, node.lineno))
                elif base in known:
                    found.append((base, alias.name, node.lineno))
    return found


def import_graph() -> dict[str, set[str]]:
    return {name: {target for target, _, _ in imports_of(name) if target != name}
            for name in modules()}


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of more than one module (iterative: no recursion limit)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(part)
    return found


def _chain(graph, part) -> str:
    start = min(part)
    back, queue = {start: None}, deque([start])
    while queue:                                   # breadth first: the shortest way back
        here = queue.popleft()
        for nxt in sorted(graph[here] & part):
            if nxt == start:
                chain = [here]
                while back[chain[-1]] is not None:
                    chain.append(back[chain[-1]])
                return " -> ".join(chain[::-1] + [start])
            if nxt not in back:
                back[nxt] = here
                queue.append(nxt)
    return " -> ".join(sorted(part))


def test_no_import_cycle_between_modules():
    """A module never imports, even inside a function, a module that imports it back (directly
    or through others): each cycle is reported as its chain of modules."""
    graph = import_graph()
    cycles = [_chain(graph, part) for part in strongly_connected(graph)]
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def test_no_private_name_is_imported_from_another_module():
    """``from a import _x`` takes what module a keeps to itself; a private submodule taken from
    its package (``from . import _helpers``) is a module, not a name, and is allowed."""
    offenders = []
    for name in modules():
        path = modules()[name][0]
        for target, taken, line in imports_of(name):
            if (taken and taken.startswith("_") and not taken.startswith("__")
                    and target != name):
                offenders.append(f"{path.relative_to(ROOT)}:{line}: from {target} import {taken}")
    assert offenders == [], "private names imported:\n" + "\n".join(offenders)


def _says_why_it_is_long(tree: ast.Module) -> bool:
    doc = ast.get_docstring(tree) or ""
    return any(line.strip().startswith("Long:") for line in doc.splitlines())


def test_no_module_or_function_too_long_without_a_reason():
    """At most 500 lines a module and 80 a function (its decorators to its last line), unless
    the module's docstring has a line "Long: why it stays whole"."""
    offenders = []
    for name, (path, tree) in modules().items():
        if _says_why_it_is_long(tree):
            continue
        where = path.relative_to(ROOT)
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            offenders.append(f"{where}: {lines} lines")
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = node.end_lineno - start + 1
                if length > MAX_FUNCTION_LINES:
                    offenders.append(f"{where}:{node.lineno}: {node.name}() {length} lines")
    assert offenders == [], "too long, and no 'Long:' line says why:\n" + "\n".join(offenders)


def one_letter_parameters(tree: ast.Module) -> list[str]:
    """``line: name(p)`` of every public function, and public method of a public class
    (``__init__`` included), whose signature names a parameter by one letter."""
    found = []

    def look(body, owner=""):
        for node in body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                look(node.body, node.name + ".")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    not node.name.startswith("_") or node.name == "__init__"):
                a = node.args
                short = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs if len(x.arg) == 1]
                if short:
                    found.append(f"{node.lineno}: {owner}{node.name}({', '.join(short)})")
    look(tree.body)
    return found


def test_no_one_letter_parameter_in_a_public_signature():
    """A public function's parameters say what they are (private maths helpers may keep x, y)."""
    offenders = [f"{path.relative_to(ROOT)}:{line}" for path, tree in modules().values()
                 for line in one_letter_parameters(tree)]
    assert offenders == [], "one-letter parameters in public signatures:\n" + "\n".join(offenders)
    made_up = ast.parse("def shown(m, width): ...\ndef _maths(x): ...\n"
                        "class Frame:\n    def at(self, x, y=0): ...\n    def _f(self, q): ...\n")
    assert one_letter_parameters(made_up) == ["1: shown(m)", "4: Frame.at(x, y)"]


def test_the_checks_find_what_they_look_for(tmp_path):
    """The three checks above on a small made-up package: a cycle through a function's import
    and a relative import, a private name, a long function."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from pkg import b\n")
    (pkg / "b.py").write_text("from . import c\n")
    (pkg / "c.py").write_text("import pkg.a\n\n\ndef long():\n" + "    x = 1\n" * 90)
    (pkg / "d.py").write_text('"""Long: kept whole on purpose."""\nfrom .c import _hidden\n\n\n'
                              'def long():\n'
                              + "    x = 1\n" * 90)
    saved = (ROOT, PACKAGES)
    globals().update(ROOT=tmp_path, PACKAGES=("pkg",))
    modules.cache_clear()
    try:
        graph = import_graph()
        assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.c"}
        cycles = [_chain(graph, part) for part in strongly_connected(graph)]
        assert cycles == ["pkg.a -> pkg.b -> pkg.c -> pkg.a"]
        assert ("pkg.c", "_hidden", 2) in imports_of("pkg.d")
        try:
            test_no_module_or_function_too_long_without_a_reason()
        except AssertionError as e:
            assert "c.py:4: long() 91 lines" in str(e) and "d.py" not in str(e)
        else:
            raise AssertionError("the long function was not found")
    finally:
        globals().update(ROOT=saved[0], PACKAGES=saved[1])
        modules.cache_clear()


def _lint_imports() -> str:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or \
        shutil.which("lint-imports")
    assert found, "lint-imports (import-linter) is not installed"
    return found


BREAKS = [  # (module, the line added, the contract it breaks)
    ("engine/hexes.py", "import PySide6", "The engine never imports Qt"),
    ("engine/maps.py", "from engine.night import scenario", "Engine layers"),
    ("engine/night/light.py", "from engine.napoleonic import fire", "Engine layers"),
    ("engine/new_module.py", "X = 1", "Engine layers"),
    ("app/night/map/view.py", "from engine.night import scenario", "The app reaches the engine only"),
    ("app/night/scene/grid.py", "from app.night.map import view", "Night room layers"),
    ("app/night/new_module.py", "X = 1", "Night room layers"),
    ("app/style.py", "from app.night import window", "App layers"),
    ("app/napoleonic/scene.py", "from app.tabletop import scene", "App layers"),
    ("engine/hex_lines.py", "from engine import maps", "Engine layers"),
]


@pytest.mark.parametrize("module, line, contract", BREAKS, ids=[b[0] + ": " + b[1] for b in BREAKS])
def test_a_forbidden_import_breaks_the_import_contracts(tmp_path, module, line, contract):
    """A copy of the source with one forbidden import added (Qt in the engine, a room in the
    core, a room in another room, an engine module the app may not see, a room in the app's
    shared parts, a module no layer lists): lint-imports (pyproject.toml's contracts) fails on
    it, naming the contract."""
    copy = tmp_path / "house"
    copy.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for top in PACKAGES:
        shutil.copytree(ROOT / top, copy / top, ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    victim = copy / module
    before = victim.read_text(encoding="utf-8") if victim.exists() else ""
    victim.write_text(before + f"\n{line}  # noqa\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(copy)}
    out = subprocess.run([_lint_imports(), "--no-cache"], capture_output=True, text=True,
                         cwd=copy, env=env, timeout=120)
    assert out.returncode != 0, out.stdout + out.stderr
    broken = [row for row in out.stdout.splitlines() if " BROKEN" in row]
    assert any(row.startswith(contract) for row in broken), out.stdout + out.stderr
