"""Night visibility (E1): the verdict field of a viewer, and verdicts between units.

On top of daytime LOS (``los``) and the lights (``light``):
- E1.1 / E1.101: LOS to a location within the viewer's NVR; beyond it none, except to
  Illuminated locations, which are within every observer's NVR at any range.
- E1.14: a BU AFV has NVR/2, fractions dropped.
- E1.101: an observer in an Illuminated location sees only Illuminated locations (and Gunflashes).
- E1.8 / E1.81: a Gunflash (or fire marker) gives LOS beyond NVR, but the target is treated as
  beyond NVR: fire halved (Case K for ordnance), never Known.  From an Illuminated location to a
  non-illuminated Gunflash within NVR likewise.
- E1.14: a vehicle that enters a new hex or changes its covered arc is within NVR of observers up
  to 1.5 x NVR (fractions up), 2 x NVR if tracked.  Starting, stopping or Delay MP do not
  (W-18, W-19); the seed's "in Motion" (W-08) is read as "entered its hex in the observer's view".
- G2.3: no LOS at night between adjacent dense jungle / bamboo locations unless the target is
  Illuminated or marked by a Gunflash (then with the Gunflash treatment).

``sight`` is ``none``, ``nvr`` (treated as within NVR) or ``gunflash`` (only through a Gunflash).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cached_property

import numpy as np

from ..los import BLIND, DayLines, explain_block, los_table
from ..los.ground import ground_table
from ..terrain import BY_CODE
from .counter_terrain import entrenched_clear, entrenchment_words, los_map, rubble_words
from .counters import counter_words, night_clear, night_clear_rows
from .kinds import Nvr, Sight
from .light import Illumination, illumination
from .scenario import (
    DERIVED_DENSE,
    DERIVED_GUNFLASHES,
    DERIVED_MOVING,
    UNIT_PROPERTY_TYPES,
    Scenario,
    Unit,
)

NONE, NVR, GUNFLASH = Sight.NONE.code, Sight.NVR.code, Sight.GUNFLASH.code
SIGHT_NAMES = tuple(Sight.of_code(c) for c in (NONE, NVR, GUNFLASH))

# why: codes for the reason of a hex's verdict
(W_SELF, W_DAY, W_LIT_VIEWER_LIT, W_LIT_VIEWER_GF, W_LIT_VIEWER_DARK, W_JUNGLE_LIT, W_JUNGLE_GF,
 W_JUNGLE, W_LIT, W_WITHIN, W_GF, W_BEYOND, W_MOVING, W_DAYLIGHT) = range(14)
DAYLIGHT_WORDS = ("a day position: the night rules are off (E1 applies to night scenarios "
                  "only; rules.md 11.5: the save's scenario record says Night: No)")

MOVING_SEEN = ("entered", "changed_ca")


def viewer_nvr(scenario: Scenario, unit: Unit) -> int:
    """E1.14: a buttoned-up AFV (and its armour leader) has half the NVR, fractions dropped."""
    return nvr_of(scenario, unit).value


def nvr_of(scenario: Scenario, unit: Unit) -> Nvr:
    """``unit``'s own NVR, and whether it is halved: a buttoned-up AFV (and its armour leader)
    has half the NVR, fractions dropped (E1.14)."""
    if unit.bu and unit.type in UNIT_PROPERTY_TYPES["bu"]:
        return Nvr(scenario.nvr // 2, True)
    return Nvr(scenario.nvr, False)


def moving_vehicle_range(nvr: int, tracked: bool) -> int:
    """E1.14: 1.5 x NVR (fractions up), 2 x NVR for tracked vehicles (half-tracks count)."""
    return 2 * nvr if tracked else math.ceil(1.5 * nvr)


def moving_carrier(scenario: Scenario, unit: Unit) -> Unit | None:
    """E1.14: the vehicle that makes ``unit`` visible farther away: the unit itself when it is a
    vehicle that entered a new hex or changed its covered arc, or the vehicle it is aboard
    (passengers, riders and crew: the optional ``aboard`` key names the vehicle)."""
    carrier = unit
    if not unit.is_vehicle:
        aboard = unit.extra.get("aboard")
        carrier = None if aboard is None else next(
            (u for u in scenario.units if u.id == aboard and u.is_vehicle), None)
    if carrier is not None and carrier.moving in MOVING_SEEN:
        return carrier
    return None


def _moving_hexes(scenario: Scenario) -> list[tuple[int, bool]]:
    """(hex index, tracked) of every unit a moving vehicle makes visible farther away (E1.14)."""
    def compute():
        out = []
        for u in scenario.units:
            carrier = moving_carrier(scenario, u)
            if carrier is not None:
                out.append((scenario.map.index(u.hex), carrier.tracked))
        return out
    return scenario.derived(DERIVED_MOVING, compute)


def gunflash_mask(scenario: Scenario) -> np.ndarray:
    """E1.8: locations marked by a Gunflash or a fire marker (which counts as one)."""
    def compute():
        m = scenario.map
        out = np.zeros(m.size, dtype=bool)
        for mk in scenario.markers:
            if mk.is_gunflash:
                out[m.index(mk.hex)] = True
        return out
    return scenario.derived(DERIVED_GUNFLASHES, compute)


_DENSE = np.array([t.dense for t in BY_CODE])


def dense_mask(scenario: Scenario) -> np.ndarray:
    """G2.3: dense jungle and bamboo hexes."""
    return scenario.derived(DERIVED_DENSE, lambda: _DENSE[scenario.map.terrain])


class LazyVerdict:
    """A hex's verdict (``sight``, ``reasons``) read from a field's arrays; the reasons are built
    when first read."""
    __slots__ = ("_field", "_i", "hex_reasons")

    def __init__(self, field: "NightField", index: int):
        self._field = field
        self._i = index
        self.hex_reasons = None

    @property
    def sight(self) -> str:
        return self._field.sights[self._i]

    @property
    def sees(self) -> bool:
        return self._field.codes[self._i] != NONE

    @property
    def reasons(self) -> list:
        if self.hex_reasons is None:
            self.hex_reasons = self._field.reasons_at(self._i)
        return self.hex_reasons

    def __repr__(self) -> str:
        return f"Verdict(sight={self.sight!r}, reasons={self.reasons!r})"


class NightField(Mapping):
    """A viewer's night verdict for every hex (read-only Mapping: hex id -> Verdict).

    ``codes`` holds the verdicts as an array (0 none, 1 nvr, 2 gunflash); reasons are built only
    for the hexes asked for.
    """

    def __init__(self, scenario: Scenario, viewer: Unit, nvr: int, day: DayLines | None,
                 light: Illumination, codes: np.ndarray, why: np.ndarray, gunflash: np.ndarray,
                 ranges: np.ndarray, blind: np.ndarray | None = None):
        self.scenario = scenario
        self.map = los_map(scenario)      # rules.md 11.4: rubble laid
        self.viewer = viewer
        self.nvr = nvr
        self._day = day             # None: the field came from the map's precomputed table
        self._blind = blind
        self.light = light
        self.codes = codes
        self.why = why
        self.gunflash = gunflash
        self.ranges = ranges
        self._index = scenario.map._index_of_name

    def __len__(self):
        return self.map.size

    def __iter__(self):
        return iter(self.map.names)

    def __getitem__(self, hex_id: str) -> LazyVerdict:
        i = self._index.get(hex_id)
        if i is None:
            i = self.map.index(hex_id)        # raises HexIdError with a clear message
        return LazyVerdict(self, i)

    @cached_property
    def sights(self) -> list[Sight]:
        """The verdict names of every hex, in map order."""
        return [SIGHT_NAMES[c] for c in self.codes.tolist()]

    def sight_at(self, index: int) -> Sight:
        return self.sights[index]

    @cached_property
    def viewer_lit(self) -> bool:
        """E1.101: the viewer stands in an Illuminated location (it sees only lit hexes)."""
        return self.light.unit_lit(self.viewer)

    @property
    def nvr_reason(self) -> str:
        if self.nvr != self.scenario.nvr:
            return (f"{self.viewer.id} is a buttoned-up AFV: NVR {self.scenario.nvr} halved, "
                    f"fractions dropped, to {self.nvr} (E1.14)")
        return f"NVR {self.nvr} (set by the scenario, E1.1)"

    @cached_property
    def blind(self) -> np.ndarray:
        """The viewer's A6.4 blind hexes (ground locations)."""
        return self._blind if self._blind is not None else self.day.kind == BLIND

    @cached_property
    def blind_at_night(self) -> np.ndarray:
        """The blind hexes (A6.4) that can change a night verdict: within the viewer's NVR
        (E1.1), lit (E1.101), marked by a Gunflash (E1.8), or holding a unit a moving vehicle
        makes visible within 1.5 x or 2 x NVR (E1.14).  Beyond all of them nothing is seen at night, blind
        or not; the LOS thread keeps the daytime blind hexes."""
        reach = (self.ranges <= self.nvr) | self.light.lit | self.gunflash
        for i, tracked in _moving_hexes(self.scenario):  # a moving vehicle there, in its reach
            if self.ranges[i] <= moving_vehicle_range(self.nvr, tracked):
                reach[i] = True
        return self.blind & reach

    @property
    def day(self) -> DayLines:
        """The viewer's daytime lines to every hex (what blocks, hindrances), computed when
        first asked if the field was read from the map's table."""
        if self._day is None:
            self._day = los_table(self.map).from_location(self.map.index(self.viewer.hex),
                                                          self.viewer.level)
        return self._day

    def day_at(self, index: int) -> DayLines:
        """The daytime line to hex ``index``: the whole row if known, else that one line."""
        if self._day is not None:
            return self._day
        return los_table(self.map).line(self.map.index(self.viewer.hex), self.viewer.level, index, 0)

    def reasons_at(self, index: int) -> list[str]:
        return hex_reasons(self.scenario, self.viewer, self.nvr, self.day_at(index), index, self.light,
                        int(self.why[index]), int(self.ranges[index]), self.map.names[index])


