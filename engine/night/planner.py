"""The night planner's best starshell: every legal way to fire now, ranked (rules.md 10).

The planner adds no rule; it applies rules.md 4 and 5 through the modules that
hold them:
- who may fire, when, and where: ``starshells.starshell_options`` (E1.92, E1.921, E1.922, E1.932);
- the 36 equally likely drift outcomes of a placement: ``drift.drift_distance`` and the six
  directions (E1.922, E1.932), in ``drift.outcomes``' order (direction dr, then distance dr);
- what a flare lights: every location within 3 hexes (starshell, E1.923) or 6 (IR, E1.933)
  except those starshells and IR never light (``light.star_exceptions``: building
  interiors, jungle; light jungle only for a unit bypassing it; nothing underground);
- the lights already on the map: ``light.illumination`` (E1.9: lights add up, so a unit lit
  already is lit in every outcome and the new flare gains nothing there).

For every unit the chance of ending Illuminated is counted exactly over the 36 outcomes once
the usage dr has succeeded (SPEC.md); an Illuminated enemy is within every observer's NVR
(E1.101), an Illuminated friendly unit is blinded: it sees only lit locations (E1.101).  The
usage dr's own chance (E1.921, E1.931) comes before the drift and is reported apart.  Only one
starshell attempt per hex per phase (E1.92): a starshell option names the hex whose attempt it
uses; IR attempts are not limited.

Vectorised: the outcomes of every placement of a method at once, as boolean arrays
(placements x 36 outcomes x units); Fractions are built only when an option is read.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..errors import ScenarioError
from ..hexes import axial_distance
from .drift import LIGHT_RADIUS, OUTCOMES, drift_offsets, light_kind
from .kinds import METHOD_KEYS, METHODS
from .light import illumination, star_exceptions
from .planner_gain import gains, side_sight_steps
from .planner_steps import drive, step_units
from .planner_threat import check_side
from .planner_words import Words, advice_sentence, option_sentence, words_for
from .scenario import Scenario, Unit
from .starshells import hex_starshell_roller, starshell_options

LIT_ENEMIES = "lit-enemies"
OUTCOME_CELLS = 4_000_000       # placements x 36 outcomes x units worked out at once, at most
TARGET = "target:"
METHOD_RULE = {m.key: m.rule for m in METHODS}


def _fraction_text(count: int, whole: int = OUTCOMES) -> str:
    """``count/whole`` reduced, as ``str(Fraction)`` writes it ("1/4", "1", "0")."""
    return str(Fraction(int(count), whole))


@dataclass(frozen=True)
class StarshellOption:
    """One legal way to fire now: ``method`` placing the flare in ``at`` by unit ``by``, with the
    number of the 36 drift outcomes in which each unit ends Illuminated."""
    method: str
    at: str
    by: str
    usage_dr_max: int | None          # None: no usage dr (OBA IR, E1.931)
    attempt_hex: str | None           # the hex whose one starshell attempt it uses (E1.92)
    enemy_ids: tuple[str, ...]
    enemy_counts: tuple[int, ...]
    friendly_ids: tuple[str, ...]
    friendly_counts: tuple[int, ...]
    any_enemy_count: int
    enemies_lit_now: int
    target: str | None = None
    target_count: int | None = None
    target_now: bool = False          # the target hex is lit already (E1.9)
    # rules.md 11.7: what the shot gains and costs, summed over the 36 outcomes
    seen_count: int = 0               # enemy units newly lit that a friendly unit then sees
    any_seen_count: int = 0           # outcomes with at least one such enemy
    seen_each: tuple[int, ...] = ()   # per enemy unit (``enemy_ids``)
    blinded_count: int = 0            # friendly units newly lit, so blinded (E1.101)
    blinded_each: tuple[int, ...] = ()    # per friendly unit (``friendly_ids``)
    stop_each: tuple[int, ...] = ()   # per friendly unit: enemy units it stops seeing, blinded
    lost_count: int = 0               # enemy units the side sees now and no more
    seer_count: int = 0               # friendly Good Order units that would see those lit

    @property
    def expected_enemies_seen(self) -> Fraction:
        """Expected enemy units newly lit and then seen by a friendly Good Order unit (rules.md
        11.7): within its NVR, being lit (E1.101), along its LOS."""
        return Fraction(self.seen_count, OUTCOMES)

    @property
    def any_enemy_seen(self) -> Fraction:
        """The chance that the shot lights at least one enemy unit a friend then sees: what the
        shot itself adds, never a unit lit already (E1.9)."""
        return Fraction(self.any_seen_count, OUTCOMES)

    @property
    def expected_friends_blinded(self) -> Fraction:
        """Expected friendly units newly lit: blinded, they see only lit locations (E1.101)."""
        return Fraction(self.blinded_count, OUTCOMES)

    @property
    def expected_sight_lost(self) -> Fraction:
        """Expected enemy units the side sees now and sees no more: their watchers blinded
        (E1.101), they left dark."""
        return Fraction(self.lost_count, OUTCOMES)

    @property
    def friends_blinded(self) -> dict[str, Fraction]:
        """Each friendly unit's chance of being newly lit (E1.101)."""
        return {u: Fraction(c, OUTCOMES) for u, c in zip(self.friendly_ids, self.blinded_each)
                if c}

    @property
    def gain(self) -> Fraction:
        """The number the ranking sorts by: the expected enemy units newly lit and seen, or for
        ``target:HEX`` the chance that the shot newly lights that hex (rules.md 11.7)."""
        if self.target is not None:
            return Fraction(0) if self.target_now else Fraction(self.target_count, OUTCOMES)
        return self.expected_enemies_seen

    @property
    def enemy_lit(self) -> dict[str, Fraction]:
        """Each enemy unit's exact chance of ending Illuminated (E1.101: within every NVR)."""
        return {u: Fraction(c, OUTCOMES) for u, c in zip(self.enemy_ids, self.enemy_counts)}

    @property
    def friendly_lit(self) -> dict[str, Fraction]:
        """Each friendly unit's exact chance of ending Illuminated, so blinded (E1.101)."""
        return {u: Fraction(c, OUTCOMES) for u, c in zip(self.friendly_ids, self.friendly_counts)}

    @property
    def expected_enemy_lit(self) -> Fraction:
        return Fraction(sum(self.enemy_counts), OUTCOMES)

    @property
    def expected_friendly_lit(self) -> Fraction:
        return Fraction(sum(self.friendly_counts), OUTCOMES)

    @property
    def expected_enemy_gain(self) -> Fraction:
        """Enemy units lit beyond those the lights on the map light already (E1.9)."""
        return self.expected_enemy_lit - self.enemies_lit_now

    @property
    def any_enemy_lit(self) -> Fraction:
        return Fraction(self.any_enemy_count, OUTCOMES)

    @property
    def target_lit(self) -> Fraction | None:
        return None if self.target_count is None else Fraction(self.target_count, OUTCOMES)

    @property
    def usage(self) -> Fraction:
        """The usage dr's chance of success (E1.921, E1.931): limit in 6; OBA IR needs none."""
        return usage_chance(self.usage_dr_max)

    def friends_blinded_counts(self) -> dict[str, int]:
        return {u: c for u, c in zip(self.friendly_ids, self.blinded_each) if c}

    def reasons(self) -> list[str]:
        usage = (f"usage dr of {self.usage_dr_max} or less: {self.usage_dr_max} in 6 "
                 f"({'E1.931' if self.method.startswith('ir') else 'E1.921'})"
                 if self.usage_dr_max is not None else "OBA IR: no usage dr (E1.931)")
        out = [f"{self.by} places it {METHODS[METHOD_KEYS.index(self.method)].label} in "
               f"{self.at}, then it drifts: 36 equally likely outcomes "
               f"({METHOD_RULE[self.method]})", usage]
        if self.attempt_hex is not None:
            out.append(f"it uses {self.attempt_hex}'s one starshell attempt of this phase (E1.92)")
        if self.enemies_lit_now:
            out.append(f"{self.enemies_lit_now} enemy unit(s) are lit already: the flare gains "
                       "nothing there (E1.9)")
        return out

    def as_json(self) -> dict:
        out = {"method": self.method, "at": self.at, "by": self.by,
               "usage": f"{6 if self.usage_dr_max is None else self.usage_dr_max}/6",
               "usage_dr_max": self.usage_dr_max,
               "enemy_lit": {u: _fraction_text(c) for u, c in zip(self.enemy_ids,
                                                                  self.enemy_counts)},
               "friendly_lit": {u: _fraction_text(c) for u, c in zip(self.friendly_ids,
                                                                    self.friendly_counts)},
               "expected_enemy_lit": float(self.expected_enemy_lit),
               "expected_enemy_gain": float(self.expected_enemy_gain),
               "expected_friendly_lit": float(self.expected_friendly_lit),
               "any_enemy_lit": _fraction_text(self.any_enemy_count),
               "attempt_hex": self.attempt_hex, "reasons": self.reasons(),
               # rules.md 11.7 (SPEC.md turn four)
               "expected_enemies_seen": _fraction_text(self.seen_count),
               "any_enemy_seen": _fraction_text(self.any_seen_count),
               "enemy_seen": {u: _fraction_text(c) for u, c in zip(self.enemy_ids,
                                                                   self.seen_each) if c},
               "expected_friends_blinded": _fraction_text(self.blinded_count),
               "friends_blinded": {u: _fraction_text(c) for u, c in
                                   self.friends_blinded_counts().items()},
               "stop_seeing": {u: _fraction_text(c) for u, c in zip(self.friendly_ids,
                                                                    self.stop_each) if c},
               "expected_sight_lost": _fraction_text(self.lost_count),
               "gain": float(self.gain)}
        if self.target is not None:
            out["target"] = self.target
            out["target_lit"] = _fraction_text(self.target_count)
        return out


