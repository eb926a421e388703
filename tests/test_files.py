"""Board and scenario files (SPEC.md): load, validate, save, round trips, refusals."""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

import engine
from engine.boards import Board, HexTerrain, board_to_json, bundled_board, load_board, save_board
from engine.hexes import parse_local
from engine.jsonio import MAX_FILE_BYTES
from engine.night.files import load_scenario, save_scenario, scenario_from_json, scenario_to_json

# SPEC.md's example scenario, as written there
SPEC_SCENARIO = {
    "format": "starshell-scenario", "version": 1,
    "title": "W-10 leader places a starshell",
    "map": [{"board": "2", "at": [0, 0], "rotated": False}],
    "nvr": 3,
    "phase": "PFPh",
    "attacker": "allied",
    "starshells_used": "never",
    "units": [
        {"id": "L1", "side": "allied", "type": "leader", "hex": "2T6"},
        {"id": "S1", "side": "axis", "type": "squad", "hex": "2BB5"},
        {"id": "T1", "side": "axis", "type": "afv", "hex": "2Z4", "tracked": True,
         "bu": False, "moving": "entered"},
    ],
    "markers": [
        {"type": "starshell", "hex": "2BB3"},
        {"type": "gunflash", "hex": "2CC6"},
        {"type": "blaze", "hex": "2H9", "radius": 2},
    ],
}

# SPEC.md's example board file
SPEC_BOARD = {
    "format": "starshell-board", "version": 1,
    "id": "t1", "title": "A small example",
    "default": {"terrain": "open", "level": 0},
    "hexes": {
        "CC8": {"level": 2},
        "K5": {"terrain": "woods"},
        "E4": {"terrain": "building", "building": "b1", "upper_levels": 1},
        "E5": {"terrain": "building", "building": "b1", "upper_levels": 1},
        "H7": {"terrain": "dense_jungle"},
    },
}


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    elif isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def scenario(**changes) -> dict:
    d = copy.deepcopy(SPEC_SCENARIO)
    d.update(changes)
    return d


# ================================================================== loading what SPEC.md shows

def test_spec_example_scenario_loads(tmp_path):
    s = load_scenario(write(tmp_path / "s.json", SPEC_SCENARIO))
    assert s.title == "W-10 leader places a starshell"
    assert (s.nvr, s.phase, s.attacker, s.starshells_used) == (3, "PFPh", "allied", "never")
    assert [u.id for u in s.units] == ["L1", "S1", "T1"]
    t1 = s.unit("T1")
    assert (t1.type, t1.hex, t1.tracked, t1.bu, t1.moving) == ("afv", "2Z4", True, False, "entered")
    assert t1.is_ce            # vehicles are CE when not BU
    assert not s.unit("S1").is_ce
    assert [(m.type, m.hex) for m in s.markers] == [("starshell", "2BB3"), ("gunflash", "2CC6"),
                                                    ("blaze", "2H9")]
    assert s.markers[2].radius == 2 and s.markers[0].radius is None
    assert s.map.size == 346


def test_spec_example_board_loads(tmp_path):
    b = load_board(write(tmp_path / "t1.json", SPEC_BOARD))
    assert b.id == "t1" and b.title == "A small example"
    assert b.at(*parse_local("CC8")) == HexTerrain("open", 2)
    assert b.at(*parse_local("K5")).terrain == "woods"
    e4 = b.at(*parse_local("E4"))
    assert (e4.terrain, e4.building, e4.upper_levels) == ("building", "b1", 1)
    assert b.at(*parse_local("H7")).terrain == "dense_jungle"
    assert b.at(*parse_local("A1")) == HexTerrain("open", 0)     # sparse: not listed = default


def test_a_listed_hex_takes_what_it_does_not_say_from_the_default(tmp_path):
    d = copy.deepcopy(SPEC_BOARD)
    d["default"] = {"terrain": "grain", "level": 1}
    b = load_board(write(tmp_path / "t1.json", d))
    assert b.at(*parse_local("CC8")) == HexTerrain("grain", 2)
    assert b.at(*parse_local("K5")) == HexTerrain("woods", 1)
    assert b.at(*parse_local("A1")) == HexTerrain("grain", 1)


