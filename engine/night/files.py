"""Scenario files (SPEC.md, ``format: "starshell-scenario"``, version 1): load, validate, save.

Validation refuses anything malformed with a ScenarioError naming the file, the place
(0-based, e.g. ``units[3].hex``) and the problem; nothing is half-loaded.  Unknown keys are kept.
Saving is atomic and keeps the previous file as ``NAME.bak``.
"""
from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from ..boards import Board, bundled_board, load_board
from ..errors import ScenarioError, shown
from ..hexes import HexIdError
from ..jsonio import (
    atomic_write_json,
    check_format,
    is_int,
    read_bool,
    read_choice,
    read_int,
    read_json,
    read_list,
    read_string,
    type_name,
)
from ..maps import Map, Placement
from ..overlay_paste import left_to_ssr
from .board_rules import (
    board_for_slot,
    find_overlay,
    overlay_paths,
    read_crop,
    read_overlays,
    read_ssr,
    slot_json,
)
from .bounds import (
    MAX_HEX_ID,
    MAX_MAP_SLOT,
    MAX_MARKERS,
    MAX_NVR,
    MAX_RADIUS,
    MAX_UNITS,
    check_map_size,
)
from .checks import check
from .counters import read_marker_keys, read_unit_keys
from .scenario import (
    MARKER_TYPES,
    MOVING,
    PHASES,
    RADIUS_MARKERS,
    STARSHELLS_USED,
    UNIT_TYPES,
    MapEntry,
    Marker,
    Scenario,
    Unit,
)

SCENARIO_FORMAT = "starshell-scenario"

_TOP_KEYS = ("format", "version", "title", "map", "nvr", "phase", "attacker", "starshells_used",
             "starshell_attempts", "units", "markers", "ssr", "night")
_UNIT_BOOLS = ("broken", "concealed", "pinned", "bypass", "bu", "ce", "tracked", "motorized", "ir")
_UNIT_KEYS = ("id", "side", "type", "hex", "level", "moving") + _UNIT_BOOLS
_MARKER_KEYS = ("type", "hex", "side", "radius")
_MAP_KEYS = ("board", "at", "rotated", "ssr", "overlays", "crop")


class BoardSource:
    """Resolves a map entry's ``board`` (bundled id or a .json path relative to the scenario);
    ``boards``: boards in memory by their entry's ``board`` (a saved game's boards not written
    yet), found before any file."""

    def __init__(self, folder: str | None, boards: dict[str, Board] | None = None,
                 overlays: dict | None = None):
        self.folder = Path(folder) if folder else Path(".")
        self._cache: dict[str, Board] = dict(boards or {})
        self._overlays = dict(overlays or {})       # overlays in memory (a save's, not written)
        self.missing: list[str] = []                 # overlays whose file was not found

    def overlays(self, entry: MapEntry, place: str) -> tuple:
        """The slot's overlays (rules.md 11.3) as (OverlayFile, hex1, hex2): each from memory or
        its file in the position's folder or its board file's; one not found is named in
        ``missing`` and left out.  A file that cannot be read: a ScenarioError at ``place``."""
        folders = [self.folder]
        if entry.board.endswith(".json"):
            board_path = Path(entry.board)
            folders.append((board_path if board_path.is_absolute()
                            else self.folder / board_path).parent)
        out = []
        for k, (name, hex1, hex2) in enumerate(entry.overlays):
            if left_to_ssr(name):
                continue
            try:
                overlay = self._overlays.get(name) or find_overlay(name, folders)
            except ScenarioError as err:
                raise err.at(place=f"{place}.overlays[{k}]") from None
            if overlay is None:
                self.missing.append(f"overlay {name} on board {entry.board}: no file "
                                    f"{overlay_paths(name, folders[:1])[0].name} beside the "
                                    "position or its board: not laid (rules.md 11.3)")
                continue
            out.append((overlay, hex1, hex2))
        return tuple(out)

    def __call__(self, ref: str) -> Board:
        if ref in self._cache:
            return self._cache[ref]
        if ref.endswith(".json"):
            path = Path(ref)
            if not path.is_absolute():
                path = self.folder / path
            try:        # any OSError (a name too long, a FIFO...) is a message naming the file
                board = load_board(path)
            except ScenarioError as e:
                if e.problem == "no such file" and e.file == str(path):
                    raise ScenarioError(f"board file {shown(str(path), 200)} not found") from None
                raise
        else:
            board = bundled_board(ref)
        self._cache[ref] = board
        return board


def missing_overlays(scenario: Scenario) -> list[str]:
    """The overlays of the position's slots whose file is not beside it or its boards (each
    named with its board: rules.md 11.3); the position is judged without them."""
    source = BoardSource(scenario.folder)
    for i, e in enumerate(scenario.map_entries):
        if e.overlays:
            source.overlays(e, f"map[{i}]")
    return source.missing


