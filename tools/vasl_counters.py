"""A VASL oracle kit's counters file as a Starshell position (for ``vasl_compare.py --counters``).

The kit's file (its README, "Counters file"): one counter a line, tab-separated, ``HEX kind NAME
[extra]``, ``#`` comments; kinds ``smoke`` (extra: its level above the hex's ground),
``vehicle`` (extra: the hexside 0-5 it bypasses along), ``wreck``, ``oba``, ``terrain``.  Each
becomes what the position file says (SPEC.md turn-four extensions): a ``smoke`` marker with its
``kind`` and ``level``, a ``blaze`` (``levels``, ``building``), a unit of type ``vehicle`` (with
``bypass`` and ``bypass_side``), a ``wreck`` (``burnt``), an ``ffe``, a ``rubble`` marker.  The
position's counters are then read by the night room (``engine.night.counters.los_counters``) as
every verdict reads them, and added to the table's daytime rows (``engine.los.counters``).
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from engine.los.counters import Ends, with_counters
from engine.night.counters import SMOKE_KINDS, los_counters
from engine.night.scenario import MapEntry, Marker, Scenario, Unit

_KIND_OF_NAME = {name: kind for kind, (name, _h, _t) in SMOKE_KINDS.items()}
_LEVEL_BLAZE = re.compile(r"^(\d)-level Blaze$")
_RUBBLE_LEVEL = re.compile(r" Level (\d)$")


def read_counters(path: str | Path) -> list[tuple[str, str, str, int | None]]:
    """The file's counters as (hex key, kind, name, extra or None)."""
    out = []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) < 3:
            raise ValueError(f"{path}:{n}: want HEX<TAB>kind<TAB>name[<TAB>extra]")
        extra = int(f[3]) if len(f) > 3 and f[3].strip() else None
        out.append((f[0].strip(), f[1].strip(), f[2].strip(), extra))
    return out


def _marker(game_map, i: int, kind: str, name: str, extra: int | None):
    """The position's marker or unit for one counter (None: no LOS effect we model)."""
    hex_id = game_map.names[i]
    if kind == "smoke":
        if name in _KIND_OF_NAME:
            level = {} if not extra else {"level": int(game_map.level[i]) + extra}
            return Marker("smoke", hex_id, extra={"kind": _KIND_OF_NAME[name], **level})
        if name == "Blazing Building":
            return Marker("blaze", hex_id, extra={"building": True})
        m = _LEVEL_BLAZE.match(name)
        return Marker("blaze", hex_id, extra={"levels": int(m.group(1))} if m else {})
    if kind == "vehicle":
        return Unit(f"V{i}-{name}", "allied", "vehicle", hex_id, bypass=extra is not None,
                    extra={} if extra is None else {"bypass_side": extra})
    if kind == "wreck":
        return Marker("wreck", hex_id, extra={"burnt": True} if name.startswith("Burnt") else {})
    if kind == "oba":
        return Marker("ffe", hex_id)
    if kind == "terrain":           # B24: "Stone Rubble", "Wood Rubble Level 2"...
        level = _RUBBLE_LEVEL.search(name)
        return Marker("rubble", hex_id, extra={"material": "wood" if "Wood" in name else "stone"}
                      | ({"level": int(level.group(1))} if level else {}))
    raise ValueError(f"unknown counter kind {kind!r}")


def counters_position(game_map, namer, counters) -> Scenario:
    """A position on ``game_map`` holding the counters (``namer``: VASL's hex keys to indices)."""
    units, markers = [], []
    for key, kind, name, extra in counters:
        got = _marker(game_map, namer(key), kind, name, extra)
        (units if isinstance(got, Unit) else markers).append(got)
    entries = tuple(MapEntry(p.board.id, p.at) for p in game_map.placements)
    return Scenario(entries, game_map, units=tuple(units), markers=tuple(markers))


def add_counters(table, position: Scenario, viewers: list[int], clear: np.ndarray,
                 hindrances: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows [viewer, every hex] of ground lines with the position's counters added: their
    ``clear`` and hindrance counts (daytime + counters, rules.md 11.4)."""
    counters = los_counters(position)
    m = table.map
    clear, hindrances = clear.copy(), hindrances.copy()
    targets = np.arange(m.size)
    for k, v in enumerate(viewers):
        ground = int(m.level[v])
        ends = Ends(v, ground, 0, targets, m.level.astype(np.int64))
        new_clear, lines, _ = with_counters(table, counters, ends, clear[k], hindrances[k])
        clear[k] = new_clear
        hindrances[k] = hindrances[k] + lines.extra
    return clear, hindrances
