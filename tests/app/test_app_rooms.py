"""The house's rooms: the format of a file picks its room, every room has the same door, and the
night Document tells a drag's steps from real changes (the panels wait for the drop)."""
from __future__ import annotations

import inspect

import pytest
from app_testing import settle

import engine
from app import napoleonic, night, rooms, tabletop
from app.night.document import Document, default_scenario_path
from engine.api import assets_dir

ROOMS = (night, napoleonic, tabletop)


@pytest.mark.parametrize("path, room", [
    ("scenarios/W-01.json", night), ("fire/N-01.json", napoleonic),
    ("tables/S-01.json", tabletop), ("game.vsav", night)])
def test_the_format_of_a_file_picks_its_room(path, room):
    assert rooms.room_for(str(assets_dir() / path)) is room
    assert rooms.room_for(None) is night                # the bundled default position


@pytest.mark.parametrize("room", ROOMS, ids=lambda room: room.__name__)
def test_every_room_has_the_same_door(room):
    opening = inspect.signature(room.open_window).parameters
    assert list(opening)[0] == "path"
    for name in ("select", "recover", "open_other"):
        assert opening[name].kind is inspect.Parameter.KEYWORD_ONLY, name
    shot = list(inspect.signature(room.save_screenshot).parameters)
    assert shot[:5] == ["path", "out", "width", "height", "select"]
    assert room.FORMAT in rooms.ROOMS and rooms.ROOMS[room.FORMAT] is room
    assert room.Document.__module__ == f"{room.__name__}.document"


def test_a_drag_step_is_dragged_and_its_drop_a_change(qtbot):
    doc = Document(engine.load_scenario(default_scenario_path()))
    settle(qtbot, doc)
    seen = []
    doc.changed.connect(lambda: seen.append("changed"))
    doc.dragged.connect(lambda: seen.append("dragged"))
    unit = doc.scenario.units[0]
    before = doc.scenario
    doc.begin_drag()
    there = next(h for h in doc.scenario.map.names if h != unit.hex)
    doc.show(before.moved(unit.id, there))
    assert seen == ["dragged"] and doc.dragging
    doc.finish_drag(before, f"move {unit.id} to {there}")
    assert seen == ["dragged", "changed"] and not doc.dragging
    settle(qtbot, doc)