def build_map(entries: list[MapEntry], boards: BoardSource, ssr: tuple[str, ...] = ()) -> Map:
    """The map of the entries, each board with its terrain SSRs applied (``ssr``: the
    scenario's, for every board; rules.md 11.2)."""
    placements = []
    seen: dict[str, int] = {}
    for i, e in enumerate(entries):
        try:
            board = boards(e.board)
        except ScenarioError as err:
            raise ScenarioError(err.message, place=f"map[{i}].board") from None
        if board.id in seen:
            raise ScenarioError(f"board {shown(board.id)} appears twice (also map[{seen[board.id]}])",
                                place=f"map[{i}].board")
        seen[board.id] = i
        overlays = boards.overlays(e, f"map[{i}]") if e.overlays else ()
        try:
            placed = board_for_slot(board, e.ssr, ssr, overlays)
        except ScenarioError as err:
            raise err.at(place=f"map[{i}].overlays") from None
        placements.append(Placement(placed, e.at, e.rotated))
    check_map_size(placements)
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
            raise ScenarioError(f"must be an object, not {type_name(e)}", place=f"map[{i}]")
        board = read_string(e, "board", p, nonempty=True)
        at = e.get("at", [0, 0])
        if (not isinstance(at, list) or len(at) != 2 or not all(is_int(v) for v in at)):
            raise ScenarioError(f"must be [slot column, slot row], two whole numbers, "
                                f"not {shown(at)}", place=f"{p}at")
        if not all(0 <= v <= MAX_MAP_SLOT for v in at):
            raise ScenarioError(f"slots run from 0 to {MAX_MAP_SLOT}, not {shown(at)}",
                                place=f"{p}at")
        rotated = read_bool(e, "rotated", p, False)
        extra = {k: v for k, v in e.items() if k not in _MAP_KEYS}
        out.append(MapEntry(board, (at[0], at[1]), rotated, extra, read_ssr(e, p),
                            read_overlays(e, p), read_crop(e, p)))
    return out


def _hex(obj: dict, key: str, place: str, m: Map) -> str:
    v = obj.get(key)
    if not isinstance(v, str):
        raise ScenarioError(f"must be a hex id like '2CC6', not {type_name(v)}", place=f"{place}{key}")
    if len(v) > MAX_HEX_ID:
        raise ScenarioError(f"{shown(v)} is not a hex id (board id, column, row: e.g. '2CC6')",
                            place=f"{place}{key}")
    try:
        return m.canonical(v)
    except HexIdError as e:
        raise ScenarioError(str(e), place=f"{place}{key}") from None


def _unit(obj: Any, i: int, m: Map) -> Unit:
    p = f"units[{i}]."
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {type_name(obj)}", place=f"units[{i}]")
    uid = read_string(obj, "id", p, nonempty=True)
    side = read_string(obj, "side", p, nonempty=True)
    utype = read_choice(obj, "type", UNIT_TYPES, p)
    hex_id = _hex(obj, "hex", p, m)
    level = read_int(obj, "level", p, 0, -1, 6)
    flags = {k: read_bool(obj, k, p, None) for k in _UNIT_BOOLS}
    moving = read_choice(obj, "moving", MOVING, p, nullable=True)
    read_unit_keys(obj, p)                  # SPEC.md turn four: bypass_side
    # the impossible states (bu and CE...) are checks.check's, after the whole file is read
    extra = {k: v for k, v in obj.items() if k not in _UNIT_KEYS}
    return Unit(uid, side, utype, hex_id, level,
                broken=bool(flags["broken"]), concealed=bool(flags["concealed"]),
                pinned=bool(flags["pinned"]), bypass=bool(flags["bypass"]), bu=bool(flags["bu"]),
                ce=flags["ce"], tracked=bool(flags["tracked"]), motorized=flags["motorized"],
                moving=moving, ir=bool(flags["ir"]), extra=extra)


def _marker(obj: Any, i: int, m: Map) -> Marker:
    p = f"markers[{i}]."
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {type_name(obj)}", place=f"markers[{i}]")
    mtype = read_choice(obj, "type", MARKER_TYPES, p)
    hex_id = _hex(obj, "hex", p, m)
    side = obj.get("side")
    if side is not None and (not isinstance(side, str) or not side.strip()):
        raise ScenarioError(f"must be a side's name, not {shown(side)}", place=f"{p}side")
    radius = None
    if "radius" in obj:
        if mtype not in RADIUS_MARKERS:
            raise ScenarioError(f"only blazes, flames and trip flares have a radius, not a {mtype}",
                                place=f"{p}radius")
        radius = read_int(obj, "radius", p, 0, 0, MAX_RADIUS)
    read_marker_keys(obj, mtype, m.index(hex_id), m, p)    # SPEC.md turn four: counters
    extra = {k: v for k, v in obj.items() if k not in _MARKER_KEYS}
    return Marker(mtype, hex_id, side, radius, extra)


