"""Napoleonic fire positions (``format: "starshell-fire"``, version 1; SPEC.md, rules.md 8):
load, validate, save.  A position is immutable: changes make a new one (``dataclasses.replace``).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ScenarioError
from ..hexes import HexIdError, board_hexes
from ..jsonio import atomic_write_json, check_format, is_int, read_json, type_name
from ..maps import Map, Placement
from .boards import fire_board, hex_terrain
from .charts import ChartPack, load_charts

FIRE_FORMAT = "starshell-fire"
SEGMENTS = ("fire", "opportunity", "assault")
ARMS = ("infantry", "cavalry", "artillery", "leader")
FORMATIONS = ("line", "column", "square", "skirmish", "general_order", "disorder")
MAX_UNITS = 2000
MAX_INCREMENTS = 999
MAX_PRINTED = 10**4
MAX_SLOT = 20
MAX_MAP_HEXES = 11072           # 32 geomorphic boards: the window draws it within a second
MAX_TEXT = 60
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,29}\Z")
_UNIT_KEYS = ("id", "side", "nation", "troop", "arm", "formation", "increments", "printed", "hex",
              "fired", "artillery_leader", "facing", "firing")
_KEYS = ("format", "version", "title", "map", "charts", "segment", "first_fire", "attacked", "units",
         "fired_this_segment", "segments")
Fired = tuple[tuple[str, str], ...]     # (unit id, the hex it fired at), in the order they fired


@dataclass(frozen=True)
class FireUnit:
    id: str
    side: str
    nation: str
    troop: str
    arm: str
    formation: str
    increments: int
    printed: int
    hex: str                          # canonical hex id on the position's map
    fired: bool = False               # has fired before in the scenario (first fire, rules.md 8)
    artillery_leader: bool = False    # a leader with an artillery bonus (18.5)
    facing: int | None = None         # 1..6, the hexside it faces (rules.md 1 directions)
    firing: int | None = None         # increments that fire (default: all of them)
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class MapEntry:
    board: str
    at: tuple[int, int]
    rotated: bool = False


@dataclass(frozen=True)
class FirePosition:
    title: str
    map_entries: tuple[MapEntry, ...]
    map: Map
    charts_ref: str
    charts: ChartPack
    segment: str
    first_fire: bool
    attacked: tuple[str, ...]
    units: tuple[FireUnit, ...]
    terrain: tuple[str, ...] = ()     # the chart pack's terrain name of every map index
    fired_now: Fired = ()             # who has fired this segment, and at which hex (rules.md 8)
    # the record of the turn's other segments: (segment, attacked, fired), kept while another
    # segment is played (a segment left and come back to keeps what happened in it)
    other_segments: tuple[tuple[str, tuple[str, ...], Fired], ...] = ()
    path: str | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def terrain_at(self, index: int) -> str:
        """The terrain of map index ``index`` in the game's own words (its chart pack's)."""
        return self.terrain[index] if self.terrain else self.map.terrain_name(index)

    def unit(self, uid: str) -> FireUnit:
        for u in self.units:
            if u.id == uid:
                return u
        raise ScenarioError(f"no unit {uid!r} in this position "
                            f"(units: {', '.join(u.id for u in self.units[:20])})")

    def units_in(self, hex_id: str) -> list[FireUnit]:
        return [u for u in self.units if u.hex == hex_id]

    def fired_at(self, uid: str) -> str | None:
        """The hex unit ``uid`` fired at this segment (None: it has not fired in it)."""
        return next((h for u, h in self.fired_now if u == uid), None)


def _text(obj: dict, key: str, place: str, default: str | None = None) -> str:
    v = obj.get(key, default)
    if not isinstance(v, str) or not v or len(v) > MAX_TEXT:
        raise ScenarioError(f"must be a non-empty string of at most {MAX_TEXT} characters, not "
                            f"{type_name(v) if not isinstance(v, str) else repr(v)}", place=f"{place}{key}")
    return v


def _bool(obj: dict, key: str, place: str, default: bool) -> bool:
    v = obj.get(key, default)
    if not isinstance(v, bool):
        raise ScenarioError(f"must be true or false, not {v!r}", place=f"{place}{key}")
    return v


def _whole(obj: dict, key: str, place: str, lo: int, hi: int, default=None):
    v = obj.get(key, default)
    if v is None and default is None and key not in obj:
        raise ScenarioError("is required", place=f"{place}{key}")
    if not is_int(v) or not lo <= v <= hi:
        raise ScenarioError(f"must be a whole number from {lo} to {hi}, not {v!r}", place=f"{place}{key}")
    return v


def position_from_json(data: Any, file: str | None = None, folder: str | Path | None = None) -> FirePosition:
    """Validate a parsed fire position; ScenarioError naming the file and the place."""
    try:
        return _position(data, Path(folder) if folder else Path("."))
    except ScenarioError as e:
        raise e.at(file=e.file or file) from None


def _position(data: Any, folder: Path) -> FirePosition:
    check_format(data, FIRE_FORMAT, (1,), kind="a fire position")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 200:
        raise ScenarioError("must be a string of at most 200 characters", place="title")
    charts_ref = data.get("charts", "sample")
    try:
        charts = load_charts(charts_ref, folder)
    except ScenarioError as err:
        if err.file:
            raise
        raise ScenarioError(err.message, place="charts") from None
    raw_map = data.get("map")
    if not isinstance(raw_map, list) or not raw_map or len(raw_map) > 64:
        raise ScenarioError("must be a non-empty list of boards", place="map")
    entries, placements, seen, terrain, hexes = [], [], {}, {}, 0
    for i, e in enumerate(raw_map):
        p = f"map[{i}]."
        if not isinstance(e, dict):
            raise ScenarioError(f"must be an object, not {type_name(e)}", place=f"map[{i}]")
        ref = _text(e, "board", p)
        at = e.get("at", [0, 0])
        if not isinstance(at, list) or len(at) != 2 or not all(is_int(v) and 0 <= v <= MAX_SLOT for v in at):
            raise ScenarioError(f"must be [slot column, slot row], whole numbers 0..{MAX_SLOT}, "
                                f"not {at!r}", place=f"{p}at")
        rotated = _bool(e, "rotated", p, False)
        try:
            board, cells, default = fire_board(ref, folder, charts)
        except ScenarioError as err:
            if err.file:                                # a bad board file names itself
                raise
            raise ScenarioError(err.message, place=f"{p}board") from None
        if board.id in seen:
            raise ScenarioError(f"board {board.id!r} appears twice (also map[{seen[board.id]}])",
                                place=f"{p}board")
        seen[board.id] = i
        terrain[board.id] = (cells, default)
        hexes += len(board_hexes(tuple(board.size)))
        if hexes > MAX_MAP_HEXES:         # bounded before the map is built and drawn
            raise ScenarioError(f"a map of more than {MAX_MAP_HEXES} hexes is too large (32 "
                                "geomorphic boards)", place=f"map[{i}]")
        entries.append(MapEntry(ref, (at[0], at[1]), rotated))
        placements.append(Placement(board, (at[0], at[1]), rotated))
    game_map = Map.build(placements)
    segment = data.get("segment", "fire")
    if segment not in SEGMENTS:
        raise ScenarioError(f"must be one of {', '.join(SEGMENTS)}, not {segment!r}", place="segment")
    first_fire = _bool(data, "first_fire", "", False)
    attacked_raw = data.get("attacked", [])
    if not isinstance(attacked_raw, list) or len(attacked_raw) > MAX_UNITS:
        raise ScenarioError("must be a list of hex ids", place="attacked")
    attacked = []
    for i, h in enumerate(attacked_raw):
        attacked.append(_hex(h, f"attacked[{i}]", game_map))
    units_raw = data.get("units", [])
    if not isinstance(units_raw, list) or len(units_raw) > MAX_UNITS:
        raise ScenarioError(f"must be a list of at most {MAX_UNITS} units", place="units")
    units, ids = [], {}
    for i, u in enumerate(units_raw):
        unit = _unit(u, i, game_map)
        if unit.id in ids:
            raise ScenarioError(f"unit id {unit.id!r} is used twice (also units[{ids[unit.id]}])",
                                place=f"units[{i}].id")
        ids[unit.id] = i
        units.append(unit)
    fired = _fired(data.get("fired_this_segment", {}), "fired_this_segment", game_map, ids)
    others = _segments(data.get("segments", {}), game_map, ids)
    mine = next((r for r in others if r[0] == segment), None)
    if mine is not None:                # the current segment's record lives in the top-level keys
        others = tuple(r for r in others if r[0] != segment)
        attacked += list(mine[1])
        fired = fired + tuple(f for f in mine[2] if f[0] not in dict(fired))
    extra = {k: v for k, v in data.items() if k not in _KEYS}
    return FirePosition(title, tuple(entries), game_map, charts_ref, charts, segment, first_fire,
                        tuple(dict.fromkeys(attacked)), tuple(units),
                        hex_terrain(game_map, terrain), fired, others, extra=extra)


def _fired(obj: Any, place: str, m: Map, ids: dict) -> Fired:
    """``{"F1": "n1E4"}``: who fired in a segment and at which hex."""
    if not isinstance(obj, dict) or len(obj) > MAX_UNITS:
        raise ScenarioError("must be an object of unit id -> the hex it fired at", place=place)
    out = []
    for uid, h in obj.items():
        if uid not in ids:
            raise ScenarioError(f"no unit {uid!r} in this position", place=f"{place}.{uid}")
        out.append((uid, _hex(h, f"{place}.{uid}", m)))
    return tuple(out)


def _segments(obj: Any, m: Map, ids: dict) -> tuple:
    """``{"opportunity": {"attacked": [...], "fired": {...}}}``: the other segments' record."""
    if not isinstance(obj, dict):
        raise ScenarioError("must be an object of segment -> its record", place="segments")
    out = []
    for seg, rec in obj.items():
        place = f"segments.{seg}"
        if seg not in SEGMENTS:
            raise ScenarioError(f"must be one of {', '.join(SEGMENTS)}, not {seg!r}", place=place)
        if not isinstance(rec, dict):
            raise ScenarioError(f"must be an object, not {type_name(rec)}", place=place)
        hexes = rec.get("attacked", [])
        if not isinstance(hexes, list) or len(hexes) > MAX_UNITS:
            raise ScenarioError("must be a list of hex ids", place=f"{place}.attacked")
        attacked = tuple(dict.fromkeys(_hex(h, f"{place}.attacked[{i}]", m)
                                       for i, h in enumerate(hexes)))
        out.append((seg, attacked, _fired(rec.get("fired", {}), f"{place}.fired", m, ids)))
    return tuple(out)


