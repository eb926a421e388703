"""`python -m engine` basics (SPEC.md, "Command line"): range, check, and how bad input is told.

Run as a user would: a subprocess with this interpreter, from the repository's folder.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import run_engine

REPO = Path(__file__).resolve().parent.parent
ASSETS = REPO / "assets"



def ok_json(*args: str) -> dict:
    r = run_engine(*args)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    return json.loads(r.stdout)


def refused(*args: str, cwd: Path = REPO) -> str:
    """Exit status 2, one `error:` line on stderr, no traceback, nothing on stdout; the line."""
    r = run_engine(*args, cwd=cwd)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ")
    assert "internal error" not in lines[0]
    return lines[0]


def write(path: Path, data) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def scenario(map_, units=(), markers=()) -> dict:
    return {"format": "starshell-scenario", "version": 1, "map": map_,
            "units": list(units), "markers": list(markers)}


# ------------------------------------------------------------------------------ range

@pytest.mark.parametrize("a, b, expected", [
    ("2Y4", "2V5", 3), ("2CC8", "2Z4", 5), ("2S7", "2BB5", 9), ("34A1", "34GG10", 32),
    ("2T6", "2T6", 0),
])
def test_range_on_one_board(a, b, expected):
    assert ok_json("range", a, b, "--json") == {"range": expected}


def test_range_without_json_still_says_the_number():
    r = run_engine("range", "2Y4", "2V5")
    assert r.returncode == 0 and "3" in r.stdout


def test_range_across_boards_needs_a_scenario(tmp_path):
    line = refused("range", "2GG5", "34C5", "--json")
    assert "--scenario" in line
    side = write(tmp_path / "side.json", scenario([{"board": "2", "at": [0, 0]},
                                                   {"board": "34", "at": [1, 0]}]))
    assert ok_json("range", "2GG5", "34A5", "--scenario", side, "--json") == {"range": 0}
    assert ok_json("range", "2CC5", "34C5", "--scenario", side, "--json") == {"range": 6}
    assert ok_json("range", "2Y4", "2V5", "--scenario", side, "--json") == {"range": 3}
    below = write(tmp_path / "below.json", scenario([{"board": "2", "at": [0, 0]},
                                                     {"board": "34", "at": [0, 1]}]))
    assert ok_json("range", "2B10", "34B0", "--scenario", below, "--json") == {"range": 0}
    assert ok_json("range", "2E5", "34E5", "--scenario", below, "--json") == {"range": 10}


def test_range_with_the_bundled_default_scenario():
    default = ASSETS / "scenarios" / "default.json"
    assert ok_json("range", "2GG1", "34A1", "--scenario", default, "--json") == {"range": 0}


def test_range_refusals(tmp_path):
    line = refused("range", "2A0", "2B5", "--json")
    assert "HEX 1" in line and "A0" in line
    line = refused("range", "2B5", "2HH5", "--json")
    assert "HEX 2" in line and "HH" in line
    one = write(tmp_path / "one.json", scenario([{"board": "2", "at": [0, 0]}]))
    line = refused("range", "2A1", "34A1", "--scenario", one, "--json")
    assert str(one) in line and "HEX 2" in line and "34A1" in line
    missing = tmp_path / "missing.json"
    line = refused("range", "2A1", "2A2", "--scenario", missing, "--json")
    assert str(missing) in line


# ------------------------------------------------------------------------------ check

def _expected_hexes(data: dict) -> int:
    """Independent count: a board covers columns 0..32 and rows 1..10 (even columns) or 0..10
    (odd) of its slot (a half turn maps that set onto itself); joined half hexes coincide."""
    cells = set()
    for e in data["map"]:
        sx, sy = e.get("at", [0, 0])
        for c in range(33):
            for n in range(0 if c % 2 else 1, 11):
                cells.add((32 * sx + c, 10 * sy + n))
    return len(cells)


BUNDLED_BOARDS = sorted((ASSETS / "boards").glob("*.json"))
BUNDLED_SCENARIOS = sorted((ASSETS / "scenarios").glob("*.json"))


def test_there_are_bundled_files():
    assert {p.stem for p in BUNDLED_BOARDS} >= {"1", "2", "34"}
    assert "default" in {p.stem for p in BUNDLED_SCENARIOS}


@pytest.mark.parametrize("path", BUNDLED_BOARDS, ids=[p.name for p in BUNDLED_BOARDS])
def test_check_bundled_boards(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    out = ok_json("check", path, "--json")
    assert out == {"ok": True, "board": data["id"], "hexes": 346}
    assert data["id"] == path.stem


@pytest.mark.parametrize("path", BUNDLED_SCENARIOS, ids=[p.name for p in BUNDLED_SCENARIOS])
def test_check_bundled_scenarios(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    out = ok_json("check", path.relative_to(REPO), "--json")
    assert out == {"ok": True, "hexes": _expected_hexes(data),
                   "units": len(data.get("units", [])), "markers": len(data.get("markers", []))}


def test_check_default_scenario_counts():
    out = ok_json("check", "assets/scenarios/default.json", "--json")
    assert out == {"ok": True, "hexes": 2 * 346 - 10, "units": 9, "markers": 4}


def test_check_a_scenario_with_a_board_file_beside_it(tmp_path):
    board = {"format": "starshell-board", "version": 1, "id": "t1",
             "hexes": {"K5": {"terrain": "woods"}}}
    write(tmp_path / "t1.json", board)
    s = write(tmp_path / "s.json", scenario(
        [{"board": "t1.json", "at": [0, 0]}, {"board": "2", "at": [0, 1]}],
        units=[{"id": "A", "side": "x", "type": "squad", "hex": "t1K5"}]))
    # from another working folder: the board path is relative to the scenario, not to cwd
    r = run_engine("check", s, "--json", cwd=tmp_path.parent)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"ok": True, "hexes": 2 * 346 - 16, "units": 1, "markers": 0}
    assert ok_json("check", tmp_path / "t1.json", "--json") == {"ok": True, "board": "t1",
                                                                 "hexes": 346}


# ------------------------------------------------------------------------------ bad input

BAD_SCENARIOS = [
    ("units-3-hex", lambda d: d["units"].__setitem__(3, {"id": "X", "side": "allied",
                                                         "type": "squad", "hex": "2CC11"}),
     "units[3].hex"),
    ("nvr", lambda d: d.__setitem__("nvr", -2), "nvr"),
    ("phase", lambda d: d.__setitem__("phase", "Night"), "phase"),
    ("map-slot", lambda d: d["map"][1].__setitem__("at", [0, 0]), "map[1].at"),
    ("marker-radius", lambda d: d["markers"][0].__setitem__("radius", 3), "markers[0].radius"),
    ("unknown-board", lambda d: d["map"][1].__setitem__("board", "77"), "map[1].board"),
    ("moving-squad", lambda d: d["units"][1].__setitem__("moving", "entered"), "units[1].moving"),
]


@pytest.mark.parametrize("case, change, place", BAD_SCENARIOS, ids=[c[0] for c in BAD_SCENARIOS])
def test_check_refuses_bad_scenarios_naming_file_and_place(tmp_path, case, change, place):
    data = json.loads((ASSETS / "scenarios" / "default.json").read_text(encoding="utf-8"))
    change(data)
    path = write(tmp_path / f"{case}.json", data)
    line = refused("check", path, "--json")
    assert line.startswith(f"error: {path}: {place}: ")


@pytest.mark.parametrize("content, words", [
    ("", ["empty"]),
    ("{nope", ["line 1 column 2", "invalid JSON"]),
    ("[]", ["object"]),
    ('{"format": "starshell-board", "version": 1, "id": "t1", "hexes": {"A0": {}}}',
     ["hexes.A0"]),
    ('{"format": "starshell-board", "version": 1, "id": "T1"}', [": id: "]),
    ('{"format": "starshell-scenario", "version": 1, "map": []}', [": map: "]),
    ('{"format": "starshell-scenario", "version": 1, "map": [{"board": "2"}], "nvr": NaN}',
     [": nvr: ", "NaN"]),
])
def test_check_refuses_malformed_files(tmp_path, content, words):
    path = write(tmp_path / "bad.json", content)
    line = refused("check", path, "--json")
    assert str(path) in line
    for w in words:
        assert w in line


def test_check_refuses_binary_and_missing_files(tmp_path):
    binary = tmp_path / "pic.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert str(binary) in refused("check", binary)
    missing = tmp_path / "none.json"
    line = refused("check", missing)
    assert str(missing) in line and "no such file" in line
    assert str(tmp_path) in refused("check", tmp_path)


def test_unknown_units_are_named_with_the_option(tmp_path):
    default = ASSETS / "scenarios" / "default.json"
    line = refused("visibility", default, "--from", "ZZ9", "--json")
    assert str(default) in line and "--from" in line and "ZZ9" in line


def test_usage_errors_look_the_same():
    assert refused("range", "2A1").startswith("error: ")
    assert refused("nosuchcommand").startswith("error: ")
    assert refused().startswith("error: ")


def test_help_is_not_an_error():
    r = run_engine("--help")
    assert r.returncode == 0 and "range" in r.stdout
