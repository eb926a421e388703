"""Scenario (a saved position): plain immutable data; an edit makes a new one.

Field meanings are SPEC.md's.  ``Unit`` and ``Marker`` keep unknown keys in ``extra`` so that they
survive a load/save round trip.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..maps import Map
from .kinds import MARKER_KINDS, light_radius

PHASES = ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")
STARSHELLS_USED = ("never", "this_turn", "earlier")
UNIT_TYPES = ("squad", "half_squad", "crew", "leader", "armor_leader", "hero", "afv", "vehicle",
              "mortar", "observer")
VEHICLE_TYPES = ("afv", "vehicle")
# the unit types that may have each of these properties, the one table of these facts: the
# Edit panel offers a property (``unit_properties``) where ``checks.check`` (and so the loader)
# accepts it. Buttoned up / CE (E1.14), a tracked or moving vehicle (E1.14), IR (E1.93)
UNIT_PROPERTY_TYPES = {"bu": ("afv", "armor_leader"),
                       "ce": ("afv", "vehicle", "armor_leader", "crew"),
                       "tracked": VEHICLE_TYPES, "moving": VEHICLE_TYPES, "ir": ("mortar",)}


def unit_properties(unit_type: str) -> tuple[str, ...]:
    """The properties of a ``Unit`` a unit of ``unit_type`` may have (E1.14, E1.93)."""
    every = ("broken", "concealed", "pinned", "bypass", "bu", "ce", "tracked", "motorized",
             "moving", "ir")
    return tuple(k for k in every if unit_type in UNIT_PROPERTY_TYPES.get(k, (unit_type,)))
MOVING = ("entered", "changed_ca", "started", "stopped", "delay")
MARKER_TYPES = tuple(MARKER_KINDS)
GUNFLASH_MARKERS = tuple(k.type for k in MARKER_KINDS.values() if k.gunflash)  # E1.8
RADIUS_MARKERS = tuple(k.type for k in MARKER_KINDS.values() if k.own_radius)


# names of data derived from a scenario (``Scenario.derived``); those that only the map and
# the markers decide, the lights (E1.9), the Gunflashes (E1.8), the dense jungle (G2.3) and
# the map LOS is judged on (rubble, rules.md 11.4), are kept by a scenario whose units alone
# changed (a drag moves a unit every step)
DERIVED_LIGHTS, DERIVED_GUNFLASHES = "illumination", "gunflash"
DERIVED_DENSE, DERIVED_MOVING = "dense", "moving"
DERIVED_REFERENCE_LIGHTS = "reference-lights"        # the per-pair reference's own
DERIVED_LOS_MAP = "los-map"         # the map with rubble laid (rules.md 11.4): markers decide it
KEPT_WHEN_UNITS_CHANGE = (DERIVED_LIGHTS, DERIVED_GUNFLASHES, DERIVED_DENSE, DERIVED_LOS_MAP)


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    type: str
    hex: str
    level: int = 0
    broken: bool = False
    concealed: bool = False
    pinned: bool = False
    bypass: bool = False
    bu: bool = False
    ce: bool | None = None          # None: the default (vehicles and armour leaders: not bu)
    tracked: bool = False
    motorized: bool | None = None   # None: the default (true for vehicles)
    moving: str | None = None
    ir: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_vehicle(self) -> bool:
        return self.type in VEHICLE_TYPES

    @property
    def is_ce(self) -> bool:
        if self.ce is not None:
            return self.ce
        return (self.is_vehicle or self.type == "armor_leader") and not self.bu

    @property
    def is_motorized(self) -> bool:
        return self.is_vehicle if self.motorized is None else self.motorized

    @property
    def good_order(self) -> bool:
        return not self.broken

    def replace(self, **changes) -> "Unit":
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class Marker:
    type: str
    hex: str
    side: str | None = None
    radius: int | None = None       # blaze, flame, trip flare; None: the kind's default
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def light_radius(self) -> int:
        """E1.923: starshell 3; E1.933: IR 6; blaze/flame: the marker's radius (rules.md 4);
        -1: no light (``kinds.light_radius``)."""
        return light_radius(self.type, self.radius)

    @property
    def is_gunflash(self) -> bool:
        return self.type in GUNFLASH_MARKERS

    @property
    def gunflash_name(self) -> str:
        """The marker by its own name for a reason: "Gunflash", or a fire marker that counts
        as one (E1.8): "Prep Fire marker (it counts as a Gunflash, E1.8)"."""
        if self.type == "gunflash":
            return "Gunflash"
        return f"{self.type.replace('_', ' ').title()} marker (it counts as a Gunflash, E1.8)"

    def replace(self, **changes) -> "Marker":
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True)
class MapEntry:
    board: str                      # bundled id or path to a .json board file, as written
    at: tuple[int, int]
    rotated: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    # SPEC.md turn four (rules.md 11.1-11.2): VASL's rule names applied to this board, its
    # overlays (name, hex1, hex2) and its crop (x, y, width, height in the board's pixels)
    ssr: tuple[str, ...] = ()
    overlays: tuple[tuple[str, str, str], ...] = ()
    crop: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class Scenario:
    map_entries: tuple[MapEntry, ...]
    map: Map = field(compare=False, repr=False)
    title: str = ""
    nvr: int = 3
    phase: str = "PFPh"
    attacker: str = "allied"
    starshells_used: str = "never"
    starshell_attempts: tuple[str, ...] = ()
    units: tuple[Unit, ...] = ()
    markers: tuple[Marker, ...] = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    folder: str | None = field(default=None, compare=False)   # where relative board paths start
    ssr: tuple[str, ...] = ()       # VASL's rule names for every board (SPEC.md turn four)
    # False: a day position (a save's scenario record says Night: No, rules.md 11.5): the night
    # rules (E1) are off, every unit sees what its daytime LOS (A6) and the counters allow
    night: bool = True
    _derived: dict = field(default_factory=dict, init=False, compare=False, hash=False,
                           repr=False)

    def derived(self, key: str, compute):
        """Data derived from this (immutable) scenario, computed once: lights, Gunflashes..."""
        hit = self._derived.get(key)
        if hit is None:
            hit = self._derived[key] = compute()
        return hit

    # -------------------------------------------------------------------------- queries
    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        from ..errors import ScenarioError
        known = ", ".join(u.id for u in self.units) or "none"
        raise ScenarioError(f"no unit {unit_id!r} in this scenario (units: {known})")

    @property
    def sides(self) -> list[str]:
        out: list[str] = []
        for u in self.units:
            if u.side not in out:
                out.append(u.side)
        return out

    def enemies_of(self, side: str) -> list[Unit]:
        return [u for u in self.units if u.side != side]

    def units_at(self, hex_id: str) -> list[Unit]:
        i = self.map.index(hex_id)
        return [u for u in self.units if self.map.index(u.hex) == i]

    # -------------------------------------------------------------------------- edits
    def replace(self, **changes) -> "Scenario":
        out = dataclasses.replace(self, **changes)
        if changes.keys() == {"units"}:         # a unit moved or changed: the lights did not
            for key in KEPT_WHEN_UNITS_CHANGE:
                if key in self._derived:
                    out._derived[key] = self._derived[key]
        return out

    def with_unit(self, unit: Unit) -> "Scenario":
        """Replace the unit of the same id, or add it."""
        units = list(self.units)
        for k, u in enumerate(units):
            if u.id == unit.id:
                units[k] = unit
                break
        else:
            units.append(unit)
        return self.replace(units=tuple(units))

    def without_unit(self, unit_id: str) -> "Scenario":
        return self.replace(units=tuple(u for u in self.units if u.id != unit_id))

    def moved(self, unit_id: str, hex_id: str) -> "Scenario":
        return self.with_unit(self.unit(unit_id).replace(hex=self.map.canonical(hex_id)))

    def with_marker(self, marker: Marker, index: int | None = None) -> "Scenario":
        markers = list(self.markers)
        if index is None:
            markers.append(marker)
        else:
            markers[index] = marker
        return self.replace(markers=tuple(markers))

    def without_marker(self, index: int) -> "Scenario":
        return self.replace(markers=tuple(m for k, m in enumerate(self.markers) if k != index))
