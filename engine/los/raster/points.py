"""The points of one viewer's walk being judged, for the rule modules: ``Points`` (arrays
aligned, one entry per point), the ends of the lines (``Ends``), what each point measures
from them (``Measures``), and where the judged blocks are kept (``Marks``).  Built from the
walk (``walked_points``), a point between two hexes of a line along hexsides copied into both
(``along_copies``), and cut to the points any rule can judge (``table``)."""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import NamedTuple

import numpy as np

from .frame import Frame, hex_range, ranges_from
from .terrain import HEIGHT, inherent_instead


class Ends(NamedTuple):
    """The viewer (hex, elevation) and per line its target (hex, elevation) and whether it
    runs along hexsides."""
    viewer: int
    viewer_elev: int
    targets: np.ndarray
    target_elev: np.ndarray
    along: np.ndarray


class Measures(NamedTuple):
    """Per point: the higher and lower ends' elevations, the ranges from the viewer and from
    the point's target to the point's hex."""
    higher: np.ndarray
    lower: np.ndarray
    from_viewer: np.ndarray
    from_target: np.ndarray


@dataclass(slots=True)
class Points:
    """Per point: its hex (``map_hex``, -1 off the map; ``hex`` with off-map points at the
    void row), terrain ``code``, ``ground`` level, nearest ``side``, ``at_centre``,
    extended-border bits ``edge``, ``line``, its ``target``, ``on_map``, in an end's hex
    (``in_end``) or the viewer's (``in_viewer``); once cut to the candidates (``table``), the
    obstacle ``top``, the target's elevation and whether the line runs along hexsides.  Per
    line: the answers of the walk itself (``answer``, ``answer_hex``: ``kernel``)."""
    map_hex: np.ndarray
    hex: np.ndarray
    code: np.ndarray
    ground: np.ndarray
    side: np.ndarray
    at_centre: np.ndarray
    edge: np.ndarray
    line: np.ndarray
    target: np.ndarray
    on_map: np.ndarray
    in_end: np.ndarray
    in_viewer: np.ndarray
    answer: np.ndarray
    answer_hex: np.ndarray
    top: np.ndarray | None = None
    target_elev: np.ndarray | None = None
    along: np.ndarray | None = None

    def take(self, index: np.ndarray) -> Points:
        """The points at ``index`` (in that order)."""
        return Points(*(value if name in _PER_LINE or value is None else value[index]
                        for name, value in ((name, getattr(self, name)) for name in _FIELDS)))

    def judged(self, ends: Ends) -> Points:
        """With each point's obstacle ``top``, target elevation and ``along``."""
        return replace(self, top=self.ground + HEIGHT[self.code],
                       target_elev=ends.target_elev[self.line], along=ends.along[self.line])

    def measures(self, frame: Frame, ends: Ends) -> Measures:
        """The ends' elevations and ranges at each point (``Measures``)."""
        viewer = ends.viewer
        if frame.ranges is not None:
            from_viewer = frame.ranges[viewer][self.hex]
            from_target = frame.ranges[self.hex, self.target]
        else:
            from_viewer = ranges_from(frame, viewer, self.hex)
            from_target = hex_range(frame, self.hex, self.target)
        return Measures(np.maximum(ends.viewer_elev, self.target_elev),
                        np.minimum(ends.viewer_elev, self.target_elev), from_viewer, from_target)


class Marks:
    """Which points block (``block``), why the first reason met does (``why``), and the
    hexside terrain code of a hexside block (``side_of``)."""

    def __init__(self, count: int):
        self.block = np.zeros(count, dtype=bool)
        self.why = np.zeros(count, dtype=np.int8)
        self.side_of = np.zeros(count, dtype=np.int8)     # our hexside terrain code of a block

    def mark(self, cond: np.ndarray, reason: int) -> None:
        new = cond & ~self.block
        self.why[new] = reason
        self.block[:] |= cond


_FIELDS = tuple(f.name for f in fields(Points))
_PER_LINE = ("answer", "answer_hex")