@dataclass(frozen=True)
class Advice:
    """Every legal starshell/IR placement now, best first for ``objective``."""
    unit: str | None
    side: str
    objective: str
    options: tuple[StarshellOption, ...]
    reasons: tuple[str, ...]
    words: Words = Words()

    @property
    def best(self) -> StarshellOption | None:
        return self.options[0] if self.options else None

    @property
    def advice(self) -> str:
        """"fire" when a placement gains (rules.md 11.7), else "hold"."""
        return "fire" if self.options and self.options[0].gain > 0 else "hold"

    @property
    def sentence(self) -> str:
        """The advice in a sentence: where to fire and what it gains, or "Don't fire"."""
        return advice_sentence(self)

    def says(self, option: StarshellOption) -> str:
        """What ``option`` gains and costs, in a sentence."""
        return option_sentence(option, self.words)

    def as_json(self) -> dict:
        options = []
        for o in self.options:
            out = o.as_json()
            out["says"] = self.says(o)
            options.append(out)
        return {"unit": self.unit, "side": self.side, "objective": self.objective,
                "advice": self.advice, "says": self.sentence,
                "options": options, "reasons": list(self.reasons)}


def lit_outcomes(scenario: Scenario, method: str, ats: np.ndarray, columns: np.ndarray,
                 lightable: np.ndarray, already: np.ndarray) -> np.ndarray:
    """Boolean (placements, 36, columns): is each column's location Illuminated once a flare
    placed in each of ``ats`` has drifted by each outcome?  A column is a hex index with
    ``lightable`` (may a starshell/IR light it, E1.923) and ``already`` (lit now, E1.9).
    A flare that leaves the map lights nothing (drift.py)."""
    m = scenario.map
    offs = drift_offsets(method)
    ends = m.lookup_axial(m.q[ats][:, None] + offs[None, :, 0],
                          m.r[ats][:, None] + offs[None, :, 1])        # (placements, 36)
    where, back = np.unique(ends, return_inverse=True)                # each end hex once
    at = np.where(where >= 0, where, 0)
    dq = m.q[at][:, None] - m.q[columns][None, :]
    dr = m.r[at][:, None] - m.r[columns][None, :]
    near = (axial_distance(dq, dr) <= LIGHT_RADIUS[light_kind(method)]) & (where >= 0)[:, None]
    lit = near[back.reshape(ends.shape)]                               # off the map: nothing
    return (lit & lightable[None, None, :]) | already[None, None, :]