def _hex(v: Any, place: str, m: Map) -> str:
    if not isinstance(v, str):
        raise ScenarioError(f"must be a hex id like 'n1C3', not {type_name(v)}", place=place)
    try:
        return m.canonical(v)
    except HexIdError as e:
        raise ScenarioError(str(e), place=place) from None


def _unit(obj: Any, i: int, m: Map) -> FireUnit:
    p = f"units[{i}]."
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {type_name(obj)}", place=f"units[{i}]")
    uid = _text(obj, "id", p)
    if not _ID_RE.match(uid):
        raise ScenarioError(f"a unit id is letters, digits, '_', '-', '.' (at most 30), not {uid!r}",
                            place=f"{p}id")
    arm = _text(obj, "arm", p)
    if arm not in ARMS:
        raise ScenarioError(f"must be one of {', '.join(ARMS)}, not {arm!r}", place=f"{p}arm")
    increments = _whole(obj, "increments", p, 0, MAX_INCREMENTS)
    printed = _whole(obj, "printed", p, 0, MAX_PRINTED)
    facing = obj.get("facing")
    if facing is not None:
        facing = _whole(obj, "facing", p, 1, 6)
    firing = obj.get("firing")
    if firing is not None:
        firing = _whole(obj, "firing", p, 0, increments)
    extra = {k: v for k, v in obj.items() if k not in _UNIT_KEYS}
    return FireUnit(uid, _text(obj, "side", p), _text(obj, "nation", p, obj.get("side")),
                    _text(obj, "troop", p, "line"), arm, _text(obj, "formation", p), increments,
                    printed, _hex(obj.get("hex"), f"{p}hex", m), _bool(obj, "fired", p, False),
                    _bool(obj, "artillery_leader", p, False), facing, firing, extra)