def test_defaults_of_optional_scenario_keys(tmp_path):
    d = {"format": "starshell-scenario", "version": 1, "map": [{"board": "2", "at": [0, 0]}]}
    s = load_scenario(write(tmp_path / "s.json", d))
    assert (s.title, s.nvr, s.phase, s.attacker, s.starshells_used) == ("", 3, "PFPh", "allied",
                                                                        "never")
    assert s.units == () and s.markers == () and s.starshell_attempts == ()
    # attacker defaults to the side of the first unit
    d["units"] = [{"id": "G1", "side": "axis", "type": "squad", "hex": "2A1"}]
    assert load_scenario(write(tmp_path / "s2.json", d)).attacker == "axis"
    # `at` and `rotated` of a map entry
    d["map"] = [{"board": "2"}]
    s = load_scenario(write(tmp_path / "s3.json", d))
    assert s.map_entries[0].at == (0, 0) and s.map_entries[0].rotated is False


def test_hexes_are_stored_by_their_canonical_name(tmp_path):
    d = scenario(map=[{"board": "2", "at": [0, 0]}, {"board": "34", "at": [1, 0]}],
                 units=[{"id": "A", "side": "x", "type": "squad", "hex": "2GG5"}],
                 markers=[{"type": "gunflash", "hex": "2GG6"}], starshell_attempts=["2GG7"])
    s = load_scenario(write(tmp_path / "s.json", d))
    assert s.units[0].hex == "34A5"
    assert s.markers[0].hex == "34A6"
    assert s.starshell_attempts == ("34A7",)


def test_a_board_file_next_to_the_scenario_uses_its_own_ids(tmp_path):
    write(tmp_path / "t1.json", SPEC_BOARD)
    d = scenario(map=[{"board": "t1.json", "at": [0, 0]}],
                 units=[{"id": "A", "side": "x", "type": "squad", "hex": "t1E4", "level": 1}],
                 markers=[])
    s = load_scenario(write(tmp_path / "s.json", d))
    assert s.units[0].hex == "t1E4" and s.units[0].level == 1
    assert s.map.terrain_name(s.map.index("t1K5")) == "woods"


# ================================================================== round trips

def extra_rich(tmp_path) -> Path:
    """A scenario with unknown keys everywhere, on a board file beside it with unknown keys."""
    board = copy.deepcopy(SPEC_BOARD)
    board["author"] = {"name": "me", "tags": [1, 2]}
    board["hexes"]["K5"]["note"] = "the orchard"
    board["default"]["colour"] = "green"
    write(tmp_path / "boards" / "t1.json", board)
    d = scenario(
        map=[{"board": "2", "at": [0, 0], "label": "west"},
             {"board": "boards/t1.json", "at": [1, 0], "rotated": True, "x-note": [None]}],
        units=[{"id": "L1", "side": "allied", "type": "leader", "hex": "2T6", "nickname": "Joe",
                "counter": {"art": "l8-1.png"}},
               {"id": "T1", "side": "axis", "type": "afv", "hex": "t1E5", "tracked": True,
                "moving": "entered", "ce": False, "motorized": True}],
        markers=[{"type": "blaze", "hex": "2H9", "radius": 2, "turn": 3},
                 {"type": "first_fire", "hex": "2T6", "side": "allied"}],
        starshell_attempts=["2T6"],
        future={"nested": {"deep": [1, 2.5, "x"]}},
        concealment_rules="E1.8",
    )
    return write(tmp_path / "s.json", d)


def test_unknown_keys_survive_load_and_save(tmp_path):
    src = extra_rich(tmp_path)
    s = load_scenario(src)
    out = tmp_path / "copy.json"
    save_scenario(s, out)
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["future"] == {"nested": {"deep": [1, 2.5, "x"]}}
    assert saved["concealment_rules"] == "E1.8"
    assert saved["map"][0]["label"] == "west"
    assert saved["map"][1]["x-note"] == [None]
    assert saved["map"][1]["rotated"] is True
    assert saved["units"][0]["nickname"] == "Joe"
    assert saved["units"][0]["counter"] == {"art": "l8-1.png"}
    assert saved["markers"][0]["turn"] == 3
    assert saved["markers"][1]["side"] == "allied"
    assert saved["starshell_attempts"] == ["2T6"]
    # and the reloaded scenario is the same position
    again = load_scenario(out)
    assert again.units == s.units and again.markers == s.markers
    assert [u.extra for u in again.units] == [u.extra for u in s.units]
    assert again.extra == s.extra
    assert again.map.names == s.map.names


