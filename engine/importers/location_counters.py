"""VASL's location counters in a saved game (rules.md 11.4; VASL's ``CounterMetadata.xml`` and
``VASLGameInterface.getLocation``): which location each unit of a stack is in.

A location counter applies to the pieces on one side of it in its stack: ``above`` (Building
Level N, Fort Bldg / Strongpoint levels, Building Roof Level, Climb, Crest, Trench BRT: the
pieces stacked on it) or ``below`` (1S/2S/3S Foxhole, Trench, A-T Ditch: the pieces under it).
A piece looks down its stack first (itself, then the pieces beneath it) for an ``above``
counter, then up (itself, then the pieces on it) for a ``below`` one.

What VASL's LOS does with each (``getLocation``): a Building Level counter puts the unit at that
level of the building (B23); an entrenchment puts it in the entrenchment's location at the
hex's ground (B27); Roof, Climb and Crest leave it at the location where it stands.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..night.scenario import Unit
from .pieces import Piece, SavedGame

ENTRENCHED_KEY = "entrenched"     # SPEC.md (turn four, added): a unit in its hex's entrenchment

_LEVEL_RE = re.compile(r"^(building|fort bldg|strongpoint) (ground level|level ([1-3]))$")
_CLIMB_RE = re.compile(r"^climb -?\d: 1 ca[1-6]$")
_CREST_RE = re.compile(r"^crest ca[1-6]$")
_ROOF = "building roof level"
_TRENCH_BRT = "trench brt"
ENTRENCHMENT_NAMES = ("1s foxhole", "2s foxhole", "3s foxhole", "trench", "a-t ditch")


class LocationCounter(NamedTuple):
    """A location counter: its VASL name, what it is (``level``, ``entrenchment``, ``roof``,
    ``climb``, ``crest``), the level it gives (None: none), and whether the pieces in its
    location are ``above`` or ``below`` it."""
    name: str
    kind: str
    level: int | None
    position: str


def location_counter(piece: Piece) -> LocationCounter | None:
    """The location counter VASL's name for the piece is, or None."""
    shown = " ".join(piece.name.split())
    key = shown.lower()
    m = _LEVEL_RE.match(key)
    if m:
        return LocationCounter(shown, "level", int(m.group(3) or 0), "above")
    if key in ENTRENCHMENT_NAMES:
        return LocationCounter(shown, "entrenchment", 0, "below")
    if key == _TRENCH_BRT:
        return LocationCounter(shown, "entrenchment", 0, "above")
    if key == _ROOF:
        return LocationCounter(shown, "roof", None, "above")
    if _CLIMB_RE.match(key):
        return LocationCounter(shown, "climb", None, "above")
    if _CREST_RE.match(key):
        return LocationCounter(shown, "crest", None, "above")
    return None


def piece_locations(game: SavedGame) -> dict[str, LocationCounter]:
    """Piece id -> the location counter whose location it is in (VASL's
    ``getLocationCounterForPiece``), for the pieces of the stacks that hold one."""
    by_id = {p.id: p for p in game.pieces}
    out: dict[str, LocationCounter] = {}
    for stack in game.stacks:
        pieces = [by_id.get(i) for i in stack]
        counters = [location_counter(p) if p is not None else None for p in pieces]
        if not any(counters) or len(stack) < 2:
            continue
        for k, pid in enumerate(stack):
            found = next((c for c in reversed(counters[:k + 1])
                          if c is not None and c.position == "above"), None)
            if found is None:
                found = next((c for c in counters[k:] if c is not None and c.position == "below"),
                             None)
            if found is not None and counters[k] is None:
                out[pid] = found
    return out


def with_locations(units: list[Unit], game: SavedGame, notes: list[str]) -> list[Unit]:
    """The units with the locations their stacks' counters give them (rules.md 11.4): a
    Building Level counter sets the level (B23), an entrenchment marks the unit ``entrenched``
    (B27); each said in ``notes``; Roof, Climb and Crest are named as leaving the unit where
    it stands, as VASL's LOS does."""
    where = piece_locations(game)
    if not where:
        return units
    out, left = [], []
    for u in units:
        c = where.get(str(u.extra.get("vasl_id")))
        if c is None or u.is_vehicle:
            out.append(u)
            continue
        extra = {**u.extra, "vasl_location": c.name}
        if c.kind == "level":
            u = u.replace(level=c.level, extra=extra)
            notes.append(f"{u.id} ({u.extra.get('name', u.type)}) in {u.hex} at level "
                         f"{c.level}: VASL's {c.name} counter under it (B23, rules.md 11.4)")
        elif c.kind == "entrenchment":
            u = u.replace(extra={**extra, ENTRENCHED_KEY: True})
            notes.append(f"{u.id} ({u.extra.get('name', u.type)}) in {u.hex} is in the "
                         f"entrenchment of VASL's {c.name} counter (B27, rules.md 11.4)")
        else:
            left.append(f"{u.id} ({c.name})")
        out.append(u)
    if left:
        notes.append("left at the location where they stand, as VASL's LOS leaves them: "
                     + ", ".join(left[:12]) + (" ..." if len(left) > 12 else "")
                     + " (Roof, Climb and Crest counters, rules.md 11.4)")
    return out


def fit_levels(units, game_map, notes: list[str]) -> tuple:
    """The units with a level their hex cannot hold (a Building Level counter outside a
    building, or above its top) put back at the hex's ground, each said in ``notes``."""
    out = []
    for u in units:
        if u.level > 0:
            i = game_map.index(u.hex)
            top = int(game_map.upper_levels[i]) if game_map.terrain_name(i) == "building" else 0
            if u.level > top:
                note = (f"{u.id} in {u.hex}: VASL's {u.extra.get('vasl_location', 'level')} "
                        f"counter says level {u.level}, but the hex has no such level "
                        f"({game_map.terrain_name(i)} with {top} upper level(s)): at ground "
                        "level (B23)")
                if note not in notes:
                    notes.append(note)
                u = u.replace(level=0)
        out.append(u)
    return tuple(out)


def outside_entrenchments(units: list[Unit], markers) -> list[Unit]:
    """The units in a hex with an entrenchment counter but not under it marked ``entrenched``
    false (VASL: only the pieces under the counter are in its location, B27)."""
    dug = {m.hex for m in markers if m.type in ("foxhole", "trench", "ad_ditch")}
    return [u.replace(extra={**u.extra, ENTRENCHED_KEY: False})
            if u.hex in dug and ENTRENCHED_KEY not in u.extra and not u.is_vehicle else u
            for u in units]
