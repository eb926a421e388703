"""The per-point height rules over the terrain as drawn, on the hexes between the ends (VASL's
``checkGroundLevelRule``, ``checkTerrainHeightRule``, ``checkHalfLevelTerrainRule``,
``checkSplitTerrainRule``, ``isBlindHex``):

- A6.2: ground higher than both ends blocks; an obstacle higher than both ends blocks, a
  hindrance there hinders; an obstacle as high as the higher end and above the lower blocks
  (no height advantage), but over water next to an end on lower water, along a cliff
  (B10.23), on the slope next to the higher end (B10.2) or in a depression's own hexes
  (A6.3);
- split terrain (orchards, A6.1 / B14.2) with both ends at its ground level: its lower part;
- B24.1: half-level terrain at both ends' level blocks (obstacle) or hinders;
- A6.4 / B10.23: blind hexes behind obstacles, cliffs and crests;
- B6: the ground of a hex under a bridge (``bridges``)."""
from __future__ import annotations

import numpy as np

from ..day_lines import BLIND, EQUAL, HALF, HIGHER, HILL
from .bridges import still_blocks_under_bridge, under_bridge
from .cliffs import along_cliff, beside_higher_end, blind_point, cliff_by_end
from .depressions import sides_crossed
from .frame import Frame
from .terrain import (
    BOCAGE_T,
    CLIFF_T,
    DEPRESSION_T,
    HALF_LEVEL,
    HEIGHT,
    HEXSIDE_T,
    INHERENT,
    LOWER_HINDRANCE,
    LOWER_OBSTACLE,
    OBSTACLE,
    OUT_OF_SEASON,
    ROWHOUSE_T,
    SPLIT,
    WATER_T,
)


def height_blocks(frame: Frame, ends, points, measures, depression_skip):
    """The height rules (module doc) on ``points``: ([(points, why)] in the order they are
    marked, the points that hinder (A6.1, not yet cut to the ends' ranges)).
    ``depression_skip``: A6.3's points the height rule leaves alone (or None)."""
    code, ground, top = points.code, points.ground, points.top
    viewer_elev, target_elev = ends.viewer_elev, points.target_elev
    higher_end, lower_end = measures.higher, measures.lower
    from_viewer, from_target = measures.from_viewer, measures.from_target
    height = HEIGHT[code]
    centre = frame.centre_code[points.hex]
    marks = []
    # the hexes between the ends; inherent terrain drawn over from another hex is ignored
    mid = points.on_map & ~points.in_end & ~(INHERENT[code] & (centre != code))
    hinders, under = np.zeros(len(code), dtype=bool), under_bridge(points)     # B6
    # A6.2: ground higher than both ends
    marks.append((mid & (ground > higher_end) & ~under, HILL))
    mid &= ~ROWHOUSE_T[code]          # B23.71 / O5.31: their own rule (rowhouse)
    # B9.52: bocage only by its hexside rule (hexsides.py, where an end's own hexside and the
    # hexsides beside it are ignored), as VASL's height and blind-hex rules leave it alone
    mid &= ~BOCAGE_T[code]
    # split terrain (orchards) with both ends at its ground level
    split = mid & SPLIT[code] & (ground == viewer_elev) & (ground == target_elev)
    marks.append((split & LOWER_OBSTACLE[code], HIGHER))
    hinders |= split & LOWER_HINDRANCE[code] & ~LOWER_OBSTACLE[code]
    # half-level terrain at both ends' level (B24.1)
    half = (mid & HALF_LEVEL[code] & ~HEXSIDE_T[code] & (top == viewer_elev)
            & (top == target_elev))
    marks.append((half & OBSTACLE[code], HALF))
    hinders |= half & ~OBSTACLE[code]
    # A6.2: higher than both ends
    higher = mid & ~split & (top > higher_end)
    marks.append((higher & OBSTACLE[code], HIGHER))
    hinders |= higher & ~OBSTACLE[code]
    # A6.2: as high as the higher end and above the lower (no height advantage)
    water = (WATER_T[centre] & (height < 1)
             & (((from_viewer == 1) & (viewer_elev > target_elev)
                 & WATER_T[frame.centre_code[points.target]])
                | ((from_target == 1) & (target_elev > viewer_elev)
                   & WATER_T[frame.centre_code[ends.viewer]])))
    level = (mid & (top == higher_end) & (top > lower_end) & ~water
             & (~under | still_blocks_under_bridge(frame, points)))
    if level.any():                                                         # B10.23, B10.2
        level &= ~along_cliff(frame, ends, points, measures) & ~beside_higher_end(
            frame, ends, points, measures, (height == 0) & level)
    if depression_skip is not None:          # A6.3: the depression's own hexes, as VASL
        level &= ~depression_skip
    marks.append((level & ~OUT_OF_SEASON[code], EQUAL))
    hinders |= level & OUT_OF_SEASON[code]
    blind_marks, blind_hinders = _blind(frame, ends, points, measures, mid)
    return marks + blind_marks, hinders | blind_hinders