def test_unknown_keys_of_a_board_survive_load_and_save(tmp_path):
    extra_rich(tmp_path)
    src = tmp_path / "boards" / "t1.json"
    b = load_board(src)
    out = tmp_path / "b2.json"
    save_board(b, out)
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["author"] == {"name": "me", "tags": [1, 2]}
    assert saved["hexes"]["K5"] == {"terrain": "woods", "note": "the orchard"}
    assert saved["default"]["colour"] == "green"
    assert saved["format"] == "starshell-board" and saved["version"] == 1 and saved["id"] == "t1"
    again = load_board(out)
    assert again.hexes == b.hexes and again.default == b.default
    assert board_to_json(again) == board_to_json(b)


@pytest.mark.parametrize("bid", ["1", "2", "34"])
def test_bundled_boards_round_trip(tmp_path, bid):
    b = bundled_board(bid)
    save_board(b, tmp_path / "b.json")
    again = load_board(tmp_path / "b.json")
    assert again.id == bid
    assert all(again.at(c, n) == b.at(c, n) for c in range(33) for n in range(11))


def test_save_writes_what_spec_shows(tmp_path):
    s = load_scenario(write(tmp_path / "s.json", SPEC_SCENARIO))
    save_scenario(s, tmp_path / "out.json")
    saved = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert saved["format"] == "starshell-scenario" and saved["version"] == 1
    assert saved["map"] == [{"board": "2", "at": [0, 0]}]
    for k in ("title", "nvr", "phase", "attacker", "starshells_used"):
        assert saved[k] == SPEC_SCENARIO[k]
    assert saved["units"][2]["tracked"] is True and saved["units"][2]["moving"] == "entered"
    assert saved["markers"] == SPEC_SCENARIO["markers"]
    assert scenario_to_json(load_scenario(tmp_path / "out.json")) == scenario_to_json(s)


# ================================================================== atomic saving

def test_save_keeps_the_previous_file_as_bak(tmp_path):
    path = write(tmp_path / "pos.json", SPEC_SCENARIO)
    first = path.read_bytes()
    s = load_scenario(path)
    save_scenario(s.replace(nvr=5), path)
    assert (tmp_path / "pos.json.bak").read_bytes() == first
    second = path.read_bytes()
    assert json.loads(second)["nvr"] == 5
    save_scenario(s.replace(nvr=6), path)
    assert (tmp_path / "pos.json.bak").read_bytes() == second
    assert load_scenario(path).nvr == 6
    # no temporary files are left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.json", "pos.json.bak"]


def test_first_save_makes_no_bak(tmp_path):
    s = load_scenario(write(tmp_path / "a" / "s.json", SPEC_SCENARIO))
    save_scenario(s, tmp_path / "new.json")
    assert not (tmp_path / "new.json.bak").exists()
    assert load_scenario(tmp_path / "new.json").units == s.units


def test_failed_replace_leaves_the_old_file_and_names_it(tmp_path, monkeypatch):
    path = write(tmp_path / "pos.json", SPEC_SCENARIO)
    before = path.read_bytes()
    s = load_scenario(path)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(engine.ScenarioError) as e:
        save_scenario(s.replace(nvr=9), path)
    assert str(path) in str(e.value)
    assert "save" in str(e.value)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = write(tmp_path / "pos.json", SPEC_SCENARIO)
    before = path.read_bytes()
    s = load_scenario(path)

    def broken_fsync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(engine.ScenarioError) as e:
        save_scenario(s.replace(nvr=9), path)
    monkeypatch.undo()
    assert str(path) in str(e.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.json"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write into a read-only folder")
def test_save_into_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    path = write(folder / "pos.json", SPEC_SCENARIO)
    before = path.read_bytes()
    s = load_scenario(path)
    folder.chmod(0o500)
    try:
        with pytest.raises(engine.ScenarioError) as e:
            save_scenario(s.replace(nvr=9), path)
        assert str(path) in str(e.value)
        assert path.read_bytes() == before
    finally:
        folder.chmod(0o700)


