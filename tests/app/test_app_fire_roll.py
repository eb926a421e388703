"""The fire room's roll: the panel shows the attack rolled, with its dice, not the next one (rules.md
8)."""
from __future__ import annotations

from app_testing import shown
from PySide6.QtCore import Qt

from engine.boards import assets_dir


def test_after_a_roll_the_fire_panel_shows_the_attack_rolled_not_the_next(qtbot, messages):
    """sample.json: n1J6 targeted (F4, out of range, left out), Computer rolls. The bars showed
    the attack rolled (F2 at x4 for its first fire: 42 at 6:1) while the text above them already
    showed the next, refused attack (F2 has fired: x3, total 36). Now the text is the attack
    rolled, with the roll, and says why another is refused; Ctrl+Z brings back the attack to be made."""
    from app.napoleonic import Document, FireWindow
    from engine import api
    pos = api.napoleonic.load_position(str(assets_dir() / "fire" / "sample.json"))
    w = shown(qtbot, FireWindow(Document(pos, None, dice=lambda: (3, 5))))
    m = w.pos.map
    from PySide6.QtCore import QPointF

    from app.style import SCALE

    def click(scene_x, scene_y):
        qtbot.mouseClick(w.view.viewport(), Qt.MouseButton.LeftButton,
                         pos=w.view.mapFromScene(QPointF(scene_x, scene_y)))
    j6 = m.index("n1J6")
    click(float(m.x[j6]) * SCALE, (float(m.y[j6]) + 0.55) * SCALE)          # low in the hex
    assert w.target == "n1J6"
    rolled = api.napoleonic.assess(w.pos, "n1J6", w.firers(), (3, 5))
    assert rolled.fire == 42 and "F4" not in w.firers()
    qtbot.mouseClick(w.roll_computer, Qt.MouseButton.LeftButton)
    assert w.pos.attacked == ("n1J6",) and w.chart.result == rolled.result
    text = w.text.toPlainText()
    assert "Total fire 42" in text and "Total fire 36" not in text
    assert "Rolled:" in text and "dice 35" in text
    assert "already been the target" in text
    w.document.undo_stack.undo()
    text = w.text.toPlainText()
    assert "Total fire 42" in text and "Rolled:" not in text and "may be made" in text
