"""A6.3 over the terrain as drawn (VASL's depression restrictions, ``Map.checkDepressionRule``):
which lines leave or enter a depression (``depression_lines``), and which points of their walk
block (``depression_blocks``).

VASL judges every point of such a line, each in its hex (an end's extended border counting as
that end), with no hex that lifts the restriction for good:

- leaving the viewer's depression (A6.3: to any location but one higher by more than the
  range), a point blocks while the range from its hex to the target exceeds the target's height
  above the viewer, unless its hex is the target's, or a depression hex where the point follows
  the depression (at the hex's base level, not above the viewer, or on a bridge or road drawn
  across it), or another hex whose ground there is not above the viewer; next to the target, a
  depression hex's bank drawn above both ends blocks on the half away from the target (and a
  bank on the half facing a target above the hex's base does not).
- entering the target's depression: the same, the ends' roles exchanged.
- a hex whose centre is a bridge counts as a depression one level below its centre (VASL's
  bridge case: the gully under the span).
- B19.51 (VASL: "crest line at a vertex"): a line along hexsides leaving a depression for a
  location not above it, or entering one from a location not above it, is blocked when a hex
  beside the hexspine it leaves (enters) by has another base level than the depression hex.

The height rule ("no height advantage", A6.2) leaves alone the points of such lines in a
depression hex, but an obstacle of a level or more there (B19.21), and, as VASL's
``ignoreGroundLevelHex``, every point of a hex such a line follows the depression through: not
along hexsides, entering the target's depression from above by a hex whose hexside it leaves
by is a depression or water hexside (the terrain at the hexside's middle), or leaving the
viewer's for a higher target by a hex whose hexside it enters by is one (the banks of a
bridge hex on a line down the stream under it).  Not followed:
VASL's lines leaving or entering by a road hexside (``exitsByRoadHexside``: a bridge or road
pixel always follows the depression here)."""
from __future__ import annotations

import numpy as np

from .frame import Frame, along_hexsides, facing, hex_range, line_spines, ranges_from
from .terrain import BRIDGE_T, DEPRESSION_T, HEIGHT, ROAD_T, WATER_T


def depression_lines(frame: Frame, viewer: int, viewer_elev: int, targets: np.ndarray,
                     target_elev: np.ndarray):
    """A6.3 (VASL's exitsSourceDepression / entersTargetDepression): the lines leaving the
    viewer's depression to a location not higher than it by more than the range, and those
    entering the target's from a location not higher than it by more than the range."""
    depression = frame.depression
    line_range = ranges_from(frame, viewer, targets)
    up = target_elev - viewer_elev
    exits = depression[viewer] & (up <= line_range)
    enters = depression[targets] & (-up <= line_range)
    along = along_hexsides(frame, viewer, targets)
    if along.any():
        # a line along hexsides leaving (entering) by a depression hexside (VASL: the terrain
        # at the hexside's middle) whatever the levels
        exit_spine, enter_spine = line_spines(frame, viewer, targets, along)
        viewers = np.full(len(targets), viewer)
        exits |= depression[viewer] & along & _spine_sides(frame, viewers, exit_spine,
                                                           _depression_side)
        enters |= depression[targets] & along & _spine_sides(frame, targets, enter_spine,
                                                             _depression_side)
    return exits, enters


