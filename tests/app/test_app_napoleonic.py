"""The Napoleonic fire room on the bundled sample map: target a hex, see the firers, toggle one,
roll, undo, save, export (rules.md 8)."""
from __future__ import annotations

import json

import pytest
from app_testing import fire_sample_copy, shown
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from app.napoleonic import Document, FireWindow, open_window, save_screenshot
from app.napoleonic.scene import COUNTED, TARGET
from app.style import SCALE
from engine import api

FIRE = api.assets_dir() / "fire"


@pytest.fixture
def sample(tmp_path):
    """A copy of the sample position beside its own charts and board (saving writes here)."""
    return fire_sample_copy(tmp_path / "game")


@pytest.fixture
def fire_window(qtbot, messages, sample):
    return shown(qtbot, open_window(str(sample)))


def click_hex(qtbot, w: FireWindow, hex_id: str, dx: float = 0.0, dy: float = 0.55):
    """Click a hex (by default low in it, clear of its counters)."""
    m = w.pos.map
    i = m.index(hex_id)
    from PySide6.QtCore import QPointF
    p = w.view.mapFromScene(QPointF((float(m.x[i]) + dx) * SCALE, (float(m.y[i]) + dy) * SCALE))
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton, pos=p)


def click_counter(qtbot, w: FireWindow, uid: str):
    item = w.scene.counters[uid]
    qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.view.mapFromScene(item.scenePos()))


def test_targeting_a_hex_shows_firers_with_los_and_dims_the_others(fire_window, qtbot):
    w = fire_window
    click_hex(qtbot, w, "n1J6")                    # the British line
    assert w.target == "n1J6"
    states = {uid: item.state for uid, item in w.scene.counters.items()}
    assert states["B2"] == "target"
    assert states["A1"] == "unable"                # F1's skirmishers in H5 stand in the way
    assert "no LOS" in w.scene.counters["A1"].toolTip() and "n1H5" in w.scene.counters["A1"].toolTip()
    assert states["F1"] == "counted" and states["B1"] == "plain"
    assert w.assessment.allowed and "A1" not in [f.id for f in w.assessment.counted()]
    text = w.text.toPlainText()
    for step in ("1. Target n1J6", "2. Firers", "3. Total fire", "4. Defence", "5. Odds",
                 "6. Dice modifiers", "7. Results"):
        assert step in text
    assert sum(w.chart.outcomes.values()) == 1


def test_muskets_do_not_reach_across_the_map(fire_window, qtbot):
    """The British battery on the ridge, 10 hexes and more from every French unit: no musket
    reaches it (the pack's range rows), and the panel prints no odds."""
    w = fire_window
    click_hex(qtbot, w, "n1R3")
    assert w.scene.counters["F1"].state == "unable"
    assert "reaches 3 hexes" in w.scene.counters["F1"].toolTip()
    assert not w.assessment.allowed and w.assessment.column is None
    text = w.text.toPlainText()
    assert "Refused" in text and "5. Odds" not in text and "7. Results" not in text


def test_toggling_a_firer_out_and_back(fire_window, qtbot):
    w = fire_window
    click_hex(qtbot, w, "n1J5")
    before = w.assessment.fire
    assert "F1" in [f.id for f in w.assessment.counted()]
    click_counter(qtbot, w, "F1")
    assert w.target == "n1J5"
    assert w.assessment.fire == before - 9 and w.scene.counters["F1"].state == "able"
    click_counter(qtbot, w, "F1")
    assert w.assessment.fire == before


def test_a_roll_records_the_attack_undoably_and_a_second_is_refused(fire_window, qtbot):
    w = fire_window
    click_hex(qtbot, w, "n1J5")
    expected = api.napoleonic.assess(w.pos, "n1J5", w.firers(), (4, 3))
    w.tens.setValue(4)
    w.units.setValue(3)
    qtbot.mouseClick(w.roll_typed, Qt.MouseButton.LeftButton)
    assert w.pos.attacked == ("n1J5",)
    assert w.pos.unit("F2").fired                     # first fire spent
    assert f"dice 43, {expected.drm:+d} -> {expected.modified}" in w.result.text()
    assert w.chart.result == expected.result
    assert w.isWindowModified() and "[*]" in w.windowTitle()
    assert not w.assessment.allowed and not w.roll_typed.isEnabled()
    assert "already been the target" in w.text.toPlainText()
    w.document.undo_stack.undo()
    assert w.pos.attacked == () and not w.pos.unit("F2").fired
    assert w.assessment.allowed and not w.isWindowModified()
    w.document.undo_stack.redo()
    assert w.pos.attacked == ("n1J5",)


def test_save_writes_the_attacks_and_reloads(fire_window, qtbot, sample):
    w = fire_window
    click_hex(qtbot, w, "n1J6")
    w.roll((6, 6))
    assert w.save()
    again = api.napoleonic.load_position(sample)
    assert again.attacked == ("n1J6",) and not w.isWindowModified()


