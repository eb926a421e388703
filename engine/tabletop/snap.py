"""Snapping a moved element into edge contact with a nearby element, as players line bases up:
front to front, behind it (its front on the other's rear edge: a rear rank), or beside it
(front edges in one line); a drop that overlaps a neighbour by a little pushed flush against it;
facings turned by a step or towards a neighbour.  Placement helps, not rules (rules.md 9: bases
may touch, never overlap)."""
from __future__ import annotations

import math
from dataclasses import replace

from .geometry import CORNERS, TOL, forward, rightward
from .table import Table, overlaps

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


# -- a drop that touches a neighbour: pushed flush, or refused with the gap it needed -------------
PUSH_BW = 0.25         # how far a drop may be pushed out of a neighbour to sit flush against it
FACING_STEP = 15.0     # degrees: a turn by key or handle snaps to this step


def _axes(pts) -> list[tuple[float, float]]:
    out = []
    for a, b in ((pts[0], pts[1]), (pts[1], pts[2])):
        dx, dy = b[0] - a[0], b[1] - a[1]
        n = math.hypot(dx, dy)
        out.append((-dy / n, dx / n))
    return out


def _separation(mine, other) -> tuple[float, float, float]:
    """The shortest move (dx, dy, length) that takes rectangle ``mine`` out of ``other``
    (separating axes of two rectangles); length 0 when they do not overlap."""
    best = None
    for ax, ay in _axes(mine) + _axes(other):
        pm = [p[0] * ax + p[1] * ay for p in mine]
        po = [p[0] * ax + p[1] * ay for p in other]
        push_up = max(po) - min(pm)         # move along +axis until mine's low side meets other's high
        push_down = max(pm) - min(po)       # or along -axis
        if push_up <= 0 or push_down <= 0:
            return 0.0, 0.0, 0.0
        d, sign = (push_up, 1.0) if push_up < push_down else (push_down, -1.0)
        if best is None or d < best[2]:
            best = (ax * sign * d, ay * sign * d, d)
    return best


def push_flush(table: Table, element_id: str, reach: float = PUSH_BW):
    """The element moved the least way (at most ``reach`` BW in all) so that it touches, and no
    longer overlaps, the bases it was dropped into: (element, the ids it now touches), or
    (None, the ids it overlaps) when no such move exists (a gap too narrow for the base)."""
    e = table.element(element_id)
    moved, touched = e, []
    for _ in range(4):
        trial = table.with_element(moved)
        clash = [b if a == element_id else a for a, b in overlaps(trial) if element_id in (a, b)]
        if not clash:
            gone = math.hypot(moved.x - e.x, moved.y - e.y)
            return (moved, touched) if gone <= reach + TOL else (None, touched)
        other = trial.element(clash[0])
        mine = [trial.corners(moved)[k] for k in CORNERS]
        theirs = [trial.corners(other)[k] for k in CORNERS]
        dx, dy, d = _separation(mine, theirs)
        if d > reach:
            return None, clash
        moved = replace(moved, x=moved.x + dx, y=moved.y + dy)
        touched.append(other.id)
    return None, touched


def gap_needed(table: Table, element_id: str) -> str:
    """Why a drop is refused, in a player's words: the base's width against the gap it was
    dropped into."""
    e = table.element(element_id)
    clash = [b if a == element_id else a for a, b in overlaps(table) if element_id in (a, b)]
    return (f"{element_id} ({e.type}, 1 BW wide, {e.depth_bw(table.bw_mm):.2f} BW deep) does "
            f"not fit there: it would overlap {', '.join(clash)}")


def turned(facing: float, degrees: float) -> float:
    """``facing`` turned by ``degrees`` and snapped to the 15-degree step (a key or handle)."""
    return round(((facing + degrees) % 360.0) / FACING_STEP) * FACING_STEP % 360.0


def facing_to(table: Table, element_id: str, how: str) -> tuple[float, str | None]:
    """A facing for the element: "enemy" squarely opposite the nearest enemy's front (front to
    front), "friend" the same as the nearest friend's; (its facing unchanged, None) when there
    is no such element."""
    e = table.element(element_id)
    others = [o for o in table.elements if o.id != element_id
              and ((o.side != e.side) if how == "enemy" else (o.side == e.side))]
    if not others:
        return e.facing, None
    o = min(others, key=lambda o: math.hypot(o.x - e.x, o.y - e.y))
    facing = (o.facing + 180.0) % 360.0 if how == "enemy" else o.facing
    return facing % 360.0, o.id
