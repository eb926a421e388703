"""Scenario files (SPEC.md, ``format: "starshell-scenario"``, version 1): load, validate, save.

Validation refuses anything malformed with a ScenarioError naming the file, the place
(0-based, e.g. ``units[3].hex``) and the problem; nothing is half-loaded.  Unknown keys are kept.
Saving is atomic and keeps the previous file as ``NAME.bak``.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..boards import Board, bundled_board, load_board
from ..errors import ScenarioError
from ..hexes import HexIdError
from ..jsonio import atomic_write_json, read_json
from ..maps import Map, Placement
from .scenario import (
    MARKER_TYPES,
    MOVING,
    PHASES,
    RADIUS_MARKERS,
    STARSHELLS_USED,
    UNIT_TYPES,
    VEHICLE_TYPES,
    MapEntry,
    Marker,
    Scenario,
    Unit,
)

SCENARIO_FORMAT = "starshell-scenario"
MAX_NVR = 99
MAX_UNITS = 2000
MAX_MARKERS = 2000
MAX_RADIUS = 12
MAX_MAP_SLOT = 20

_TOP_KEYS = ("format", "version", "title", "map", "nvr", "phase", "attacker", "starshells_used",
             "starshell_attempts", "units", "markers")
_UNIT_BOOLS = ("broken", "concealed", "pinned", "bypass", "bu", "ce", "tracked", "motorized", "ir")
_UNIT_KEYS = ("id", "side", "type", "hex", "level", "moving") + _UNIT_BOOLS
_MARKER_KEYS = ("type", "hex", "side", "radius")
_MAP_KEYS = ("board", "at", "rotated")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null", int: "a number", float: "a number"}.get(type(v), type(v).__name__)


def _enum(obj: dict, key: str, choices, place: str, default=None, nullable=False):
    v = obj.get(key, default)
    if v is None and nullable:
        return None
    if not isinstance(v, str) or v not in choices:
        raise ScenarioError(f"must be one of {', '.join(choices)}, not {v!r}", place=f"{place}{key}")
    return v


def _string(obj: dict, key: str, place: str, default=None, nonempty=False) -> str:
    v = obj.get(key, default)
    if not isinstance(v, str) or (nonempty and not v.strip()):
        what = "a non-empty string" if nonempty else "a string"
        got = ("missing" if key not in obj else
               "an empty one" if isinstance(v, str) else _type_name(v))
        raise ScenarioError(f"must be {what}, not {got}", place=f"{place}{key}")
    return v


def _bool(obj: dict, key: str, place: str, default=None):
    if key not in obj:
        return default
    v = obj[key]
    if not isinstance(v, bool):
        shown = "null" if v is None else repr(v)
        raise ScenarioError(f"must be true or false, not {shown}", place=f"{place}{key}")
    return v


def _int(obj: dict, key: str, place: str, default: int, lo: int, hi: int) -> int:
    v = obj.get(key, default)
    if not _is_int(v):
        raise ScenarioError(f"must be a whole number, not {v!r}", place=f"{place}{key}")
    if not lo <= v <= hi:
        raise ScenarioError(f"must be from {lo} to {hi}, not {v}", place=f"{place}{key}")
    return v


def _list(obj: dict, key: str, place: str = "") -> list:
    v = obj.get(key, [])
    if not isinstance(v, list):
        raise ScenarioError(f"must be a list, not {_type_name(v)}", place=f"{place}{key}")
    return v


class BoardSource:
    """Resolves a map entry's ``board`` (bundled id or a .json path relative to the scenario)."""

    def __init__(self, folder: str | None):
        self.folder = Path(folder) if folder else Path(".")
        self._cache: dict[str, Board] = {}

    def __call__(self, ref: str) -> Board:
        if ref in self._cache:
            return self._cache[ref]
        if ref.endswith(".json"):
            path = Path(ref)
            if not path.is_absolute():
                path = self.folder / path
            if not path.is_file():
                raise ScenarioError(f"board file {str(path)!r} not found")
            board = load_board(path)
        else:
            board = bundled_board(ref)
        self._cache[ref] = board
        return board


