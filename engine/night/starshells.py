"""Starshells and Illuminating Rounds: who may fire, when, and where (E1.91 - E1.93).

Who (E1.92): a Good Order MMC (squad, half-squad, crew; a mortar's crew), a leader, an armour
leader only when CE, the crew of a CE AFV.  Not a hero (W-07), not a BU AFV (W-05).  The seed's
W-08 lets an OBA observer fire one too (as an MMC, our reading).  Unarmoured-vehicle crews are
not listed.  IR (E1.93): an IR-capable mortar (E1.931) or OBA through its observer.
Usage dr (E1.921, E1.931): leader / CE armour leader <= 4, MMC or CE crew <= 2, IR mortar <= 4,
OBA IR none.  One starshell attempt per hex per phase (E1.92); IR attempts come in addition.

The first of the game (E1.91) needs a trigger: (a) the unit trying has LOS to an enemy unit,
known or not (only that unit may try on this ground); (b) a Gunflash placed by an attack (any
Gunflash or fire marker on the map; no LOS needed); (c) an enemy motorized vehicle entered a new
hex or changed covered arc and no friendly motorized unit is on the map; (d) the enemy fired an
FFE (E(C)1.91).  Each of the four opens the first starshell *or IR*: the seed lists (d) with the
words "la primera bengala" but then says "Cada bando puede intentar emplazar la primera
bengala/IR siempre que la unidad intentandolo reuna cualquiera de los cuatro criterios
mencionados" (E1.91), so an IR mortar or an observer may try the first IR after an enemy FFE.

Timing (E1.92, E1.921; ASOP 3.12D, 4.11D for the defender): in the player turn of the first
starshell/IR, any time of the attacker's PFPh or of the defender's enemy MPh / DFPh.  Afterwards
the attacker only at the start of his PFPh; the defender's starshells at the start of the enemy
MPh; the defender's IR at the start of the enemy MPh or of the DFPh (the seed; the digest names
only the DFPh).  A leader (or CE armour leader) may fire a starshell any time in those phases;
the exception is not for IR.

Placement (E1.922): method 1 its own hex; method 2 with LOS to a Known enemy unit less than 9
hexes away or to an enemy Gunflash at any range (E1.8: it shows where an enemy unit fired; a
fire marker of the placer's own side is no aim, ``gunflash_side``), in that hex or a hex along
that LOS (hexes whose interior the LOS enters; never beyond), at most 6 hexes away; method 3
exactly 3 hexes away.
IR (E1.932): on a Known enemy unit or enemy Gunflash in LOS or along that LOS (the mortar's range only),
or any hex at a multiple of 6 hexes (6, 12...).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import ScenarioError
from ..hex_lines import line_crossing
from .drift import METHODS, DiceSource, drift_distance, roll_drift
from .kinds import METHODS as METHOD_KINDS
from .kinds import StarshellOptions
from .scenario import Marker, Scenario, Unit
from .unit_sight import sight_codes
from .verdicts import MOVING_SEEN, NVR, visibility_from

MMC = ("squad", "half_squad", "crew")
KNOWN_RANGE_LIMIT = 9          # method 2: a Known enemy "less than 9 hexes away"
ALONG_LIMIT = 6                # method 2: at most 6 hexes away
METHOD3_RANGE = 3
IR_RING = 6


@dataclass
class FireOptions:
    may_fire: bool
    usage_dr_max: int | None
    reasons: list = field(default_factory=list)
    methods: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"may_fire": self.may_fire, "usage_dr_max": self.usage_dr_max,
                "reasons": list(self.reasons), "methods": {k: list(v) for k, v in self.methods.items()}}


# ------------------------------------------------------------------------------ who

def starshell_usage(unit: Unit) -> tuple[int | None, str]:
    """(usage dr limit or None, sentence) for a starshell (E1.92, E1.921)."""
    u, t = unit, unit.type
    if t == "hero":
        return None, f"{u.id} is a hero: heroes may not fire starshells (E1.92, W-07)"
    if u.broken:
        return None, f"{u.id} is broken: only Good Order units fire starshells (E1.92)"
    if t == "leader":
        return 4, f"{u.id} is a leader: usage dr of 4 or less (E1.921)"
    if t == "armor_leader":
        if u.is_ce:
            return 4, f"{u.id} is a CE armour leader: usage dr of 4 or less (E1.921)"
        return None, f"{u.id} is an armour leader but not CE: he may not fire a starshell (E1.92)"
    if t == "afv":
        if u.bu or not u.is_ce:
            return None, f"{u.id} is a buttoned-up AFV: it may not fire a starshell (E1.92, W-05)"
        return 2, f"{u.id}'s crew is CE: usage dr of 2 or less (E1.921)"
    if t in MMC or t == "mortar":
        what = "a mortar's crew" if t == "mortar" else "a Good Order MMC"
        return 2, f"{u.id} is {what}: usage dr of 2 or less (E1.921)"
    if t == "observer":
        return 2, (f"{u.id} is an observer: fires starshells as an MMC, usage dr of 2 or less "
                   "(E1.921; W-08)")
    return None, f"{u.id} is an unarmoured vehicle: only CE AFV crews fire starshells (E1.92)"


def ir_usage(unit: Unit) -> tuple[bool, int | None, str]:
    """(may fire IR, usage dr limit or None, sentence) (E1.93, E1.931)."""
    u = unit
    if u.broken:
        return False, None, f"{u.id} is broken: it may not fire Illuminating Rounds (E1.93)"
    if u.type == "mortar":
        if u.ir:
            return True, 4, f"{u.id} is an IR-capable mortar: usage dr of 4 or less (E1.931)"
        return False, None, f"{u.id} is a mortar without IR capability (E1.93)"
    if u.type == "observer":
        return True, None, f"{u.id} directs OBA: OBA IR needs no usage dr (E1.931)"
    return False, None, f"{u.id} has no mortar or OBA to fire Illuminating Rounds (E1.93)"


# ------------------------------------------------------------------------------ when

def first_triggers(scenario: Scenario, unit: Unit) -> list[str]:
    """E1.91: the triggers that allow this unit the first starshell/IR of the game (the same four
    for both: "cualquiera de los cuatro criterios")."""
    out = []
    enemies = scenario.enemies_of(unit.side)
    codes = sight_codes(scenario, [unit], enemies)[0]
    seen = [e.id for e, c in zip(enemies, codes.tolist()) if c != 0]
    if seen:
        out.append(f"(a) {unit.id} has LOS to enemy {', '.join(seen)} (E1.91)")
    flashes = [m for m in scenario.markers if m.is_gunflash]
    if flashes:
        out.append(f"(b) a {flashes[0].gunflash_name} in {flashes[0].hex} was placed by an "
                   "attack: any qualified "
                   "unit may try, no LOS needed (E1.91)")
    movers = [e for e in scenario.enemies_of(unit.side)
              if e.is_vehicle and e.is_motorized and e.moving in MOVING_SEEN]
    friendly_motor = [f for f in scenario.units if f.side == unit.side and f.is_motorized]
    if movers and not friendly_motor:
        out.append(f"(c) enemy motorized vehicle {movers[0].id} "
                   f"{'entered a new hex' if movers[0].moving == 'entered' else 'changed its covered arc'}"
                   " and no friendly motorized unit is on the map (E1.91)")
    ffe = [m for m in scenario.markers if m.type == "ffe" and enemy_ffe(scenario, m, unit)]
    if ffe:             # E(C)1.91: for the first starshell and the first IR alike (E1.91)
        out.append(f"(d) the enemy fired an FFE on {ffe[0].hex} (E(C)1.91)")
    return out


def timing(scenario: Scenario, unit: Unit, ir: bool) -> tuple[bool, str]:
    """E1.92 / E1.921: may this unit fire a starshell (or IR) in the scenario's phase?"""
    attacking = unit.side == scenario.attacker
    phase = scenario.phase
    who = "attacker" if attacking else "defender"
    first_turn = scenario.starshells_used in ("never", "this_turn")
    allowed = ("PFPh",) if attacking else ("MPh", "DFPh")
    if phase not in allowed:
        when = "his PFPh" if attacking else "the enemy MPh or his DFPh"
        return False, (f"{unit.id} is the {who}: starshells and IR only in {when}, not in the "
                       f"{phase} (E1.92)")
    if first_turn:
        which = "the first starshell/IR has not been fired" if scenario.starshells_used == "never" \
            else "this is the player turn of the first starshell/IR"
        return True, f"{which}: the {who} may fire them at any time of the {phase} (E1.92)"
    leader = unit.type == "leader" or (unit.type == "armor_leader" and unit.is_ce)
    if leader and not ir:
        return True, (f"{unit.id} is a leader: one starshell at any time of the {phase}, even "
                      "after the first player turn (E1.921)")
    if attacking:
        ok_phases = ("PFPh",)
    else:
        ok_phases = ("MPh", "DFPh") if ir else ("MPh",)
    what = "IR" if ir else "starshells"
    if phase in ok_phases:
        if scenario.extra.get("phase_start", True):
            return True, (f"starshells were used in earlier player turns: the {who} fires {what} "
                          f"only at the start of the {phase} (E1.921)")
        return False, (f"starshells were used in earlier player turns: the {who} fires {what} "
                       f"only at the start of the {phase}, and it has begun (E1.921)")
    return False, (f"starshells were used in earlier player turns: the {who} fires {what} only at "
                   f"the start of the {' or '.join(ok_phases)} (E1.921)")


