"""The fire room's window as a player meets it: the hex under the pointer in words, the legend,
the worked examples under File, results applied in words, and a position built from nothing
(place, change, delete units, undo) and saved (rules.md 8, SPEC.md turn three)."""
from __future__ import annotations

from app_testing import shown
from PySide6.QtCore import QPointF, Qt

from app.napoleonic import Document, FireWindow
from app.napoleonic.scene import unit_words
from app.style import SCALE
from engine import api

nap = api.napoleonic
FIRE = api.assets_dir() / "fire"


def scene_point(w, hex_id, dy=0.55):
    m = w.pos.map
    i = m.index(hex_id)
    return QPointF(float(m.x[i]) * SCALE, (float(m.y[i]) + dy) * SCALE)


def click(qtbot, w, hex_id, dy=0.55):
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.view.mapFromScene(scene_point(w, hex_id, dy)))


def window(qtbot, document):
    return shown(qtbot, FireWindow(document))


def test_hovering_a_hex_says_its_terrain_and_why(qtbot, messages):
    w = window(qtbot, Document(nap.load_position(FIRE / "sample.json"), None))
    qtbot.mouseMove(w.view.viewport(), w.view.mapFromScene(scene_point(w, "n1M7")))
    text = w.statusBar().currentMessage()
    assert text.startswith("n1M7: village") and "blocks lines of fire" in text
    qtbot.mouseMove(w.view.viewport(), w.view.mapFromScene(scene_point(w, "n1J6")))
    assert "defence of B2" in w.statusBar().currentMessage()


def test_the_legend_names_the_maps_terrain_and_the_outlines(qtbot, messages):
    w = window(qtbot, Document(nap.load_position(FIRE / "sample.json"), None))
    legend = w.legend.text()
    for words in ("village", "woods", "orchard", "fires", "cannot fire"):
        assert words in legend
    assert "building" not in legend


def test_the_worked_examples_are_under_file(qtbot, messages):
    w = window(qtbot, Document(nap.load_position(FIRE / "sample.json"), None))
    file_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&File")
    worked = next(a.menu() for a in file_menu.actions() if a.menu() is not None)
    titles = [a.text() for a in worked.actions()]
    assert len(titles) == 11 and all(any(t.startswith(f"N-{k:02d}") for t in titles)
                                     for k in range(1, 11))
    n09 = next(a for a in worked.actions() if a.text().startswith("N-09"))
    n09.trigger()
    other = w.room_windows[-1]
    qtbot.addWidget(other)
    assert other.pos.title.startswith("N-09") and other.path is None      # Save asks where


def test_a_tooltip_names_the_nation_once():
    pos = nap.load_position(FIRE / "sample.json")
    words = unit_words(pos.unit("C1"))
    assert words.startswith("C1: british ") and "british british" not in words


def test_a_roll_applies_the_result_in_words_and_undo_takes_it_back(qtbot, messages):
    pos = nap.load_position(FIRE / "sample.json")
    w = window(qtbot, Document(pos, None, dice=lambda: (6, 6)))
    w.set_target("n1J6")
    expected = nap.assess(w.pos, "n1J6", w.firers(), (6, 6))
    lost = int(expected.result.split("/")[0])
    before = w.pos.unit("B2").increments
    w.roll(None)
    assert w.pos.unit("B2").increments == before - lost
    text = w.result.text()
    assert nap.result_words(expected.result) in text and f"B2 loses {lost} increment" in text
    w.document.undo_stack.undo()
    assert w.pos.unit("B2").increments == before


def test_a_new_position_built_in_the_window_and_saved(qtbot, messages, tmp_path):
    start = window(qtbot, Document(nap.load_position(FIRE / "sample.json"), None))
    w = start.new_position()
    qtbot.addWidget(w)
    w.resize(1400, 820)
    qtbot.waitExposed(w)
    w.view.fit()
    assert w.pos.units == () and w.editor.place.isChecked()
    click(qtbot, w, "n1C3")                                  # a French line (the palette's)
    w.editor.side.setCurrentText("british")
    w.editor.formation.setCurrentText("column")
    click(qtbot, w, "n1C5")
    assert [(u.id, u.side, u.hex, u.formation) for u in w.pos.units] == [
        ("F1", "french", "n1C3", "line"), ("B1", "british", "n1C5", "column")]
    w.editor.place.setChecked(False)                         # Place off: a click chooses
    assert w.click_mode() == "choose"
    click(qtbot, w, "n1C3", dy=0.0)                          # on F1's counter: chosen
    assert w.selected == "F1" and w.editor.side.currentText() == "french"
    w.editor.formation.setCurrentText("skirmish")
    w.editor.increments.setValue(3)
    w.apply_edit()
    assert (w.pos.unit("F1").formation, w.pos.unit("F1").increments) == ("skirmish", 3)
    w.editor.place.setChecked(True)
    click(qtbot, w, "n1D4")
    assert len(w.pos.units) == 3
    w.delete_chosen()                                        # the unit just placed, chosen
    assert [u.id for u in w.pos.units] == ["F1", "B1"]
    w.document.undo_stack.undo()
    assert len(w.pos.units) == 3
    w.document.undo_stack.undo()
    assert [u.id for u in w.pos.units] == ["F1", "B1"]
    w.tabs.setCurrentIndex(0)                                # the Attack tab: placing off
    assert not w.editor.place.isChecked() and w.click_mode() == "attack"
    click(qtbot, w, "n1C5")
    # the sample charts: french line infantry in skirmish x2, 3 increments
    assert w.target == "n1C5" and w.assessment.allowed and w.assessment.fire == 6
    assert w._write(str(tmp_path / "new.json"))
    again = nap.load_position(tmp_path / "new.json")
    assert [(u.id, u.formation) for u in again.units] == [("F1", "skirmish"), ("B1", "column")]
    assert nap.assess(again, "n1C5").fire == 6


def test_a_morale_check_is_drawn_on_the_counter(qtbot):
    """The result's marks on the counter itself: a badge at its top left corner."""
    from dataclasses import replace

    from PySide6.QtGui import QImage, QPainter

    from app.napoleonic.scene import COUNTED, FireCounter
    unit = nap.load_position(FIRE / "sample.json").unit("B2")

    def badge_pixels(u) -> int:
        item = FireCounter(u)
        rect = item.boundingRect()
        img = QImage(int(rect.width()), int(rect.height()), QImage.Format.Format_ARGB32)
        img.fill(0)
        p = QPainter(img)
        p.translate(-rect.left(), -rect.top())
        item.paint(p, None)
        p.end()
        corner = [img.pixelColor(x, y) for x in range(int(rect.width() / 3))
                  for y in range(int(rect.height() / 3))]
        return sum(1 for c in corner if abs(c.red() - COUNTED.red()) < 30
                   and abs(c.green() - COUNTED.green()) < 30 and abs(c.blue() - COUNTED.blue()) < 30)
    assert badge_pixels(unit) == 0
    assert badge_pixels(replace(unit, extra={"morale_check": True})) > 20