def build_map(entries: list[MapEntry], boards: BoardSource) -> Map:
    placements = []
    seen: dict[str, int] = {}
    for i, e in enumerate(entries):
        try:
            board = boards(e.board)
        except ScenarioError as err:
            raise ScenarioError(err.message, place=f"map[{i}].board") from None
        if board.id in seen:
            raise ScenarioError(f"board {board.id!r} appears twice (also map[{seen[board.id]}])",
                                place=f"map[{i}].board")
        seen[board.id] = i
        placements.append(Placement(board, e.at, e.rotated))
    return Map.build(placements)


def _map_entries(data: dict) -> list[MapEntry]:
    entries_raw = data.get("map")
    if entries_raw is None:
        raise ScenarioError("is required: a list of boards", place="map")
    if not isinstance(entries_raw, list) or not entries_raw:
        raise ScenarioError("must be a non-empty list of boards", place="map")
    out = []
    for i, e in enumerate(entries_raw):
        p = f"map[{i}]."
        if not isinstance(e, dict):
            raise ScenarioError(f"must be an object, not {_type_name(e)}", place=f"map[{i}]")
        board = _string(e, "board", p, nonempty=True)
        at = e.get("at", [0, 0])
        if (not isinstance(at, list) or len(at) != 2 or not all(_is_int(v) for v in at)):
            raise ScenarioError(f"must be [slot column, slot row], two whole numbers, not {at!r}",
                                place=f"{p}at")
        if not all(0 <= v <= MAX_MAP_SLOT for v in at):
            raise ScenarioError(f"slots run from 0 to {MAX_MAP_SLOT}, not {at!r}", place=f"{p}at")
        rotated = _bool(e, "rotated", p, False)
        extra = {k: v for k, v in e.items() if k not in _MAP_KEYS}
        out.append(MapEntry(board, (at[0], at[1]), rotated, extra))
    return out


def _hex(obj: dict, key: str, place: str, m: Map) -> str:
    v = obj.get(key)
    if not isinstance(v, str):
        raise ScenarioError(f"must be a hex id like '2CC6', not {_type_name(v)}", place=f"{place}{key}")
    try:
        return m.canonical(v)
    except HexIdError as e:
        raise ScenarioError(str(e), place=f"{place}{key}") from None


def _unit(obj: Any, i: int, m: Map) -> Unit:
    p = f"units[{i}]."
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {_type_name(obj)}", place=f"units[{i}]")
    uid = _string(obj, "id", p, nonempty=True)
    side = _string(obj, "side", p, nonempty=True)
    utype = _enum(obj, "type", UNIT_TYPES, p)
    hex_id = _hex(obj, "hex", p, m)
    level = _int(obj, "level", p, 0, -1, 6)
    flags = {k: _bool(obj, k, p, None) for k in _UNIT_BOOLS}
    moving = _enum(obj, "moving", MOVING, p, nullable=True)
    is_vehicle = utype in VEHICLE_TYPES
    # impossible states (issue 8): name the unit and what contradicts what
    if flags["bu"] and flags["ce"]:
        raise ScenarioError("a unit cannot be both buttoned up (bu) and CE", place=f"units[{i}]")
    if flags["bu"] and utype not in ("afv", "armor_leader"):
        raise ScenarioError(f"only an AFV (or its armour leader) can be buttoned up, not a {utype}",
                            place=f"{p}bu")
    if flags["ce"] and utype not in ("afv", "vehicle", "armor_leader", "crew"):
        raise ScenarioError(f"only vehicles, their crews and armour leaders are CE, not a {utype}",
                            place=f"{p}ce")
    if moving is not None and not is_vehicle:
        raise ScenarioError(f"only vehicles have a motion state, not a {utype}", place=f"{p}moving")
    if flags["tracked"] and not is_vehicle:
        raise ScenarioError(f"only vehicles are tracked, not a {utype}", place=f"{p}tracked")
    if flags["ir"] and utype != "mortar":
        raise ScenarioError(f"only mortars fire Illuminating Rounds, not a {utype}", place=f"{p}ir")
    idx = m.index(hex_id)
    if level > 0:
        top = int(m.upper_levels[idx]) if m.terrain_name(idx) == "building" else 0
        if level > top:
            raise ScenarioError(f"level {level} is above anything in {hex_id} "
                                f"({m.terrain_name(idx)} with {top} upper level(s))",
                                place=f"{p}level")
    extra = {k: v for k, v in obj.items() if k not in _UNIT_KEYS}
    return Unit(uid, side, utype, hex_id, level,
                broken=bool(flags["broken"]), concealed=bool(flags["concealed"]),
                pinned=bool(flags["pinned"]), bypass=bool(flags["bypass"]), bu=bool(flags["bu"]),
                ce=flags["ce"], tracked=bool(flags["tracked"]), motorized=flags["motorized"],
                moving=moving, ir=bool(flags["ir"]), extra=extra)


