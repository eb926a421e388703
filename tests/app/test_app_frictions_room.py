"""The night room's frictions of a first afternoon with a VASL game: the Waiting dock places the
row the keyboard search highlighted; counters say their names; a VASL board archive opened is
offered for import; the missing-boards dialog speaks a player's words; ..."""
from __future__ import annotations

import numpy as np
import pytest
import vasl5_synth
import vasl_synth as synth
import vsav_synth as vs
from app_testing import hex_pos, settle
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPainter, QScreen
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox, QTabBar

import app.night.vasl.vsav_open as vsav_open
import engine
from app import style
from app.hex_geometry import scene_center
from app.night.document import Document, default_scenario_path
from app.night.scene import counter_art
from app.night.window import NightWindow
from engine import api
from engine.boards import load_board, save_board
from engine.hexes import parse_local
from engine.importers import vasl as vasl_importer


def _open_vsav(window, tmp_path, monkeypatch, pieces, name="g.vsav"):
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / name, [(0, 0, "02"), (1, 0, "34")], pieces)
    assert window.open_path(str(path), confirmed=True)
    return path


def test_the_waiting_row_the_search_highlights_is_the_one_placed(window, qtbot, tmp_path,
                                                                  monkeypatch):
    """Click a row (a Radio), type "4-6" (the list's own search highlights the 4-6-7), click a
    hex: the 4-6-7 is put there, not the Radio."""
    _open_vsav(window, tmp_path, monkeypatch,
               [vs.plain("Radio", "ge/geRadio", (150, 300), nation="ge"),
                vs.squad("4-6-7 1sq", (150, 380)),
                vs.squad("4-4-7 1sq", vs.hex_pixel("K5"), nation="ru")])
    window.show()
    qtbot.waitExposed(window)
    panel, doc = window.waiting, window.document
    names = [panel.list.item(k).text().split("  ")[0] for k in range(panel.list.count())]
    radio = names.index("Radio")
    squad_id = next(w["id"] for w in api.vasl.waiting_units(doc.scenario)
                    if w["name"] == "4-6-7")
    rect = panel.list.visualItemRect(panel.list.item(radio))
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.hand.pieces.armed.type == "observer"
    qtbot.keyClicks(panel.list, "4-6")
    assert panel.list.currentItem().text().startswith("4-6-7")
    assert window.hand.pieces.armed.waiting == squad_id
    settle(qtbot, doc)
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=hex_pos(window.view, "2K6"))
    settle(qtbot, doc)
    assert doc.scenario.unit(squad_id).hex == "2K6"
    assert [u.extra.get("name") for u in doc.scenario.units if u.hex == "2K6"] == ["4-6-7"]


def _texts_drawn(window, monkeypatch) -> list[str]:
    """The words the counters draw, each at its size in the view."""
    drawn = []
    real = counter_art.fit_text

    def record(painter, rect, text, *args, **kwargs):
        drawn.append(text)
        return real(painter, rect, text, *args, **kwargs)
    monkeypatch.setattr(counter_art, "fit_text", record)
    for item in window.scene.counters.items:        # each at the size the view shows it
        image = QImage(200, 200, QImage.Format.Format_ARGB32)
        painter = QPainter(image)
        item.paint(painter, None)
        painter.end()
    monkeypatch.setattr(counter_art, "fit_text", real)
    return drawn


def test_counters_show_their_names_and_the_edit_panel_edits_them(window, qtbot, tmp_path,
                                                                 monkeypatch):
    """At the zoom the window opens with, a counter says its name ("4-6-7", "9-2", "T-34/85"),
    its id only when it has none; the Edit panel shows the name and changes it (one undo step,
    saved in the unit's "name")."""
    _open_vsav(window, tmp_path, monkeypatch,
               [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")), vs.leader("9-2", vs.hex_pixel("K5")),
                vs.tank("T-34/85", vs.hex_pixel("M3"), nation="ru")])
    window.resize(1300, 760)
    window.show()
    qtbot.waitExposed(window)
    doc = window.document
    settle(qtbot, doc)
    named = {u.id: u.extra.get("name") for u in doc.scenario.units}
    assert sorted(named.values()) == ["4-6-7", "9-2", "T-34/85"]
    drawn = _texts_drawn(window, monkeypatch)
    assert {"4-6-7", "9-2", "T-34/85"} <= set(drawn)
    assert not set(named) & set(drawn)                 # no id where a name exists
    squad = next(k for k, v in named.items() if v == "4-6-7")
    doc.select(squad)
    editor = window.editor
    assert editor.name.isVisible() and editor.name.text() == "4-6-7"
    editor.name.setText("4-6-7 A")
    editor.name.editingFinished.emit()
    assert doc.scenario.unit(squad).extra["name"] == "4-6-7 A"
    assert "4-6-7 A" in _texts_drawn(window, monkeypatch)
    editor.name.setText("")
    editor.name.editingFinished.emit()
    assert "name" not in doc.scenario.unit(squad).extra
    assert squad in _texts_drawn(window, monkeypatch)    # no name: the id
    doc.undo_stack.undo()
    assert doc.scenario.unit(squad).extra["name"] == "4-6-7 A"
    assert editor.name.text() == "4-6-7 A"