def hexes_away(count: int) -> str:
    """``1 hex`` / ``3 hexes``."""
    return f"{count} hex" if count == 1 else f"{count} hexes"


def hex_reasons(scenario: Scenario, viewer: Unit, nvr: int, day: DayLines, index: int,
                light: Illumination, why: int, rng: int, target: str, target_bypass: bool = False,
                underground: str | None = None, target_unit: Unit | None = None) -> list[str]:
    """``underground``: the id of a target unit below ground level (its location, not its hex,
    is the one starshells and IR leave dark, E1.923); ``target_unit``: the unit seen there
    (its entrenchment, B27.2)."""
    m = los_map(scenario)           # rules.md 11.4: the reasons name rubble laid
    v = viewer.id
    vhex = viewer.hex
    if why == W_SELF:
        return [f"{target} is {v}'s own hex"]
    out = []
    pos = _day_pos(day, index)
    counters = counter_words(scenario, m.index(vhex), viewer.level, index,
                             int(day.target_elev[pos]) - int(m.level[index]),
                             bool(day.clear[pos]), int(day.hindrances[pos]))
    if not day.clear[pos]:          # B24, rules.md 11.4: a blocking hex rubble by a counter
        counters = rubble_words(scenario, (day.block_h1[pos], day.block_h2[pos])) + counters
    if why == W_DAYLIGHT:           # rules.md 11.5: a day position, daytime LOS alone (A6)
        return [DAYLIGHT_WORDS, explain_block(m, day, pos)] + counters
    if why == W_DAY and day.clear[pos]:     # B27.2: an entrenchment's occupant, walls between
        counters = entrenchment_words(scenario, viewer, index, int(day.target_elev[pos]),
                                      target_unit) + counters
    if why == W_DAY:                # rules.md 11.4: six hindrances with counters come first
        if day.clear[pos] and counters:
            return counters + [explain_block(m, day, pos)]
        return [explain_block(m, day, pos)] + counters
    vlit = light.unit_lit(viewer)
    if vlit and why in (W_LIT_VIEWER_LIT, W_LIT_VIEWER_GF, W_LIT_VIEWER_DARK):
        vi = m.index(vhex)
        out.extend(light.why_lit(scenario, vi, viewer.bypass)[:1])
        out.append(f"{v} in {vhex} is illuminated: it sees only illuminated locations and "
                   "Gunflashes (E1.101)")
    if why in (W_JUNGLE, W_JUNGLE_LIT, W_JUNGLE_GF):
        out.append(f"{vhex} and {target} are adjacent dense jungle: no LOS at night unless the "
                   "target is illuminated or marked by a Gunflash (G2.3)")
    if why in (W_LIT, W_LIT_VIEWER_LIT, W_JUNGLE_LIT):
        out.extend(light.why_lit(scenario, index, target_bypass)[:2])
        out.append(f"{target} is illuminated: treated as within {v}'s NVR at any range (E1.101)")
    elif why == W_WITHIN:
        out.append(f"{target} is {hexes_away(rng)} away, within {v}'s NVR of "
                   f"{nvr} (E1.1)")
    elif why == W_MOVING:
        out.append(f"{target} holds a vehicle that entered a new hex or changed its covered arc: "
                   f"within NVR out to 1.5 x NVR, 2 x if tracked; {hexes_away(rng)} away (E1.14)")
    elif why in (W_GF, W_LIT_VIEWER_GF, W_JUNGLE_GF):
        flash = next((mk for mk in scenario.markers if mk.is_gunflash and m.index(mk.hex) == index), None)
        name = flash.gunflash_name if flash is not None else "Gunflash"
        out.append(f"{target} is marked by a {name}: LOS, but treated as beyond NVR - fire is "
                   "halved (Case K for ordnance) and the unit there is never Known (E1.81)")
    elif why == W_LIT_VIEWER_DARK:
        out.append(_underground_dark(light, index, target, underground) if underground
                   else light.why_dark(scenario, index))
    elif why == W_BEYOND and underground:
        out.append(f"{target} is {hexes_away(rng)} away, beyond {v}'s NVR of {nvr}, and "
                   f"{underground}'s location there is not illuminated (E1.101)")
        out.append(_underground_dark(light, index, target, underground))
    elif why == W_BEYOND:
        out.append(f"{target} is {hexes_away(rng)} away, beyond {v}'s NVR of {nvr}, and not "
                   "illuminated (E1.101)")
        dark = light.why_dark(scenario, index)
        if not dark.startswith("no light"):
            out.append(dark)
    out.append(explain_block(m, day, pos))   # the daytime base comes last, then counters
    return out + counters


