"""The counters of a position that change LOS (rules.md 11.4; SPEC.md turn-four extensions).

- The file's keys: a smoke marker's ``kind`` and ``level``, a blaze's ``levels`` (N-level Blaze)
  or ``building`` (Blazing Building), a wreck's ``burnt``, rubble's ``material`` and ``level``,
  a unit's ``bypass_side``: read and refused here (``read_marker_keys``, ``read_unit_keys``),
  kept in the marker's or unit's ``extra`` (so they are written back as read).
- ``los_counters``: the position's smoke, vehicles, wrecks and fire for effect as the LOS core
  counts them (``engine.los.counters``), built once per position.
- ``night_clear``: the one place the night verdicts add them (fields, one line, the LOS
  thread, the threat map, the planner and the route all ask through it); ``counter_words``:
  each counter's part of one line in words.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from ..cache import per_map
from ..errors import ScenarioError
from ..jsonio import read_bool, read_choice, read_int
from ..los import los_table
from ..los.counter_table import counter_table
from ..los.counters import (
    CounterLines,
    Ends,
    Ffe,
    LosCounters,
    Smoke,
    Vehicle,
    counter_lines,
    with_counters,
    with_extra,
)
from ..los.ground import ground_hindrances, ground_table
from ..maps import Map
from .counter_terrain import los_map

# SPEC.md smoke ``kind`` -> VASL's counter name, hindrance, height in levels (rules.md 11.4)
SMOKE_KINDS: dict[str, tuple[str, int, int]] = {
    "white+3": ("White +3 Smoke", 3, 2),
    "white+2": ("White +2 Smoke", 2, 2),        # the dispersed side of White +3
    "gray+2": ("Gray +2 Smoke", 2, 2),
    "wp+2": ("White +2 WP", 2, 4),
    "wp+1": ("White +1 WP", 1, 4),
    "gray-wp+1": ("Gray +1 WP", 1, 4),
    "smoke-grenade": ("Smoke grenade +2", 2, 2),
    "wp-grenade": ("WP grenade +1", 1, 4),
}
DEFAULT_SMOKE = "white+3"
BLAZE_SMOKE = ("Blaze", 3, 2)                   # rules.md 11.4
BLAZING_BUILDING = ("Blazing Building", 3, 4)
MAX_BLAZE_LEVELS = 4                            # VASL: 1- to 4-level Blazes (height N + 3)
RUBBLE_MATERIALS = ("stone", "wood")
MAX_RUBBLE_LEVEL = 3
ENTRENCHMENTS = ("foxhole", "trench", "ad_ditch")
COUNTER_MARKERS = ("smoke", "wreck", "rubble", "ffe") + ENTRENCHMENTS
DERIVED_COUNTERS = "los-counters"


def _no_key(obj: dict, key: str, mtype: str, place: str, what: str) -> None:
    if key in obj:
        raise ScenarioError(f"only {what} take {key!r}, not a {mtype}", place=f"{place}{key}")


def read_marker_keys(obj: dict, mtype: str, hex_index: int, game_map: Map, place: str) -> None:
    """Refuse a counter key with a bad value or on the wrong marker (SPEC.md turn four)."""
    if mtype == "smoke":
        read_choice(obj, "kind", tuple(SMOKE_KINDS), place, DEFAULT_SMOKE)
        if "level" in obj:
            ground = int(game_map.level[hex_index])
            read_int(obj, "level", place, ground, ground - 1, ground + 6)
    else:
        _no_key(obj, "kind", mtype, place, "smoke markers")
    if mtype == "blaze":
        if "levels" in obj and "building" in obj:
            raise ScenarioError("a blaze is an N-level Blaze or a Blazing Building, not both",
                                place=f"{place}building")
        read_int(obj, "levels", place, 1, 1, MAX_BLAZE_LEVELS)
        read_bool(obj, "building", place, False)
    else:
        _no_key(obj, "levels", mtype, place, "blazes")
        _no_key(obj, "building", mtype, place, "blazes")
    if mtype == "wreck":
        read_bool(obj, "burnt", place, False)
    else:
        _no_key(obj, "burnt", mtype, place, "wrecks")
    if mtype == "rubble":
        if "material" not in obj:
            raise ScenarioError("is required: \"stone\" or \"wood\"", place=f"{place}material")
        read_choice(obj, "material", RUBBLE_MATERIALS, place)
        read_int(obj, "level", place, 0, 0, MAX_RUBBLE_LEVEL)
    else:
        _no_key(obj, "material", mtype, place, "rubble markers")
        if mtype != "smoke":
            _no_key(obj, "level", mtype, place, "smoke and rubble markers")


def read_unit_keys(obj: dict, place: str) -> None:
    """A unit's ``bypass_side``: 0-5, the hexside it bypasses along, and ``entrenched``: true
    or false (SPEC.md turn four)."""
    if "bypass_side" in obj:
        read_int(obj, "bypass_side", place, 0, 0, 5)
    if "entrenched" in obj:         # B27: in (true) or out of (false) its hex's entrenchment
        read_bool(obj, "entrenched", place, True)


# ------------------------------------------------------------------------------ as LOS counts
def smoke_of(marker, game_map: Map) -> Smoke | None:
    """A smoke marker's or a blaze's smoke (rules.md 11.4), None for any other marker."""
    i = game_map.index(marker.hex)
    ground = int(game_map.level[i])
    if marker.type == "smoke":
        name, hindrance, height = SMOKE_KINDS[marker.extra.get("kind", DEFAULT_SMOKE)]
        return Smoke(i, int(marker.extra.get("level", ground)), height, hindrance, name)
    if marker.type != "blaze":
        return None
    if marker.extra.get("building"):
        name, hindrance, height = BLAZING_BUILDING
    elif "levels" in marker.extra:
        n = int(marker.extra["levels"])
        name, hindrance, height = f"{n}-level Blaze", 3, n + 3
    else:
        name, hindrance, height = BLAZE_SMOKE
    return Smoke(i, ground, height, hindrance, name)


_READ: OrderedDict = OrderedDict()     # tuples read last: (map, tuple) ids -> them, counters
_READ_KEPT = 16
_READ_LOCK = threading.Lock()


def los_counters(scenario) -> LosCounters:
    """The position's counters in LOS (rules.md 11.4), computed once per position: its
    markers' (smoke, wrecks, FFE) and its units' (vehicles) each read once for those very
    tuples (a position made from another keeps the tuples it does not change: a unit moved
    keeps the markers, the NVR changed keeps both)."""
    def compute():
        m = scenario.map
        smoke, wrecks, ffe = _read_once(m, scenario.markers, _marker_counters)
        return LosCounters(smoke, _read_once(m, scenario.units, _unit_counters) + wrecks, ffe)
    return scenario.derived(DERIVED_COUNTERS, compute)


def _read_once(m: Map, items: tuple, read):
    """``read(m, items)``, kept for the last few tuples read (a tuple of frozen markers or
    units is the same counters)."""
    key = (id(m), id(items), read)
    with _READ_LOCK:
        kept = _READ.get(key)
    if kept is not None and kept[0] is m and kept[1] is items:
        return kept[2]
    out = read(m, items)
    with _READ_LOCK:
        _READ[key] = (m, items, out)
        if len(_READ) > _READ_KEPT:
            _READ.popitem(last=False)
    return out


def _unit_counters(m: Map, units: tuple) -> tuple:
    """The vehicles among ``units`` that hinder LOS (rules.md 11.4)."""
    vehicles = []
    for u in units:                 # SPEC.md: a vehicle hinders unless it is moving
        if u.is_vehicle and u.moving is None:
            i = m.index(u.hex)
            # SPEC.md: bypass_side, the hexside it bypasses along (its location there)
            vehicles.append(Vehicle(i, int(m.level[i]) + u.level, f"{u.id} ({u.type})",
                                    u.extra.get("bypass_side")))
    return tuple(vehicles)


def _marker_counters(m: Map, markers: tuple) -> tuple[tuple, tuple, tuple]:
    """The smoke, wrecks (as vehicles) and FFE of ``markers`` (rules.md 11.4)."""
    smoke = tuple(s for s in (smoke_of(mk, m) for mk in markers) if s is not None)
    wrecks = []
    for mk in markers:              # rules.md 11.4: VASL treats wrecks as vehicles
        if mk.type == "wreck":
            i = m.index(mk.hex)
            name = "Burnt Out Wreck" if mk.extra.get("burnt") else "Wreck"
            wrecks.append(Vehicle(i, int(m.level[i]), name))
    ffe = tuple(Ffe(m.index(mk.hex), "FFE") for mk in markers if mk.type == "ffe")
    return smoke, tuple(wrecks), ffe


def with_counters_of(scenario, other):
    """``other`` (a position derived from ``scenario``, e.g. with no vehicle moving) judged
    with ``scenario``'s counters in LOS (rules.md 11.4: a moving vehicle hinders nothing)."""
    other.derived(DERIVED_COUNTERS, lambda: los_counters(scenario))
    return other


