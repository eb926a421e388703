"""The Waiting dock: a VASL save whose counters wait in the map's margins opens with them listed
by their counter names; one picked and put on a hex leaves the list (one undo step)."""
from __future__ import annotations

import vsav_synth as vs
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QMessageBox

import app.night.vasl.vsav_open as vsav_open
from app import style
from app.hex_geometry import hex_at, scene_center
from app.night.vasl.kept_pieces import MIN_PX
from app.night.vasl.waiting import WAITING_MIME, waiting_id, waiting_text
from engine import api


def test_waiting_counters_are_listed_and_placed(window, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "34")],
                         [vs.squad("4-6-7 1sq", (150, 300)), vs.leader("9-2", (150, 380)),
                          vs.squad("4-4-7 1sq", vs.hex_pixel("K5"), nation="ru")])
    assert window.open_path(str(path), confirmed=True)
    panel = window.waiting
    texts = [panel.list.item(k).text() for k in range(panel.list.count())]
    assert [t.split("  ")[0] for t in texts] == ["4-6-7", "9-2"]
    assert "2 counter(s)" in panel.title.text()
    picked = []
    panel.picked.connect(picked.append)
    panel._pick(panel.list.item(1))
    piece = picked[-1]
    assert (piece.type, piece.side, piece.waiting) == ("leader", "axis", "ge2")
    assert window.hand.pieces.armed == piece                 # the next click puts it down
    s = window.document.scenario
    assert window.hand.pieces.put_down(piece, s.map.index("2K6"))
    s = window.document.scenario
    assert s.unit("ge2").hex == "2K6" and s.unit("ge2").extra["name"] == "9-2"
    assert [panel.list.item(k).text().split("  ")[0] for k in range(panel.list.count())] == ["4-6-7"]
    window.document.undo_stack.undo()
    assert panel.list.count() == 2 and "ge2" not in {u.id for u in window.document.scenario.units}


def test_waiting_text_names_the_counter():
    assert waiting_text({"id": "ge1", "name": "4-6-7", "side": "axis", "type": "half_squad"}) \
        == "4-6-7  \u2013  axis half squad (ge1)"


def test_support_weapons_and_guns_listed(window, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "34")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                          vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"), counter_type="common",
                                   nation="ge")])
    assert window.open_path(str(path), confirmed=True)
    kept = window.waiting.kept
    assert [kept.item(k).text() for k in range(kept.count())] == [
        "LMG in 2K5 (support weapon, axis)"]
    assert "No counter waits" in window.waiting.title.text()


def test_support_weapons_and_guns_drawn_on_their_hex(window, tmp_path, monkeypatch):
    """Kept pieces are drawn as small counters in their hexes (never viewers: no counter item,
    not picked by a click) and named in the hex's hover text."""
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "34")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                          vs.plain("LMG", "ge/geLMG", vs.hex_pixel("K5"), counter_type="common",
                                   nation="ge"),
                          vs.plain("MMG", "ge/geMMG", vs.hex_pixel("K5"), counter_type="common",
                                   nation="ge"),
                          vs.plain("45L AT", "ru/ord/ru45LAT", vs.hex_pixel("M3"),
                                   counter_type="common", nation="ru")])
    assert window.open_path(str(path), confirmed=True)
    scene, m = window.scene, window.document.scenario.map
    scene.kept.set_pixels_per_unit(200.0)      # zoomed in: at their own size, inside the hex
    drawn = [(m.names[i], r) for i, r in scene.kept.rects()]
    assert sorted(name for name, _ in drawn) == ["2K5", "2K5", "2M3"]
    for name, rect in drawn:            # inside the hex they stand in
        assert hex_at(m, rect.center()) == m.index(name)
    assert scene.kept.isVisible() and scene.kept.boundingRect().contains(drawn[0][1])
    scene.kept.set_pixels_per_unit(5.0)        # zoomed out: never below MIN_PX on screen
    assert scene.kept.rects()[0][1].width() * 5.0 / style.SCALE >= MIN_PX - 1e-6
    assert len(window.document.scenario.units) == 1         # not viewers
    window.explanation.show_hex(m.index("2K5"))
    window.explanation.refresh()
    text = window.explanation.toPlainText()
    assert "LMG (axis support weapon, not a viewer)" in text and "MMG" in text
    window.explanation.show_hex(m.index("2M3"))
    assert "45L AT (allied Gun, not a viewer)" in window.explanation.toPlainText()
    scene.set_layer_visible("counters", False)
    assert not scene.kept.isVisible()