def _underground_dark(light: Illumination, i: int, target: str, unit_id: str) -> str:
    """Why an underground unit's location is dark although its hex may be lit (E1.923)."""
    if light.lit[i]:
        return (f"{target} is illuminated, but {unit_id} is underground: starshells and IR do not "
                "light underground locations (E1.923)")
    return (f"{unit_id} is underground in {target}: only a fire reaching the hex would light it "
            "(E1.923)")


def _day_pos(day: DayLines, i: int) -> int:
    if len(day.targets) == 1:
        return 0
    return i


def visibility_from(scenario: Scenario, unit_id: str) -> NightField:
    """The night verdict of unit ``unit_id`` for every hex of the map (SPEC.md API)."""
    viewer = scenario.unit(unit_id)
    m = los_map(scenario)           # rules.md 11.4: the map with its rubble laid
    vi = m.index(viewer.hex)
    nvr = viewer_nvr(scenario, viewer)
    # A6: a ground-level viewer's row from the map's table once built (engine.los.ground)
    table = ground_table(m, create=False) if viewer.level == 0 else None
    row = table.row(vi) if table is not None else None
    if row is None:
        day = los_table(m).from_location(vi, viewer.level)
        clear, blind = day.clear, day.kind == BLIND
        hindrances = day.hindrances
    else:
        day = None
        clear, blind = row
        hindrances = table.hindrance_row(vi)
    # rules.md 11.4: the counters' hindrances (smoke, vehicles, wrecks, FFE) on the daytime lines
    clear = night_clear(scenario, vi, viewer.level, np.arange(m.size), np.zeros(m.size, np.int64),
                        clear, hindrances)
    clear = entrenched_clear(scenario, viewer, clear)     # B27.2: a viewer in an entrenchment
    light = illumination(scenario)
    gf = gunflash_mask(scenario)
    why = _why(scenario, np.array([vi]), np.array([nvr]), np.array([light.unit_lit(viewer)]),
               clear[None, :])[0]
    codes = _codes(why)
    return NightField(scenario, viewer, nvr, day, light, codes, why, gf, m.distances_from(vi),
                      blind)