def ends_of(scenario, viewer_hex: int, viewer_level: int, targets, target_levels) -> Ends:
    m = scenario.map
    targets = np.asarray(targets, dtype=np.int64)
    ground = int(m.level[viewer_hex])
    elev = m.level[targets].astype(np.int64) + np.asarray(target_levels, dtype=np.int64)
    return Ends(viewer_hex, ground + viewer_level, viewer_level, targets, elev)


_KEPT_ROWS = 512                # a viewer's row with counters: about a kilobyte each


class _Rows:
    """The rows (viewer, level, counters) -> clear of one map's fields, the last few kept."""

    def __init__(self):
        self.rows: OrderedDict = OrderedDict()
        self.lock = threading.Lock()


@per_map(4)
def field_rows(game_map: Map) -> _Rows:
    """The rows with counters kept for ``game_map`` (``cache_clear()`` forgets them)."""
    return _Rows()


_EVERY: dict = {}               # map size -> every index, once


def _every_hex(m: Map, targets, target_levels) -> bool:
    """Whether the lines go to every hex of the map, in order, at its ground level (a field)."""
    every = _EVERY.get(m.size)
    if every is None:
        every = _EVERY[m.size] = np.arange(m.size)
        every.setflags(write=False)
    return (len(targets) == m.size and not np.asarray(target_levels).any()
            and bool((np.asarray(targets) == every).all()))


