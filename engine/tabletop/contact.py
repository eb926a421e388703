"""Which elements are in close combat (rules.md 10: DBA 3.0, not in the seed, lets no element in
close combat shoot or be shot at).  Rule tag: "DBA 3.0 close combat".

Our reading of "in close combat": an element whose front edge touches an enemy's base along a
stretch of edge (not at a corner only), and that enemy.  Kept apart from the seed's rules.
"""
from __future__ import annotations

from shapely import STRtree
from shapely.geometry import LineString

from .geometry import TOL, front_edge, rectangle

CLOSE = "DBA 3.0 close combat"


def close_combat(table) -> dict[str, list[str]]:
    """For every element in close combat, the enemies it is in contact with (table order)."""
    els = list(table.elements)
    corners = [table.corners(e) for e in els]
    shapes = [rectangle(c) for c in corners]
    tree = STRtree(shapes)
    out: dict[str, list[str]] = {}
    for i, e in enumerate(els):
        edge: LineString = front_edge(corners[i])
        for j in sorted(tree.query(edge, predicate="dwithin", distance=TOL)):
            o = els[int(j)]
            if o.side == e.side:
                continue
            touch = edge.intersection(shapes[int(j)].buffer(TOL, join_style="mitre"))
            if touch.length > 10 * TOL:
                for a, b in ((e.id, o.id), (o.id, e.id)):
                    if b not in out.setdefault(a, []):
                        out[a].append(b)
    order = {e.id: k for k, e in enumerate(els)}
    return {k: sorted(v, key=order.__getitem__) for k, v in out.items()}