def load_position(path: str | Path) -> FirePosition:
    path = Path(path)
    data = read_json(path)
    pos = position_from_json(data, file=str(path), folder=path.parent)
    return FirePosition(**{**pos.__dict__, "path": str(path)})


def position_to_json(pos: FirePosition) -> dict:
    units = [unit_to_json(u) for u in pos.units]
    out = {"format": FIRE_FORMAT, "version": 1, "title": pos.title,
           "map": [{"board": e.board, "at": list(e.at), **({"rotated": True} if e.rotated else {})}
                   for e in pos.map_entries],
           "charts": pos.charts_ref, "segment": pos.segment, "first_fire": pos.first_fire,
           "attacked": list(pos.attacked), "units": units}
    if pos.fired_now:
        out["fired_this_segment"] = dict(pos.fired_now)
    record = {seg: {"attacked": list(att), "fired": dict(fired)}
              for seg, att, fired in pos.other_segments if att or fired}
    if record:
        if pos.attacked or pos.fired_now:       # every segment's record in one place too
            record[pos.segment] = {"attacked": list(pos.attacked), "fired": dict(pos.fired_now)}
        out["segments"] = {s: record[s] for s in SEGMENTS if s in record}
    out.update(pos.extra)
    return out


def save_position(pos: FirePosition, path: str | Path) -> None:
    """Atomic: the old file survives any failure.  Relative board and chart paths stay relative
    to the position's folder, so a save elsewhere is refused rather than breaking them."""
    path = Path(path)
    if pos.path and Path(pos.path).resolve().parent != path.resolve().parent:
        refs = [e.board for e in pos.map_entries] + [pos.charts_ref]
        if any(r.endswith(".json") and not Path(r).is_absolute() for r in refs):
            old = Path(pos.path).resolve().parent
            data = position_to_json(pos)
            new = path.resolve().parent     # SPEC: relative paths, to the same files
            for e in data["map"]:
                if e["board"].endswith(".json") and not Path(e["board"]).is_absolute():
                    e["board"] = Path(os.path.relpath(old / e["board"], new)).as_posix()
            if data["charts"].endswith(".json") and not Path(data["charts"]).is_absolute():
                data["charts"] = Path(os.path.relpath(old / data["charts"], new)).as_posix()
            atomic_write_json(path, data)
            return
    atomic_write_json(path, position_to_json(pos))


