"""Illumination (E1.9, rules.md 4): which locations are lit, by what, and blaze shadows.

- E1.923: a starshell lights every location within 3 hexes; E1.933: an IR within 6.
- Not lit by starshells or IR (E1.923, E1.933): building interiors (a hex of a multi-hex building
  with no hexside outside it: our assumption), jungle, light jungle and bamboo (G3.1) -- except a
  unit bypassing light jungle -- and underground locations.  They cast no shadows.
- Blazes and Flames light every location of their circle (jungle and interiors too) that their
  light reaches: the others are their blind hexes, unless another light reaches them (the seed
  says so for fires; applied to Flames too, as docs/rules.md reads it).  Radius: the marker's,
  default 2.  Underground locations (a unit level below 0) only by a fire reaching the hex.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cache import per_map
from ..los import los_table
from ..los.ground import ground_row
from ..maps import Map
from ..terrain import BY_CODE
from .counter_terrain import los_map
from .kinds import MARKER_KINDS, Light
from .scenario import DERIVED_LIGHTS, Scenario, Unit

STAR_LIGHTS = tuple(k.type for k in MARKER_KINDS.values() if k.light is Light.STAR)  # E1.923
FIRE_LIGHTS = tuple(k.type for k in MARKER_KINDS.values() if k.light is Light.FIRE)  # E1.9
LIGHT_TYPES = frozenset(STAR_LIGHTS + FIRE_LIGHTS)
LIGHT_RULE = {t: MARKER_KINDS[t].rule for t in STAR_LIGHTS + FIRE_LIGHTS}
LIGHT_WORDS = {t: MARKER_KINDS[t].label for t in STAR_LIGHTS + FIRE_LIGHTS}


@dataclass
class Illumination:
    """What the scenario's lights do to every hex of its map."""
    map: Map
    lit: np.ndarray                 # ground location lit (a unit not bypassing)
    lit_bypass: np.ndarray          # lit for a unit bypassing light jungle there (E1.923)
    blind: np.ndarray               # inside a blaze/flame circle, reached by no light at all
    sources: list = field(default_factory=list)   # per light: (marker index, reached bool[n])
    refused: list = field(default_factory=list)   # per light: hexes in its circle it cannot light

    def lit_names(self) -> list[str]:
        return sorted(self.map.names[i] for i in np.flatnonzero(self.lit))

    def blind_names(self) -> list[str]:
        return sorted(self.map.names[i] for i in np.flatnonzero(self.blind))

    def unit_lit(self, unit: Unit) -> bool:
        """Is the unit's location Illuminated?  Underground locations (a level below 0) are not
        lit by starshells or IR, only by a fire reaching their hex (E1.923, E1.933)."""
        i = self.map.index(unit.hex)
        if unit.level < 0:
            return bool(self.fire_lit[i])
        return bool(self.lit[i] or (unit.bypass and self.lit_bypass[i]))

    def why_lit(self, scenario: Scenario, index: int, bypass: bool = False) -> list[str]:
        """Sentences naming the lights of hex ``index`` (E1.101 reasons cite the light's rule)."""
        name = self.map.names[index]
        out = []
        for k, reached in self.sources:
            mk = scenario.markers[k]
            if reached[index] or (bypass and mk.type in STAR_LIGHTS and self._bypass_reach(k, index)):
                out.append(f"{name} is illuminated by the {LIGHT_WORDS[mk.type]} in {mk.hex} "
                           f"({LIGHT_RULE[mk.type]})")
        return out

    def why_dark(self, scenario: Scenario, index: int) -> str:
        """Why hex ``index`` is not lit (a light's exception or shadow), or that no light reaches it."""
        name = self.map.names[index]
        for (k, _), refused in zip(self.sources, self.refused):
            mk = scenario.markers[k]
            if refused[index]:
                if mk.type in FIRE_LIGHTS:
                    return (f"{name} is in the circle of the {LIGHT_WORDS[mk.type]} in {mk.hex} "
                            f"but its light has no LOS there: a blind hex (E1.9, A6.4)")
                what = ("a building interior" if self.map.building_interior[index]
                        else BY_CODE[int(self.map.terrain[index])].label)
                return (f"{name} is within the {LIGHT_WORDS[mk.type]} in {mk.hex} but, being "
                        f"{what}, is not lit by it ({LIGHT_RULE[mk.type]})")
        return f"no light reaches {name} (E1.9)"

    def _bypass_reach(self, k: int, i: int) -> bool:
        mk_hex = self._marker_hex[k]
        return bool(self.map.distance(mk_hex, i) <= self._radius[k] and self.lit_bypass[i])

    _marker_hex: dict = field(default_factory=dict)
    _radius: dict = field(default_factory=dict)
    circles: list = field(default_factory=list)   # per light: (marker index, centre, radius, circle)
    fire_lit: np.ndarray | None = None            # reached by a Blaze or Flame


