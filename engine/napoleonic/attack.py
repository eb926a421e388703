"""One fire attack against one hex, step by step (rules.md 8, seed 002 "¡Fuego!").

``assess(position, target)`` walks the attack in the rule's order: who fires (each firer's
value, LOS and whether it may combine, 18.5), the one intentional attack a hex takes per Fire
Segment (18.9 / 18.15 excepted), the hex's defence (with enfilade), the odds and their column,
the dice modifiers, the exact chance of every result, and with dice the roll and its result.
``record_attack`` gives the position after it.  The pieces (fire values, LOS, defence, odds)
are in ``fire``.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ..errors import ScenarioError
from ..hexes import HexIdError
from .charts import reading_index
from .fire import (
    KIND_WORDS,
    KINDS,
    Assessment,
    bearing,
    distribution,
    fire_value,
    fmt,
    has_los,
    in_front,
    step_roll,
    top_unit,
)
from .position import FirePosition, FireUnit
from .reach import faces_target, in_range, units_in_the_way
from .results import apply_result


def _combines(position: FirePosition, u: FireUnit, target: int) -> tuple[bool, str]:
    """18.5: artillery not adjacent to the target combines only when stacked with or adjacent
    to a friendly leader with an artillery bonus."""
    m = position.map
    i = m.index(u.hex)
    if int(m.distance(i, target)) <= 1:
        return True, f"{u.id} is adjacent to the target: it may combine (18.5)"
    for ld in position.units:
        if ld.side == u.side and ld.arm == "leader" and ld.artillery_leader:
            if int(m.distance(i, m.index(ld.hex))) <= 1:
                where = "stacked with" if ld.hex == u.hex else "adjacent to"
                return True, f"{u.id} is {where} {ld.id}, a leader with an artillery bonus (18.5)"
    return False, (f"{u.id} is artillery {int(m.distance(i, target))} hexes from the target with no "
                   "leader with an artillery bonus stacked or adjacent: it cannot combine (18.5)")


def assess(position: FirePosition, target: str, firers: list[str] | None = None,
           dice: tuple[int, int] | None = None, kind: str = "intentional") -> Assessment:
    """rules.md 8: the whole fire attack against hex ``target``.

    ``firers``: the units that fire (each must be able to: LOS, combining), or None for every
    unit of the sides opposing the target that may fire.  ``dice``: (tens, units), 1..6 each.
    ``kind``: ``intentional``, or ``roundshot`` (18.9) / ``scatter`` (18.15), which a hex may
    take any number of times."""
    if kind not in KINDS:
        raise ScenarioError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    m = position.map
    try:
        target = m.canonical(target)
    except HexIdError as e:
        why = str(e)
        if repr(target) not in why:                 # say what was typed, not a part of it
            why = f"{target!r} is not on this map: {why}"
        raise ScenarioError(why, place="target") from None
    ti = m.index(target)
    a = Assessment(target, kind)
    defenders = position.units_in(target)
    if not defenders:
        a.allowed = False
        a.reasons.append(f"{target} holds no unit: fire is aimed at a hex with a unit to hit")
        return a
    top = top_unit(defenders)
    a.defender = top.id
    # our reading for a hex holding both sides: the defender's side is the target's, and every
    # unit of another side may fire at it (rules.md 8 speaks of "the unit deployed in it")
    target_sides = {top.side}
    chosen = _chosen_firers(position, firers, target, target_sides)
    _judge_firers(position, a, chosen, ti, target_sides, explicit=firers is not None)
    _one_intentional_attack(position, a, kind)
    if not a.allowed:                   # refused before the odds: no fire counted (the odds'
        _nothing_counted(a)             # refusal keeps the fire it compared)
    terrain = position.terrain_at(ti)
    defence = _defence(position, a, defenders, top, terrain)
    _odds(position, a, defence, defenders, top, terrain)
    if not a.allowed:                   # a refused attack has no odds to print, and no fire counted
        a.column, a.outcomes, a.drms, a.drm = None, {}, [], 0
    if dice is not None:
        _roll(position, a, dice)
    return a


def _nothing_counted(a: Assessment) -> None:
    """A refused attack is not made: none of its firers fires, its fire is 0 (what each would
    have fired stays in its ``value`` and ``how``; ``offered``: it would fire, were the attack
    allowed)."""
    for f in a.firers:
        f.offered, f.counted = f.counted, False
    a.fire = Fraction(0)


def _chosen_firers(position: FirePosition, firers: list[str] | None, target: str,
                   target_sides: set[str]) -> list[FireUnit]:
    """The units named to fire (each once), or every unit not on the target's sides, outside
    the target hex, and not a leader."""
    if firers is None:
        return [u for u in position.units if u.side not in target_sides and u.hex != target
                and u.arm != "leader"]
    if not firers:
        raise ScenarioError("name at least one firer", place="firers")
    seen = set()
    chosen = []
    for k, fid in enumerate(firers):
        if fid in seen:
            raise ScenarioError(f"{fid!r} is named twice", place=f"firers[{k}]")
        seen.add(fid)
        try:
            chosen.append(position.unit(fid))
        except ScenarioError as e:
            raise ScenarioError(e.problem, place=f"firers[{k}]") from None
    return chosen


def _judge_firers(position: FirePosition, a: Assessment, chosen: list[FireUnit], ti: int,
                  target_sides: set[str], explicit: bool) -> None:
    """Each firer: value, range, front, LOS (and units in the way), combining; then which fire
    counts, and the total.  Every firer left out says why."""
    for u in chosen:
        f = fire_value(position, u)
        a.firers.append(f)
        _may_fire(position, a, u, f, ti, target_sides)
    able = [f for f in a.firers if f.can_fire and f.los]
    # 18.5: artillery that cannot combine fires only alone
    loners = [f for f in able if not f.combines]
    if len(able) > 1 and loners:
        if explicit:
            a.allowed = False
            for f in loners:
                a.reasons.append(f"{f.id} cannot combine its fire with others (18.5)")
        else:
            keep = [f for f in able if f.combines] or loners[:1]
            for f in able:
                if f not in keep:
                    f.why_not = (f"{f.id} is left out: it cannot combine with the others (18.5); "
                                 "name it alone to fire it by itself")
                    f.reasons.append(f.why_not)
            able = keep
    elif len(able) == 1 and loners:
        able[0].reasons.append(f"{able[0].id} fires alone, so it need not combine (18.5)")
    for f in able:
        f.counted = True
    if explicit:
        for f in a.firers:
            if not f.can_fire:
                a.allowed = False
                a.reasons.append(f.why_not or f.reasons[0])
            elif not f.los:
                a.allowed = False
                a.reasons.append(f"{f.id} has no LOS to {a.target}: every firer needs LOS to the "
                                 "target hex to combine its fire")
    a.fire = sum((f.value for f in a.firers if f.counted), Fraction(0))
    if not any(f.counted for f in a.firers):
        a.allowed = False
        a.reasons.append(f"no unit may fire at {a.target}")


def _may_fire(position: FirePosition, a: Assessment, u: FireUnit, f, ti: int,
              target_sides: set[str]) -> None:
    """One firer's checks, each refusal in ``f.why_not`` (the first) and ``f.reasons``."""
    def refuse(why: str) -> None:
        f.can_fire = False
        f.why_not = f.why_not or why
        f.reasons.append(why)

    if not f.can_fire:
        f.why_not = f.reasons[0]
    if u.side in target_sides:
        refuse(f"{u.id} is on the side of the target ({u.side})")
    if u.hex == a.target:
        refuse(f"{u.id} is in the target hex")
    before = position.fired_at(u.id)
    if before is not None and a.kind == "intentional":
        # rules.md 8: all the units firing at a hex add their fire into one attack, so a unit's
        # fire goes into one attack per segment (roundshot and scatter are that fire's own hits)
        refuse(f"{u.id} has already fired this {position.segment} segment (at {before}): a unit "
               "fires once per segment (rules.md 8)")
    reach, factor, why = in_range(position, u, ti)
    if not reach:
        refuse(why)
    elif why and f.can_fire:
        f.reasons.append(why)
        if factor != 1:
            f.value *= factor
            f.how += f", x{fmt(factor)} at this range"
            f.steps.append(f"{why}: {fmt(f.value)}")
    ok, why = faces_target(position, u, ti)
    if not ok:
        refuse(why)
    f.los, why = has_los(position, u.hex, a.target)
    if f.los:
        way = (units_in_the_way(position, position.map.index(u.hex), ti)
               if position.charts.units_block else [])
        if way:     # rules.md 8 (the pack's units_block): the terrain is clear, the units are not
            f.los = False
            held = "; ".join(f"{h} ({', '.join(ids)})" for h, ids in way)
            f.reasons.append(f"no LOS to {a.target}: units stand in the way in {held}, and "
                             f"in these charts units block the line (the terrain alone would "
                             f"leave it clear); {u.id} cannot add its fire")
        else:
            f.reasons.append(f"LOS to {a.target}: {why}")
    else:
        # rules.md 8, combined fire: every firer needs LOS to the target hex
        f.reasons.append(f"no LOS to {a.target}: {why}; {u.id} cannot add its fire")
    if not f.los and f.can_fire:
        f.why_not = f.why_not or f.reasons[-1]
    if u.arm == "artillery":
        f.combines, why = _combines(position, u, ti)
        f.reasons.append(why)


