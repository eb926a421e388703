"""Qt fixtures: a main window per test on the default scenario, settings in a temporary file, the
recovery folder of autosave in a temporary folder, and no modal dialog (QMessageBox is recorded
instead of shown)."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest
from app_testing import settle
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtWidgets import QMessageBox

import engine
from app import rooms
from app.night.document import Document, default_scenario_path
from app.night.window import NightWindow
from app.night.worker import collect_garbage_on_gui_thread


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


@pytest.fixture(autouse=True)
def no_window_outlives_its_test(qapp):
    """After each test every window still shown is hidden and let go (hide, not close: closing
    one with unsaved work would ask a question nobody answers), so no window of an earlier test
    repaints during a later one; they are destroyed here, on the GUI thread, with the garbage
    the test left (Python's collector runs on the GUI thread only, as in the program:
    ``app.night.worker.collect_garbage_on_gui_thread``)."""
    collect_garbage_on_gui_thread()
    yield
    for widget in qapp.topLevelWidgets():
        if widget.isVisible():
            widget.hide()
            widget.deleteLater()
        elif widget.parent() is None:
            widget.deleteLater()            # a window never shown: Qt deletes it, not Python's GC
    qapp.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


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