def _blind(frame: Frame, ends, points, measures, mid):
    """A6.4 / B10.23: blind hexes behind obstacles and crests, on the points ``mid``:
    ([(points, BLIND)], the points that hinder there)."""
    code, ground, top, target_elev = points.code, points.ground, points.top, points.target_elev
    lower_end, higher_end = measures.lower, measures.higher
    hinders = np.zeros(len(code), dtype=bool)
    # B10.23: a cliff's own pixels count a level higher here (VASL's cliffadj)
    up = top + CLIFF_T[code]
    between = mid & (up > lower_end) & (up < higher_end)
    if not between.any():
        return [], hinders
    e = np.flatnonzero(between)
    from_viewer, from_target = measures.from_viewer[e], measures.from_target[e]
    cliff = (~points.at_centre[e] & frame.cliff_side[points.hex[e], points.side[e]]
             & ~points.along[e])
    # a crest counts a level lower where the line's first hexside of its hex is a depression
    # hexside (VASL's isBlindHex)
    sunk = np.where(~cliff, -_first_side_depression(frame, ends, points, e).astype(np.int64), 0)
    blind = blind_point(ends.viewer_elev, target_elev[e], from_viewer, from_target,
                        top[e] + np.where(HEIGHT[code[e]] == 0, sunk, 0),
                        (HEIGHT[code[e]] > 0) | cliff)
    c = np.flatnonzero(cliff & blind)
    if len(c):                                                              # B10.23
        blind[c[cliff_by_end(frame, ends, points, measures, e[c])]] = False
    obstacle = OBSTACLE[code[e]]
    behind_obstacle = np.zeros(len(code), dtype=bool)
    behind_obstacle[e[blind & obstacle]] = True
    # the ground alone (a cliff's pixels a level higher here too, B10.23: VASL's cliffadj)
    ground_up = ground[e] + CLIFF_T[code[e]]
    crest = (blind & ~obstacle & (ground_up > lower_end[e]) & (ground_up < higher_end[e])
             & blind_point(ends.viewer_elev, target_elev[e], from_viewer, from_target,
                           ground[e] + sunk, cliff))
    behind_crest = np.zeros(len(code), dtype=bool)
    behind_crest[e[crest]] = True
    hinder = blind & ~obstacle & ~crest & (~OUT_OF_SEASON[code[e]] | (from_target == 1))
    hinders[e[hinder]] = True
    return [(behind_obstacle, BLIND), (behind_crest, BLIND)], hinders


def _first_side_depression(frame: Frame, ends, points, e) -> np.ndarray:
    """Per point of ``e``: whether the first hexside of its hex the line crosses (VASL's
    getHexsideCrossed, the lowest-numbered: N, NE, SE, S, SW, NW) is a depression hexside
    (depression terrain at its location point)."""
    hexes, line = points.hex[e], points.line[e]
    crossed, _ = sides_crossed(frame, ends, line, hexes)
    first = np.argmax(crossed, axis=1)
    code = frame.side_code[np.minimum(hexes, len(frame.side_code) - 1), first]
    return crossed.any(axis=1) & DEPRESSION_T[code]
