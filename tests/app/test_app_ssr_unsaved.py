"""A board under the scenario's terrain SSRs (rules.md 11.2) is the file's board: the position's
boards are not 'unsaved' because the map applies rules to them."""
from __future__ import annotations

import json

from test_raster_los import Drawing, centre

from app.night.editor.unsaved import unsaved_boards
from engine.api import night, save_board


def test_a_board_under_rules_is_saved_and_an_edited_one_is_not(tmp_path):
    d = Drawing()
    d.disc(*centre("E3"), 30, code=24)                 # grain
    save_board(d.board({"E3": "grain"}), tmp_path / "t1.json")
    data = {"format": "starshell-scenario", "version": 1, "title": "ssr",
            "map": [{"board": "t1.json", "at": [0, 0], "ssr": ["NoGrain"]}],
            "ssr": ["Level1ToLevel0"], "units": [], "markers": []}
    (tmp_path / "p.json").write_text(json.dumps(data))
    s = night.load_scenario(tmp_path / "p.json")
    assert s.map.terrain_name(s.map.index("t1E3")) == "open"
    assert unsaved_boards(s) == []
    (tmp_path / "t1.json").write_text((tmp_path / "t1.json").read_text().replace(
        '"grain"', '"woods"'))
    assert unsaved_boards(s) == [0]
