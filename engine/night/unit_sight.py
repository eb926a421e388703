"""Many units' night verdicts on many units at once (E1), read from the verdict code: a viewer's
field (``verdicts.all_fields``: every hex's ground location) where a unit's verdict is its hex's,
``unit_verdicts.unit_verdict`` for the others.

A unit's verdict is its hex's (``by_hex``) unless it stands above or below the ground level, or
bypasses light jungle lit for it alone (E1.923), or shares its hex with a moving vehicle that is
not its carrier (E1.14: the hex is seen farther for the vehicle's sake, not for it).
"""
from __future__ import annotations

import numpy as np

from .kinds import Sight
from .light import Illumination, illumination
from .scenario import Scenario, Unit
from .unit_verdicts import unit_verdict
from .verdicts import all_fields, moving_carrier


def by_hex(scenario: Scenario, unit: Unit, light: Illumination, movers: set[int]) -> bool:
    """Is the verdict on ``unit`` the verdict on its hex's ground location?"""
    if unit.level != 0:
        return False
    i = scenario.map.index(unit.hex)
    if unit.bypass and light.lit_bypass[i] and not light.lit[i]:          # E1.923
        return False
    return i not in movers or moving_carrier(scenario, unit) is not None  # E1.14


def sight_codes(scenario: Scenario, viewers: list[Unit], targets: list[Unit]) -> np.ndarray:
    """(viewers, targets): each viewer's verdict on each target, 0 none, 1 within NVR (or lit),
    2 through a Gunflash only (E1.1, E1.101, E1.81)."""
    out = np.zeros((len(viewers), len(targets)), dtype=np.int8)
    if not viewers or not targets:
        return out
    m = scenario.map
    light = illumination(scenario)
    movers = {m.index(u.hex) for u in scenario.units if moving_carrier(scenario, u) is not None}
    plain = [k for k, t in enumerate(targets) if by_hex(scenario, t, light, movers)]
    if plain:
        codes = all_fields(scenario, [u.id for u in viewers])
        cols = np.array([m.index(targets[k].hex) for k in plain], dtype=np.int64)
        out[:, plain] = codes[:, cols]
    for k in sorted(set(range(len(targets))) - set(plain)):
        for v, viewer in enumerate(viewers):
            out[v, k] = Sight(unit_verdict(scenario, viewer.id, targets[k].id, light).sight).code
    return out


__all__ = ["by_hex", "sight_codes"]