def walked_points(frame: Frame, ends: Ends, walked) -> Points:
    """The points of the walk (``walk.walk``'s (class, line, answer hex, answer)) with what
    they are; a point in an end's extended border belongs to that end (VASL)."""
    cls, line, answer_hex, answer = walked
    viewer = ends.viewer
    map_hex = frame.cls_hex[cls]
    edge = frame.cls_edge[cls]
    target = ends.targets[line]
    on_map = map_hex >= 0
    hexes = np.where(on_map, map_hex, len(frame.q) - 1)
    in_viewer = map_hex == viewer
    in_end = in_viewer | (map_hex == target)
    # a point in an end's extended border belongs to that end (VASL)
    e = np.flatnonzero((edge != 0) & ~in_end & on_map)
    if len(e):
        neighbours = frame.neighbours[hexes[e]]                      # (k, 6)
        edge_bits = (edge[e][:, None] >> np.arange(6)[None, :]) & 1
        ends_there = (neighbours == viewer) | (neighbours == target[e][:, None])
        in_end[e[(ends_there & (edge_bits == 1)).any(axis=1)]] = True
        in_viewer[e[((neighbours == viewer) & (edge_bits == 1)).any(axis=1)]] = True
    return Points(map_hex=map_hex, hex=hexes, code=frame.cls_code[cls],
                  ground=frame.cls_level[cls], side=frame.cls_side[cls],
                  at_centre=frame.cls_centre[cls], edge=edge, line=line, target=target,
                  on_map=on_map, in_end=in_end, in_viewer=in_viewer, answer=answer,
                  answer_hex=answer_hex)


def along_copies(frame: Frame, ends: Ends, points: Points) -> Points:
    """A line along hexsides: of the ``points`` being judged, those between two hexes (at odd
    ranges, in both hexes' extended borders) judged as in both, each with its inherent centre
    terrain (VASL's checkLOSOnHexsideRule): a copy of each in the other hex, in the walk's
    order."""
    p, viewer = points, ends.viewer
    sel = np.flatnonzero(ends.along[p.line] & ~p.in_end & p.on_map & (p.edge != 0))
    both = sel[ranges_from(frame, viewer, p.hex[sel]) % 2 == 1]
    if not len(both):
        return p
    neighbours = frame.neighbours[p.hex[both]]
    edge_bits = ((p.edge[both][:, None] >> np.arange(6)[None, :]) & 1) == 1
    ok = (edge_bits & (neighbours >= 0) & (neighbours != viewer)
          & (neighbours != p.target[both][:, None]))
    has = ok.any(axis=1)
    both = both[has]
    k = np.argmax(ok[has], axis=1)
    other = neighbours[has, k]
    drawn = p.code[both]
    code = p.code.copy()
    code[both] = inherent_instead(frame.centre_code[p.hex[both]], drawn)
    copies = len(both)
    # the copy judged in the other hex (from its side of the shared hexside)
    extended = replace(
        p, map_hex=np.concatenate([p.map_hex, other]), hex=np.concatenate([p.hex, other]),
        code=np.concatenate([code, inherent_instead(frame.centre_code[other], drawn)]),
        ground=np.concatenate([p.ground, p.ground[both]]),
        side=np.concatenate([p.side, (k + 3) % 6]),
        at_centre=np.concatenate([p.at_centre, np.zeros(copies, dtype=bool)]),
        edge=np.concatenate([p.edge, np.zeros(copies, dtype=p.edge.dtype)]),
        line=np.concatenate([p.line, p.line[both]]),
        target=np.concatenate([p.target, p.target[both]]),
        on_map=np.concatenate([p.on_map, np.ones(copies, dtype=bool)]),
        in_end=np.concatenate([p.in_end, np.zeros(copies, dtype=bool)]),
        in_viewer=np.concatenate([p.in_viewer, np.zeros(copies, dtype=bool)]))
    # each copy right after its point: the walk's order (both is ascending)
    count = len(p.code)
    shift = np.zeros(count + 1, dtype=np.int64)
    shift[both + 1] = 1
    shift = np.cumsum(shift[:count])           # copies before each point
    order = np.empty(count + copies, dtype=np.int64)
    order[np.arange(count) + shift] = np.arange(count)
    order[both + np.arange(1, copies + 1)] = np.arange(count, count + copies)
    return extended.take(order)
