"""Each room's window opens the files of every room (a night position in a main window, a table
or a fire position in its own window), and its PNG export starts beside its file."""
from __future__ import annotations

from app_testing import settle

from engine.boards import assets_dir


def test_the_fire_windows_open_takes_a_night_position_into_a_main_window(qtbot, messages,
                                                                        monkeypatch):
    """`python -m app assets/fire/sample.json` opens the fire room alone: there is no main
    window to go back to. Its File > Open on W-01 opened nothing ("open it from the main
    window"); now W-01 opens in a night main window beside it, and a fire position still opens in
    a fire window."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.napoleonic import FireWindow
    from app.night.window import NightWindow
    from app.rooms import open_window  # as ``python -m app`` opens a file
    fire = assets_dir() / "fire"
    w = open_window(str(fire / "sample.json"))
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    open_action = next(a for a in w.findChildren(QAction) if a.text() == "&Open...")  # File > Open
    w01 = str(assets_dir() / "scenarios" / "W-01.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (w01, "")))
    open_action.trigger()
    assert messages == []
    night = w.room_windows[-1]
    qtbot.addWidget(night)
    assert isinstance(night, NightWindow) and night.isVisible()
    assert night.document.path == w01 and night.document.scenario.markers[0].hex == "2Y4"
    n04 = str(fire / "N-04.json")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (n04, "")))
    open_action.trigger()
    other = w.room_windows[-1]
    qtbot.addWidget(other)
    assert isinstance(other, FireWindow) and other.path == n04
    settle(qtbot, night.document)


def test_the_tabletop_window_opens_files_of_every_room(qtbot, messages, monkeypatch):
    """`python -m app assets/tables/S-01.json` opens the tabletop room alone. It had no File >
    Open; now a night position opens in a main window beside it, another table in a tabletop
    window, and a refused file shows the engine's message naming it."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.night.window import NightWindow
    from app.rooms import open_window  # as ``python -m app`` opens a file
    from app.tabletop.window import TableWindow
    w = open_window(str(assets_dir() / "tables" / "S-01.json"))
    qtbot.addWidget(w)
    open_action = next(a for a in w.findChildren(QAction) if a.text() == "&Open...")

    def choose(path):
        monkeypatch.setattr(QFileDialog, "getOpenFileName",
                            staticmethod(lambda *a, **k: (str(path), "")))
        open_action.trigger()

    choose(assets_dir() / "scenarios" / "W-01.json")
    night = w.room_windows[-1]
    qtbot.addWidget(night)
    assert isinstance(night, NightWindow) and night.document.scenario.markers[0].hex == "2Y4"
    settle(qtbot, night.document)
    choose(assets_dir() / "tables" / "S-06.json")
    table = w.room_windows[-1]
    qtbot.addWidget(table)
    assert isinstance(table, TableWindow) and table.document.path.endswith("S-06.json")
    choose(assets_dir() / "boards" / "2.json")          # a board file: a night map of its own
    board = w.room_windows[-1]
    qtbot.addWidget(board)
    assert len(w.room_windows) == 3 and isinstance(board, NightWindow)
    assert board.document.scenario.map.board_ids == ["2"] and not board.document.scenario.units
    settle(qtbot, board.document)


def test_export_png_of_a_table_and_of_a_fire_position_starts_beside_its_file(
        qtbot, messages, tmp_path, monkeypatch):
    """A table copied to a folder of one's own, Ctrl+E: the dialog opened in the current folder
    (the program's) with no name, and the fire room's offered "fire.png" there too. Both now
    offer NAME.png beside the file."""
    import shutil

    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    from app.napoleonic import open_window as open_fire
    from app.tabletop import open_window as open_table
    asked = []

    def dialog(parent, caption, start, *args, **kwargs):
        asked.append(start)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    table = tmp_path / "S-06.json"
    shutil.copy(assets_dir() / "tables" / "S-06.json", table)
    fire = tmp_path / "game" / "sample.json"
    shutil.copytree(assets_dir() / "fire", tmp_path / "game")
    for w in (open_table(str(table)), open_fire(str(fire))):
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        export = next(a for a in w.findChildren(QAction) if "Export" in a.text())   # File menu
        export.trigger()
    assert asked == [str(tmp_path / "S-06.png"), str(tmp_path / "game" / "sample.png")]