def depression_blocks(frame: Frame, ends, points):
    """A6.3 (module doc) on ``points`` (``points.Points``) of the lines from ``ends``
    (``points.Ends``): (blocking points, points the height rule leaves alone), or (None, None)
    when no line is A6.3's."""
    viewer, viewer_elev, targets = ends.viewer, ends.viewer_elev, ends.targets
    exits, enters = depression_lines(frame, viewer, viewer_elev, targets, ends.target_elev)
    if not (exits.any() or enters.any()):
        return None, None
    # only the points of those lines (the others' are neither blocked nor skipped here)
    sel = np.flatnonzero((exits | enters)[points.line])
    block_all = np.zeros(len(points.line), dtype=bool)
    skip_all = np.zeros(len(points.line), dtype=bool)
    line, hexes, target, in_end, in_viewer, ground, code, side, at_centre = (
        a[sel] for a in (points.line, points.hex, points.target, points.in_end,
                         points.in_viewer, points.ground, points.code, points.side,
                         points.at_centre))
    current = np.where(in_end, np.where(in_viewer, viewer, target), hexes)  # VASL's current hex
    s = viewer_elev
    t = ends.target_elev[line]
    ex, en = exits[line], enters[line]
    depression_hex = frame.depression[current]
    # VASL's bridge case: a hex whose centre is a bridge is the depression under it
    bridge_centre = BRIDGE_T[frame.centre_code[current]]
    dep = depression_hex | bridge_centre
    base = frame.ground[current] - bridge_centre
    on_span = BRIDGE_T[code] | ROAD_T[code]           # VASL's losCrossingBridgeDepiction
    from_target = (frame.ranges[current, target] if frame.ranges is not None
                   else hex_range(frame, current, target))
    from_viewer = ranges_from(frame, viewer, current)
    off_centre = np.ones(len(line), dtype=bool)     # (the centre's pixels by their side too)
    # next to each other across a depression hexside: no restriction (VASL)
    across = np.zeros(len(line), dtype=bool)
    adjacent = frame.neighbours[viewer] == targets[:, None]
    one = np.flatnonzero(adjacent.any(axis=1))
    if len(one):
        side_to = np.argmax(adjacent[one], axis=1)
        ok = np.zeros(len(targets), dtype=bool)
        ok[one] = DEPRESSION_T[frame.side_code[viewer, side_to]]
        across = ok[line]
    # leaving the viewer's depression
    follows = dep & ((ground == base) | (s >= ground) | on_span)
    out = (ex & (from_target > t - s) & (current != target) & ~follows
           & ~(~dep & (ground <= s)) & ~across)
    out &= ~((from_target == 1) & (t > base) & dep & off_centre
             & facing(frame, current, side, target))
    out |= (ex & (from_target == 1) & dep & ~on_span & (ground != base) & (s < ground)
            & (t <= ground) & off_centre & ~facing(frame, current, side, target))
    # entering the target's depression
    follows = dep & ((ground == base) | (t >= ground) | on_span)
    into = (en & (from_viewer > s - t) & (current != viewer) & ~follows
            & ~(~dep & (ground <= t)) & ~across)
    into &= ~((from_viewer == 1) & (s > base) & dep & off_centre
              & facing(frame, current, side, viewer))
    into |= (en & (from_viewer == 1) & dep & ~on_span & (ground != base) & (t < ground)
             & (s <= ground) & off_centre & ~facing(frame, current, side, viewer))
    block_all[sel] = out | into | _crest_at_vertex(frame, ends, exits, enters, line)
    # A6.3 / B19.21: the height rule leaves the depression's hexes alone, not its obstacles
    skip = (ex | en) & depression_hex & (HEIGHT[code] < 1)
    # ... nor a hex the line follows the depression through (VASL's ignoreGroundLevelHex)
    follow = ~ends.along[line] & ~in_end & ((ex & (t > s)) | (en & (s > t)))
    f = np.flatnonzero(follow)
    if len(f):
        entry, leave = _crossed_sides(frame, ends, line[f], current[f])
        side_f = np.where(ex[f], entry, leave)
        hexes = np.minimum(current[f], len(frame.side_code) - 1)
        wet = _DEPRESSION_OR_WATER[frame.side_code[hexes, np.maximum(side_f, 0)]]
        follow[f] = (side_f >= 0) & wet
        skip |= follow & ~(depression_hex & (HEIGHT[code] >= 1))
    skip_all[sel] = skip
    return block_all, skip_all


_DEPRESSION_OR_WATER = DEPRESSION_T | WATER_T