def scenario_from_json(data: Any, file: str | None = None, folder: str | None = None,
                       boards: dict[str, Board] | None = None) -> Scenario:
    """The scenario of a parsed file, fully validated (``boards``: see ``BoardSource``)."""
    try:
        return _scenario_from_json(data, folder, boards)
    except ScenarioError as e:
        raise e.at(file=file) from None


def _scenario_from_json(data: Any, folder: str | None, boards: dict[str, Board] | None) -> Scenario:
    check_format(data, SCENARIO_FORMAT, (1,), kind="a scenario file",
                 known={"starshell-board": "this is a board file, not a scenario"})
    title = read_string(data, "title", "", "")
    entries = _map_entries(data)
    ssr = read_ssr(data, "")
    game_map = build_map(entries, BoardSource(folder, boards), ssr)
    nvr = read_int(data, "nvr", "", 3, 0, MAX_NVR)
    phase = read_choice(data, "phase", PHASES, "", "PFPh")
    units_raw = read_list(data, "units")
    markers_raw = read_list(data, "markers")
    if len(units_raw) > MAX_UNITS:
        raise ScenarioError(f"more than {MAX_UNITS} units", place="units")
    if len(markers_raw) > MAX_MARKERS:
        raise ScenarioError(f"more than {MAX_MARKERS} markers", place="markers")
    units = [_unit(u, i, game_map) for i, u in enumerate(units_raw)]
    markers = [_marker(mk, i, game_map) for i, mk in enumerate(markers_raw)]
    attacker = read_string(data, "attacker", "", units[0].side if units else "allied", nonempty=True)
    used = read_choice(data, "starshells_used", STARSHELLS_USED, "", "never")
    night = read_bool(data, "night", "", True)      # rules.md 11.5: false, a day position
    attempts = []
    for i, h in enumerate(read_list(data, "starshell_attempts")):
        key = f"starshell_attempts[{i}]"
        attempts.append(_hex({key: h}, key, "", game_map))
    extra = {k: v for k, v in data.items() if k not in _TOP_KEYS}
    return check(Scenario(tuple(entries), game_map, title, nvr, phase, attacker, used,
                          tuple(attempts), tuple(units), tuple(markers), extra, folder, ssr,
                          night))


def load_scenario(path: str | os.PathLike) -> Scenario:
    """Load and fully validate a scenario file (raises ScenarioError)."""
    path = Path(path)
    data = read_json(path)
    return scenario_from_json(data, file=str(path), folder=str(path.resolve().parent))


# --------------------------------------------------------------------------------- saving

def unit_to_json(unit: Unit) -> dict:
    """A unit as a scenario file writes it (SPEC.md "units"), its unknown keys kept."""
    out: dict = {"id": unit.id, "side": unit.side, "type": unit.type, "hex": unit.hex}
    if unit.level:
        out["level"] = unit.level
    for k in ("broken", "concealed", "pinned", "bypass", "bu", "tracked", "ir"):
        if getattr(unit, k):
            out[k] = True
    if unit.ce is not None:
        out["ce"] = unit.ce
    if unit.motorized is not None:
        out["motorized"] = unit.motorized
    if unit.moving is not None:
        out["moving"] = unit.moving
    out.update(unit.extra)
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


def scenario_to_json(scenario: Scenario, folder: str | os.PathLike | None = None) -> dict:
    new_folder = Path(folder) if folder is not None else Path(scenario.folder or ".")
    out: dict = {"format": SCENARIO_FORMAT, "version": 1, "title": scenario.title, "map": []}
    for e in scenario.map_entries:
        entry = {"board": _board_ref(e.board, scenario.folder, new_folder), "at": list(e.at)}
        if e.rotated:
            entry["rotated"] = True
        entry.update(slot_json(e.ssr, e.overlays, e.crop))
        entry.update(e.extra)
        out["map"].append(entry)
    out.update({"nvr": scenario.nvr, "phase": scenario.phase, "attacker": scenario.attacker,
                "starshells_used": scenario.starshells_used})
    if scenario.starshell_attempts:
        out["starshell_attempts"] = list(scenario.starshell_attempts)
    out["units"] = [unit_to_json(u) for u in scenario.units]
    out["markers"] = [_marker_json(m) for m in scenario.markers]
    if scenario.ssr:
        out["ssr"] = list(scenario.ssr)
    if not scenario.night:
        out["night"] = False            # rules.md 11.5: a day position
    for k, v in scenario.extra.items():
        out.setdefault(k, v)
    return out


def save_scenario(scenario: Scenario, path: str | os.PathLike) -> Scenario:
    """Save atomically (the old file survives any failure; it is kept as NAME.bak).

    Returns the scenario as now anchored at the new file's folder."""
    path = Path(path)
    folder = path.resolve().parent
    atomic_write_json(path, scenario_to_json(scenario, folder))
    data = scenario_to_json(scenario, folder)
    entries = tuple(dataclasses.replace(e, board=d["board"], at=tuple(d["at"]))
                    for d, e in zip(data["map"], scenario.map_entries))
    return scenario.replace(map_entries=entries, folder=str(folder))

