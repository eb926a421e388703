"""The position's terrain SSRs set in the Map panel (rules.md 11.2): a rule chosen in a player's
words changes LOS at once (an orchard out of season opens a line from above, B14.3), one undo
step puts it back, the position file keeps it, the board's picture takes the season's colours,
a rule Starshell does not know is named; "save board as" saves the board without them."""
from __future__ import annotations

import json

import pytest
import vasl5_synth as synth
from app_testing import settle
from test_raster_los import Drawing, centre

from app.night.editor.ssr_panel import WHOLE_MAP, set_rules
from engine import api
from engine.importers import vasl

ORCHARD = 63                # VASL's Orchard terrain code


def orchard_position(folder):
    d = Drawing()
    d.disc(*centre("E3"), 24, code=ORCHARD)
    api.save_board(d.board({"E3": "orchard"}), folder / "t1.json")
    data = {"format": "starshell-scenario", "version": 1, "title": "ssr",
            "map": [{"board": "t1.json", "at": [0, 0]}], "units": [], "markers": []}
    (folder / "p.json").write_text(json.dumps(data))
    return folder / "p.json"


def thread_open(w) -> bool:
    return api.night.los_thread(w.document.scenario, "t1A2", "t1I4", start_level=1).day_clear


def test_a_rule_chosen_in_the_panel_opens_a_line_undo_closes_it_the_file_keeps_it(
        window_on, tmp_path, qtbot):
    w = window_on(orchard_position(tmp_path))
    panel = w.layout_panel.ssr
    assert not thread_open(w)
    k = panel.choice.findText("Orchards out of season")
    assert k >= 0 and panel.choice.itemData(k) == "OrchardOutOfSeason"
    panel.choice.setCurrentIndex(k)
    steps = w.document.undo_stack.count()
    assert panel.add(panel.choice.currentData())
    settle(qtbot, w.document)
    assert w.document.undo_stack.count() == steps + 1
    assert thread_open(w)
    assert [panel.rules.item(i).text() for i in range(panel.rules.count())] == [
        "Orchards out of season"]
    assert "SSR: Orchards out of season" in w.layout_panel.boards.item(0).text()
    w.document.undo_stack.undo()
    settle(qtbot, w.document)
    assert not thread_open(w) and panel.rules.count() == 0
    w.document.undo_stack.redo()
    w.document.save(str(tmp_path / "saved.json"))
    assert json.loads((tmp_path / "saved.json").read_text())["ssr"] == ["OrchardOutOfSeason"]
    assert w.layout_panel.boards.count() == 1 and w.board_editor.unsaved() == []


def test_a_rule_of_one_board_and_an_unknown_rule_is_named_not_dropped(window_on, tmp_path, qtbot):
    w = window_on(orchard_position(tmp_path))
    panel = w.layout_panel.ssr
    panel.scope.setCurrentIndex(panel.scope.findData(0))
    assert set_rules(w.board_editor, ["OrchardOutOfSeason", "FooBar"], 0)
    settle(qtbot, w.document)
    assert w.document.scenario.map_entries[0].ssr == ("OrchardOutOfSeason", "FooBar")
    assert w.document.scenario.ssr == ()
    assert thread_open(w)
    assert panel.missing.text() == "SSR not applied: FooBar" and not panel.missing.isHidden()
    assert "SSR not applied: FooBar" in w.statusBar().currentMessage()
    assert panel.rules.item(1).text() == "FooBar \u2013 not applied"
    w.document.save(str(tmp_path / "saved.json"))
    data = json.loads((tmp_path / "saved.json").read_text())
    assert data["map"][0]["ssr"] == ["OrchardOutOfSeason", "FooBar"] and "ssr" not in data


def test_save_board_as_saves_the_board_without_the_positions_rules(window_on, tmp_path, qtbot):
    w = window_on(orchard_position(tmp_path))
    assert set_rules(w.board_editor, ["OrchardOutOfSeason"], WHOLE_MAP)
    settle(qtbot, w.document)
    assert w.document.scenario.map.terrain_name(
        w.document.scenario.map.index("t1E3")) == "orchard_out_of_season"
    assert w.board_editor.save_board_as(0, str(tmp_path / "copy.json"))
    saved = api.load_board(tmp_path / "copy.json")
    assert saved.at(4, 3).terrain == "orchard"
    assert saved.content_key == api.load_board(tmp_path / "t1.json").content_key
    assert w.board_editor.unsaved() == []


@pytest.fixture
def picture_position(tmp_path):
    b = synth.SynthBoard(size=(33, 10))
    b.hex_("C4", "grain")
    b.hex_("H6", "woods")
    board, _ = vasl.import_board(b.write(tmp_path / "bd81"))
    api.save_board(board, tmp_path / "bd81.json")
    data = {"format": "starshell-scenario", "version": 1, "title": "picture",
            "map": [{"board": "bd81.json", "at": [0, 0]}], "units": [], "markers": []}
    (tmp_path / "p.json").write_text(json.dumps(data))
    return tmp_path / "p.json"


def test_the_picture_takes_the_seasons_colours_and_undo_gives_summer_back(
        window_on, picture_position, qtbot):
    w = window_on(picture_position)
    x, y = (int(v) + 12 for v in synth.centre(2, 4))        # in C4, off its dot: grain

    def colour():
        (item,) = w.scene.board_art
        c = item.image.pixelColor(x, y)
        return c.red(), c.green(), c.blue()
    assert colour() == synth.COLOURS["GrainL0"]
    panel = w.layout_panel.ssr
    panel.month.setCurrentIndex(panel.month.findData(11))   # November: no grain (rules.md 11.2)
    assert panel.apply_preset(panel.month.currentData(), panel.ground.currentData())
    settle(qtbot, w.document)
    assert w.document.scenario.ssr == ("OrchardOutOfSeason", "NoGrain")
    assert colour() == synth.COLOURS["Level0"]
    m = w.document.scenario.map
    assert m.terrain_name(m.index("81C4")) == "open"
    w.document.undo_stack.undo()
    settle(qtbot, w.document)
    assert colour() == synth.COLOURS["GrainL0"]


def test_a_position_opened_with_an_unknown_rule_names_it_in_the_status_bar(
        window_on, tmp_path, qtbot):
    path = orchard_position(tmp_path)
    data = json.loads(path.read_text())
    data["map"][0]["ssr"] = ["NoGrain", "Level9ToLevel0"]
    path.write_text(json.dumps(data))
    w = window_on(path)
    qtbot.waitUntil(lambda: "SSR not applied: Level9ToLevel0" in w.statusBar().currentMessage())
    assert w.layout_panel.ssr.missing.text() == "SSR not applied: Level9ToLevel0"
