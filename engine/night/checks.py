"""``check(scenario)``: every invariant of a legal position, on the Scenario itself.

The file loader (``files``) reads a file's shape (types, keys, JSON) and then calls ``check``;
every edit the app makes calls it too (``api.check``), so a position is checked the same way
whether it comes from a file or from the player.  A broken invariant raises one ScenarioError
naming the place (0-based, like ``units[3].bu``) and the problem.
"""
from __future__ import annotations

from ..cache import per_map
from ..errors import ScenarioError, shown
from ..hexes import HexIdError
from . import bounds as limits  # the bounds the loader checks too (MAX_UNITS...)
from .scenario import (
    MARKER_TYPES,
    MOVING,
    PHASES,
    RADIUS_MARKERS,
    STARSHELLS_USED,
    UNIT_PROPERTY_TYPES,
    UNIT_TYPES,
    Scenario,
    Unit,
)


def check(scenario: Scenario) -> Scenario:
    """``scenario`` when it is a legal position; raises ScenarioError naming the place otherwise."""
    _settings(scenario)
    if len(scenario.units) > limits.MAX_UNITS:
        raise ScenarioError(f"more than {limits.MAX_UNITS} units", place="units")
    if len(scenario.markers) > limits.MAX_MARKERS:
        raise ScenarioError(f"more than {limits.MAX_MARKERS} markers", place="markers")
    _map_size(scenario.map)
    for i, u in enumerate(scenario.units):
        _unit(scenario, u, i)
    _ids_and_sides(scenario)
    _aboard(scenario)
    for i, mk in enumerate(scenario.markers):
        _choice(mk.type, MARKER_TYPES, "markers", i, "type")
        _on_map(scenario, mk.hex, "markers", i, "hex")
        if mk.side is not None and (not isinstance(mk.side, str) or not mk.side.strip()):
            raise ScenarioError(f"must be a side's name, not {shown(mk.side)}",
                                place=f"markers[{i}].side")
        if mk.radius is not None:
            if mk.type not in RADIUS_MARKERS:
                raise ScenarioError(f"only blazes, flames and trip flares have a radius, not a {mk.type}",
                                    place=f"markers[{i}].radius")
            _bounded(mk.radius, 0, limits.MAX_RADIUS, "markers", i, "radius")
    sides = scenario.sides
    if not isinstance(scenario.attacker, str) or not scenario.attacker.strip():
        raise ScenarioError(f"must be a side's name, not {shown(scenario.attacker)}", place="attacker")
    if len(sides) == 2 and scenario.attacker not in sides:
        raise ScenarioError(f"{shown(scenario.attacker)} is neither side (sides: {sides[0]}, {sides[1]})",
                            place="attacker")
    for i, h in enumerate(scenario.starshell_attempts):
        _on_map(scenario, h, "starshell_attempts", i)
    return scenario


@per_map(8)
def _map_size(game_map) -> bool:
    """The loader's bounds on the map (``files.check_map_size``), once per map content."""
    limits.check_map_size(list(game_map.placements))
    return True


def _settings(s: Scenario) -> None:
    _bounded(s.nvr, 0, limits.MAX_NVR, "nvr")
    _choice(s.phase, PHASES, "phase")
    _choice(s.starshells_used, STARSHELLS_USED, "starshells_used")


def _unit(s: Scenario, u: Unit, i: int) -> None:
    for key in ("id", "side"):
        v = getattr(u, key)
        if not isinstance(v, str) or not v.strip():
            raise ScenarioError(f"must be a non-empty string, not {shown(v)}",
                                place=f"units[{i}].{key}")
    _choice(u.type, UNIT_TYPES, "units", i, "type")
    _on_map(s, u.hex, "units", i, "hex")
    _bounded(u.level, -1, 6, "units", i, "level")
    if u.moving is not None:
        _choice(u.moving, MOVING, "units", i, "moving")
    if u.bu or u.ce or u.moving is not None or u.tracked or u.ir:
        _states(u, i)
    if u.level > 0:
        m = s.map
        idx = m.index(u.hex)
        top = int(m.upper_levels[idx]) if m.terrain_name(idx) == "building" else 0
        if u.level > top:
            raise ScenarioError(f"level {u.level} is above anything in {u.hex} "
                                f"({m.terrain_name(idx)} with {top} upper level(s))",
                                place=f"units[{i}].level")