def test_save_where_no_file_may_be_created(tmp_path, monkeypatch):
    """As a read-only folder would (root ignores permissions): creating any file fails."""
    import tempfile
    path = write(tmp_path / "pos.json", SPEC_SCENARIO)
    before = path.read_bytes()
    s = load_scenario(path)

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(engine.ScenarioError) as e:
        save_scenario(s.replace(nvr=9), path)
    monkeypatch.undo()
    assert str(path) in str(e.value) and "Permission denied" in str(e.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.json"]


def test_save_into_a_missing_folder_or_onto_a_folder(tmp_path):
    s = load_scenario(write(tmp_path / "s.json", SPEC_SCENARIO))
    target = tmp_path / "nowhere" / "s.json"
    with pytest.raises(engine.ScenarioError) as e:
        save_scenario(s, target)
    assert str(target) in str(e.value)
    (tmp_path / "adir").mkdir()
    with pytest.raises(engine.ScenarioError) as e:
        save_scenario(s, tmp_path / "adir")
    assert "adir" in str(e.value)
    assert (tmp_path / "adir").is_dir()


def test_what_cannot_be_written_fails_before_touching_the_file(tmp_path):
    path = write(tmp_path / "pos.json", SPEC_SCENARIO)
    before = path.read_bytes()
    s = load_scenario(path)
    with pytest.raises(engine.ScenarioError) as e:
        save_scenario(s.replace(title="bad \ud800 text"), path)
    assert str(path) in str(e.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pos.json"]


def test_board_save_is_atomic_too(tmp_path, monkeypatch):
    path = write(tmp_path / "t1.json", SPEC_BOARD)
    before = path.read_bytes()
    b = load_board(path)
    save_board(b.with_hex(*parse_local("A1"), HexTerrain("woods")), path)
    assert (tmp_path / "t1.json.bak").read_bytes() == before
    assert load_board(path).at(*parse_local("A1")).terrain == "woods"
    now = path.read_bytes()
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(13, "denied")))
    with pytest.raises(engine.ScenarioError) as e:
        save_board(b, path)
    monkeypatch.undo()
    assert str(path) in str(e.value)
    assert path.read_bytes() == now


# ================================================================== relative board paths

def test_relative_board_paths_follow_a_save_elsewhere(tmp_path):
    write(tmp_path / "a" / "t1.json", SPEC_BOARD)
    d = scenario(map=[{"board": "2", "at": [0, 0]}, {"board": "t1.json", "at": [1, 0]}],
                 units=[{"id": "A", "side": "x", "type": "squad", "hex": "t1K5"}], markers=[])
    s = load_scenario(write(tmp_path / "a" / "s.json", d))

    out = tmp_path / "b" / "deeper" / "s.json"
    out.parent.mkdir(parents=True)
    save_scenario(s, out)
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["map"][0]["board"] == "2"                       # bundled ids stay
    assert saved["map"][1]["board"] == "../../a/t1.json"
    again = load_scenario(out)
    assert again.units[0].hex == "t1K5"
    assert again.map.terrain_name(again.map.index("t1K5")) == "woods"

    # saved again, from its new place, into the board's own folder: a plain name again
    back = tmp_path / "a" / "s2.json"
    save_scenario(again, back)
    assert json.loads(back.read_text(encoding="utf-8"))["map"][1]["board"] == "t1.json"
    assert load_scenario(back).units == s.units

    # the scenario returned by save_scenario is anchored at the new folder
    moved = save_scenario(s, tmp_path / "c.json")
    assert moved.map_entries[1].board == "a/t1.json"
    save_scenario(moved, tmp_path / "b" / "c2.json")
    assert load_scenario(tmp_path / "b" / "c2.json").units == s.units


def test_board_in_a_subfolder_and_saving_in_place(tmp_path):
    write(tmp_path / "boards" / "t1.json", SPEC_BOARD)
    d = scenario(map=[{"board": "boards/t1.json", "at": [0, 0]}], units=[], markers=[])
    path = write(tmp_path / "s.json", d)
    s = load_scenario(path)
    save_scenario(s, path)
    assert json.loads(path.read_text(encoding="utf-8"))["map"][0]["board"] == "boards/t1.json"
    assert load_scenario(path).map.names == s.map.names


def test_loading_does_not_depend_on_the_working_folder(tmp_path, monkeypatch):
    write(tmp_path / "x" / "t1.json", SPEC_BOARD)
    write(tmp_path / "x" / "s.json",
          scenario(map=[{"board": "t1.json", "at": [0, 0]}], units=[], markers=[]))
    monkeypatch.chdir(tmp_path)
    assert load_scenario(Path("x") / "s.json").map.board_ids == ["t1"]


# ================================================================== refusals

def _board_file(tmp_path, change):
    b = copy.deepcopy(SPEC_BOARD)
    change(b)
    write(tmp_path / "t1.json", b)


def _units(*units):
    return lambda d: d.__setitem__("units", list(units))


