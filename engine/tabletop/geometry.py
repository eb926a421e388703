"""Where an element's corners and edges lie (rules.md 9; SPEC.md "Tabletop").

``x``, ``y`` is the midpoint of the front edge, y to the north; ``facing`` is in degrees
clockwise from north.  Lengths in BW.  Every comparison uses ``TOL``: a point closer than that
to a line is on it (so a corner on the front line is not in front of it).
"""
from __future__ import annotations

import math

from shapely.geometry import LineString, Polygon

TOL = 1e-6            # BW: how near counts as "on" (exact geometry up to rounding)
ANGLE_TOL = 1e-4      # degrees: facings this close are the same facing

CORNERS = ("front-left", "front-right", "rear-right", "rear-left")


def forward(facing: float) -> tuple[float, float]:
    a = math.radians(facing)
    return math.sin(a), math.cos(a)


def rightward(facing: float) -> tuple[float, float]:
    a = math.radians(facing)
    return math.cos(a), -math.sin(a)


def corners(front_x: float, front_y: float, facing: float, depth: float, width: float = 1.0) -> dict:
    """The four corners by name (front-left, front-right, rear-right, rear-left) of an element
    whose front edge is centred on (front_x, front_y)."""
    fx, fy = forward(facing)
    rx, ry = rightward(facing)
    h = width / 2
    fl = (front_x - rx * h, front_y - ry * h)
    fr = (front_x + rx * h, front_y + ry * h)
    return {"front-left": fl, "front-right": fr,
            "rear-right": (fr[0] - fx * depth, fr[1] - fy * depth),
            "rear-left": (fl[0] - fx * depth, fl[1] - fy * depth)}


def rectangle(corners_by_name: dict) -> Polygon:
    return Polygon([corners_by_name[k] for k in CORNERS])


def front_edge(corners_by_name: dict) -> LineString:
    return LineString([corners_by_name["front-left"], corners_by_name["front-right"]])


def ahead_of(origin_x: float, origin_y: float, facing: float, point) -> float:
    """Signed distance of ``point`` in front of the line through (origin_x, origin_y) across ``facing``."""
    fx, fy = forward(facing)
    return (point[0] - origin_x) * fx + (point[1] - origin_y) * fy


def across(origin_x: float, origin_y: float, facing: float, point) -> float:
    """Signed distance of ``point`` to the right of the line through (origin_x, origin_y) along ``facing``."""
    rx, ry = rightward(facing)
    return (point[0] - origin_x) * rx + (point[1] - origin_y) * ry


def same_facing(facing: float, other_facing: float) -> bool:
    d = (facing - other_facing) % 360.0
    return min(d, 360.0 - d) <= ANGLE_TOL