def test_waiting_counter_dragged_onto_the_map(window, tmp_path, monkeypatch):
    """A counter dragged from the Waiting dock and dropped on a hex is put there (one undo
    step), whatever was armed before; dropped off the map, it keeps waiting."""
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "34")],
                         [vs.squad("4-6-7 1sq", (150, 300)), vs.leader("9-2", (150, 380)),
                          vs.squad("4-4-7 1sq", vs.hex_pixel("K5"), nation="ru")])
    assert window.open_path(str(path), confirmed=True)
    panel, view = window.waiting, window.view
    window.show()
    view.fit_map()
    mime = panel.list.mimeData([panel.list.item(1)])
    assert WAITING_MIME in panel.list.mimeTypes() and waiting_id(mime) == "ge2"
    s = window.document.scenario
    at = view.mapFromScene(scene_center(s.map, s.map.index("2K6")))
    undo_before = window.document.undo_stack.count()

    def drop(point) -> QDropEvent:
        for kind in (QDragEnterEvent, QDragMoveEvent):
            ev = kind(point, Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
            getattr(view, "dragEnterEvent" if kind is QDragEnterEvent else "dragMoveEvent")(ev)
            assert ev.isAccepted()
        ev = QDropEvent(QPointF(point), Qt.DropAction.MoveAction, mime,
                        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
        view.dropEvent(ev)
        return ev

    panel._pick(panel.list.item(1))             # a drag starts with a press: armed
    assert window.hand.pieces.armed is not None
    drop(QPoint(-500, -500))                    # off the map: nothing placed
    assert "ge2" not in {u.id for u in window.document.scenario.units}
    assert drop(at).isAccepted()
    s = window.document.scenario
    assert s.unit("ge2").hex == "2K6" and s.unit("ge2").extra["name"] == "9-2"
    assert window.document.undo_stack.count() == undo_before + 1
    assert window.statusBar().currentMessage() == "Placed 9-2 (ge2) in 2K6 (Ctrl+Z: undo)"
    assert window.hand.pieces.armed is None
    assert [panel.list.item(k).text().split("  ")[0] for k in range(panel.list.count())] == ["4-6-7"]
    window.document.undo_stack.undo()
    assert panel.list.count() == 2 and "ge2" not in {u.id for u in window.document.scenario.units}


def test_waiting_support_weapons_placed_by_drag_or_click(window, tmp_path, monkeypatch):
    """Support weapons and Guns waiting in the margins are listed after the units; dropped on a
    hex (or clicked, then the hex) they are kept and drawn there, one undo step each."""
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "34")],
                         [vs.squad("4-6-7 1sq", (150, 300)),
                          vs.plain("LMG", "ge/geLMG", (150, 300), counter_type="common",
                                   nation="ge", pid=41),
                          vs.plain("45L AT", "ru/ord/ru45LAT", (150, 380),
                                   counter_type="common", nation="ru", pid=42)])
    assert window.open_path(str(path), confirmed=True)
    panel, view, d = window.waiting, window.view, window.document
    window.show()
    view.fit_map()
    texts = [panel.list.item(k).text() for k in range(panel.list.count())]
    assert texts[1:] == ["LMG  \u2013  axis support weapon (not a viewer)",
                         "45L AT  \u2013  allied Gun (not a viewer)"]
    assert "3 counter(s)" in panel.title.text()
    mime = panel.list.mimeData([panel.list.item(1)])
    m = d.scenario.map
    at = view.mapFromScene(scene_center(m, m.index("2K6")))
    view.dropEvent(QDropEvent(QPointF(at), Qt.DropAction.MoveAction, mime,
                              Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))
    assert [(p["name"], p["hex"]) for p in api.vasl.kept_pieces(d.scenario)] == [("LMG", "2K6")]
    assert window.statusBar().currentMessage() == "Placed LMG in 2K6 (Ctrl+Z: undo)"
    assert [m.names[i] for i, _ in window.scene.kept.rects()] == ["2K6"]
    panel._pick(panel.list.item(1))                     # the Gun, now second: click, then hex
    assert window.hand.pieces.put_down(window.hand.pieces.armed, m.index("2M3"))
    assert sorted(p["hex"] for p in api.vasl.kept_pieces(d.scenario)) == ["2K6", "2M3"]
    assert panel.list.count() == 1 and len(d.scenario.units) == 0      # never viewers
    d.undo_stack.undo()
    d.undo_stack.undo()
    assert api.vasl.kept_pieces(d.scenario) == [] and panel.list.count() == 3
