"""B27.2 as VASL applies it to an entrenchment's location (rules.md 11.4; VASL's
``Map.checkHexsideTerrainRule``): a foxhole, trench or antitank ditch adds a location at its
hex's ground, and a line from or to a unit in it is blocked where it meets hexside terrain
(walls, hedges, bocage: not cliffs, not rowhouse walls), anywhere on the line, the ends' own
hexsides included:

- from a unit in an entrenchment to a non-adjacent target at its level or lower;
- else to a unit in an entrenchment, non-adjacent, at the source's level or higher.

Hexside terrain is the map's (the hex model's hexsides, also on boards drawn: VASL reads the
pixels on the line).
"""
from __future__ import annotations

import numpy as np

from ..hex_lines import line_transits
from ..maps import Map
from ..terrain import HEXSIDE_BY_CODE

# B27.2: the hexside terrain an entrenchment's occupant cannot see over (VASL: any hexside
# terrain but cliffs, rowhouse and factory walls, which have their own rules)
_OVER = np.array([h is not None and h.kind != "cliff" and h.name != "rowhouse_wall"
                  for h in HEXSIDE_BY_CODE])


def crosses_hexside_terrain(game_map: Map, viewer: int, targets: np.ndarray) -> np.ndarray:
    """Whether each line from ``viewer``'s centre to a target's meets a wall, hedge or bocage
    hexside (``line_transits``: through it, along it, or at a vertex where it runs along)."""
    m = game_map
    out = np.zeros(len(targets), dtype=bool)
    if not m.any_hexsides:
        return out
    q0, r0 = int(m.q[viewer]), int(m.r[viewer])
    for k, t in enumerate(np.asarray(targets).tolist()):
        tr = line_transits(int(m.q[t]) - q0, int(m.r[t]) - r0)
        if not len(tr.t):
            continue
        i = m.lookup_axial(q0 + tr.sides[:, 0, 0], r0 + tr.sides[:, 0, 1])
        j = m.lookup_axial(q0 + tr.sides[:, 1, 0], r0 + tr.sides[:, 1, 1])
        here = np.where(i >= 0, m.hexside[np.maximum(i, 0), tr.direction], 0)
        there = np.where(j >= 0, m.hexside[np.maximum(j, 0), (tr.direction + 3) % 6], 0)
        out[k] = bool(_OVER[here].any() or _OVER[there].any())
    return out


def entrenchment_blocks(game_map: Map, viewer: int, viewer_elev: int, viewer_in: bool,
                        targets, target_elev, target_in) -> np.ndarray:
    """The lines B27.2 blocks (module doc): ``viewer_in``, ``target_in`` (per target) whether
    that end is a unit in an entrenchment; levels absolute."""
    targets = np.asarray(targets, dtype=np.int64)
    target_elev = np.asarray(target_elev, dtype=np.int64)
    target_in = np.broadcast_to(np.asarray(target_in, dtype=bool), targets.shape)
    far = game_map.distance(viewer, targets) > 1
    if viewer_in:
        ask = far & (target_elev <= viewer_elev)
    else:
        ask = far & target_in & (target_elev >= viewer_elev)
    out = np.zeros(len(targets), dtype=bool)
    k = np.flatnonzero(ask)
    if len(k):
        out[k] = crosses_hexside_terrain(game_map, viewer, targets[k])
    return out