def unit_columns(scenario: Scenario, units: list[Unit]) -> tuple[np.ndarray, ...]:
    """(hex indices, lightable by a starshell/IR, lit now) of ``units``: a starshell or IR never
    lights an underground location, lights light jungle only for a unit bypassing it (E1.923,
    E1.933); what is lit now is the lights' own verdict (``Illumination.unit_lit``)."""
    m = scenario.map
    starlit, bypassable = star_exceptions(m)
    light = illumination(scenario)
    idx = np.array([m.index(u.hex) for u in units], dtype=np.int64)
    bypass = np.array([u.bypass for u in units], dtype=bool)
    ground = np.array([u.level >= 0 for u in units], dtype=bool)
    lightable = ground & (starlit[idx] | (bypass & bypassable[idx]))
    already = np.array([light.unit_lit(u) for u in units], dtype=bool)
    return idx, lightable, already


def parse_objective(scenario: Scenario, objective: str) -> str | None:
    """The canonical target hex of ``target:HEX``, None for ``lit-enemies``."""
    if objective == LIT_ENEMIES:
        return None
    if objective.startswith(TARGET):
        return scenario.map.canonical(objective[len(TARGET):])
    raise ScenarioError(f"unknown objective {objective!r}: {LIT_ENEMIES} or target:HEX")


