"""B9.2 / B9.52 over the terrain as drawn: hexside terrain (walls, hedges, bocage) on a line,
also in the ends' own hexes, but where VASL's ``isIgnorableHexsideTerrain`` ignores it
(``ignorable``).  A wall or hedge blocks a line whose ends are both at its ground level (B9.2);
bocage is an obstacle judged by A6.2 and A6.4 (B9.52).  Rowhouse walls (B23.71, ``rowhouse``)
and cliffs (B10.23, ``cliffs``) apart."""
from __future__ import annotations

import numpy as np

from ..day_lines import BLIND, HIGHER, WALL
from .cliffs import blind_point
from .frame import Frame, hex_range, line_spines, location_terrain
from .terrain import BOCAGE_T, CLIFF_T, HEXSIDE_T, ROWHOUSE_T


def hexside_blocks(frame: Frame, ends, points, measures):
    """The points of hexside terrain that block (module doc): ([(points, why)] in the order
    they are marked, the points whose block is that hexside terrain's)."""
    code, ground, top = points.code, points.ground, points.top
    hexside = HEXSIDE_T[code] & ~CLIFF_T[code] & ~ROWHOUSE_T[code] & points.on_map
    if not hexside.any():
        return [], None
    e = np.flatnonzero(hexside)
    exit_spine, enter_spine = line_spines(frame, ends.viewer, ends.targets, ends.along)
    line, hexes, side, at_centre = points.line[e], points.hex[e], points.side[e], \
        points.at_centre[e]
    ignored = (ignorable(frame, ends.viewer, hexes, side, at_centre, exit_spine[line])
               | ignorable(frame, points.target[e], hexes, side, at_centre, enter_spine[line]))
    bocage = BOCAGE_T[code[e]]
    target_elev = points.target_elev[e]
    higher, lower = measures.higher[e], measures.lower[e]
    wall = ~ignored & ~bocage & (ground[e] == ends.viewer_elev) & (ground[e] == target_elev)
    bocage_top = top[e]
    judged = ~ignored & bocage
    bocage_higher = judged & ((bocage_top > higher)
                              | ((bocage_top == higher) & (bocage_top > lower)))
    bocage_blind = (judged & ~bocage_higher & (bocage_top > lower) & (bocage_top < higher)
                    & blind_point(ends.viewer_elev, target_elev, measures.from_viewer[e],
                                  measures.from_target[e], bocage_top,
                                  np.ones(len(e), bool)))
    out = []
    for cond, reason in ((wall, WALL), (bocage_higher, HIGHER), (bocage_blind, BLIND)):
        pts = np.zeros(len(code), dtype=bool)
        pts[e[cond]] = True
        out.append((pts, reason))
    hits = np.zeros(len(code), dtype=bool)
    hits[e[wall | bocage_higher | bocage_blind]] = True
    return out, hits


def ignorable(frame: Frame, end, hexes, side, at_centre, spine_dir) -> np.ndarray:
    """VASL's isIgnorableHexsideTerrain: the hexside (``hexes``, ``side``) seen from end hex
    ``end``: its own hexside, a hexspine of it, or next to it where the location holds no
    hexside terrain (B9.2), a hexspine only without bocage (B9.52); for a line along a
    hexspine (``spine_dir``, its hexspine at that end; -1: none), hexside terrain at the far
    end of that hexspine as VASL's table says."""
    end = np.full(hexes.shape, end) if np.ndim(end) == 0 else np.asarray(end)
    to_end = hex_range(frame, hexes, end)
    other = frame.neighbours[hexes, side]
    own = ~at_centre & ((hexes == end) | (other == end))
    other_near = (other >= 0) & (hex_range(frame, np.where(other >= 0, other, hexes), end) == 1)
    location_code = np.where(at_centre, frame.centre_code[hexes],
                             location_terrain(frame, hexes, side))
    # a hexspine of the end's hex, but bocage there (B9.52: VASL ignores no bocage hexspine)
    spine = ~at_centre & (to_end == 1) & other_near & ~BOCAGE_T[location_code]
    spill = (to_end == 1) & ~HEXSIDE_T[location_code]
    out = (to_end <= 2) & (own | spine | spill)
    sel = np.flatnonzero(~out & (to_end <= 2) & ~at_centre & (spine_dir >= 0))
    if len(sel):
        e, line_hex, line_side, spine_at = end[sel], hexes[sel], side[sel], spine_dir[sel]
        # two hexes away: the same hexside seen from the hex across it
        two = to_end[sel] == 2
        opposite = frame.neighbours[line_hex, line_side]
        none = two & (opposite < 0)
        far = two & (opposite >= 0) & (hex_range(
            frame, np.where(opposite >= 0, opposite, line_hex), e) > 1)
        line_hex = np.where(two, opposite, line_hex)
        line_side = np.where(two, (line_side + 3) % 6, line_side)
        hexside_at = (spine_at + 5) % 6
        spine_side = (spine_at + 4) % 6
        hex1, hex2 = frame.neighbours[e, hexside_at], frame.neighbours[e, spine_at]
        valid = (hex1 >= 0) & (hex2 >= 0)
        h1, h2 = np.where(valid, hex1, 0), np.where(valid, hex2, 0)
        terrain1 = frame.side_terrain[h2, spine_side]
        terrain2 = frame.side_terrain[h1, spine_at]
        terrain3 = frame.side_terrain[h2, hexside_at]
        match = (((line_hex == hex1) & (line_side == spine_at))
                 | ((line_hex == hex2) & (line_side == hexside_at)))
        res = valid & terrain1 & match & (~terrain2 | ~terrain3)
        out[sel] = none | (~far & ~none & res)
    return out