def _marker(obj: Any, i: int, m: Map) -> Marker:
    p = f"markers[{i}]."
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {_type_name(obj)}", place=f"markers[{i}]")
    mtype = _enum(obj, "type", MARKER_TYPES, p)
    hex_id = _hex(obj, "hex", p, m)
    side = obj.get("side")
    if side is not None and (not isinstance(side, str) or not side.strip()):
        raise ScenarioError(f"must be a side's name, not {side!r}", place=f"{p}side")
    radius = None
    if "radius" in obj:
        if mtype not in RADIUS_MARKERS:
            raise ScenarioError(f"only blazes and flames have a radius, not a {mtype}",
                                place=f"{p}radius")
        radius = _int(obj, "radius", p, 0, 0, MAX_RADIUS)
    extra = {k: v for k, v in obj.items() if k not in _MARKER_KEYS}
    return Marker(mtype, hex_id, side, radius, extra)


def scenario_from_json(data: Any, file: str | None = None, folder: str | None = None) -> Scenario:
    try:
        return _scenario_from_json(data, folder)
    except ScenarioError as e:
        raise e.at(file=file) from None


def _scenario_from_json(data: Any, folder: str | None) -> Scenario:
    if not isinstance(data, dict):
        raise ScenarioError(f"a scenario file must hold a JSON object, not {_type_name(data)}")
    if data.get("format") != SCENARIO_FORMAT:
        if data.get("format") == "starshell-board":
            raise ScenarioError("this is a board file, not a scenario", place="format")
        raise ScenarioError(f"must be {SCENARIO_FORMAT!r}, not {data.get('format')!r}",
                            place="format")
    if not _is_int(data.get("version")) or data["version"] != 1:
        raise ScenarioError(f"unsupported version {data.get('version')!r} (this program reads 1)",
                            place="version")
    title = _string(data, "title", "", "")
    entries = _map_entries(data)
    game_map = build_map(entries, BoardSource(folder))
    nvr = _int(data, "nvr", "", 3, 0, MAX_NVR)
    phase = _enum(data, "phase", PHASES, "", "PFPh")
    units_raw = _list(data, "units")
    markers_raw = _list(data, "markers")
    if len(units_raw) > MAX_UNITS:
        raise ScenarioError(f"more than {MAX_UNITS} units", place="units")
    if len(markers_raw) > MAX_MARKERS:
        raise ScenarioError(f"more than {MAX_MARKERS} markers", place="markers")
    units = [_unit(u, i, game_map) for i, u in enumerate(units_raw)]
    seen: dict[str, int] = {}
    sides: list[str] = []
    for i, u in enumerate(units):
        if u.id in seen:
            raise ScenarioError(f"unit id {u.id!r} is used twice (also units[{seen[u.id]}])",
                                place=f"units[{i}].id")
        seen[u.id] = i
        if u.side not in sides:
            sides.append(u.side)
            if len(sides) > 2:
                raise ScenarioError(f"a third side {u.side!r} (sides: {sides[0]}, {sides[1]})",
                                    place=f"units[{i}].side")
    for i, u in enumerate(units):
        aboard = u.extra.get("aboard")
        if aboard is None:
            continue
        carrier = next((v for v in units if v.id == aboard), None)
        if not isinstance(aboard, str) or carrier is None or not carrier.is_vehicle:
            raise ScenarioError(f"must name a vehicle of this scenario, not {aboard!r}",
                                place=f"units[{i}].aboard")
        if carrier.hex != u.hex:
            raise ScenarioError(f"is aboard {aboard} in {carrier.hex} but stands in {u.hex}",
                                place=f"units[{i}].aboard")
    markers = [_marker(mk, i, game_map) for i, mk in enumerate(markers_raw)]
    attacker = _string(data, "attacker", "", units[0].side if units else "allied", nonempty=True)
    if len(sides) == 2 and attacker not in sides:   # a third side (SPEC: at most two)
        raise ScenarioError(f"{attacker!r} is neither side (sides: {sides[0]}, {sides[1]})",
                            place="attacker")
    used = _enum(data, "starshells_used", STARSHELLS_USED, "", "never")
    attempts = []
    for i, h in enumerate(_list(data, "starshell_attempts")):
        key = f"starshell_attempts[{i}]"
        attempts.append(_hex({key: h}, key, "", game_map))
    extra = {k: v for k, v in data.items() if k not in _TOP_KEYS}
    return Scenario(tuple(entries), game_map, title, nvr, phase, attacker, used, tuple(attempts),
                    tuple(units), tuple(markers), extra, folder)