# ------------------------------------------------------------------------------ where

def hexes_along(scenario: Scenario, start: int, end: int) -> list[int]:
    """Map indices of the hexes along the LOS start -> end (E1.922 "a hex along that LOS"): those whose
    interior it enters, and both hexes of a hexside it runs along (it passes between them:
    our reading, as for a hexside crossed at its midpoint in W-10)."""
    m = scenario.map
    cr = line_crossing(int(m.q[end] - m.q[start]), int(m.r[end] - m.r[start]))
    offs = np.concatenate([cr.interior, cr.sides.reshape(-1, 2)])
    t = np.concatenate([cr.interior_t, np.repeat(cr.sides_t, 2)])
    offs = offs[np.argsort(t, kind="stable")]
    idx = m.lookup_axial(m.q[start] + offs[:, 0], m.r[start] + offs[:, 1])
    return [int(i) for i in idx if i >= 0]


def _los_targets(scenario: Scenario, unit: Unit, known_limit: int | None) -> list[tuple[int, str]]:
    """Hexes of Known enemy units (within ``known_limit`` if given) and Gunflashes in LOS."""
    m = scenario.map
    ui = m.index(unit.hex)
    out: dict[int, str] = {}
    enemies = scenario.enemies_of(unit.side)
    codes = sight_codes(scenario, [unit], enemies)[0]
    for e, code in zip(enemies, codes.tolist()):
        ei = m.index(e.hex)
        known = code == NVR and not e.concealed          # a Known enemy unit (E1.81)
        if known and (known_limit is None or int(m.distance(ui, ei)) < known_limit):
            out.setdefault(ei, f"Known enemy {e.id} in {e.hex}")
    field_ = visibility_from(scenario, unit.id)
    for mk in scenario.markers:
        if mk.is_gunflash and gunflash_side(scenario, mk) != unit.side:      # E1.8, E1.922
            gi = m.index(mk.hex)
            if field_.codes[gi] != 0 and gi != ui:
                out.setdefault(gi, f"the {mk.gunflash_name} in {mk.hex}")
    return sorted(out.items())


