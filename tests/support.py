"""Helpers shared by the tests: bundled examples, small custom boards, quick verdicts."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.boards import Board, HexTerrain, assets_dir, save_board
from engine.errors import ScenarioError
from engine.hexes import COLUMN_NAMES, parse_local
from engine.importers import vasl
from engine.maps import Map, Placement
from engine.night.files import scenario_to_json
from engine.night.scenario import MapEntry, Marker, Scenario, Unit
from engine.night.unit_verdicts import unit_verdict
from engine.night.verdicts import visibility_from
from engine.tabletop.table import table_from_json

SCENARIOS = assets_dir() / "scenarios"


def example(name: str) -> Scenario:
    """A bundled worked-example scenario, e.g. ``example("W-12")``."""
    return engine.load_scenario(SCENARIOS / f"{name}.json")


def board(board_id: str = "t1", hexes: dict | None = None, title: str = "test board") -> Board:
    """A board from ``{"CC8": {"level": 2}, "K5": {"terrain": "woods"}}``."""
    specs = {}
    for key, spec in (hexes or {}).items():
        specs[parse_local(key)] = HexTerrain(spec.get("terrain", "open"), spec.get("level", 0),
                                             spec.get("building"), spec.get("upper_levels", 0))
    return Board(board_id, title, HexTerrain(), specs)


def position(boards: list[tuple[Board, tuple[int, int]]] | Board, units=(), markers=(),
             nvr: int = 3, **kw) -> Scenario:
    """A scenario on custom boards, without going through a file."""
    if isinstance(boards, Board):
        boards = [(boards, (0, 0))]
    m = Map([Placement(b, at) for b, at in boards])
    units = tuple(u.replace(hex=m.canonical(u.hex)) for u in units)
    markers = tuple(mk.replace(hex=m.canonical(mk.hex)) for mk in markers)
    return Scenario(tuple(MapEntry(b.id, at) for b, at in boards), m, nvr=nvr, units=units,
                    markers=markers, **kw)


def unit(uid: str, hex_id: str, side: str = "allied", type: str = "squad", **kw) -> Unit:
    return Unit(uid, side, type, hex_id, **kw)


def marker(mtype: str, hex_id: str, **kw) -> Marker:
    return Marker(mtype, hex_id, **kw)


def sight(s: Scenario, viewer: str, hex_id: str) -> str:
    return visibility_from(s, viewer)[hex_id].sight


def sees(s: Scenario, viewer: str, target: str):
    """The verdict of unit ``viewer`` on unit ``target``."""
    return unit_verdict(s, viewer, target)


def local_name(col: int, row: int, board_id: str = "t1") -> str:
    return f"{board_id}{COLUMN_NAMES[col]}{row}"


def with_markers(s: Scenario, *markers: Marker) -> Scenario:
    return s.replace(markers=s.markers + tuple(mk.replace(hex=s.map.canonical(mk.hex))
                                               for mk in markers))


def without_markers(s: Scenario, *types: str) -> Scenario:
    return s.replace(markers=tuple(m for m in s.markers if types and m.type not in types))


def changed(s: Scenario, unit_id: str, **changes) -> Scenario:
    if "hex" in changes:
        changes["hex"] = s.map.canonical(changes["hex"])
    return s.with_unit(s.unit(unit_id).replace(**changes))


ROOT = Path(__file__).resolve().parent.parent


def refused(path, *words) -> str:
    """The message of a VASL archive the importer refuses: it names the file, then says why."""
    with pytest.raises(ScenarioError) as info:
        vasl.import_board(path)
    message = str(info.value)
    assert message.startswith(str(path) + ": "), message
    for w in words:
        assert w in message, message
    return message


def el(i, side, t, x, y, f, **kw) -> dict:
    """A tabletop element's JSON (SPEC.md "Tabletop"): id, side, troop type, x, y, facing."""
    return {"id": i, "side": side, "type": t, "x": x, "y": y, "facing": f, **kw}


def table_of(*elements, **top):
    """A DBA 3.0 table of these elements (and top-level keys), read as a file's would be."""
    return table_from_json({"format": "starshell-table", "version": 1, "ruleset": "dba3",
                            "elements": list(elements), **top}, file="t.json")


def run_engine(*args, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``python -m engine ARGS`` in its own process, as a player runs it (text out, bounded)."""
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def run(*args) -> tuple[int, str, str]:
    """``run_engine``'s exit status, output and error output."""
    out = run_engine(*args)
    return out.returncode, out.stdout, out.stderr


def cli(*args) -> dict:
    """The ``--json`` answer of ``python -m engine ARGS`` (exit status 0, no traceback)."""
    out = run_engine(*args, "--json")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    return json.loads(out.stdout)


def cli_help(command: str) -> str:
    """The ``--help`` text of an engine command, its whitespace made single spaces."""
    out = run_engine(command, "--help")
    assert out.returncode == 0, out.stderr
    return " ".join(out.stdout.split())


def saved(s, tmp_path, custom_board=None):
    """Write the position (and its custom board, if any) for the command line."""
    doc = scenario_to_json(s, tmp_path)
    if custom_board is not None:
        save_board(custom_board, tmp_path / "board.json")
        doc["map"][0]["board"] = "board.json"
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc))
    return path
