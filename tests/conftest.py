"""The house every test lives in: the helpers of tests/ importable, a home of its own for every
test (HOME and the XDG folders: no test reads the player's settings or folders), and a temporary
folder of the run's own that must be empty again at the end (a test that leaves anything there
fails the run, naming what it left).

The run's temporary folder: ``tempfile.gettempdir()`` (and TMPDIR, for the programs the tests
start) is an empty folder made for this run, so that what the tests leave is told apart from
what other programs on the machine put in the system's temporary folder; pytest's own
``tmp_path`` folders stay where pytest keeps them (the system's temporary folder)."""
from __future__ import annotations

import os
import pathlib
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parent))

HOME_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")
_run: dict = {}                     # the run's own folders, made in pytest_configure


def _home_variables(home: pathlib.Path) -> dict[str, str]:
    return {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CACHE_HOME": str(home / ".cache")}


def pytest_configure(config):
    """Before any test module is imported (some make their QApplication at import): the run's
    home, runtime and temporary folders.  pytest's own temporary root stays the system's.  A
    pytest-xdist worker keeps the controller's (it inherits them): the controller checks the
    temporary folder once every worker is done."""
    if hasattr(config, "workerinput"):
        return
    system_temp = os.environ.setdefault("PYTEST_DEBUG_TEMPROOT", tempfile.gettempdir())
    root = pathlib.Path(tempfile.mkdtemp(prefix="starshell-tests-", dir=system_temp))
    temp, home, runtime = root / "tmp", root / "home", root / "runtime"
    temp.mkdir()
    home.mkdir()
    runtime.mkdir(mode=0o700)
    _run.update(root=root, temp=temp, saved={k: os.environ.get(k) for k in (
        *HOME_VARIABLES, "TMPDIR", "XDG_RUNTIME_DIR")}, tempdir=tempfile.tempdir)
    os.environ.update(_home_variables(home), TMPDIR=str(temp), XDG_RUNTIME_DIR=str(runtime))
    tempfile.tempdir = str(temp)


def left_in_temp() -> list[str]:
    """What is in the run's temporary folder now (it was empty at the start)."""
    return sorted(os.listdir(_run["temp"]))


def pytest_sessionfinish(session, exitstatus):
    """The run fails if the tests left anything in the temporary folder; it is removed anyway."""
    if not _run:
        return
    left = left_in_temp()
    if left:
        shown = ", ".join(left[:20]) + (f" and {len(left) - 20} more" if len(left) > 20 else "")
        message = f"the tests left {len(left)} item(s) in the temporary folder: {shown}"
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write("\n")
            reporter.write_line(f"ERROR: {message}", red=True, bold=True)
        else:
            print(f"ERROR: {message}", file=sys.stderr)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    if not _run:
        return
    tempfile.tempdir = _run["tempdir"]
    for key, value in _run["saved"].items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    shutil.rmtree(_run["root"], ignore_errors=True)
    _run.clear()


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch) -> pathlib.Path:
    """Every test has its own HOME and XDG config, data and cache folders (under a pytest
    temporary folder, not the test's ``tmp_path``, whose listing some tests check)."""
    home = tmp_path_factory.mktemp("home")
    for key, value in _home_variables(home).items():
        monkeypatch.setenv(key, value)
    return home
