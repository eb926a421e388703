"""The attack the player puts together (rules.md 8): the engine's candidates with the player's
toggles applied, and the attack those firers make.  The window asks and draws; every object
here is made anew (nothing the engine returned before is changed)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from .attack import assess
from .fire import Assessment
from .position import FirePosition

NO_FIRER = "no firer chosen: click a unit outlined in grey to add it"


@dataclass(frozen=True)
class ChosenAttack:
    """``attack``: the attack of the firers chosen (refused, with the reason, when none is);
    ``shown``: every candidate firer (those that cannot fire too), marked counted when it is
    in ``attack``: what the map and the panel draw."""
    attack: Assessment
    shown: Assessment


def chosen_firers(candidates: Assessment, choice: dict[str, bool]) -> list[str]:
    """The units that fire: the engine's choice, with the player's toggles (``choice``: a unit
    toggled in, True, or out, False); a unit without LOS or unable to fire stays out
    (rules.md 8)."""
    return [f.id for f in candidates.firers
            if f.can_fire and f.los and choice.get(f.id, f.counted or f.offered)]


def marked(candidates: Assessment, counted: set[str], attack: Assessment | None = None
           ) -> Assessment:
    """``candidates`` with exactly the firers ``counted`` marked counted (a copy); a firer of
    ``attack`` is shown as that attack judged it (its reasons, not the candidates')."""
    made = {f.id: f for f in attack.firers} if attack is not None else {}
    return replace(candidates, firers=[replace(made.get(f.id, f), counted=f.id in counted)
                                       for f in candidates.firers])


def choose_attack(position: FirePosition, target: str, choice: dict[str, bool],
                  dice: tuple[int, int] | None = None,
                  kind: str = "intentional") -> ChosenAttack:
    """rules.md 8: the attack on ``target`` by the firers the player chose (``chosen_firers``),
    rolled with ``dice`` when given.  No firer chosen: a refused attack of no fire, every
    candidate left out."""
    candidates = assess(position, target, kind=kind)
    firers = chosen_firers(candidates, choice)
    if not firers:
        none = marked(candidates, set())
        able = any(f.can_fire and f.los for f in candidates.firers)
        attack = replace(none, fire=0, allowed=False, column=None, outcomes={}, ratio=None,
                         reasons=[NO_FIRER] if able or candidates.allowed else candidates.reasons)
        return ChosenAttack(attack, none)
    attack = assess(position, target, firers, dice, kind)
    return ChosenAttack(attack, marked(candidates, {f.id for f in attack.firers
                                                    if f.counted or f.offered}, attack))
