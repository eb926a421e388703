"""Snapping a moved element into edge contact with a nearby element, as players line bases up:
front to front, behind it (its front on the other's rear edge: a rear rank), or beside it
(front edges in one line)."""
from __future__ import annotations

import math

from .geometry import forward, rightward
from .table import Table

SNAP_BW = 0.3          # how near (front midpoints, BW) a contact position must be to snap
SNAP_DEGREES = 30.0    # and how near its facing


def _angle(a: float, b: float) -> float:
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def snap(table: Table, element_id: str, front_x: float, front_y: float, facing: float,
         within: float = SNAP_BW, degrees: float = SNAP_DEGREES):
    """(x, y, facing, how, other): the nearest contact position within reach of the element's
    front edge midpoint (front_x, front_y), or the position given with ``how`` None.  ``how``:
    "front", "behind", "beside"."""
    best = None
    for o in table.elements:
        if o.id == element_id:
            continue
        fx, fy = forward(o.facing)
        rx, ry = rightward(o.facing)
        d = o.depth_bw(table.bw_mm)
        for how, cx, cy, cf in (
                ("front", o.x, o.y, (o.facing + 180.0) % 360.0),
                ("behind", o.x - fx * d, o.y - fy * d, o.facing),
                ("beside", o.x + rx, o.y + ry, o.facing),
                ("beside", o.x - rx, o.y - ry, o.facing)):
            dist = math.hypot(cx - front_x, cy - front_y)
            if dist <= within and _angle(cf, facing) <= degrees:
                if best is None or dist < best[0]:
                    best = (dist, cx, cy, cf, how, o.id)
    if best is None:
        return front_x, front_y, facing % 360.0, None, None
    return best[1], best[2], best[3], best[4], best[5]