def enemy_ffe(scenario: Scenario, marker: Marker, unit: Unit) -> bool:
    """Whether an FFE is the enemy's for ``unit`` (E(C)1.91 (d)): its side when it has one;
    one as VASL saves it names no side, so it is the enemy's only for a side whose units alone
    stand under it (fire falls on the enemy); under nobody, or both sides, it is no one's."""
    if marker.side is not None:
        return marker.side != unit.side
    return {u.side for u in scenario.units_at(marker.hex)} == {unit.side}


def gunflash_side(scenario: Scenario, marker: Marker) -> str | None:
    """The side whose fire a Gunflash or fire marker shows (E1.8: it marks where a unit fired,
    to its enemy): the marker's own side, else (a VASL fire marker carries no nationality)
    the side of the units in its hex when they are all of one side; None when unknown."""
    if marker.side is not None:
        return marker.side
    sides = {u.side for u in scenario.units_at(marker.hex)}
    return sides.pop() if len(sides) == 1 else None


def placements(scenario: Scenario, unit: Unit) -> tuple[dict[str, list[str]], list[str]]:
    """Legal starshell hexes per method 1, 2, 3 (E1.922), and sentences on method 2."""
    m = scenario.map
    ui = m.index(unit.hex)
    rng = m.distances_from(ui)
    along: set[int] = set()
    notes = []
    for ti, what in _los_targets(scenario, unit, KNOWN_RANGE_LIMIT):
        line = hexes_along(scenario, ui, ti) + [ti]
        along.update(i for i in line if rng[i] <= ALONG_LIMIT)
        notes.append(f"method 2: along the LOS to {what}, up to {ALONG_LIMIT} hexes (E1.922)")
    if not notes:
        notes.append("method 2: no LOS to a Known enemy unit within 8 hexes nor to a Gunflash "
                     "(E1.922)")
    names = m.names
    return ({"1": [names[ui]],
             "2": sorted(names[i] for i in along),
             "3": sorted(names[i] for i in np.flatnonzero(rng == METHOD3_RANGE))}, notes)