def night_clear(scenario, viewer_hex: int, viewer_level: int, targets, target_levels,
                clear: np.ndarray, hindrances: np.ndarray | None = None) -> np.ndarray:
    """``clear`` (the daytime answer of the lines from the viewer to ``targets``) with the
    position's counters' hindrances added: six in all block (A6.1, rules.md 11.4).  A ground
    viewer's whole field (every hex's ground) reads the map's table of these counters
    (``engine.los.counter_table``, built once the set has been asked for enough fields); any
    other field's row is kept per map, viewer and counters: the daytime row is the map's, so
    the answer is too."""
    counters = los_counters(scenario)
    if not counters:
        return clear
    m = los_map(scenario)           # rules.md 11.4: the map with its rubble laid
    field = _every_hex(m, targets, target_levels)
    table = counter_table(m, counters) if field and viewer_level == 0 else None
    if table is not None:       # the map's ground lines with these counters, built once
        hit, extra = table.hindered(viewer_hex)
        if not clear[hit].any():
            return clear
        if hindrances is None:
            # A6.1: the ground table keeps each clear line's hindrances (None until its row is
            # built: the lines are counted)
            hindrances = ground_hindrances(m, viewer_hex)
        ends = None if hindrances is not None else ends_of(scenario, viewer_hex, viewer_level,
                                                           targets, target_levels)
        return with_extra(los_table(m), ends, hit, extra, clear, hindrances,
                          day_hindrances=False)[0]
    key = (viewer_hex, viewer_level, counters)
    if field:
        kept = field_rows(m)
        with kept.lock:
            hit = kept.rows.get(key)
            if hit is not None:
                kept.rows.move_to_end(key)
                return hit
    ends = ends_of(scenario, viewer_hex, viewer_level, targets, target_levels)
    out = with_counters(los_table(m), counters, ends, clear, hindrances)[0]
    if field:
        out = out.copy()
        out.setflags(write=False)
        with kept.lock:
            kept.rows[key] = out
            if len(kept.rows) > _KEPT_ROWS:
                kept.rows.popitem(last=False)
    return out


def night_clear_rows(scenario, viewers, viewer_levels, clear: np.ndarray,
                     hindrances: list) -> np.ndarray:
    """``night_clear`` of many viewers' whole fields at once (row k of ``clear``: the daytime
    answer from hex ``viewers[k]`` at ``viewer_levels[k]`` to every hex's ground; its
    daytime ``hindrances[k]``, or None: the ground table's row, built): the ground viewers'
    rows patched together from the map's table of these counters (A6.1, rules.md 11.4)."""
    counters = los_counters(scenario)
    if not counters:
        return clear
    m = los_map(scenario)           # rules.md 11.4: the map with its rubble laid
    ground_viewers = int(np.count_nonzero(np.asarray(viewer_levels) == 0))
    table = counter_table(m, counters, fields=ground_viewers)
    rows = ground_table(m, create=False)
    every, ground = np.arange(m.size), np.zeros(m.size, dtype=np.int64)
    out = clear.copy()
    together = []
    for k, (v, level) in enumerate(zip(viewers, viewer_levels)):
        if table is not None and level == 0 and (hindrances[k] is not None or (
                rows is not None and rows.ready[v])):
            together.append(k)
        else:
            out[k] = night_clear(scenario, int(v), int(level), every, ground, clear[k],
                                 hindrances[k])
    if not together:
        return out
    # the rows as one: line (row j, hex t) is j * size + t
    together = np.array(together)
    row, hit, extra = table.hindered_rows(np.asarray(viewers, dtype=np.int64)[together])
    if all(hindrances[k] is None for k in together):
        day = rows.hindrances[np.asarray(viewers)[together]]
    else:
        day = np.stack([rows.hindrances[viewers[k]] if hindrances[k] is None else hindrances[k]
                        for k in together])
    flat = with_extra(None, None, row * m.size + hit, extra, out[together].ravel(), day.ravel(),
                      day_hindrances=False)[0]
    out[together] = flat.reshape(len(together), m.size)
    return out


