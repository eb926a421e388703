"""What a starshell gains a player (rules.md 11.7): enemy units it newly lights that a friendly
Good Order unit then sees, and what the friendly units it lights stop seeing.

The sight of a side is read from the night verdict (section 3), never computed here again:
- ``sees_if_lit``: would each friendly Good Order unit see each enemy unit were it
  Illuminated?  The verdict of a position in which every location is lit (E1.101: a lit
  location is within every observer's NVR, and a lit observer sees lit locations): LOS.
  The shot cannot change it (a flare is no obstacle): it holds in every drift outcome.
- ``sees_now``: does it see it now (within NVR or lit, E1.1, E1.101; a Gunflash alone does
  not count: treated as beyond NVR, E1.81)?

After a drift outcome a friendly Good Order unit sees an enemy when the enemy is lit and
``sees_if_lit``, or when it saw it before and is not lit itself (a unit newly lit is blinded:
it sees only lit locations, E1.101; the lights of one outcome only add, E1.9).  The verdicts of
ground-level units come from ``verdicts.all_fields``, the others' (levels, bypass, a moving
vehicle in the hex) from ``unit_verdicts.unit_verdict``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .light import Illumination
from .planner_steps import batches, drive, step_units
from .scenario import DERIVED_LIGHTS, Scenario, Unit
from .unit_sight import sight_codes
from .verdicts import NVR


@dataclass(frozen=True)
class SideSight:
    """What the friendly Good Order units (``seers``) see of the enemy units."""
    seers: tuple[int, ...]          # indices into the friendly units
    sees_if_lit: np.ndarray         # (seers, enemies): LOS to it were it lit (E1.101)
    sees_now: np.ndarray            # (seers, enemies): within NVR or lit now (E1.1, E1.101)

    @property
    def seeable(self) -> np.ndarray:
        """(enemies,): some friendly Good Order unit would see it lit."""
        return self.sees_if_lit.any(axis=0)

    @property
    def seen_now(self) -> np.ndarray:
        """(enemies,): some friendly Good Order unit sees it now."""
        return self.sees_now.any(axis=0)


def everything_lit(scenario: Scenario) -> Scenario:
    """The position with every location Illuminated (E1.101): its verdicts are the LOS a lit
    target is seen along."""
    m = scenario.map
    ones = np.ones(m.size, dtype=bool)
    light = Illumination(m, ones, ones.copy(), np.zeros(m.size, dtype=bool))
    light.fire_lit = ones.copy()
    out = scenario.replace()                    # a fresh copy: nothing derived yet
    out.derived(DERIVED_LIGHTS, lambda: light)
    return out


def side_sight(scenario: Scenario, friends: list[Unit], enemies: list[Unit]) -> SideSight:
    """The friendly Good Order units' sight of the enemy units, now and were each lit."""
    return drive(side_sight_steps(scenario, friends, enemies))


def side_sight_steps(scenario: Scenario, friends: list[Unit], enemies: list[Unit]):
    """``side_sight`` a batch of friendly units at a time (``planner_steps``): it yields the
    share done."""
    seers = [k for k, f in enumerate(friends) if f.good_order]
    units = [friends[k] for k in seers]
    lit = everything_lit(scenario)
    if_lit = np.zeros((len(units), len(enemies)), dtype=bool)
    now = np.zeros((len(units), len(enemies)), dtype=bool)
    done = 0
    for batch in batches(list(range(len(units))), step_units(scenario.map.size)):
        group = [units[k] for k in batch]
        if_lit[batch] = sight_codes(lit, group, enemies) == NVR
        now[batch] = sight_codes(scenario, group, enemies) == NVR
        done += len(batch)
        yield done / max(len(units), 1)
    return SideSight(tuple(seers), if_lit, now)


@dataclass(frozen=True)
class Gains:
    """Per placement (rows), summed over the 36 drift outcomes."""
    seen: np.ndarray            # enemy units newly lit that a friend then sees
    any_seen: np.ndarray        # outcomes with at least one such enemy
    seen_each: np.ndarray       # (placements, enemies): outcomes in which each is
    blinded: np.ndarray         # friendly units newly lit (E1.101)
    blinded_each: np.ndarray    # (placements, friends): outcomes in which each is
    stop_each: np.ndarray       # (placements, friends): enemies each blinded friend stops seeing
    lost: np.ndarray            # enemy units the side saw and sees no more


def gains(sight: SideSight, enemy_lit: np.ndarray, friend_lit: np.ndarray,
          enemy_now: np.ndarray, friend_now: np.ndarray) -> Gains:
    """``enemy_lit`` (placements, 36, enemies) and ``friend_lit`` (placements, 36, friends):
    lit in each outcome; ``*_now``: lit before the shot (E1.9: it gains nothing there)."""
    newly_e = enemy_lit & ~enemy_now
    newly_f = friend_lit & ~friend_now
    seen_o = newly_e & sight.seeable
    placements, _, ne = enemy_lit.shape
    nf = friend_lit.shape[2]
    stop = np.zeros((placements, nf), dtype=np.int64)
    lost = np.zeros(placements, dtype=np.int64)
    seers = np.array(sight.seers, dtype=np.int64)
    if len(seers) and ne:
        seer_newly = newly_f[:, :, seers]                   # (P, 36, S)
        hit = seer_newly.any(axis=(0, 1))
        if hit.any():
            now = sight.sees_now.astype(np.float32)        # counts below 2**24: exact
            # what each blinded seer stops seeing: enemies it saw, dark in the outcome (E1.101)
            dark = (~enemy_lit).astype(np.float32)
            stopped = np.rint(dark @ now[hit].T).astype(np.int64)          # (P, 36, S hit)
            stop[:, seers[hit]] = (stopped * seer_newly[:, :, hit]).sum(axis=1)
            kept = sight.sees_now[~hit].any(axis=0)         # seen by a seer the shot never lights
            ask = sight.seen_now & ~kept
            if ask.any():
                unlit = (~seer_newly[:, :, hit]).astype(np.float32)
                still = unlit @ now[hit][:, ask] > 0.5
                still |= enemy_lit[:, :, ask] & sight.seeable[ask]
                lost = (~still).sum(axis=(1, 2))
    return Gains(seen_o.sum(axis=(1, 2)), seen_o.any(axis=2).sum(axis=1), seen_o.sum(axis=1),
                 newly_f.sum(axis=(1, 2)), newly_f.sum(axis=1), stop, lost)


__all__ = ["Gains", "SideSight", "everything_lit", "gains", "side_sight", "side_sight_steps"]
