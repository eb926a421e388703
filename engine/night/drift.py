"""Where a starshell or an Illuminating Round ends up: drift by dice (E1.922, E1.932).

Drift is a random direction dr (1 = N, 2 = NE ... 6 = NW, ``hexes.DIRECTIONS``) and a distance:
- starshell method 1 (own hex): 1 hex;
- starshell method 2 (along a LOS) and IR ``ir-los``: a dr halved, fractions up (1, 1, 2, 2, 3, 3);
- starshell method 3 (3 hexes away) and IR ``ir-6``: a full dr.
The flare moves that many hexes in a straight line in that direction (our reading; W-10 fits it).
With dice written (2, 5) the first is the direction, the second the distance (rules.md 5).
A flare that leaves the map lights nothing (our reading: it is gone).

Dice come from a ``DiceSource`` so the app can roll and tests can fix them; without dice, the
exact distribution over the 36 equally likely outcomes is computed.

Lit chances: ``lit_probability`` is the new flare's own share (the chance that it lights each
hex); ``lit_probability_after`` is the chance that each hex is illuminated once it has landed,
counting the lights already on the map (a hex lit now stays lit: 1).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Protocol

import numpy as np

from ..hexes import DIRECTIONS
from ..maps import Map
from .kinds import MARKER_KINDS, METHOD_KEYS
from .kinds import METHODS as KIND_METHODS
from .light import illumination, star_exceptions
from .scenario import Scenario

METHODS = METHOD_KEYS
IR_METHODS = tuple(m.key for m in KIND_METHODS if m.flare == "ir")
OUTCOMES = 36                     # direction dr x distance dr (E1.922, E1.932)
LIGHT_RADIUS = {kind: MARKER_KINDS[kind].radius for kind in ("starshell", "ir")}  # E1.923, E1.933


class DiceSource(Protocol):
    def roll(self) -> int:
        """One die roll, 1..6."""


class RandomDice:
    """Real dice (optionally seeded)."""

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)

    def roll(self) -> int:
        return self._rng.randint(1, 6)


class FixedDice:
    """Dice that give the rolls they were handed, in order (tests, typed-in rolls)."""

    def __init__(self, rolls: Iterable[int]):
        self._rolls = list(rolls)
        for r in self._rolls:
            if not (isinstance(r, int) and 1 <= r <= 6):
                raise ValueError(f"a die shows 1..6, not {r!r}")

    def roll(self) -> int:
        if not self._rolls:
            raise ValueError("no more dice were given")
        return self._rolls.pop(0)


def drift_distance(method: str, dr: int) -> int:
    """E1.922 / E1.932: hexes drifted for a distance dr."""
    if method == "1":
        return 1
    if method in ("2", "ir-los"):
        return math.ceil(dr / 2)
    if method in ("3", "ir-6"):
        return dr
    raise ValueError(f"unknown placement method {method!r} (one of {', '.join(METHODS)})")


def light_kind(method: str) -> str:
    return "ir" if method in IR_METHODS else "starshell"


def drift_end(game_map: Map, at: int, method: str, direction: int, distance_dr: int) -> int | None:
    """Map index where the flare placed at ``at`` ends for dice (direction, distance), or None
    when it leaves the map."""
    if direction not in DIRECTIONS:
        raise ValueError(f"a direction dr is 1..6, not {direction!r}")
    if not 1 <= distance_dr <= 6:
        raise ValueError(f"a distance dr is 1..6, not {distance_dr!r}")
    n = drift_distance(method, distance_dr)
    dq, dr_ = DIRECTIONS[direction]
    end = int(game_map.lookup_axial(game_map.q[at] + n * dq, game_map.r[at] + n * dr_))
    return None if end < 0 else end


def roll_drift(game_map: Map, at: int, method: str, dice: DiceSource) -> tuple[int, int, int | None]:
    """Roll direction then distance; returns (direction dr, distance dr, end index or None)."""
    d = dice.roll()
    r = dice.roll()
    return d, r, drift_end(game_map, at, method, d, r)


@dataclass(frozen=True)
class DriftOutcomes:
    """The 36 equally likely outcomes of a drift, grouped by end hex (-1: off the map)."""
    ends: np.ndarray          # distinct end indices (-1 = off-map)
    weights: np.ndarray       # number of the 36 outcomes that end there

    def probabilities(self) -> dict[int, Fraction]:
        return {int(e): Fraction(int(w), 36) for e, w in zip(self.ends, self.weights)}


@lru_cache(maxsize=None)
def drift_offsets(method: str) -> np.ndarray:
    """(36, 2) axial offsets of the drift outcomes, direction dr then distance dr (E1.922,
    E1.932)."""
    out = np.zeros((OUTCOMES, 2), dtype=np.int64)
    for d in range(1, 7):
        dq, dr = DIRECTIONS[d]
        for r in range(1, 7):
            n = drift_distance(method, r)
            out[(d - 1) * 6 + (r - 1)] = (n * dq, n * dr)
    return out


def outcomes(game_map: Map, at: int, method: str) -> DriftOutcomes:
    """All 36 (direction, distance) outcomes, vectorized."""
    offs = drift_offsets(method)
    ends = game_map.lookup_axial(game_map.q[at] + offs[:, 0], game_map.r[at] + offs[:, 1])
    u, w = np.unique(ends, return_counts=True)
    return DriftOutcomes(u, w)


def distribution(game_map: Map, at: int, method: str) -> dict[str, float]:
    """Exact probability of each end hex (and ``off-map``); the values sum to 1."""
    out: dict[str, float] = {}
    off = Fraction(0)
    for e, p in outcomes(game_map, at, method).probabilities().items():
        if e < 0:
            off += p
        else:
            out[game_map.names[e]] = float(p)
    out["off-map"] = float(off)
    return out


def _lit_from(game_map: Map, ends: np.ndarray, radius: int) -> np.ndarray:
    """Boolean (len(ends), n): would a flare ending in each of ``ends`` light each hex
    (E1.923 / E1.933 exceptions).  At most 36 rows: cheap, and no n x n table to keep."""
    dq = game_map.q[None, :] - game_map.q[ends][:, None]
    dr = game_map.r[None, :] - game_map.r[ends][:, None]
    dist = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2
    starlit, _ = star_exceptions(game_map)
    return (dist <= radius) & starlit[None, :]


def lit_probability(game_map: Map, at: int, method: str) -> np.ndarray:
    """The new flare's own share: exact (float) probability that a flare placed at ``at`` lights
    each hex, whatever else lights it."""
    oc = outcomes(game_map, at, method)
    on = oc.ends >= 0
    if not on.any():
        return np.zeros(game_map.size)
    lit = _lit_from(game_map, oc.ends[on], LIGHT_RADIUS[light_kind(method)])
    return (oc.weights[on] @ lit) / 36.0


def lit_probability_exact(game_map: Map, at: int, method: str) -> dict[int, Fraction]:
    """The flare's own share as Fractions (hexes with a probability above zero)."""
    oc = outcomes(game_map, at, method)
    on = oc.ends >= 0
    counts = np.zeros(game_map.size, dtype=np.int64)
    if on.any():
        lit = _lit_from(game_map, oc.ends[on], LIGHT_RADIUS[light_kind(method)])
        counts = oc.weights[on].astype(np.int64) @ lit.astype(np.int64)
    return {int(i): Fraction(int(counts[i]), 36) for i in np.flatnonzero(counts)}


def lit_probability_after(scenario: Scenario, at: int, method: str) -> np.ndarray:
    """Exact (float) probability that each hex is illuminated once a flare placed at ``at`` has
    landed: 1 where a light on the map lights it already (E1.9: lights add up), else the flare's
    own share (E1.923, E1.933).  The lights' mask is the scenario's cached ``illumination``, so
    this costs one ``np.where`` over the flare's share (the drift preview asks it per mouse move)."""
    return np.where(illumination(scenario).lit, 1.0, lit_probability(scenario.map, at, method))


def lit_probability_after_exact(scenario: Scenario, at: int, method: str) -> dict[int, Fraction]:
    """``lit_probability_after`` as Fractions (hexes with a probability above zero)."""
    out = lit_probability_exact(scenario.map, at, method)
    for i in np.flatnonzero(illumination(scenario).lit):
        out[int(i)] = Fraction(1)
    return dict(sorted(out.items()))
