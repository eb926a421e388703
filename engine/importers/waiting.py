"""Counters of a VASL save waiting in the map's margins (a set-up not yet placed): kept in the
position's ``vasl_waiting`` list, each a unit of the position without a hex, and put on the map
one at a time.  (SPEC.md "Command line, added": ``import-vsav`` lists them as ``waiting``.)"""
from __future__ import annotations

from ..errors import ScenarioError
from ..night.scenario import UNIT_TYPES, Scenario, Unit

WAITING_KEY = "vasl_waiting"
PIECES_KEY = "vasl_pieces"          # support weapons and Guns on their hexes (no viewers)
_FLAGS = ("broken", "concealed", "pinned", "bypass", "bu", "tracked", "ir")
_KEYS = {"id", "side", "type", "at", "level", "ce", "motorized", "moving", *_FLAGS}


def waiting_units(scenario: Scenario) -> list[dict]:
    """The counters waiting to be placed: ``id``, ``name``, ``side``, ``type`` and the rest,
    as the save gave them (entries that are not such a counter are left out)."""
    out = []
    for w in scenario.extra.get(WAITING_KEY, []) or []:
        if (isinstance(w, dict) and isinstance(w.get("id"), str) and w.get("type") in UNIT_TYPES
                and isinstance(w.get("side"), str) and w["side"].strip()):
            out.append(w)
    return out


def kept_pieces(scenario: Scenario) -> list[dict]:
    """The support weapons and Guns of the save, each on its hex: ``name``, ``kind``
    ("support_weapon" or "gun"), ``hex``, ``side`` when known."""
    return [p for p in scenario.extra.get(PIECES_KEY, []) or []
            if isinstance(p, dict) and isinstance(p.get("name"), str)
            and isinstance(p.get("hex"), str)]


def waiting_pieces(scenario: Scenario) -> list[dict]:
    """The support weapons and Guns waiting in the map's margins (a set-up not yet placed):
    ``name``, ``kind``, ``vasl_id``, ``at`` (VASSAL's map position), ``side`` when known."""
    return [p for p in scenario.extra.get(PIECES_KEY, []) or []
            if isinstance(p, dict) and isinstance(p.get("name"), str)
            and isinstance(p.get("vasl_id"), str) and "hex" not in p]


def place_piece(scenario: Scenario, vasl_id: str, hex_id: str) -> Scenario:
    """The position with waiting support weapon or Gun ``vasl_id`` put in ``hex_id``: kept on
    that hex (``kept_pieces``), no longer waiting.  ScenarioError for an unknown piece or a hex
    off the map."""
    entry = next((p for p in waiting_pieces(scenario) if p["vasl_id"] == vasl_id), None)
    if entry is None:
        raise ScenarioError(f"no support weapon or Gun {vasl_id!r} waits to be placed")
    hex_id = scenario.map.canonical(hex_id)
    placed = {k: v for k, v in entry.items() if k != "at"} | {"hex": hex_id}
    pieces = [placed if p is entry else p for p in scenario.extra.get(PIECES_KEY, [])]
    return scenario.replace(extra={**scenario.extra, PIECES_KEY: pieces})


def place_waiting(scenario: Scenario, unit_id: str, hex_id: str) -> Scenario:
    """The position with waiting counter ``unit_id`` put in ``hex_id`` (its name and VASL's
    keys kept), no longer waiting.  ScenarioError for an unknown counter, a taken id or a hex
    off the map."""
    entry = next((w for w in waiting_units(scenario) if w["id"] == unit_id), None)
    if entry is None:
        raise ScenarioError(f"no counter {unit_id!r} waits to be placed")
    if any(u.id == unit_id for u in scenario.units):
        raise ScenarioError(f"a unit {unit_id!r} is already on the map")
    hex_id = scenario.map.canonical(hex_id)
    ce = entry.get("ce")
    unit = Unit(unit_id, entry["side"], entry["type"], hex_id,
                **{k: bool(entry.get(k)) for k in _FLAGS},
                ce=ce if isinstance(ce, bool) else None,
                extra={k: v for k, v in entry.items() if k not in _KEYS})
    rest = [w for w in scenario.extra.get(WAITING_KEY, []) if w is not entry]
    extra = {k: v for k, v in scenario.extra.items() if k != WAITING_KEY}
    if rest:
        extra[WAITING_KEY] = rest
    return scenario.with_unit(unit).replace(extra=extra)