def sides_crossed(frame: Frame, ends, line, hexes) -> tuple[np.ndarray, np.ndarray]:
    """Per point (its ``line``, its hex ``hexes``), for each of its hex's six sides (N, NE, SE,
    S, SW, NW): whether the line from the viewer's centre to the target's crosses it (VASL's
    getHexsideCrossed), and how far along the line the side's middle lies, from the viewer."""
    targets = ends.targets[line]
    ax, ay = float(frame.centre_x[ends.viewer]), float(frame.centre_y[ends.viewer])
    bx = frame.centre_x[targets].astype(np.float64)[:, None]
    by = frame.centre_y[targets].astype(np.float64)[:, None]
    side, half = frame.geometry[2] * 2 / 3, frame.geometry[3] / 2
    vx = np.array([-side / 2, side / 2, side, side / 2, -side / 2, -side])
    vy = np.array([-half, -half, 0.0, half, half, 0.0])
    x1 = frame.centre_x[hexes].astype(np.float64)[:, None] + vx[None, :]
    y1 = frame.centre_y[hexes].astype(np.float64)[:, None] + vy[None, :]
    x2, y2 = np.roll(x1, -1, axis=1), np.roll(y1, -1, axis=1)

    def cross(px, py, qx, qy, rx, ry):
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)
    crossed = ((cross(ax, ay, bx, by, x1, y1) * cross(ax, ay, bx, by, x2, y2) <= 0)
               & (cross(x1, y1, x2, y2, ax, ay) * cross(x1, y1, x2, y2, bx, by) <= 0))
    along = (((x1 + x2) / 2 - ax) * (bx - ax) + ((y1 + y2) / 2 - ay) * (by - ay))
    return crossed, along


def _crossed_sides(frame: Frame, ends, line, hexes) -> tuple[np.ndarray, np.ndarray]:
    """Per point (its ``line``, its hex ``hexes``): the hexside of the hex the line from the
    viewer's centre to the target's crosses first (entering the hex) and last (leaving it), -1
    when it crosses none (VASL's getHexsideCrossed: sides N, NE, SE, S, SW, NW)."""
    crossed, along = sides_crossed(frame, ends, line, hexes)
    entry = np.argmin(np.where(crossed, along, np.inf), axis=1)
    leave = np.argmax(np.where(crossed, along, -np.inf), axis=1)
    none = ~crossed.any(axis=1)
    return np.where(none, -1, entry), np.where(none, -1, leave)


def _crest_at_vertex(frame: Frame, ends, exits, enters, line) -> np.ndarray:
    """B19.51 (VASL's exitHexsideIsCrest / enterHexsideIsCrest): per point of ``line``, whether
    it is the first point of a line along hexsides that leaves (enters) a depression by a
    hexspine one of whose two hexsides borders a hex of another base level, the other end not
    above the depression."""
    out = np.zeros(len(line), dtype=bool)
    along = ends.along
    if not along.any():
        return out
    viewer, targets = ends.viewer, ends.targets
    s, t = ends.viewer_elev, ends.target_elev
    exit_spine, enter_spine = line_spines(frame, viewer, targets, along)
    crest = (along & exits & (s >= t)
             & _spine_sides(frame, np.full(len(targets), viewer), exit_spine, _crest_side))
    crest |= along & enters & (t >= s) & _spine_sides(frame, targets, enter_spine, _crest_side)
    if not crest.any():
        return out
    first = np.ones(len(line), dtype=bool)
    first[1:] = line[1:] != line[:-1]
    return first & crest[line]


def _spine_sides(frame: Frame, hexes: np.ndarray, spine: np.ndarray, test) -> np.ndarray:
    """Whether ``test`` holds for either hexside beside the hexspine ``spine`` of each of
    ``hexes`` (its hexsides spine - 1 and spine; -1: no spine)."""
    out = np.zeros(len(hexes), dtype=bool)
    for k in (5, 0):
        side = (spine + k) % 6
        other = frame.neighbours[hexes, side]
        there = (spine >= 0) & (other >= 0)
        out |= there & test(frame, hexes, side, np.where(there, other, hexes))
    return out


def _depression_side(frame: Frame, hexes, side, other) -> np.ndarray:
    """VASL's depression hexside: depression terrain at the hexside's middle."""
    return DEPRESSION_T[frame.side_code[np.minimum(hexes, len(frame.side_code) - 1), side]]


def _crest_side(frame: Frame, hexes, side, other) -> np.ndarray:
    """B19.51 (VASL's crest hexside of a depression hex): the hex across has another base
    level, or the hexside is a depression hexside and the hex across no depression."""
    return ((frame.ground[other] != frame.ground[hexes])
            | (_depression_side(frame, hexes, side, other) & ~frame.depression[other]))