def ir_placements(scenario: Scenario, unit: Unit) -> dict[str, list[str]]:
    """Legal IR hexes (E1.932): along a LOS to a Known enemy/Gunflash, or at 6, 12, ... hexes."""
    m = scenario.map
    ui = m.index(unit.hex)
    rng = m.distances_from(ui)
    along: set[int] = set()
    for ti, _ in _los_targets(scenario, unit, None):
        along.update(hexes_along(scenario, ui, ti) + [ti])
    ring = np.flatnonzero((rng > 0) & (rng % IR_RING == 0))
    return {"ir-los": sorted(m.names[i] for i in along),
            "ir-6": sorted(m.names[i] for i in ring)}


# ------------------------------------------------------------------------------ the answer

def starshell_options(scenario: Scenario, unit_id: str) -> StarshellOptions:
    """Whether and where ``unit_id`` may place a starshell (E1.92) or an IR (E1.93) now."""
    unit = scenario.unit(unit_id)
    return StarshellOptions(_starshell(scenario, unit), _ir(scenario, unit))


def _starshell(scenario: Scenario, unit: Unit) -> FireOptions:
    limit, why = starshell_usage(unit)
    reasons = [why]
    empty = {"1": [], "2": [], "3": []}
    if limit is None:
        return FireOptions(False, None, reasons, empty)
    ok, when = timing(scenario, unit, ir=False)
    reasons.append(when)
    if not ok:
        return FireOptions(False, None, reasons, empty)
    hex_ = scenario.map.canonical(unit.hex)
    if hex_ in scenario.starshell_attempts:
        reasons.append(f"a unit in {hex_} already made a starshell usage dr this phase: one "
                       "attempt per hex per phase (E1.92)")
        return FireOptions(False, None, reasons, empty)
    if scenario.starshells_used == "never":
        triggers = first_triggers(scenario, unit)
        if not triggers:
            reasons.append("no trigger for the first starshell of the game: no LOS to an enemy "
                           "unit, no Gunflash, no enemy vehicle entering a hex, no enemy FFE (E1.91)")
            return FireOptions(False, None, reasons, empty)
        reasons.extend(triggers)
    methods, notes = placements(scenario, unit)
    reasons.extend(notes)
    return FireOptions(True, limit, reasons, methods)


def _ir(scenario: Scenario, unit: Unit) -> FireOptions:
    ok, limit, why = ir_usage(unit)
    reasons = [why]
    empty = {"ir-los": [], "ir-6": []}
    if not ok:
        return FireOptions(False, None, reasons, empty)
    ok, when = timing(scenario, unit, ir=True)
    reasons.append(when)
    if not ok:
        return FireOptions(False, None, reasons, empty)
    if scenario.starshells_used == "never":
        triggers = first_triggers(scenario, unit)
        if not triggers:
            reasons.append("no trigger for the first IR of the game: no LOS to an enemy unit, no "
                           "Gunflash, no enemy vehicle entering a hex, no enemy FFE (E1.91)")
            return FireOptions(False, None, reasons, empty)
        reasons.extend(triggers)
    reasons.append("placing an IR uses the mortar's or OBA's whole ROF for this turn (E1.932)")
    return FireOptions(True, limit, reasons, ir_placements(scenario, unit))