def line_counters(scenario, viewer_hex: int, viewer_level: int, target: int,
                  target_level: int) -> CounterLines:
    """The counters' hindrances to one line, location to location (rules.md 11.4):
    ``extra[0]`` in all, ``of_line(0)`` each counter hex's part."""
    ends = ends_of(scenario, viewer_hex, viewer_level, [target], [target_level])
    return counter_lines(los_table(los_map(scenario)), los_counters(scenario), ends)


_WHAT = {"smoke": "smoke", "vehicle": "vehicle", "ffe": "fire for effect"}
_RULE = {"smoke": "A24, rules.md 11.4", "vehicle": "rules.md 11.4", "ffe": "rules.md 11.4"}


def counter_words(scenario, viewer_hex: int, viewer_level: int, target: int,
                  target_level: int, day_clear: bool, day_hindrances: int) -> list[str]:
    """Each counter's hindrance to one line in words ("smoke in 4Q7 (+2 hindrance, A24,
    rules.md 11.4)"), and the sixth hindrance when they block it (A6.1)."""
    if not los_counters(scenario):
        return []
    m = scenario.map
    lines = line_counters(scenario, viewer_hex, viewer_level, target, target_level)
    out = []
    for p in lines.of_line(0):
        names = ", ".join(dict.fromkeys(p.names))
        out.append(f"{_WHAT[p.what]} in {m.names[p.hex]}: {names} "
                   f"(+{p.amount} hindrance, {_RULE[p.what]})")
    total = day_hindrances + int(lines.extra[0])
    if day_clear and total >= 6:        # what blocks first, then each counter's part
        out.insert(0, f"{total} hindrances in all ({day_hindrances} of the terrain, "
                      f"{total - day_hindrances} of counters): six or more block the line (A6.1)")
    return out


# ------------------------------------------------------------------------- for the window
MARKER_DEFAULTS = {"rubble": {"material": "stone"}}     # SPEC.md: rubble names its material
_ENTRENCHMENT_WORDS = {"foxhole": "Foxhole", "trench": "Trench", "ad_ditch": "A-T Ditch"}


def marker_defaults(marker_type: str) -> dict:
    """The keys a new marker of ``marker_type`` needs (a palette's rubble: stone)."""
    return dict(MARKER_DEFAULTS.get(marker_type, {}))


def marker_label(marker) -> str:
    """A marker's short name as its counter shows it: "White +3 Smoke", "Burnt Out Wreck",
    "Wood Rubble Level 1", "2-level Blaze" (VASL's names, rules.md 11.4)."""
    extra = marker.extra
    if marker.type == "smoke":
        return SMOKE_KINDS[extra.get("kind", DEFAULT_SMOKE)][0]
    if marker.type == "blaze":
        if extra.get("building"):
            return BLAZING_BUILDING[0]
        return f"{extra['levels']}-level Blaze" if "levels" in extra else "Blaze"
    if marker.type == "wreck":
        return "Burnt Out Wreck" if extra.get("burnt") else "Wreck"
    if marker.type == "rubble":
        level = f" Level {extra['level']}" if extra.get("level") else ""
        return f"{extra.get('material', 'stone').title()} Rubble{level}"
    if marker.type in _ENTRENCHMENT_WORDS:
        return _ENTRENCHMENT_WORDS[marker.type]
    return marker.type.replace("_", " ")


def marker_words(marker, game_map: Map) -> str:
    """What a marker does to LOS, in words, for the hex under the pointer (rules.md 11.4)."""
    label = marker_label(marker)
    smoke = smoke_of(marker, game_map)
    if smoke is not None:
        base = smoke.base - int(game_map.level[smoke.hex])
        at = "" if base == 0 else f", its base {base} level{'s' if base != 1 else ''} up"
        return (f"{label}: +{smoke.hindrance} hindrance to lines in or through it, "
                f"{smoke.height} levels high{at} (A24, rules.md 11.4)")
    if marker.type == "wreck":
        return f"{label}: +1 hindrance to lines at its level past it (rules.md 11.4)"
    if marker.type == "ffe":
        return ("FFE: +1 hindrance to lines through its blast area (this hex and the next), "
                "2 levels high (rules.md 11.4)")
    if marker.type == "rubble":
        return (f"{label}: the hex is rubble to every line, a half-level obstacle at its "
                "ground (B24.1, rules.md 11.4)")
    if marker.type in _ENTRENCHMENT_WORDS:
        return (f"{label}: a unit in it sees no non-adjacent location at its level or lower "
                "over a wall, hedge or bocage, nor is seen so (B27.2, rules.md 11.4)")
    return label