def _why(scenario: Scenario, vi: np.ndarray, nvr: np.ndarray, viewer_lit: np.ndarray,
         clear: np.ndarray) -> np.ndarray:
    """The reason code of every hex's verdict for viewers in hexes ``vi`` (one row each: their
    NVRs, whether each stands lit, their daytime LOS ``clear`` to every hex)."""
    m = scenario.map
    if not scenario.night:          # rules.md 11.5: a day position sees by daytime LOS (A6)
        why = np.full(clear.shape, W_DAYLIGHT, dtype=np.int8)
        why[~clear] = W_DAY
        why[np.arange(len(vi)), vi] = W_SELF
        return why
    light = illumination(scenario)
    gf = gunflash_mask(scenario)[None, :]
    lit = light.lit[None, :]
    dense = dense_mask(scenario)
    q, r = m.q.astype(np.int16), m.r.astype(np.int16)          # ranges in small integers
    dq, dr = q[None, :] - q[vi][:, None], r[None, :] - r[vi][:, None]
    rng = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    w = {k: np.int8(k) for k in range(13)}                      # reason codes as int8
    jungle = dense[vi][:, None] & dense[None, :] & (rng == 1)
    # E1.1, E1.101, E1.81: lit, within NVR, a Gunflash, else beyond
    dark_viewer = np.where(lit, w[W_LIT], np.where(rng <= nvr[:, None].astype(np.int16),
                                                   w[W_WITHIN], np.where(gf, w[W_GF],
                                                                          w[W_BEYOND])))
    # G2.3: adjacent dense jungle
    if jungle.any():
        dark_viewer = np.where(jungle, np.where(lit, w[W_JUNGLE_LIT],
                                                np.where(gf, w[W_JUNGLE_GF], w[W_JUNGLE])),
                               dark_viewer)
    # E1.14: a hex holding a vehicle that entered it or changed its covered arc (or a unit
    # aboard one) is within NVR out to 1.5 x NVR, 2 x if tracked (a lit viewer sees only lit
    # locations and Gunflashes, E1.101, so not this)
    for hex_index, tracked in _moving_hexes(scenario):
        col = dark_viewer[:, hex_index]
        reach = np.array([moving_vehicle_range(int(n), tracked) for n in nvr])
        dark_viewer[:, hex_index] = np.where(((col == W_BEYOND) | (col == W_GF))
                                             & (rng[:, hex_index] <= reach), w[W_MOVING], col)
    why = dark_viewer
    if viewer_lit.any():     # E1.101: a lit viewer sees only lit locations and Gunflashes
        lit_viewer = np.where(lit, w[W_LIT_VIEWER_LIT], np.where(gf, w[W_LIT_VIEWER_GF],
                                                                 w[W_LIT_VIEWER_DARK]))
        why = np.where(viewer_lit[:, None], lit_viewer, dark_viewer)
    why = why.astype(np.int8, copy=False)
    why[~clear] = W_DAY
    why[np.arange(len(vi)), vi] = W_SELF
    return why