@pytest.fixture(scope="module")
def vasl_archive(tmp_path_factory):
    """A VASL board archive as VASL keeps them: ``bd05``, a ZIP without a suffix."""
    return synth.standard_board("5").write(tmp_path_factory.mktemp("vasl") / "bd05")


@pytest.mark.parametrize("how", ["open", "new"])
def test_opening_a_vasl_board_archive_offers_to_import_it(window, qtbot, tmp_path, monkeypatch,
                                                          messages, vasl_archive, how):
    """File > Open or File > New on ``bd05`` offers to import it (not "binary file, not
    JSON"); accepted, the board file is written and a new position stands on it."""
    asked = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(text)
        return QMessageBox.StandardButton.Yes
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(vasl_archive), "")))
    target = tmp_path / "bd05.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(target), "")))
    (window.open_dialog if how == "open" else window.new_dialog)()
    assert not [m for m in messages if m[0] != "question"], messages    # no error shown
    assert any("bd05 is a VASL board" in text and "Import it" in text for text in asked)
    assert load_board(target).id == "5"
    s = window.document.scenario
    assert s.map.board_ids == ["5"] and window.document.path is None
    assert s.map.placements[0].board.at(*parse_local("X4")).terrain == "woods"


def test_the_missing_boards_dialog_speaks_a_players_words(window, tmp_path, monkeypatch):
    """A save on a board Starshell lacks, no boards folder chosen: the dialog names the board
    and what to do without the command line's words (--boards, --blank-missing)."""
    said = []
    monkeypatch.setattr(vsav_open, "ask_missing", lambda w, boards, reasons=None, folder=None:
                        said.append(vsav_open.missing_text(boards, reasons or {}, folder)))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "05")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    assert not window.open_path(str(path), confirmed=True)
    assert len(said) == 1 and "board(s) 05" in said[0] and "board 05:" in said[0]
    assert "--" not in said[0] and "bundled" not in said[0]
    assert "boards folder" in said[0]


def test_a_small_screen_holds_the_window_and_a_low_window_folds_its_panels(
        qtbot, settings, messages, monkeypatch):
    """On a 1366 x 768 screen the window opens within it, its two piles of side panels side by
    side with the map; at 1000 x 650 they fold into one pile of tabs whose titles are whole, and
    unfold when the window grows again."""
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1366, 768))
    w = NightWindow(Document(engine.load_scenario(default_scenario_path())), settings)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert QRect(0, 0, 1366, 768).contains(w.frameGeometry())
    position, explanation = w.dock("position"), w.dock("explanation")
    assert explanation not in w.tabifiedDockWidgets(position)
    assert w.view.width() > w.width() // 2                  # the map keeps most of the width
    w.resize(1000, 650)
    qtbot.waitUntil(lambda: explanation in w.tabifiedDockWidgets(position), timeout=3000)
    qtbot.waitUntil(lambda: position.height() > 500, timeout=3000)   # each panel: the whole height
    assert w.view.width() >= 500
    for dock in w.docks.values():          # no panel wider than its dock: no words cut
        assert dock.widget().widget().minimumSizeHint().width() < dock.widget().viewport().width() + 1 \
            or not dock.isVisible()
    bars = [b for b in w.findChildren(QTabBar) if b.parent() is w and b.isVisible()]
    assert bars and all(b.elideMode() == Qt.TextElideMode.ElideNone for b in bars)
    w.resize(1366, 736)
    qtbot.waitUntil(lambda: explanation not in w.tabifiedDockWidgets(position), timeout=3000)
    assert explanation.isVisible() and position.isVisible()
    settle(qtbot, w.document)