@per_map(8)
def star_exceptions(game_map: Map) -> tuple[np.ndarray, np.ndarray]:
    """(starlit, bypass_starlit): ground locations starshells/IR may light, and light jungle."""
    starlit = np.array([t.starlit for t in BY_CODE])[game_map.terrain] & ~game_map.building_interior
    bypassable = np.array([t.bypassable for t in BY_CODE])[game_map.terrain]
    return starlit, bypassable


def illumination(scenario: Scenario) -> Illumination:
    """The lights of a scenario (computed once per scenario: it is immutable)."""
    return scenario.derived(DERIVED_LIGHTS, lambda: _illumination(scenario))


def _illumination(scenario: Scenario) -> Illumination:
    # trip flares are fires here (kinds.FIRE lights): they light jungle and cast a fire's
    # shadows, the latter an assumption (rules.md 10)
    m = scenario.map
    n = m.size
    lit = np.zeros(n, dtype=bool)
    lit_bypass = np.zeros(n, dtype=bool)
    blind = np.zeros(n, dtype=bool)
    starlit, bypassable = star_exceptions(m)
    sources, refused = [], []
    ill = Illumination(m, lit, lit_bypass, blind, sources, refused)
    ill.fire_lit = np.zeros(n, dtype=bool)
    for k, mk in enumerate(scenario.markers):
        if mk.type not in LIGHT_TYPES:
            continue
        c = m.index(mk.hex)
        if mk.type in STAR_LIGHTS:
            circle = m.distances_from(c) <= mk.light_radius
            reached = circle & starlit
            lit_bypass |= circle & bypassable          # E1.923: a unit bypassing light jungle
            no = circle & ~starlit
        else:
            # rules.md 11.4: rubble laid
            circle, reached, no = fire_reach(los_map(scenario), c, mk.light_radius)
            blind |= no
            ill.fire_lit |= reached
        lit |= reached
        ill.circles.append((k, c, mk.light_radius, circle))
        sources.append((k, reached))
        refused.append(no)
        ill._marker_hex[k] = c
        ill._radius[k] = mk.light_radius
    lit_bypass |= lit
    blind &= ~lit           # E1.9: a fire's shadow that another light reaches is lit, not blind
    return ill


@per_map(256)
def fire_reach(game_map: Map, centre: int, radius: int):
    """E1.9: a fire's circle of ``radius`` about hex ``centre``, the hexes of it its light
    reaches and those it does not (its blind hexes), read-only, kept per map (a fire's light
    is the map's daytime LOS: the same in every position)."""
    circle = game_map.distances_from(centre) <= radius
    clear = _fire_clear(game_map, centre, circle)
    out = circle, circle & clear, circle & ~clear
    for a in out:
        a.setflags(write=False)
    return out


def _fire_clear(m: Map, c: int, circle: np.ndarray) -> np.ndarray:
    """E1.9: daytime LOS from a fire's ground location to the ground location of every hex of
    its circle (False outside it): the map's table row once built (engine.los.ground), else
    only the circle's lines (``LosTable.lines``, each line judged on its own: the same answers
    as the whole row's)."""
    row = ground_row(m, c)
    if row is not None:
        return row[0] & circle
    table = los_table(m)
    ask = np.flatnonzero(circle)
    clear = np.zeros(m.size, dtype=bool)
    clear[ask] = table.lines(c, int(table.ground[c]), ask, table.ground[ask]).clear
    return clear


def illuminated_hexes(scenario: Scenario) -> set[str]:
    """Canonical ids of the lit ground locations (SPEC.md API)."""
    return set(illumination(scenario).lit_names())