def load_scenario(path: str | os.PathLike) -> Scenario:
    """Load and fully validate a scenario file (raises ScenarioError)."""
    path = Path(path)
    data = read_json(path)
    return scenario_from_json(data, file=str(path), folder=str(path.resolve().parent))


# --------------------------------------------------------------------------------- saving

def _unit_json(u: Unit) -> dict:
    out: dict = {"id": u.id, "side": u.side, "type": u.type, "hex": u.hex}
    if u.level:
        out["level"] = u.level
    for k in ("broken", "concealed", "pinned", "bypass", "bu", "tracked", "ir"):
        if getattr(u, k):
            out[k] = True
    if u.ce is not None:
        out["ce"] = u.ce
    if u.motorized is not None:
        out["motorized"] = u.motorized
    if u.moving is not None:
        out["moving"] = u.moving
    out.update(u.extra)
    return out


def _marker_json(mk: Marker) -> dict:
    out: dict = {"type": mk.type, "hex": mk.hex}
    if mk.side is not None:
        out["side"] = mk.side
    if mk.radius is not None:
        out["radius"] = mk.radius
    out.update(mk.extra)
    return out


def _board_ref(ref: str, old_folder: str | None, new_folder: Path) -> str:
    """Write a board path relative to new_folder, so that it still points at the same file (and
    a folder of files mailed together keeps working)."""
    if not ref.endswith(".json"):
        return ref
    target = Path(ref) if os.path.isabs(ref) else Path(old_folder or ".") / ref
    try:
        return Path(os.path.relpath(target.resolve(), new_folder.resolve())).as_posix()
    except ValueError:   # another drive (Windows)
        return str(target.resolve())


def scenario_to_json(s: Scenario, folder: str | os.PathLike | None = None) -> dict:
    new_folder = Path(folder) if folder is not None else Path(s.folder or ".")
    out: dict = {"format": SCENARIO_FORMAT, "version": 1, "title": s.title, "map": []}
    for e in s.map_entries:
        entry = {"board": _board_ref(e.board, s.folder, new_folder), "at": list(e.at)}
        if e.rotated:
            entry["rotated"] = True
        entry.update(e.extra)
        out["map"].append(entry)
    out.update({"nvr": s.nvr, "phase": s.phase, "attacker": s.attacker,
                "starshells_used": s.starshells_used})
    if s.starshell_attempts:
        out["starshell_attempts"] = list(s.starshell_attempts)
    out["units"] = [_unit_json(u) for u in s.units]
    out["markers"] = [_marker_json(m) for m in s.markers]
    for k, v in s.extra.items():
        out.setdefault(k, v)
    return out


def save_scenario(s: Scenario, path: str | os.PathLike) -> Scenario:
    """Save atomically (the old file survives any failure; it is kept as NAME.bak).

    Returns the scenario as now anchored at the new file's folder."""
    path = Path(path)
    folder = path.resolve().parent
    atomic_write_json(path, scenario_to_json(s, folder))
    data = scenario_to_json(s, folder)
    entries = tuple(MapEntry(d["board"], tuple(d["at"]), d.get("rotated", False), e.extra)
                    for d, e in zip(data["map"], s.map_entries))
    return s.replace(map_entries=entries, folder=str(folder))