# ------------------------------------------------------------------ edits (the window's editor)

def blank_position(board: str = "n1", charts: str = "sample", title: str = "New fire position"
                   ) -> FirePosition:
    """A position with no unit on a bundled fire board and chart pack (or their paths)."""
    return position_from_json({"format": FIRE_FORMAT, "version": 1, "title": title,
                               "map": [{"board": board, "at": [0, 0]}], "charts": charts,
                               "segment": "fire", "first_fire": False, "attacked": [],
                               "units": []})


def unit_to_json(unit: FireUnit) -> dict:
    """A unit as the file writes it."""
    d = {"id": unit.id, "side": unit.side, "nation": unit.nation, "troop": unit.troop,
         "arm": unit.arm, "formation": unit.formation, "increments": unit.increments,
         "printed": unit.printed, "hex": unit.hex}
    for key, value, unset in (("fired", unit.fired, False),
                              ("artillery_leader", unit.artillery_leader, False),
                              ("facing", unit.facing, None), ("firing", unit.firing, None)):
        if value != unset:
            d[key] = value
    d.update(unit.extra)
    return d


def with_unit(pos: FirePosition, data: dict, replacing: str | None = None) -> FirePosition:
    """The position with the unit ``data`` (a unit as the file writes it, checked as a file's
    is) added, or in place of unit ``replacing``; ScenarioError naming the key at fault."""
    index = next((k for k, u in enumerate(pos.units) if u.id == replacing), len(pos.units))
    unit = _unit(data, index, pos.map)
    if any(u.id == unit.id and u.id != replacing for u in pos.units):
        raise ScenarioError(f"unit id {unit.id!r} is used already", place=f"units[{index}].id")
    units = list(pos.units)
    if replacing is None:
        units.append(unit)
    else:
        units[index] = unit
    names = {replacing: unit.id} if replacing is not None else {}
    return _renamed(FirePosition(**{**pos.__dict__, "units": tuple(units)}), names)


def without_unit(pos: FirePosition, uid: str) -> FirePosition:
    pos.unit(uid)                                       # says which ids there are
    gone = FirePosition(**{**pos.__dict__, "units": tuple(u for u in pos.units if u.id != uid)})
    return _renamed(gone, {uid: None})


def _renamed(pos: FirePosition, names: dict) -> FirePosition:
    """The segments' record with units renamed (``names``: old id -> new id, None: gone)."""
    def fired(rec: Fired) -> Fired:
        return tuple((names.get(u, u), h) for u, h in rec if names.get(u, u) is not None)
    others = tuple((s, a, fired(f)) for s, a, f in pos.other_segments)
    return FirePosition(**{**pos.__dict__, "fired_now": fired(pos.fired_now),
                           "other_segments": others})


def free_id(pos: FirePosition, side: str) -> str:
    """A unit id not yet used: the side's first letter, upper case, and a number."""
    head = (side[:1] or "U").upper() if side[:1].isalnum() else "U"
    used = {u.id for u in pos.units}
    return next(f"{head}{n}" for n in range(1, len(used) + 2) if f"{head}{n}" not in used)