def _firers(scenario: Scenario, unit_id: str | None, side: str | None):
    """Steps (yielding the share done) returning (side, [(unit, its starshell FireOptions or
    None when another unit of its hex rolls, its IR FireOptions)], reasons)."""
    reasons: list[str] = []
    if unit_id is not None:
        unit = scenario.unit(unit_id)
        if side is not None and side != unit.side:
            raise ScenarioError(f"{unit.id} is of side {unit.side!r}, not {side!r}")
        units = [unit]
        side = unit.side
        rollers = {unit.id}
    else:
        check_side(scenario, side)
        units = [u for u in scenario.units if u.side == side]
        rollers = set()
        hexes = sorted({scenario.map.canonical(u.hex) for u in units})
        per_step = step_units(scenario.map.size)
        for k, hex_ in enumerate(hexes):
            best, why = hex_starshell_roller(scenario, hex_)     # W-21, E1.92: one per hex
            if best is not None:
                rollers.add(best.id)
                reasons.extend(why)
            if k % per_step == per_step - 1:
                yield 0.5 * (k + 1) / len(hexes)
    out = []
    per_step = step_units(scenario.map.size)
    for k, u in enumerate(units):
        opts = starshell_options(scenario, u.id)
        star = opts.starshell if u.id in rollers else None
        if unit_id is not None:
            reasons.extend(opts.starshell.reasons + opts.ir.reasons[-1:])
        out.append((u, star, opts.ir))
        if k % per_step == per_step - 1:
            yield 0.5 + 0.5 * (k + 1) / len(units)
    return side, out, reasons


def advise(scenario: Scenario, unit_id: str | None, side: str | None = None,
           objective: str = LIT_ENEMIES) -> Advice:
    """Every legal starshell/IR placement of ``unit_id`` now (or, with ``unit_id`` None, of
    every qualified unit of ``side``: one starshell roller per hex, W-21), best first
    (``rank_key``).  ``advise_steps`` is the same, a step at a time."""
    return drive(advise_steps(scenario, unit_id, side, objective))


def advise_steps(scenario: Scenario, unit_id: str | None, side: str | None = None,
                 objective: str = LIT_ENEMIES):
    """``advise`` as a generator: it yields its progress, ``(text, share done)``, after the
    sight of the side and after each firer (a caller may stop between two), and returns the
    Advice."""
    target = parse_objective(scenario, objective)
    yield ("who may fire", 0.0)
    steps = _firers(scenario, unit_id, side)
    while True:
        try:
            yield ("who may fire", 0.3 * next(steps))
        except StopIteration as done:
            side, firers, reasons = done.value
            break
    enemies = [u for u in scenario.units if u.side != side]
    friends = [u for u in scenario.units if u.side == side]
    everyone = enemies + friends
    cols, lightable, already = unit_columns(scenario, everyone) if everyone else (
        np.zeros(0, np.int64), np.zeros(0, bool), np.zeros(0, bool))
    if target is not None:
        t = scenario.map.index(target)
        cols = np.append(cols, t)
        lightable = np.append(lightable, star_exceptions(scenario.map)[0][t])
        already = np.append(already, illumination(scenario).lit[t])
    steps = side_sight_steps(scenario, friends, enemies)        # rules.md 11.7
    while True:
        try:
            yield ("what your units see", 0.3 + 0.2 * next(steps))
        except StopIteration as done:
            sight = done.value
            break
    found = []
    for k, (unit, star, ir) in enumerate(firers):
        for opts in (star, ir):
            if opts is None or not opts.may_fire:
                continue
            for method, hexes in opts.methods.items():
                if hexes:
                    found.extend(_method_options(scenario, unit, opts.usage_dr_max, method, hexes,
                                                 (cols, lightable, already), sight,
                                                 enemies, friends, target))
        yield (f"placements of {unit.id}", 0.5 + 0.5 * (k + 1) / len(firers))
    order = rank_key(target is not None)
    return Advice(unit_id, side, objective, tuple(sorted(found, key=order)), tuple(reasons),
                  words_for(scenario, side))


