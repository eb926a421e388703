"""The night room's frictions of a first afternoon with a VASL game: the Waiting dock places the
row the keyboard search highlighted, ..."""
from __future__ import annotations

import vsav_synth as vs
from app_testing import hex_pos, settle
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

import app.night.vasl.vsav_open as vsav_open
from engine import api


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