def hex_starshell_roller(scenario: Scenario, hex_id: str) -> tuple[Unit | None, list[str]]:
    """E1.92 (W-21): of the units in one hex, only one may roll for a starshell this phase; the
    best candidate is the one with the highest usage dr limit (a leader's 4)."""
    best, best_limit, reasons = None, -1, []
    for u in scenario.units_at(hex_id):
        opt = _starshell(scenario, u)
        if opt.may_fire and opt.usage_dr_max > best_limit:
            best, best_limit = u, opt.usage_dr_max
    if best is None:
        reasons.append(f"no unit in {hex_id} may fire a starshell now")
    else:
        reasons.append(f"only one unit in {hex_id} may roll for a starshell this phase (E1.92): "
                       f"{best.id} has the best usage dr ({best_limit} or less)")
    return best, reasons


# ------------------------------------------------------------------------------ firing

@dataclass(frozen=True)
class FireResult:
    kind: str                    # "starshell" or "ir"
    usage_dr: int | None
    success: bool
    direction: int | None = None
    distance: int | None = None
    end: str | None = None       # canonical id, None when it fails or leaves the map
    reasons: tuple = ()


def fire(scenario: Scenario, unit_id: str, at: str, method: str,
         dice: DiceSource) -> tuple[Scenario, FireResult]:
    """Make the usage dr, then drift, and place the starshell/IR: the whole act as one edit.

    Refuses (ScenarioError) when the unit may not fire it there.  A failed usage dr still uses
    the hex's starshell attempt for this phase (E1.92) and places nothing.
    """
    unit = scenario.unit(unit_id)
    if method not in METHODS:
        raise ScenarioError(f"unknown placement method {method!r} (one of {', '.join(METHODS)})")
    kind = "ir" if method.startswith("ir") else "starshell"
    opts = _ir(scenario, unit) if kind == "ir" else _starshell(scenario, unit)
    m = scenario.map
    at_name = m.canonical(at)
    if not opts.may_fire:
        raise ScenarioError(f"{unit.id} may not fire {'an IR' if kind == 'ir' else 'a starshell'}: "
                            + opts.reasons[-1])
    if at_name not in opts.methods[method]:
        raise ScenarioError(f"{at_name} is not a legal hex for method {method} of {unit.id}")
    usage = None
    if opts.usage_dr_max is not None:
        usage = dice.roll()
    attempts = scenario.starshell_attempts
    if kind == "starshell" and m.canonical(unit.hex) not in attempts:
        attempts = attempts + (m.canonical(unit.hex),)
    if usage is not None and usage > opts.usage_dr_max:
        why = f"usage dr {usage} is above {opts.usage_dr_max}: nothing is fired (E1.921)"
        return scenario.replace(starshell_attempts=attempts), FireResult(kind, usage, False, reasons=(why,))
    d, r, end = roll_drift(m, m.index(at_name), method, dice)
    used = "this_turn" if scenario.starshells_used == "never" else scenario.starshells_used
    new = scenario.replace(starshell_attempts=attempts, starshells_used=used)
    end_name = None if end is None else m.names[end]
    if end is not None:
        new = new.with_marker(Marker(kind, end_name))
    hexes = drift_distance(method, r)
    placed = next(k for k in METHOD_KINDS if k.key == method)
    how_far = ("one hex whatever the dr" if method == "1" else "the dr in hexes"
               if method in ("3", "ir-6") else "half the dr, rounded up")
    why = (f"drift: direction {d}, distance dr {r}: {hexes} hex{'es' if hexes != 1 else ''} "
           f"(placed {placed.label}: {how_far}, {placed.rule}) -> "
           + (f"ends in {end_name}" if end_name else "leaves the map and lights nothing"))
    return new, FireResult(kind, usage, True, d, r, end_name, (why,))

