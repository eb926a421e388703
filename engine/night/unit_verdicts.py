"""Night verdicts between units (E1): what one unit sees of another, and whether a unit that
fires keeps its concealment.

- ``unit_verdict``: sight, Known and fire of a viewer on a target unit (E1.1, E1.101, E1.14,
  E1.8 / E1.81, G2.3), with the reasons; the same cases as a viewer's field (``verdicts``), at
  the units' own levels.
- ``reveal``: whether a concealed unit that fires is seen by a Good Order enemy (E(C)1.8).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..los import los_table
from .counter_terrain import entrenchment_words, los_map
from .counters import night_clear
from .kinds import Fire, Sight
from .light import Illumination, illumination
from .scenario import Scenario
from .verdicts import (
    CODE_OF_WHY,
    SIGHT_NAMES,
    W_BEYOND,
    W_DAY,
    W_DAYLIGHT,
    W_GF,
    W_JUNGLE,
    W_JUNGLE_GF,
    W_JUNGLE_LIT,
    W_LIT,
    W_LIT_VIEWER_DARK,
    W_LIT_VIEWER_GF,
    W_LIT_VIEWER_LIT,
    W_MOVING,
    W_SELF,
    W_WITHIN,
    dense_mask,
    gunflash_mask,
    hex_reasons,
    hexes_away,
    moving_carrier,
    moving_vehicle_range,
    viewer_nvr,
)


@dataclass(frozen=True)
class UnitVerdict:
    sight: Sight
    known: bool
    fire: Fire
    reasons: list

    def as_json(self) -> dict:
        return {"sight": Sight(self.sight).value, "known": self.known,
                "fire": Fire(self.fire).value, "reasons": list(self.reasons)}


def unit_verdict(scenario: Scenario, viewer_id: str, target_id: str,
                 light: Illumination | None = None) -> UnitVerdict:
    """What ``viewer_id`` sees of unit ``target_id`` (SPEC.md ``--to``): sight, Known, fire."""
    viewer = scenario.unit(viewer_id)
    target = scenario.unit(target_id)
    m = scenario.map
    vi, ti = m.index(viewer.hex), m.index(target.hex)
    nvr = viewer_nvr(scenario, viewer)
    light = light or illumination(scenario)
    day = los_table(los_map(scenario)).line(vi, viewer.level, ti, target.level)  # rubble laid
    rng = int(m.distance(vi, ti))
    gf = bool(gunflash_mask(scenario)[ti])
    t_lit = light.unit_lit(target)
    dense = dense_mask(scenario)
    if vi == ti:
        why = W_SELF
    elif not night_clear(scenario, vi, viewer.level, [ti], [target.level], day.clear,
                         day.hindrances)[0]:        # rules.md 11.4: counters' hindrances too
        why = W_DAY
    elif day.clear[0] and entrenchment_words(scenario, viewer, ti, int(day.target_elev[0]),
                                             target):
        why = W_DAY                 # B27.2: an end in an entrenchment, hexside terrain between
    elif not scenario.night:        # rules.md 11.5: a day position, daytime LOS alone (A6)
        why = W_DAYLIGHT
    elif light.unit_lit(viewer):
        why = W_LIT_VIEWER_LIT if t_lit else (W_LIT_VIEWER_GF if gf else W_LIT_VIEWER_DARK)
    elif dense[vi] and dense[ti] and rng == 1:
        why = W_JUNGLE_LIT if t_lit else (W_JUNGLE_GF if gf else W_JUNGLE)
    elif t_lit:
        why = W_LIT
    elif rng <= nvr:
        why = W_WITHIN
    elif ((mover := moving_carrier(scenario, target)) is not None
          and rng <= moving_vehicle_range(nvr, mover.tracked)):
        why = W_MOVING
    elif gf:
        why = W_GF
    else:
        why = W_BEYOND
    sight = SIGHT_NAMES[int(CODE_OF_WHY[why])]
    reasons = hex_reasons(scenario, viewer, nvr, day, ti, light, why, rng, target.hex,
                       target_bypass=target.bypass,
                       underground=target.id if target.level < 0 else None, target_unit=target)
    if why == W_BEYOND and moving_carrier(scenario, target) is not None:
        mover = moving_carrier(scenario, target)
        reach = moving_vehicle_range(nvr, mover.tracked)
        reasons.append(f"{mover.id} is moving but {hexes_away(rng)} away, beyond "
                       f"{'2' if mover.tracked else '1.5'} x NVR = {reach} (E1.14)")
    elif why == W_BEYOND and target.is_vehicle and target.moving is not None:
        reasons.append(f"{target.id} only {_MOTION_WORDS[target.moving]}: that does not put it "
                       "within NVR (E1.14)")
    known = sight == "nvr" and not target.concealed
    if sight == "none":
        fire = Fire.NONE
    elif sight == "gunflash" or not known:
        fire = Fire.HALVED                  # E1.81
    else:
        fire = Fire.NORMAL
    if sight == "nvr" and target.concealed:
        reasons.append(f"{target.id} is concealed: not Known, fire at it is halved (Case K for "
                       "ordnance), applied once (E1.81)")
    elif known:
        reasons.append(f"{target.id} is a Known enemy unit: in LOS, within NVR, not concealed")
    if sight == "gunflash" and target.concealed:
        reasons.append(f"{target.id} is also concealed: the halving is applied once (E1.81)")
    return UnitVerdict(sight, known, fire, reasons)


_MOTION_WORDS = {"started": "started (spent an MP to start)", "stopped": "stopped",
                 "delay": "spent Delay MP"}


@dataclass(frozen=True)
class Reveal:
    loses_concealment: bool
    reasons: list

    def as_json(self) -> dict:
        return {"loses_concealment": self.loses_concealment, "reasons": list(self.reasons)}


def reveal(scenario: Scenario, unit_id: str, target_hex: str | None = None) -> Reveal:
    """Would ``unit_id`` lose concealment if it fired now (at ``target_hex``)?

    E(C)1.8: a firer keeps its concealment when it is beyond the NVR of every Good Order enemy
    unit.  An Illuminated firer is within the NVR of every enemy (E1.101): it loses it to any
    Good Order enemy with LOS to it (W-15), and keeps it only when none has LOS.

    A firer in a non-illuminated location shooting at an Illuminated one: the seed says "una
    unidad dispararando desde una localización no iluminada a una localización iluminada no
    perderia su ocultamiento, puede ser atacada solo a mitad de potencia y no será tratada como
    conocida incluso si se encuentra a una distancia igual o menor que el NVR" (would not lose
    its concealment ... even within NVR; E1.81, W-17).
    Our reading: that is about the units in the lit target location, which see only
    Illuminated locations (E1.101).  Another Good Order enemy in the dark within NVR sees the
    firer as usual, and "Una unidad enemiga que dispara dentro del NVR de una unidad propia en
    Buen orden pierde ocultamiento normalmente" (E(C)1.8): then it loses its concealment.
    """
    unit = scenario.unit(unit_id)
    m = scenario.map
    light = illumination(scenario)
    reasons = []
    if not unit.concealed:
        reasons.append(f"{unit.id} is not concealed now; this is what firing would do if it were")
    firer_lit = light.unit_lit(unit)
    if firer_lit:
        reasons.extend(light.why_lit(scenario, m.index(unit.hex), unit.bypass)[:1])
    seen_by = []
    for enemy in scenario.enemies_of(unit.side):
        if enemy.broken:
            continue
        v = unit_verdict(scenario, enemy.id, unit.id, light)
        if v.sight == "nvr":
            seen_by.append(enemy.id)
    if seen_by:
        where = "an illuminated location, " if firer_lit else ""
        reasons.append(f"{unit.id} fires from {where}within the NVR of Good Order enemy "
                       f"{', '.join(seen_by)}: it loses concealment (E1.8, E(C)1.8)")
        if target_hex is not None and not firer_lit and light.lit[m.index(target_hex)]:
            # E1.101: only the units in the lit target are limited to lit locations
            reasons.append(f"firing at the illuminated {m.names[m.index(target_hex)]} keeps "
                           "concealment only from units that see nothing but illuminated "
                           f"locations; {', '.join(seen_by)} in the dark "
                           f"{'sees' if len(seen_by) == 1 else 'see'} {unit.id} within NVR, so "
                           "it loses concealment normally (E1.101, E(C)1.8)")
        return Reveal(True, reasons)
    if target_hex is not None and not firer_lit:
        ti = m.index(target_hex)
        if light.lit[ti]:
            reasons.append(f"{unit.id} fires from a non-illuminated location at the illuminated "
                           f"{m.names[ti]}: it keeps its concealment, is not Known there and may "
                           "be attacked only at half FP (E1.81)")
            return Reveal(False, reasons)
    broken = [e.id for e in scenario.enemies_of(unit.side) if e.broken]
    extra = f" (broken: {', '.join(broken)})" if broken else ""
    if firer_lit:
        # E1.101: a lit location is within every NVR, so only the lack of LOS keeps it hidden
        reasons.append(f"{unit.id} is in an illuminated location, within every NVR (E1.101), but "
                       f"no Good Order enemy unit has LOS to it{extra}: it keeps its concealment "
                       "when it fires (E(C)1.8)")
        return Reveal(False, reasons)
    reasons.append(f"{unit.id} is beyond the NVR of every Good Order enemy unit{extra}: it keeps "
                   "its concealment when it fires (E(C)1.8)")
    return Reveal(False, reasons)
