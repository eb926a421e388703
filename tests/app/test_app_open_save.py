"""Opening and saving in the main window: where Save's dialog starts, a bundled example kept read-only,
"Save it first?" never saving on Enter, nothing of one file carried into the next."""
from __future__ import annotations

from app_testing import settle
from PySide6.QtCore import Qt

import engine
from engine.boards import assets_dir


def test_save_of_a_worked_example_starts_in_a_folder_that_exists(window, qtbot, tmp_path,
                                                                 monkeypatch):
    """A new user without a Documents folder opens W-15, moves Y and presses Ctrl+S:
    the dialog opened in the program's own folder (the current one), because the documents
    folder it was given does not exist. It now starts in the home folder."""
    import os

    from PySide6.QtWidgets import QFileDialog
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert window.open_path(str(assets_dir() / "scenarios" / "W-15.json"))
    window.document.move_unit("Y", "2Y6")
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    window.activateWindow()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1
    folder = os.path.dirname(asked[0])
    assert os.path.isdir(folder) and os.path.basename(asked[0]) == "W-15.json"
    assert not folder.startswith(str(assets_dir()))
    settle(qtbot, window.document)


SCENARIOS = assets_dir() / "scenarios"


def test_a_bundled_example_opens_read_only_save_asks_for_a_name_elsewhere(window, qtbot,
                                                                          tmp_path, monkeypatch):
    """File > Open worked example: W-10.  Save does not write over the bundled file: it asks
    for a name, starting in the documents folder under the example's name."""
    from PySide6.QtWidgets import QFileDialog
    doc = window.document
    menu = window.examples_menu
    menu.aboutToShow.emit()
    entry = next(a for a in menu.actions() if a.text().startswith("W-10"))
    entry.trigger()
    bundled = SCENARIOS / "W-10.json"
    assert doc.path and doc.path.endswith("W-10.json")
    original = bundled.read_bytes()
    doc.move_unit("L1", "2T7")
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return str(tmp_path / "mine.json"), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    assert window.save()
    assert len(asked) == 1
    assert asked[0].endswith("W-10.json") and not asked[0].startswith(str(assets_dir()))
    assert bundled.read_bytes() == original
    assert doc.path == str(tmp_path / "mine.json")
    assert engine.load_scenario(tmp_path / "mine.json").unit("L1").hex == "2T7"
    settle(qtbot, doc)


def test_save_it_first_does_not_save_on_enter(window, qtbot, tmp_path, monkeypatch):
    """The default button of "Save it first?" is Cancel: Enter neither saves nor drops."""
    from PySide6.QtWidgets import QMessageBox
    asked = []

    def question(parent, title, text, buttons=None, default=None, **kwargs):
        asked.append(kwargs.get("defaultButton", default))
        return kwargs.get("defaultButton", default) or QMessageBox.StandardButton.NoButton
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    doc = window.document
    other = tmp_path / "other.json"
    engine.save_scenario(doc.scenario.replace(title="Other"), other)
    doc.move_unit("L1", "2T7")
    assert not window.open_path(str(other))
    assert asked == [QMessageBox.StandardButton.Cancel]
    assert doc.scenario.unit("L1").hex == "2T7" and doc.scenario.title != "Other"
    settle(qtbot, doc)


def test_the_selection_is_not_carried_into_the_next_file(window, qtbot, tmp_path):
    doc = window.document
    other = tmp_path / "same-units.json"
    engine.save_scenario(doc.scenario.replace(title="Same units"), other)
    doc.select("G1")
    doc.set_view_side("allied")
    assert window.open_path(str(other))
    assert doc.viewer is None and doc.marker is None and doc.view_side is None
    settle(qtbot, doc)
    assert doc.answers.field is None


def test_file_new_offers_board_files_not_the_positions_folder(window_on, qtbot, tmp_path,
                                                              monkeypatch):
    """File > New asks for a board file: it starts among the bundled boards for a position on
    bundled boards (the scenarios folder it opened in holds none), and beside the map's own
    board file when the position names one."""
    import json
    import shutil

    from PySide6.QtWidgets import QFileDialog
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(dialog))
    w = window_on(SCENARIOS / "W-12.json")
    w.new_dialog()
    assert asked == [str((assets_dir() / "boards").resolve())]
    boards = tmp_path / "my-boards"
    boards.mkdir()
    shutil.copy(assets_dir() / "boards" / "2.json", boards / "b2.json")
    data = json.loads((SCENARIOS / "W-12.json").read_text())
    data["map"][0]["board"] = "my-boards/b2.json"
    (tmp_path / "pos.json").write_text(json.dumps(data))
    w2 = window_on(tmp_path / "pos.json")
    w2.new_dialog()
    assert asked[1] == str(boards.resolve())