def all_fields(scenario: Scenario, unit_ids: list[str] | None = None) -> np.ndarray:
    """The night verdict codes (0 none, 1 nvr, 2 gunflash) of every unit (or ``unit_ids``, in
    that order) for every hex: one row per unit, computed together (the rules of
    ``visibility_from``, across viewers at once)."""
    units = [scenario.unit(u) for u in unit_ids] if unit_ids is not None else list(scenario.units)
    m = los_map(scenario)           # rules.md 11.4: the map with its rubble laid
    if not units:
        return np.zeros((0, m.size), dtype=np.int8)
    light = illumination(scenario)
    vi = np.array([m.index(u.hex) for u in units])
    clear = np.empty((len(units), m.size), dtype=bool)
    table = ground_table(m, create=False)
    ground = np.array([u.level == 0 for u in units])
    ready = ground & (table.ready[vi] if table is not None else False)
    if ready.any():         # A6: the rows of the map's table (engine.los.ground)
        clear[ready] = np.unpackbits(table.clear[vi[ready]], axis=1, count=m.size).view(bool)
    hind: list = [None] * len(units)
    for k in np.flatnonzero(~ready):
        day = los_table(m).from_location(int(vi[k]), units[k].level)
        clear[k], hind[k] = day.clear, day.hindrances
    # rules.md 11.4: the counters' hindrances
    clear = night_clear_rows(scenario, vi, [u.level for u in units], clear, hind)
    for k, u in enumerate(units):
        clear[k] = entrenched_clear(scenario, u, clear[k])    # B27.2 (rules.md 11.4)
    why = _why(scenario, vi, np.array([viewer_nvr(scenario, u) for u in units]),
               np.array([light.unit_lit(u) for u in units]), clear)
    return _codes(why)


CODE_OF_WHY = np.zeros(14, dtype=np.int8)
CODE_OF_WHY[[W_SELF, W_LIT_VIEWER_LIT, W_JUNGLE_LIT, W_LIT, W_WITHIN, W_MOVING, W_DAYLIGHT]] = NVR
CODE_OF_WHY[[W_LIT_VIEWER_GF, W_JUNGLE_GF, W_GF]] = GUNFLASH


def _codes(why: np.ndarray) -> np.ndarray:
    return CODE_OF_WHY[why]