def _set(path: str, value):
    """A change that sets one place, e.g. _set("units[1].hex", "2CC11")."""
    def change(d):
        obj = d
        parts = path.replace("]", "").replace("[", ".").split(".")
        for p in parts[:-1]:
            obj = obj[int(p)] if isinstance(obj, list) else obj[p]
        last = parts[-1]
        if isinstance(obj, list):
            obj[int(last)] = value
        else:
            obj[last] = value
    return change


def _drop(key):
    return lambda d: d.pop(key)


AFV = {"id": "T1", "side": "axis", "type": "afv", "hex": "2Z4"}
SQUAD = {"id": "S1", "side": "axis", "type": "squad", "hex": "2BB5"}
LEADER = {"id": "L1", "side": "allied", "type": "leader", "hex": "2T6"}
BASE_JSON = json.dumps(SPEC_SCENARIO)

# (case id, change to the SPEC example, or raw file content, expected place, key words)
# place None: the whole file.  Key words are looked for in the problem, case-insensitively.
MALFORMED = [
    ("invalid-json", '{"format": "starshell-scenario", "version": 1,', "line 1", ["invalid json"]),
    ("trailing-comma", BASE_JSON[:-1] + ",}", "line 1", ["invalid json"]),
    ("empty-file", "", None, ["empty"]),
    ("blank-file", "  \n\t\n", None, ["empty"]),
    ("binary-file", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", None, ["binary"]),
    ("not-utf8", b'{"title": "caf\xe9"}', None, ["utf-8"]),
    ("top-is-list", "[1, 2]", None, ["object"]),
    ("top-is-string", '"scenario"', None, ["object"]),
    ("top-is-null", "null", None, ["object"]),
    ("wrong-format", _set("format", "starshell-save"), "format", ["starshell-scenario"]),
    ("board-file-as-scenario", SPEC_BOARD, "format", ["board file"]),
    ("missing-format", _drop("format"), "format", ["starshell-scenario"]),
    ("version-2", _set("version", 2), "version", ["version", "2"]),
    ("version-string", _set("version", "1"), "version", ["version"]),
    ("version-float", _set("version", 1.0), "version", ["version"]),
    ("missing-version", _drop("version"), "version", ["version"]),
    ("missing-map", _drop("map"), "map", ["required"]),
    ("map-not-a-list", _set("map", {"board": "2", "at": [0, 0]}), "map", ["list"]),
    ("map-empty", _set("map", []), "map", ["list"]),
    ("map-entry-not-object", _set("map", ["2"]), "map[0]", ["object"]),
    ("map-board-missing", _set("map", [{"at": [0, 0]}]), "map[0].board", ["string"]),
    ("bad-slot-negative", _set("map[0].at", [-1, 0]), "map[0].at", ["slot"]),
    ("bad-slot-one-number", _set("map[0].at", [0]), "map[0].at", ["slot"]),
    ("bad-slot-float", _set("map[0].at", [0, 0.5]), "map[0].at", ["whole"]),
    ("bad-slot-string", _set("map[0].at", "0,0"), "map[0].at", ["slot"]),
    ("rotated-not-bool", _set("map[0].rotated", "yes"), "map[0].rotated", ["true or false"]),
    ("two-boards-one-slot", _set("map", [{"board": "2", "at": [0, 0]},
                                         {"board": "34", "at": [0, 0]}]),
     "map[1].at", ["two boards"]),
    ("same-board-twice", _set("map", [{"board": "2", "at": [0, 0]},
                                      {"board": "2", "at": [1, 0]}]),
     "map[1].board", ["twice"]),
    ("unknown-bundled-board", _set("map[0].board", "99"), "map[0].board", ["no bundled board"]),
    ("bundled-board-outside-assets", _set("map[0].board", "../scenarios/default"),
     "map[0].board", ["no bundled board"]),
    ("missing-board-file", _set("map[0].board", "nothere.json"), "map[0].board", ["not found"]),
    ("nvr-negative", _set("nvr", -1), "nvr", ["0 to"]),
    ("nvr-float", _set("nvr", 2.5), "nvr", ["whole number"]),
    ("nvr-bool", _set("nvr", True), "nvr", ["whole number"]),
    ("nvr-string", _set("nvr", "3"), "nvr", ["whole number"]),
    ("nvr-nan", BASE_JSON.replace('"nvr": 3', '"nvr": NaN'), "nvr", ["nan"]),
    ("nvr-infinity", BASE_JSON.replace('"nvr": 3', '"nvr": -Infinity'), "nvr", ["infinity"]),
    ("nvr-overflow", BASE_JSON.replace('"nvr": 3', '"nvr": 1e999'), "nvr", ["finite"]),
    ("nvr-written-twice", BASE_JSON.replace('"nvr": 3', '"nvr": 3, "nvr": 4'), "nvr", ["twice"]),
    ("unknown-phase", _set("phase", "Night"), "phase", ["one of", "PFPh"]),
    ("title-not-string", _set("title", 5), "title", ["string"]),
    ("starshells-used-bad", _set("starshells_used", "always"), "starshells_used", ["one of"]),
    ("attacker-third-side", _set("attacker", "russian"), "attacker", ["neither side"]),
    ("attacker-empty", _set("attacker", ""), "attacker", ["non-empty"]),
    ("units-not-a-list", _set("units", {"L1": {}}), "units", ["list"]),
    ("unit-not-an-object", _set("units[1]", "S1"), "units[1]", ["object"]),
    ("unit-missing-id", _units(LEADER, {k: v for k, v in SQUAD.items() if k != "id"}),
     "units[1].id", ["string", "missing"]),
    ("unit-id-number", _set("units[0].id", 1), "units[0].id", ["string"]),
    ("duplicate-unit-ids", _units(LEADER, SQUAD, {**AFV, "id": "S1"}), "units[2].id", ["twice"]),
    ("three-sides", _units(LEADER, SQUAD, {**AFV, "side": "russian"}), "units[2].side",
     ["third side"]),
    ("unknown-unit-type", _set("units[1].type", "tank"), "units[1].type", ["one of", "squad"]),
    ("unit-missing-hex", _units(LEADER, {k: v for k, v in SQUAD.items() if k != "hex"}),
     "units[1].hex", ["hex id"]),
    ("hex-off-the-board", _set("units[1].hex", "2CC11"), "units[1].hex", ["cc11", "not on a board"]),
    ("hex-on-no-board-of-the-map", _set("units[1].hex", "34A1"), "units[1].hex",
     ["not on this map"]),
    ("malformed-hex", _set("units[1].hex", "BB5"), "units[1].hex", ["not a hex id"]),
    ("hex-leading-zero", _set("units[1].hex", "2BB05"), "units[1].hex", ["not a hex id"]),
    ("hex-trailing-newline", _set("units[1].hex", "2BB5\n"), "units[1].hex", ["not a hex id"]),
    ("hex-not-string", _set("units[1].hex", 25), "units[1].hex", ["hex id"]),
    ("level-above-the-building", lambda d: None, "units[0].level", ["above"]),   # see below
    ("level-on-open-ground", _set("units[1].level", 1), "units[1].level", ["above"]),
    ("level-not-int", _set("units[1].level", "1"), "units[1].level", ["whole number"]),
    ("bu-and-ce", _units(LEADER, {**AFV, "bu": True, "ce": True}), "units[1]", ["both"]),
    ("bu-on-a-squad", _set("units[1].bu", True), "units[1].bu", ["buttoned up", "squad"]),
    ("ce-on-a-squad", _set("units[1].ce", True), "units[1].ce", ["ce", "squad"]),
    ("moving-on-a-squad", _set("units[1].moving", "entered"), "units[1].moving",
     ["vehicle", "squad"]),
    ("moving-unknown", _set("units[2].moving", "flying"), "units[2].moving", ["one of"]),
    ("tracked-on-a-squad", _set("units[1].tracked", True), "units[1].tracked",
     ["vehicle", "squad"]),
    ("ir-on-a-squad", _set("units[1].ir", True), "units[1].ir", ["mortar", "squad"]),
    ("broken-not-bool", _set("units[0].broken", "yes"), "units[0].broken", ["true or false"]),
    ("unit-nan", BASE_JSON.replace('"tracked": true', '"tracked": NaN'), "units[2].tracked",
     ["nan"]),
    ("radius-on-a-starshell", _set("markers[0].radius", 2), "markers[0].radius",
     ["radius", "starshell"]),
    ("negative-radius", _set("markers[2].radius", -1), "markers[2].radius", ["0 to"]),
    ("radius-not-int", _set("markers[2].radius", 1.5), "markers[2].radius", ["whole number"]),
    ("unknown-marker-type", _set("markers[1].type", "flare"), "markers[1].type",
     ["one of", "starshell"]),
    ("marker-not-an-object", _set("markers[0]", ["starshell", "2BB3"]), "markers[0]", ["object"]),
    ("marker-bad-hex", _set("markers[1].hex", "2ZZ9"), "markers[1].hex", ["zz"]),
    ("marker-side-empty", _set("markers[1].side", " "), "markers[1].side", ["side"]),
    ("markers-not-a-list", _set("markers", "starshell"), "markers", ["list"]),
    ("starshell-attempts-bad-hex", _set("starshell_attempts", ["2T6", "2A0"]),
     "starshell_attempts[1]", ["a0"]),
    ("starshell-attempts-not-a-list", _set("starshell_attempts", "2T6"), "starshell_attempts",
     ["list"]),
    ("lone-surrogate", BASE_JSON.replace('"W-10 leader', '"W-10 \\ud800 leader'), "title",
     ["unicode"]),
    ("deep-nesting", BASE_JSON[:-1] + ', "x": ' + "[" * 40 + "]" * 40 + "}", None, ["nested"]),
    ("very-deep-nesting", "[" * 200000 + "]" * 200000, None, ["nested"]),
    ("huge-file", None, None, ["too large"]),                                     # see below
    ("bad-board-file-beside", None, "map[0].board", ["hexes.a0"]),               # see below
]

def _level_above_building(d):
    d["map"] = [{"board": "t1.json", "at": [0, 0]}]
    d["units"] = [{"id": "A", "side": "x", "type": "squad", "hex": "t1E4", "level": 2}]
    d["markers"] = []


def _prepare(tmp_path: Path, case: str, content) -> Path:
    path = tmp_path / f"{case}.json"
    write(tmp_path / "t1.json", SPEC_BOARD)
    if case == "huge-file":
        path.write_bytes(b'{"title": "' + b"x" * (MAX_FILE_BYTES + 10) + b'"}')
        return path
    if case == "bad-board-file-beside":
        _board_file(tmp_path, lambda b: b["hexes"].__setitem__("A0", {}))
        return write(path, scenario(map=[{"board": "t1.json", "at": [0, 0]}], units=[],
                                    markers=[]))
    if case == "level-above-the-building":
        content = _level_above_building
    if callable(content):
        d = copy.deepcopy(SPEC_SCENARIO)
        content(d)
        return write(path, d)
    return write(path, content)


def test_malformed_table_is_large_and_distinct():
    ids = [c[0] for c in MALFORMED]
    assert len(ids) == len(set(ids)) >= 30


@pytest.mark.parametrize("case, content, place, words", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_scenarios_are_refused(tmp_path, case, content, place, words):
    path = _prepare(tmp_path, case, content)
    with pytest.raises(engine.ScenarioError) as e:
        load_scenario(path)
    err = e.value
    message = str(err)
    assert err.file == str(path)
    assert message.startswith(str(path) + ": ")
    if place is None:
        assert err.place is None
    elif place == "line 1":
        assert err.place.startswith("line 1 column ")
    else:
        assert err.place == place
        assert f": {place}: " in message
    for w in words:
        assert w.lower() in err.problem.lower(), (w, err.problem)


def test_the_same_refusals_without_a_file(tmp_path):
    """scenario_from_json (data already parsed) names the place the same way."""
    d = copy.deepcopy(SPEC_SCENARIO)
    d["units"][1]["hex"] = "2CC11"
    with pytest.raises(engine.ScenarioError) as e:
        scenario_from_json(d)
    assert e.value.place == "units[1].hex"
    with pytest.raises(engine.ScenarioError) as e:
        scenario_from_json(d, file="mine.json")
    assert str(e.value).startswith("mine.json: units[1].hex: ")


def test_missing_file_and_folder_are_refused(tmp_path):
    with pytest.raises(engine.ScenarioError) as e:
        load_scenario(tmp_path / "none.json")
    assert str(tmp_path / "none.json") in str(e.value) and "no such file" in str(e.value)
    with pytest.raises(engine.ScenarioError) as e:
        load_scenario(tmp_path)
    assert "folder" in str(e.value)


def test_refusal_names_the_board_file_it_comes_from(tmp_path):
    _board_file(tmp_path, lambda b: b["hexes"]["K5"].__setitem__("terrain", "lava"))
    path = write(tmp_path / "s.json", scenario(map=[{"board": "t1.json", "at": [0, 0]}],
                                               units=[], markers=[]))
    with pytest.raises(engine.ScenarioError) as e:
        load_scenario(path)
    assert e.value.place == "map[0].board"
    assert str(tmp_path / "t1.json") in e.value.problem
    assert "hexes.K5.terrain" in e.value.problem and "lava" in e.value.problem


# (case id, change to SPEC_BOARD or raw content, place, key words)
MALFORMED_BOARDS = [
    ("bad-id-upper-case", _set("id", "T1"), "id", ["board id"]),
    ("bad-id-digit-first", _set("id", "1a"), "id", ["board id"]),
    ("bad-id-newline", _set("id", "t1\n"), "id", ["board id"]),
    ("bad-id-number", _set("id", 1), "id", ["board id"]),
    ("missing-id", _drop("id"), "id", ["board id"]),
    ("unknown-terrain", _set("hexes.K5.terrain", "lava"), "hexes.K5.terrain", ["unknown terrain"]),
    ("terrain-null", _set("hexes.K5.terrain", None), "hexes.K5.terrain", ["unknown terrain"]),
    ("hex-key-A0", _set("hexes.A0", {}), "hexes.A0", ["a0"]),
    ("hex-key-CC11", _set("hexes.CC11", {}), "hexes.CC11", ["cc11"]),
    ("hex-key-HH1", _set("hexes.HH1", {}), "hexes.HH1", ["hh"]),
    ("hex-key-with-board", _set("hexes.t1A1", {}), "hexes.t1A1", ["not a hex"]),
    ("hex-key-leading-zero", _set("hexes.K05", {"terrain": "grain"}), "hexes.K05", ["not a hex"]),
    ("hex-written-twice", json.dumps(SPEC_BOARD).replace('"K5": {', '"K5": {}, "K5": {'),
     "hexes.K5", ["twice"]),
    ("level-not-int", _set("hexes.CC8.level", 1.5), "hexes.CC8.level", ["whole number"]),
    ("level-string", _set("hexes.CC8.level", "2"), "hexes.CC8.level", ["whole number"]),
    ("level-bool", _set("hexes.CC8.level", True), "hexes.CC8.level", ["whole number"]),
    ("level-huge", _set("hexes.CC8.level", 1000), "hexes.CC8.level", ["whole number"]),
    ("upper-levels-on-woods", _set("hexes.K5.upper_levels", 1), "hexes.K5", ["upper_levels",
                                                                              "woods"]),
    ("building-on-open", _set("hexes.CC8.building", "b2"), "hexes.CC8", ["building", "open"]),
    ("upper-levels-negative", _set("hexes.E4.upper_levels", -1), "hexes.E4.upper_levels",
     ["upper_levels"]),
    ("building-name-empty", _set("hexes.E4.building", ""), "hexes.E4.building", ["building"]),
    ("hex-not-an-object", _set("hexes.K5", "woods"), "hexes.K5", ["object"]),
    ("hexes-not-an-object", _set("hexes", ["K5"]), "hexes", ["object"]),
    ("default-not-an-object", _set("default", "open"), "default", ["object"]),
    ("default-unknown-terrain", _set("default.terrain", "sea"), "default.terrain",
     ["unknown terrain"]),
    ("title-not-string", _set("title", ["x"]), "title", ["string"]),
    ("wrong-format", _set("format", "starshell-scenario"), "format", ["starshell-board"]),
    ("version-2", _set("version", 2), "version", ["version"]),
    ("infinite-level", json.dumps(SPEC_BOARD).replace('"level": 2', '"level": Infinity'),
     "hexes.CC8.level", ["infinity"]),
    ("top-is-list", "[]", None, ["object"]),
]


@pytest.mark.parametrize("case, content, place, words", MALFORMED_BOARDS,
                         ids=[c[0] for c in MALFORMED_BOARDS])
def test_malformed_boards_are_refused(tmp_path, case, content, place, words):
    path = tmp_path / "board.json"
    if callable(content):
        d = copy.deepcopy(SPEC_BOARD)
        content(d)
        write(path, d)
    else:
        write(path, content)
    with pytest.raises(engine.ScenarioError) as e:
        load_board(path)
    err = e.value
    assert err.file == str(path)
    assert str(err).startswith(str(path) + ": ")
    assert err.place == place
    for w in words:
        assert w.lower() in err.problem.lower(), (w, err.problem)


def test_board_json_validation_is_all_or_nothing():
    """A Board is only ever built from a wholly valid file: no half-built board is returned."""
    from engine.boards import board_from_json
    d = copy.deepcopy(SPEC_BOARD)
    d["hexes"]["GG10"] = {"terrain": "nope"}
    with pytest.raises(engine.ScenarioError):
        board_from_json(d, file="x.json")
    del d["hexes"]["GG10"]
    b = board_from_json(d, file="x.json")
    assert isinstance(b, Board) and len(b.hexes) == 5
