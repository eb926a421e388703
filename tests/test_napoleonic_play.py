"""The fire room as the game is played (SPEC.md turn three, "Fire room"; RULES.md 8 and 10): the
board in its own game's terrain, ranges and units in the way, results applied to the units, the
inadvertent-hit exception, refusals that print no odds."""
from __future__ import annotations

import json

import pytest

from engine.api import ScenarioError, assets_dir
from engine.api import napoleonic as nap
from engine.boards import board_from_json

FIRE = assets_dir() / "fire"


def pack_json() -> dict:
    return json.loads((FIRE / "charts" / "sample.json").read_text())


def board_json() -> dict:
    return json.loads((FIRE / "boards" / "n1.json").read_text())


def unit(uid, side, hex_id, **kw) -> dict:
    d = {"id": uid, "side": side, "nation": side, "troop": "line", "arm": "infantry",
         "formation": "line", "increments": 4, "printed": 6, "hex": hex_id}
    d.update(kw)
    return d


def make(tmp_path, units, board=None, pack=None, **keys):
    """A position beside its own board and pack, loaded."""
    (tmp_path / "b.json").write_text(json.dumps(board or board_json()))
    (tmp_path / "p.json").write_text(json.dumps(pack or pack_json()))
    data = {"format": "starshell-fire", "version": 1, "title": "t",
            "map": [{"board": "b.json", "at": [0, 0]}], "charts": "p.json", "segment": "fire",
            "first_fire": False, "attacked": [], "units": units}
    data.update(keys)
    (tmp_path / "pos.json").write_text(json.dumps(data))
    return nap.load_position(tmp_path / "pos.json")


# ------------------------------------------------------------------ the game's own terrain

def test_a_board_uses_its_packs_terrain_names(tmp_path):
    board = board_json()
    board["hexes"]["E4"] = {"terrain": "chateau"}
    pos = make(tmp_path, [unit("F1", "french", "n1C4"), unit("B1", "british", "n1E4")], board)
    assert pos.terrain_at(pos.map.index("n1E4")) == "chateau"
    assert pos.terrain_at(pos.map.index("n1M6")) == "village"
    a = nap.assess(pos, "n1E4")
    assert a.defence == 16 and "chateau" in a.defence_how     # the pack's chateau row


def test_a_terrain_the_pack_does_not_name_is_refused_naming_file_and_hex(tmp_path):
    board = board_json()
    board["hexes"]["E4"] = {"terrain": "grain"}                # ASL's, not this pack's
    with pytest.raises(ScenarioError) as err:
        make(tmp_path, [], board)
    msg = str(err.value)
    assert "b.json" in msg and "hexes.E4.terrain" in msg and "village" in msg


def test_a_pack_terrain_row_gives_height_to_the_los(tmp_path):
    pack = pack_json()
    pack["terrain"].append({"name": "hedge_town", "height": 3, "hindrance": False})
    board = board_json()
    board["hexes"]["C5"] = {"terrain": "hedge_town"}
    units = [unit("F1", "french", "n1C4"), unit("B1", "british", "n1C6")]
    ok, why = nap.has_los(make(tmp_path, units, board, pack), "n1C4", "n1C6")
    assert not ok and "hedge_town" in why
    pack["terrain"][-1]["height"] = 0
    assert nap.has_los(make(tmp_path, units, board, pack), "n1C4", "n1C6")[0]


def test_the_night_room_keeps_asls_list():
    board = board_json()
    with pytest.raises(ScenarioError, match="unknown terrain 'village'"):
        board_from_json(board)