def _method_options(scenario, unit, limit, method, hexes, columns, sight, enemies, friends,
                    target) -> list[StarshellOption]:
    m = scenario.map
    cols, lightable, already = columns
    chunk = max(1, OUTCOME_CELLS // (OUTCOMES * max(len(cols), 1)))     # memory bounded
    if len(hexes) > chunk:
        return [o for k in range(0, len(hexes), chunk)
                for o in _method_options(scenario, unit, limit, method, hexes[k:k + chunk],
                                         columns, sight, enemies, friends, target)]
    ne, nf = len(enemies), len(friends)
    ats = np.array([m.index(h) for h in hexes], dtype=np.int64)
    lit = lit_outcomes(scenario, method, ats, cols, lightable, already)
    counts = lit.sum(axis=1)                                   # (placements, columns)
    any_enemy = lit[:, :, :ne].any(axis=2).sum(axis=1)
    g = gains(sight, lit[:, :, :ne], lit[:, :, ne:ne + nf], already[:ne], already[ne:ne + nf])
    seers = (g.seen_each > 0).astype(np.int32) @ sight.sees_if_lit.T.astype(np.int32) > 0
    attempt = None if method.startswith("ir") else m.canonical(unit.hex)     # E1.92
    e_ids = tuple(u.id for u in enemies)
    f_ids = tuple(u.id for u in friends)
    now = int(already[:ne].sum())
    target_now = bool(already[-1]) if target is not None else False
    rows = counts.tolist()
    return [StarshellOption(method, m.names[at], unit.id, limit, attempt, e_ids,
                            tuple(row[:ne]), f_ids, tuple(row[ne:ne + nf]), a, now,
                            target, row[-1] if target is not None else None, target_now,
                            seen, any_seen, tuple(each), blinded, tuple(b_each),
                            tuple(stop), lost, n_seers)
            for at, row, a, seen, any_seen, each, blinded, b_each, stop, lost, n_seers in zip(
                ats.tolist(), rows, any_enemy.tolist(), g.seen.tolist(), g.any_seen.tolist(),
                g.seen_each.tolist(), g.blinded.tolist(), g.blinded_each.tolist(),
                g.stop_each.tolist(), g.lost.tolist(), seers.sum(axis=1).tolist())]


def rank_key(by_target: bool):
    """The default ranking (rules.md 11.7): the most enemy units newly lit and then seen by a
    friendly Good Order unit (for ``target:HEX``, the chance the hex ends lit first); among
    equals, the fewest enemy units the side stops seeing (its watchers blinded, E1.101), the
    fewest friendly units blinded, the likeliest to light at least one seen, the most enemy
    units lit, then the simpler method."""
    def key(o: StarshellOption):
        first = (-o.target_count,) if by_target else ()
        return first + (-o.seen_count, o.lost_count, o.blinded_count, -o.any_seen_count,
                        -sum(o.enemy_counts), METHOD_KEYS.index(o.method), o.at, o.by)
    return key


def usage_chance(limit: int | None) -> Fraction:
    """E1.921 / E1.931: a usage dr of ``limit`` or less on one die (no limit: certain)."""
    return Fraction(6 if limit is None else limit, 6)


__all__ = ["Advice", "StarshellOption", "advise", "advise_steps", "drift_offsets", "drive",
           "lit_outcomes", "parse_objective", "rank_key", "unit_columns", "usage_chance",
           "LIT_ENEMIES", "OUTCOMES"]
