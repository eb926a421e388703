"""A6.3 over the terrain as drawn (VASL's depression restrictions): which lines leave or enter
a depression (``depression_lines``), and which points of their walk block
(``depression_blocks``)."""
from __future__ import annotations

import numpy as np

from .frame import Frame, hex_range, ranges_from


def depression_lines(frame: Frame, viewer: int, viewer_elev: int, targets: np.ndarray,
                     target_elev: np.ndarray):
    """A6.3: the lines leaving the viewer's depression to a location it may not see over
    its edge (lower, higher by less than the range, or in another depression at its
    level), and those entering the target's from above by less than the range."""
    depression = frame.depression
    line_range = ranges_from(frame, viewer, targets)
    exits = depression[viewer] & (
        (target_elev < viewer_elev)
        | ((target_elev > viewer_elev) & (target_elev - viewer_elev < line_range))
        | (depression[targets] & (target_elev == viewer_elev)))
    enters = (depression[targets] & (viewer_elev > target_elev)
              & (viewer_elev - target_elev < line_range))
    return exits, enters


def depression_blocks(frame: Frame, ends, points):
    """A6.3 (VASL's depression restrictions): from a depression to a location it may not
    see over the depression's edge (lower, or higher by less than the range; or in another
    depression at its level), the line must stay in the depression until it reaches a hex
    that lifts the restriction; into a depression from above by less than the range, it
    must be in the depression wherever the range is more than the level difference.
    Of ``points`` (``points.Points``) of the lines from ``ends`` (``points.Ends``): (blocking
    points, points the height rule leaves alone), or (None, None) when no line is A6.3's."""
    depression = frame.depression
    viewer, viewer_elev, targets = ends.viewer, ends.viewer_elev, ends.targets
    exits, enters = depression_lines(frame, viewer, viewer_elev, targets, ends.target_elev)
    if not (exits.any() or enters.any()):
        return None, None
    # only the points of those lines (the others' are neither blocked nor skipped here)
    sel = np.flatnonzero((exits | enters)[points.line])
    block_all = np.zeros(len(points.line), dtype=bool)
    skip_all = np.zeros(len(points.line), dtype=bool)
    line, hexes, target, in_end, in_viewer, ground = (
        a[sel] for a in (points.line, points.hex, points.target, points.in_end,
                         points.in_viewer, points.ground))
    current = np.where(in_end, np.where(in_viewer, viewer, target), hexes)  # VASL's current hex
    base = frame.ground[current]
    target_elev = ends.target_elev[line]
    order = np.arange(len(line))
    from_target = (frame.ranges[current, target] if frame.ranges is not None
                   else hex_range(frame, current, target))
    from_viewer = ranges_from(frame, viewer, current)
    lift = exits[line] & (current != viewer) & (
        (depression[current] & (target_elev - base >= from_target))
        | (~depression[current] & (base <= viewer_elev)))
    lift_at = np.full(len(targets), len(order), dtype=np.int64)
    lifted = np.flatnonzero(lift)
    np.minimum.at(lift_at, line[lifted], order[lifted])
    lift_hex = np.full(len(targets) + 1, -2, dtype=np.int64)
    got = lift_at < len(order)
    lift_hex[np.flatnonzero(got)] = current[lift_at[got]]
    still = exits[line] & (order < lift_at[line])
    block = still & (ground > base)
    block |= (enters[line] & (from_viewer > viewer_elev - target_elev)
              & ~(depression[current] & (ground == base)))
    skip = ((exits[line] & ~still & (current == lift_hex[line])) | (enters[line] & depression[current])
            | (still & depression[current]))
    block_all[sel] = block
    skip_all[sel] = skip
    return block_all, skip_all