def test_the_imports_waiting_count_is_the_docks(window, tmp_path, monkeypatch):
    """The import's note counts what the Waiting dock lists: the units and the support weapons
    in the margins, not a marker left there."""
    _open_vsav(window, tmp_path, monkeypatch,
               [vs.plain("Radio", "ge/geRadio", (150, 300), nation="ge"),
                vs.squad("4-6-7 1sq", (150, 380)),
                vs.plain("LMG", "ge/geLMG", (150, 540), counter_type="common", nation="ge"),
                vs.marker("Starshell", "ML/ss", (150, 620)),
                vs.marker("Starshell", "ML/ss", (150, 700)),
                vs.squad("4-4-7 1sq", vs.hex_pixel("K5"), nation="ru")])
    _, summary = api.vasl.vsav_scenario(str(tmp_path / "g.vsav"), None, True)
    dock = window.waiting.list.count()
    assert dock == 3
    said = [n for n in summary["notes"] if "wait off the boards" in n]
    assert said and said[0].startswith(f"{dock} counter(s)")
    assert f"{dock} counter(s)" in window.waiting.title.text()


def test_save_as_of_an_import_proposes_its_folder_and_name_and_drops_the_import_title(
        window, qtbot, tmp_path, monkeypatch):
    _open_vsav(window, tmp_path, monkeypatch, [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))],
               name="Night Raid.vsav")
    doc = window.document
    assert doc.scenario.title == "Night Raid (VASL saved game)"
    proposed = []

    def save(parent, caption, start="", *a, **k):
        proposed.append(start)
        return start, ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save))
    assert window.save_as()
    assert proposed == [str(tmp_path / "Night Raid.json")]
    assert doc.path == str(tmp_path / "Night Raid.json")
    assert doc.scenario.title == "Night Raid"
    assert api.night.load_scenario(doc.path).title == "Night Raid"
    assert "VASL saved game" not in window.windowTitle()
    settle(qtbot, doc)


def test_undo_says_what_was_undone(window, qtbot):
    """Ctrl+Z: the status bar names the change taken back; Ctrl+Y the one done again."""
    doc = window.document
    unit = doc.scenario.units[0]
    doc.edit(doc.scenario.with_unit(unit.replace(broken=not unit.broken)), f"{unit.id}: broken")
    window.say("something else")
    doc.undo_stack.undo()
    assert window.statusBar().currentMessage().startswith(f"Undone: {unit.id}: broken")
    doc.busyChanged.emit("Working out the night field\u2026")     # a slow answer meanwhile
    doc.busyChanged.emit("")
    assert window.statusBar().currentMessage().startswith(f"Undone: {unit.id}: broken")
    doc.undo_stack.redo()
    assert window.statusBar().currentMessage() == f"Redone: {unit.id}: broken"
    settle(qtbot, doc)


def test_the_moving_list_says_whole_words_and_shows_them_whole(window, qtbot):
    """The Edit panel's Moving list: "changed its covered arc (CA)", not "changed ca", and the
    list as wide as its longest entry; the Unit panel says the same words."""
    doc = window.document
    tank = next(u for u in doc.scenario.units if u.is_vehicle)
    doc.edit(doc.scenario.with_unit(tank.replace(moving="changed_ca")), "CA")
    doc.select(tank.id)
    window.dock("edit").raise_()
    settle(qtbot, doc)
    combo = window.editor.moving
    qtbot.waitUntil(combo.isVisible, timeout=3000)
    texts = [combo.itemText(k) for k in range(combo.count())]
    assert "changed its covered arc (CA)" in texts and "changed ca" not in texts
    widest = max(combo.fontMetrics().horizontalAdvance(t) for t in texts)
    assert combo.width() > widest
    assert combo.mapTo(window, combo.rect().topRight()).x() <= \
        window.dock("edit").mapTo(window, window.dock("edit").rect().topRight()).x()
    assert any("changed its covered arc (CA)" in label.text()
               for label in window.unit_panel.findChildren(QLabel))


def test_the_starshell_result_wraps_inside_its_panel(window, qtbot):
    """At 1366 x 736 the Starshell panel is no wider than its dock: a long result wraps onto
    lines that end inside the dock, none runs off its right edge."""
    window.resize(1366, 736)
    window.dock("starshell").raise_()
    panel = window.starshell_panel
    panel.result.setText("Starshell: usage dr 2: fired; it drifts 2 hexes in direction 4 and "
                         "ends in 2Z4, lighting 2Y3, 2Y4, 2Z3, 2Z5, 2AA4 and 2AA5 for the "
                         "rest of the player turn.")
    qtbot.waitUntil(lambda: panel.result.isVisible(), timeout=3000)
    scroll = window.dock("starshell").widget()
    qtbot.waitUntil(lambda: panel.width() <= scroll.viewport().width(), timeout=3000)
    right = panel.result.mapTo(scroll.viewport(), panel.result.rect().topRight()).x()
    assert right <= scroll.viewport().width()
    qtbot.waitUntil(lambda: panel.result.height() > 2 * panel.result.fontMetrics().lineSpacing(),
                    timeout=3000)                                        # on several lines