def _states(u: Unit, i: int) -> None:
    """The impossible states: name the unit and what contradicts what."""
    p = f"units[{i}]."
    if u.bu and u.ce:
        raise ScenarioError("a unit cannot be both buttoned up (bu) and CE", place=f"units[{i}]")
    if u.bu and u.type not in UNIT_PROPERTY_TYPES["bu"]:              # E1.14
        raise ScenarioError(f"only an AFV (or its armour leader) can be buttoned up, not a "
                            f"{u.type}", place=f"{p}bu")
    if u.ce and u.type not in UNIT_PROPERTY_TYPES["ce"]:
        raise ScenarioError(f"only vehicles, their crews and armour leaders are CE, not a "
                            f"{u.type}", place=f"{p}ce")
    if u.moving is not None and u.type not in UNIT_PROPERTY_TYPES["moving"]:   # E1.14
        raise ScenarioError(f"only vehicles have a motion state, not a {u.type}",
                            place=f"{p}moving")
    if u.tracked and u.type not in UNIT_PROPERTY_TYPES["tracked"]:
        raise ScenarioError(f"only vehicles are tracked, not a {u.type}", place=f"{p}tracked")
    if u.ir and u.type not in UNIT_PROPERTY_TYPES["ir"]:                 # E1.93
        raise ScenarioError(f"only mortars fire Illuminating Rounds, not a {u.type}",
                            place=f"{p}ir")


def _ids_and_sides(s: Scenario) -> None:
    seen: dict[str, int] = {}
    sides: list[str] = []
    for i, u in enumerate(s.units):
        if u.id in seen:
            raise ScenarioError(f"unit id {shown(u.id)} is used twice (also units[{seen[u.id]}])",
                                place=f"units[{i}].id")
        seen[u.id] = i
        if u.side not in sides:
            sides.append(u.side)
            if len(sides) > 2:
                raise ScenarioError(f"a third side {shown(u.side)} (sides: {shown(sides[0])}, "
                                    f"{shown(sides[1])})", place=f"units[{i}].side")


def _aboard(s: Scenario) -> None:
    for i, u in enumerate(s.units):
        aboard = u.extra.get("aboard")
        if aboard is None:
            continue
        if aboard == u.id:      # E1.14: passengers ride another unit, a vehicle
            raise ScenarioError(f"a unit cannot be aboard itself ({shown(aboard)})",
                                place=f"units[{i}].aboard")
        carrier = next((v for v in s.units if v.id == aboard), None)
        if not isinstance(aboard, str) or carrier is None or not carrier.is_vehicle:
            raise ScenarioError(f"must name a vehicle of this scenario, not {shown(aboard)}",
                                place=f"units[{i}].aboard")
        if s.map.index(carrier.hex) != s.map.index(u.hex):
            raise ScenarioError(f"is aboard {aboard} in {carrier.hex} but stands in {u.hex}",
                                place=f"units[{i}].aboard")
        if carrier.extra.get("aboard") is not None:     # E1.14: a carrier rides nothing itself
            raise ScenarioError(f"is aboard {aboard}, which is itself aboard "
                                f"{shown(carrier.extra.get('aboard'))}", place=f"units[{i}].aboard")


def _place(where: str, i: int | None, key: str | None) -> str:
    """``where[i].key`` (built only for a message)."""
    place = where if i is None else f"{where}[{i}]"
    return place if key is None else f"{place}.{key}"


def _choice(v, choices, where: str, i: int | None = None, key: str | None = None) -> None:
    if not isinstance(v, str) or v not in choices:
        raise ScenarioError(f"must be one of {', '.join(choices)}, not {shown(v)}",
                            place=_place(where, i, key))


def _bounded(v, lo: int, hi: int, where: str, i: int | None = None,
             key: str | None = None) -> None:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ScenarioError(f"must be a whole number, not {shown(v)}", place=_place(where, i, key))
    if not lo <= v <= hi:
        raise ScenarioError(f"must be from {lo} to {hi}, not {v}", place=_place(where, i, key))


def _on_map(s: Scenario, hex_id, where: str, i: int | None = None, key: str | None = None) -> None:
    if not isinstance(hex_id, str):
        raise ScenarioError(f"must be a hex id like '2CC6', not {shown(hex_id)}",
                            place=_place(where, i, key))
    try:
        s.map.index(hex_id)
    except HexIdError as e:
        raise ScenarioError(str(e), place=_place(where, i, key)) from None