def _one_intentional_attack(position: FirePosition, a: Assessment, kind: str) -> None:
    # rules.md 8: one intentional attack per hex in the Fire Segment (18.9 / 18.15 excepted)
    target = a.target
    if position.segment == "fire" and target in position.attacked:
        if kind == "intentional":
            a.allowed = False
            a.reasons.append(f"{target} has already been the target of intentional fire this Fire "
                             "Segment: a hex takes one intentional attack per Fire Segment")
        else:
            a.reasons.append(f"{target} was attacked this segment, but {KIND_WORDS[kind]} may hit "
                             "a hex any number of times")
    if kind != "intentional":
        # rules.md 10: the exception is for hexes hit inadvertently by artillery only
        others = [f.id for f in a.counted() if position.unit(f.id).arm != "artillery"]
        if others:
            a.allowed = False
            a.reasons.append(f"{KIND_WORDS[kind]} is artillery's inadvertent hit: "
                             f"{', '.join(others)} {'is' if len(others) == 1 else 'are'} not "
                             "artillery and fire at a hex only intentionally")


def _defence(position: FirePosition, a: Assessment, defenders: list[FireUnit], top: FireUnit,
             terrain: str) -> Fraction:
    # defence: (arm, formation, terrain), in that order (rules.md 8)
    m = position.map
    ti = m.index(a.target)
    hit = position.charts.defence_row(top.arm, top.formation, terrain)
    if hit is None:
        raise ScenarioError(f"the defence chart has no row for {top.arm} in {top.formation} in "
                            f"{terrain}", file=position.charts.path, place="defence")
    k, row = hit
    defence = row.value
    how = (f"defence chart row {k + 1}: {top.arm} / {top.formation} / {terrain} = {fmt(defence)} "
           f"(the unit deployed: {top.id}")
    kinds = {(u.arm, u.formation) for u in defenders if u.arm != "leader"}
    how += ("; several kinds in the hex: the unit on top, the first listed, defends it)"
            if len(kinds) > 1 else ")")
    enf = position.charts.enfilade
    if enf is not None and top.facing is not None and ("*" in enf.formations
                                                        or top.formation in enf.formations):
        counted = [f for f in a.firers if f.counted]
        flank = [f.id for f in counted
                 if not in_front(top.facing, bearing(m, ti, m.index(f.hex)))]
        if flank:
            defence *= enf.factor
            how += (f"; enfilade (fire from outside its front, from {', '.join(flank)}): "
                    f"x{enf.factor} = {fmt(defence)}")
    a.defence, a.defence_how = defence, how
    return defence


