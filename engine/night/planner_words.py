"""The planner's advice in a player's words (rules.md 11.7): one sentence a placement, "lights
1.4 Germans that 3 of your units then see; blinds your 8-3-8 in 4P5 one time in three", and
"Don't fire: no placement helps" when none gains.

"Certain" is said only of what the shot itself adds (an enemy already lit is no gain, E1.9).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .kinds import METHODS
from .scenario import Scenario

HOLD = "Don't fire: no placement helps"
OUTCOMES = 36
FLARE_WORDS = {m.key: m.label for m in METHODS}
# VASL's nationality codes (a save's units keep theirs) and a player's word for their units
NATION_WORDS = {"ge": "Germans", "ru": "Russians", "am": "Americans", "br": "British",
                "fr": "French", "it": "Italians", "ja": "Japanese", "fi": "Finns",
                "hu": "Hungarians", "ro": "Romanians", "po": "Poles", "ch": "Chinese",
                "ss": "Germans", "us": "Americans", "usmc": "Marines", "sov": "Russians"}
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 9: "nine", 12: "twelve",
                18: "eighteen", 36: "thirty-six"}


@dataclass(frozen=True)
class Words:
    """How the units of a position are called: "8-3-8 in 4P5" (the counter's name, else its
    id), and the enemy units as a whole ("Germans", else "enemy units")."""
    names: dict = field(default_factory=dict)     # unit id -> its counter's name, else its id
    hexes: dict = field(default_factory=dict)     # unit id -> its hex
    enemies: str = "enemy units"

    def label(self, unit_id: str) -> str:
        """"8-3-8 in 4P5"."""
        return f"{self.names.get(unit_id, unit_id)} in {self.hexes.get(unit_id, '?')}"


def words_for(scenario: Scenario, side: str) -> Words:
    enemies = [u for u in scenario.units if u.side != side]
    nations = {u.extra.get("vasl_nation") for u in enemies}
    noun = NATION_WORDS.get(nations.pop(), "enemy units") if len(nations) == 1 else "enemy units"
    return Words({u.id: u.extra.get("name") or u.id for u in scenario.units},
                 {u.id: u.hex for u in scenario.units}, noun)


def times_in(count: int, whole: int = OUTCOMES) -> str:
    """A chance as a player says it: "every time", "one time in three", "5 times in 12"."""
    p = Fraction(count, whole)
    if p == 1:
        return "every time"
    b = NUMBER_WORDS.get(p.denominator, str(p.denominator))
    return f"one time in {b}" if p.numerator == 1 else f"{p.numerator} times in {b}"


def number(value: Fraction) -> str:
    """1.4, 2, 0.06: at most two decimals, no trailing zeros."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def option_sentence(option, words: Words) -> str:
    """What the placement gains and costs, in one sentence."""
    o = option
    parts = []
    if o.seen_count:
        seers = (f"{o.seer_count} of your units then see" if o.seer_count != 1
                 else "one of your units then sees")
        sure = " (at least one: certain)" if o.any_seen_count == OUTCOMES else ""
        many = number(o.expected_enemies_seen)
        noun = "enemy unit" if many == "1" and words.enemies == "enemy units" else words.enemies
        parts.append(f"lights {many} {noun} that {seers}{sure}")
    else:
        parts.append(f"lights no {words.enemies} your units would then see")
    if o.target is not None:
        parts.append(f"{o.target} is lit already" if o.target_now
                     else f"lights {o.target} {times_in(o.target_count)}"
                     if o.target_count else f"never lights {o.target}")
    stop = dict(zip(o.friendly_ids, o.stop_each))
    groups: dict = {}                   # (chance, hex) -> the friends lit together
    for u, c in o.friends_blinded_counts().items():
        groups.setdefault((c, words.hexes.get(u, "")), []).append(u)
    ordered = sorted(groups.items(), key=lambda g: (-g[0][0], -len(g[1]), g[0][1]))
    for (c, where), us in ordered[:2]:
        names = [words.names.get(u, u) for u in us]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        text = f"blinds your {who}{f' in {where}' if where else ''} {times_in(c)}"
        lose = sum(stop.get(u, 0) for u in us)
        if lose:
            text += f" (then losing sight of {number(Fraction(lose, OUTCOMES))} on average)"
        parts.append(text)
    rest = sum(len(us) for _, us in ordered[2:])
    if rest:
        parts.append(f"and {rest} more of your units")
    return "; ".join(parts)


def advice_sentence(advice) -> str:
    """The panel's first line: fire the best placement, or hold."""
    best = advice.best
    if best is None:
        return "No legal placement now."
    if advice.advice == "hold":
        return f"{HOLD}."
    from_ = f" with {best.by}" if advice.unit is None else ""
    how = (f"an IR {FLARE_WORDS[best.method]}" if best.method.startswith("ir")
           else f"by method {best.method}")
    return f"Fire{from_} in {best.at} {how}: {option_sentence(best, advice.words)}."


__all__ = ["HOLD", "Words", "advice_sentence", "number", "option_sentence", "times_in",
           "words_for"]
