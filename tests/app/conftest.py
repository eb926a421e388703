"""Qt fixtures: a main window per test on the default scenario, settings in a temporary file, the
recovery folder of autosave in a temporary folder, and no modal dialog (QMessageBox is recorded
instead of shown).  Qt's own settings and standard folders are the test's (QStandardPaths' test
mode, QSettings' user folder in the test's home, set before any QApplication exists), and a
window still shown, a timer still running or a thread still alive after a test fails that test,
naming them."""
from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest
import shiboken6
from app_testing import settle
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox

import engine
from app import rooms
from app.jobs import THREAD_NAME, runner
from app.night.document import Document, default_scenario_path
from app.night.window import NightWindow

QStandardPaths.setTestModeEnabled(True)    # ~/.qttest/...: the test's own home (tests/conftest.py)

# The program's one job runner's thread (app.jobs), alive as long as the program: not a thread a
# test left.
ENGINE_THREAD = THREAD_NAME


@pytest.fixture(autouse=True)
def qt_settings_at_home(own_home):
    """QSettings() without a file writes in the test's home: Qt keeps the folder it first
    computed, so it is set again for every test."""
    folder = str(own_home / ".config")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)
    return folder


@pytest.fixture(autouse=True)
def recovery_dir(tmp_path, monkeypatch):
    """Autosave writes here (``STARSHELL_RECOVERY_DIR``): no test touches the player's own."""
    folder = tmp_path / "recovery"
    monkeypatch.setenv("STARSHELL_RECOVERY_DIR", str(folder))
    return folder


@pytest.fixture
def messages(monkeypatch):
    """Every message box the program would show: (kind, title, text); none is shown."""
    shown = []

    def record(kind, answer):
        def box(parent, title, text, *args, **kwargs):
            shown.append((kind, title, text))
            return answer
        return staticmethod(box)

    monkeypatch.setattr(QMessageBox, "warning", record("warning", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "critical", record("critical", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question",
                        record("question", QMessageBox.StandardButton.Discard))
    return shown


def _timers(qapp) -> list:
    """The running timers reachable from the application and its top-level widgets."""
    found = qapp.findChildren(QTimer)
    for widget in qapp.topLevelWidgets():
        found += widget.findChildren(QTimer)
    return [t for t in found if shiboken6.isValid(t) and t.isActive()]


def _name(obj) -> str:
    label = obj.objectName() or getattr(obj, "windowTitle", lambda: "")()
    return f"{type(obj).__name__}({label!r})" if label else type(obj).__name__


def _timer_name(timer) -> str:
    owner = timer.parent()
    label = f"{timer.objectName()!r}, " if timer.objectName() else ""
    return f"QTimer({label}{timer.interval()} ms) of {_name(owner) if owner is not None else 'nothing'}"


def leftovers(qapp, timers_before: set, threads_before: set) -> list[str]:
    """The windows still shown, timers still running and non-daemon threads still alive that
    were not there before the test (the windows given to qtbot are closed and deleted first)."""
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    windows = [w for w in qapp.topLevelWidgets() if w.isVisible()]
    timers = [t for t in _timers(qapp) if id(t) not in timers_before]
    threads = [t for t in threading.enumerate() if t.ident not in threads_before and not t.daemon
               and t.is_alive() and not t.name.startswith(ENGINE_THREAD)]
    return ([f"window {_name(w)}" for w in windows] + [_timer_name(t) for t in timers]
            + [f"thread {t.name!r}" for t in threads])


@pytest.fixture(autouse=True)
def no_window_outlives_its_test(qapp):
    """A window still shown, a timer still running or a thread still alive after the test (the
    widgets given to qtbot closed) fails the test, naming them.  Then every window still shown
    is hidden and let go (hide, not close: closing one with unsaved work would ask a question
    nobody answers), so no window of an earlier test repaints during a later one; they are
    destroyed here, on the GUI thread, with the garbage the test left (Python's collector runs
    on the GUI thread only, as in the program: ``app.jobs``)."""
    runner()
    timers_before = {id(t) for t in _timers(qapp)}
    threads_before = {t.ident for t in threading.enumerate()}
    yield
    left = leftovers(qapp, timers_before, threads_before)
    for widget in qapp.topLevelWidgets():
        if widget.isVisible():
            widget.hide()
            widget.deleteLater()
        elif widget.parent() is None:
            widget.deleteLater()            # a window never shown: Qt deletes it, not Python's GC
    qapp.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    if left:
        pytest.fail("the test left " + ", ".join(left), pytrace=False)


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    """Leaving the Qt tests (the next test is the engine's, or none): their windows are gone and
    collected, so Python's automatic collection is back on for the tests without Qt."""
    if nextitem is None or Path(nextitem.path).parent != Path(__file__).parent:
        gc.collect()
        gc.enable()


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot, settings, messages):
    document = Document(engine.load_scenario(default_scenario_path()))
    w = NightWindow(document, settings, open_other=rooms.open_window)
    qtbot.addWidget(w)
    w.resize(1400, 800)
    w.show()
    qtbot.waitExposed(w)
    settle(qtbot, document)
    w.view.fit_map()
    return w


@pytest.fixture
def window_on(qtbot, settings, messages):
    """A factory: a main window on a scenario (a path, or a Scenario), settled and fitted."""
    def make(scenario, dice=None):
        s = engine.load_scenario(scenario) if not isinstance(scenario, engine.Scenario) else scenario
        path = None if isinstance(scenario, engine.Scenario) else str(scenario)
        w = NightWindow(Document(s, path, dice=dice), settings)
        qtbot.addWidget(w)
        w.resize(1400, 800)
        w.show()
        qtbot.waitExposed(w)
        settle(qtbot, w.document)
        w.view.fit_map()
        return w
    return make