def _odds(position: FirePosition, a: Assessment, defence: Fraction, defenders: list[FireUnit],
          top: FireUnit, terrain: str) -> None:
    # odds (rules.md 8): rounded down to a column; below the first (1:3) no attack; above the last
    # (10:1) the last
    if a.fire > 0:
        a.ratio = a.fire / defence
        col = position.charts.column_for(a.ratio)
        if col is None:
            a.allowed = False
            a.reasons.append(f"{fmt(a.fire)} against {fmt(defence)} is below "
                             f"{position.charts.columns[0].name}: the attack may not be made")
        else:
            a.column = col.name
            # DRMs: target size (rules.md 8: 9-12 increments +3, once, as a dice modifier), extras
            size = sum(u.increments for u in defenders)
            band = position.charts.size_band(size)
            if band is not None and band.drm:
                a.drms.append((f"target size: {size} increments in {a.target} ({band.min}-{band.max})",
                               band.drm))
            for r in position.charts.extra_drms(top.arm, top.formation, terrain):
                a.drms.append((r.why, r.drm))
            a.drm = sum(d for _, d in a.drms)
            a.outcomes = distribution(col, a.drm)


def _roll(position: FirePosition, a: Assessment, dice: tuple[int, int]) -> None:
    t, u_ = dice
    if not (1 <= t <= 6 and 1 <= u_ <= 6):
        raise ScenarioError(f"dice are 1..6 each, not {t},{u_}", place="dice")
    a.roll = 10 * t + u_
    if a.allowed and a.column is not None:
        a.modified = step_roll(a.roll, a.drm)
        a.result = position.charts.column(a.column).results[reading_index(a.modified)]


def check_dice(text: str) -> tuple[int, int]:
    parts = text.split(",") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.strip().isdigit() and 1 <= int(p) <= 6 for p in parts):
        raise ScenarioError(f"dice are two dice 1..6 as T,U (tens, units), e.g. 4,3; not {text!r}",
                            place="--dice")
    return int(parts[0]), int(parts[1])


def record_attack(position: FirePosition, assessment: Assessment) -> FirePosition:
    """The position after the attack (``record``'s position)."""
    return record(position, assessment)[0]


def record(position: FirePosition, assessment: Assessment,
           spread: dict[str, int] | None = None) -> tuple[FirePosition, list]:
    """The position after the attack, and what its result did to the units: an intentional
    attack marks the hex as attacked this segment; the firers have fired, this segment (once
    per segment) and in the scenario (first fire is spent, rules.md 8); a rolled result is
    applied to the target hex's units, its losses spread as ``spread`` says (``results``)."""
    if not assessment.allowed:
        raise ScenarioError("this attack may not be made: " + "; ".join(assessment.reasons))
    ids = {f.id for f in assessment.counted()}
    units = tuple(replace(u, fired=True) if u.id in ids else u for u in position.units)
    attacked = position.attacked
    if assessment.kind == "intentional" and assessment.target not in attacked:
        attacked = attacked + (assessment.target,)
    fired = position.fired_now + tuple((f.id, assessment.target) for f in assessment.counted()
                                       if position.fired_at(f.id) is None)
    after = replace(position, units=units, attacked=attacked, fired_now=fired)
    if assessment.result is None or assessment.defender is None:
        return after, []
    return apply_result(after, assessment.defender, assessment.result, spread)