def test_export_png_shows_the_target_and_the_firers(fire_window, qtbot, tmp_path):
    w = fire_window
    click_hex(qtbot, w, "n1J6")
    out = tmp_path / "fire.png"
    assert w.export(str(out))                           # File > Export: the whole map
    img = QImage(str(out))
    rect = w.scene.sceneRect()
    k = img.width() / rect.width()
    m = w.pos.map

    def pixel(hex_id, dx, dy):
        i = m.index(hex_id)
        x = ((float(m.x[i]) + dx) * SCALE - rect.left()) * k
        y = ((float(m.y[i]) + dy) * SCALE - rect.top()) * k
        return img.pixelColor(round(x), round(y))
    edge = pixel("n1J6", 0.0, 0.93 * 0.866)          # on the target's outline (its south side)
    assert edge.red() > 200 and edge.green() < 140, edge.name()
    assert abs(edge.red() - TARGET.red()) < 40 and abs(edge.green() - TARGET.green()) < 60
    # each counted firer's line to the target, in the counted colour where no counter covers it
    lines = [(a, b) for a, b, counted in w.scene.map_item.lines if counted]
    assert len(lines) == len(w.assessment.counted()) > 0
    def off(c):
        return max(abs(c.red() - COUNTED.red()), abs(c.green() - COUNTED.green()),
                   abs(c.blue() - COUNTED.blue()))
    def seen(p):
        x, y = round((p.x() - rect.left()) * k), round((p.y() - rect.top()) * k)
        return min(off(img.pixelColor(x + dx, y + dy)) for dx in range(-2, 3)
                   for dy in range(-2, 3)) < 40               # the line is a few pixels wide
    for a, b in lines:
        assert sum(seen(a + (b - a) * (t / 10)) for t in range(2, 9)) >= 4, (a, b)


def test_screenshot_is_exactly_the_size_asked(qtbot, tmp_path):
    out = tmp_path / "shot.png"
    save_screenshot(str(FIRE / "sample.json"), str(out), 900, 600, "n1J5")
    img = QImage(str(out))
    assert (img.width(), img.height()) == (900, 600)


def test_the_main_window_opens_a_fire_position_in_its_own_room(window, qtbot):
    assert window.open_path(str(FIRE / "N-09.json"), confirmed=True)
    other = window.room_windows[-1]
    qtbot.addWidget(other)
    assert isinstance(other, FireWindow) and other.pos.title.startswith("N-09")


def test_a_malformed_position_is_refused_with_the_place(window, messages, tmp_path):
    data = json.loads((FIRE / "N-03.json").read_text())
    data["units"][0]["formation"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert not window.open_path(str(bad), confirmed=True)
    assert any("units[0].formation" in text for _, _, text in messages)


def test_the_computer_rolls_the_injected_dice(qtbot, messages, sample):
    pos = api.napoleonic.load_position(sample)
    w = FireWindow(Document(pos, str(sample), dice=lambda: (6, 6)))
    qtbot.addWidget(w)
    w.show()
    w.set_target("n1J8")
    expected = api.napoleonic.assess(w.pos, "n1J8", w.firers(), (6, 6))
    qtbot.mouseClick(w.roll_computer, Qt.MouseButton.LeftButton)
    assert w.chart.result == expected.result and expected.modified == 65      # 66, -1 for 2 increments
    assert "dice 66" in w.result.text() and w.pos.attacked == ("n1J8",)


def test_a_pack_without_a_defence_row_says_so_in_the_panel(qtbot, messages, sample):
    pack = json.loads((sample.parent / "charts.json").read_text())
    pack["defence"] = [r for r in pack["defence"] if r["arm"] != "cavalry" and r["arm"] != "*"]
    (sample.parent / "charts.json").write_text(json.dumps(pack))
    w = open_window(str(sample))
    qtbot.addWidget(w)
    w.set_target("n1M4")                              # the British dragoons
    assert w.assessment is None and "defence" in w.text.toPlainText()
    assert "charts.json" in w.text.toPlainText() and not w.roll_typed.isEnabled()


def test_hovering_a_stack_s_lower_counter_brings_it_to_the_front(fire_window, qtbot):
    """In the sample, leader L1 stands over artillery A1 in n1G4, hiding most of it: the
    mouse on the corner of A1 that shows brings A1 in front, whole (to read and to click)."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QTransform
    w = fire_window
    low, high = w.scene.counters["A1"], w.scene.counters["L1"]
    assert low.unit.hex == high.unit.hex and high.zValue() >= low.zValue()
    centre = low.scenePos()
    assert w.scene.itemAt(centre, QTransform()) is high          # A1 hidden under L1
    corner = low.scenePos() + QPointF(-0.35 * SCALE, -0.35 * SCALE)    # the part of A1 showing
    assert w.scene.itemAt(corner, QTransform()) is low
    qtbot.mouseMove(w.view.viewport(), w.view.mapFromScene(corner))
    qtbot.waitUntil(lambda: low.zValue() > high.zValue(), timeout=2000)
    assert w.scene.itemAt(centre, QTransform()) is low
    far = w.scene.counters["F4"].scenePos() + QPointF(0, 0.9 * SCALE)
    qtbot.mouseMove(w.view.viewport(), w.view.mapFromScene(far))
    qtbot.waitUntil(lambda: low.zValue() <= high.zValue(), timeout=2000)


def test_save_never_writes_over_a_bundled_position(qtbot, messages, monkeypatch, tmp_path):
    """Opened from the program's own folder (``python -m app assets/fire/sample.json``), Save
    asks where instead, and a bundled name chosen there is refused, as in the other rooms."""
    from PySide6.QtWidgets import QFileDialog
    written, offered = [], []
    monkeypatch.setattr(api.napoleonic, "save_position", lambda pos, path: written.append(path))
    w = shown(qtbot, open_window(str(FIRE / "sample.json")))
    assert "(read-only example)" in w.windowTitle()
    answers = iter([str(FIRE / "N-04.json"), str(tmp_path / "mine.json")])

    def ask(parent, caption, start="", *args, **kwargs):
        offered.append(start)
        return next(answers), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(ask))
    assert not w.save()                                  # asked; a bundled name refused
    assert written == [] and "read-only" in messages[-1][2]
    assert not offered[0].startswith(str(FIRE.resolve()))    # not started in the bundle
    assert w.save() and written == [str(tmp_path / "mine.json")]
    assert "read-only" not in w.windowTitle()