def scene_center_of(m, name: str):
    return scene_center(m, m.index(name))


def _boxes(rects) -> np.ndarray:
    return np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects]).reshape(-1, 4)


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(((a[:, None, 0] < b[None, :, 2]) & (a[:, None, 2] > b[None, :, 0])
                 & (a[:, None, 1] < b[None, :, 3]) & (a[:, None, 3] > b[None, :, 1])).any())


def test_ring_labels_keep_off_the_markers_and_the_thread_label(window, qtbot):
    """At 1366 x 736, G1 selected and the map fitted: the "NVR 3" and moving-vehicle ring
    labels lie on no marker (the starshell); with the LOS thread's label where the NVR label
    would go, the ring label moves off it."""
    window.resize(1366, 736)
    view, doc, scene = window.view, window.document, window.scene
    doc.select("G1")
    settle(qtbot, doc)
    view.fit_map()
    qtbot.waitUntil(lambda: bool(scene.nvr_ring.labels and scene.moving_rings.labels), timeout=5000)
    scale = view.transform().m11()
    markers = _boxes([view.mapToScene(item.deviceTransform(view.viewportTransform()).mapRect(
        item.boundingRect()).toRect()).boundingRect()
        for item in scene.counters.items if item.kind == "marker" and item.isVisible()])
    assert len(markers)
    for ring in (scene.nvr_ring, scene.moving_rings):
        assert not _overlap(_boxes([r for r, *_ in ring.label_rects(scale)]), markers)
    nvr_label = scene.nvr_ring.label_rects(scale)[0][0]
    m = doc.scenario.map
    end = min(m.names, key=lambda n: (scene_center_of(m, n) - nvr_label.center()).manhattanLength())
    window.hand.threads.set_thread(api.night.los_thread(doc.scenario, "2BB5", end))
    box = scene.thread.label_box(scale)
    assert box is not None
    for ring in (scene.nvr_ring, scene.moving_rings):
        assert not _overlap(_boxes([r for r, *_ in ring.label_rects(scale)]), _boxes([box]))


class RecordingPainter(QPainter):
    """A painter that keeps the texts drawn."""

    def __init__(self, device):
        super().__init__(device)
        self.texts: list[str] = []

    def drawText(self, *args):
        self.texts.append(str(args[-1]))
        return super().drawText(*args)


def _level_texts(window) -> list[str]:
    grid = window.scene.grid
    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    painter = RecordingPainter(image)
    painter.scale(2.0, 2.0)                         # zoomed in: every hill hex's level
    grid._paint_hills(painter, 10 * style.LOD_COORDINATES)
    painter.end()
    return [t for t in painter.texts if t.startswith("L") and t[1:].isdigit()]


def test_hill_levels_only_where_the_boards_picture_does_not_show_them(window, qtbot, tmp_path):
    """Bundled boards (no picture): every hill hex says L1 / L2.  A VASL board drawn from its
    own picture (which prints its levels): none, unless View > Hill levels over the boards'
    own pictures asks for them."""
    assert "L2" in _level_texts(window)
    b = vasl5_synth.SynthBoard()
    b.hex_("C4", "woods", 1)
    b.hex_("H6", "woods", 0)
    board, _ = vasl_importer.import_board(b.write(tmp_path / "bd81"))
    save_board(board, tmp_path / "bd81.json")
    assert window.open_path(str(tmp_path / "bd81.json"), confirmed=True)
    settle(qtbot, window.document)
    assert window.document.scenario.map.level.max() >= 1
    assert window.scene.grid.pictured.all()
    assert _level_texts(window) == []
    window.layer_actions["hill_levels"].setChecked(True)
    assert "L1" in _level_texts(window)
    window.layer_actions["board_art"].setChecked(False)
    window.layer_actions["hill_levels"].setChecked(False)
    assert "L1" in _level_texts(window)                # no picture shown: the levels


def test_what_was_undone_comes_back_after_a_passing_sentence(window, qtbot):
    """The planner's "Working out ..." covers "Undone: ..." and then clears the bar: the undo's
    sentence comes back for the rest of its time."""
    doc = window.document
    unit = doc.scenario.units[0]
    doc.edit(doc.scenario.with_unit(unit.replace(pinned=not unit.pinned)), f"{unit.id}: pinned")
    doc.undo_stack.undo()
    bar = window.statusBar()
    bar.showMessage("Working out the best starshell\u2026")
    bar.clearMessage()
    assert bar.currentMessage().startswith(f"Undone: {unit.id}: pinned")
    settle(qtbot, doc)
