"""Daytime LOS over the terrain as drawn (A6, VASL's point rules), for boards with a raster.

On a map whose boards all carry a raster (``engine.raster_file``: terrain and ground level of
every pixel; pasted into the map's pixel frame by ``frame``), the line from centre dot
to centre dot is walked pixel by pixel as VASL's ``Map.LOS`` walks it (one pixel column at a
time, every pixel row between the line's entry and exit of the column), and every point is
judged by VASL's per-point rules, in numpy for all the lines of one viewer at once:

- A6.2: ground higher than both ends blocks; an obstacle (its ground + height) higher than both
  ends blocks, a hindrance there adds a hindrance; an obstacle as high as the higher end and
  above the lower blocks ("no height advantage").
- A6.4 / B10.23: between the two ends' elevations, an obstacle or a bare crest leaves the lower
  end blind when D <= max(2 top + R//5 - hi - lo + 1, 1) (an obstacle, or a cliff hexside) or
  D <= max(2 top + R//5 - hi - lo, 0) (a crest), R the range from the higher end to the point's
  hex and D from it to the lower end; a hindrance there adds a hindrance.
- Half-level terrain (B24.1 rubble, walls...: VASL's isHalfLevelHeight) at the ground level of
  both ends blocks (obstacle) or hinders.
- Split terrain (orchards, A6.1 / B14.2): with both ends at its ground level its lower part
  rules: a hindrance (or an obstacle); otherwise the whole height.
- B9.2 hexside terrain (walls, hedges) blocks a line whose ends are both at its ground level,
  unless it is on an end's own hexsides, hexspines, or in a hex next to an end where the
  hexside's location holds no hexside terrain (VASL's isIgnorableHexsideTerrain); B9.52 bocage
  is an obstacle judged by A6.2 and A6.4.
- A6.8 Example 2: a line from a building to a location of another elevation must leave the
  building before it leaves the viewer's hex (VASL: whatever the target).
- Inherent terrain (orchard trees, rubble...) drawn over into another hex does not count there.
- A6.1: hindrances count once per range from the viewer; six block.
- A6.3: from a depression (gully, stream, sunken road) to a location not higher by more than
  the range, every point where the range to the target exceeds the target's height above the
  viewer must follow the depression (or lie no higher than the viewer); into one alike from
  the other end; B19.51 a crest line at the vertex a line along hexsides leaves or enters a
  depression by (VASL's depression restriction, ``depressions``).

Of a line's points only those that can block or hinder are judged, and a line's walk ends at
a point sure to block it; a line blocked at the first point any rule could judge is answered by
the walk itself (the compiled walk: ``kernel``, which says which points each line keeps).
The hexes of the two ends are not judged (only their hexside terrain and A6.3); a point
within an end's extended border (VASL: the hex one pixel larger, java.awt.Polygon's rule)
belongs to that end.  A line along hexsides (level, or within VASL's
tolerance of 60 degrees) is judged where it lies between two hexes as in both, each with its
inherent centre terrain; for such lines VASL's table of hexside terrain at the far end of the
hexspine is followed.  Apart: rowhouse and factory walls (B23.71 / O5.31, ``rowhouse``),
lines along cliffs and slopes to the higher end (``cliffs``), under bridges (B6,
``bridges``); A6.3 is ``depressions``, B9.2 ``hexsides``, the height rules ``heights``.
Not followed: bridges' other rules, hillocks and slopes, bocage on a hexspine (ignored like
a wall), entrenchments, counters (smoke, vehicles); a point not in an end's border is in the
hex whose centre is nearest (VASL's gridToHex splits columns in thirds), but where VASL finds
no hex (its outlines rounded apart, ``hexless``) the line ends there, clear with what it met
before (VASL's Map.LOS); the walk's rows use
exact products where VASL adds the rise column by column.
The answer is the hex model's ``DayLines`` (blocked, the hex and the rule), read unchanged by
the night layer, the LOS thread and the precomputed tables.
"""
from __future__ import annotations

import numpy as np

from ...errors import ScenarioError
from ...maps import Map
from ..day_lines import (
    BUILDING_EXIT,
    CLEAR,
    DEPRESSION,
    EQUAL,
    HIGHER,
    HILL,
    HINDRANCES,
    MAX_HINDRANCES,
    DayLines,
)
from ..hex_table import LosTable
from .bridges import near_bridges
from .depressions import depression_blocks
from .frame import along_hexsides, build_frame, hex_range, map_rasters
from .heights import height_blocks
from .hexsides import hexside_blocks
from .points import Ends, Marks, Points, along_copies, walked_points
from .rowhouse import rowhouse_blocks
from .terrain import (
    BRIDGE_T,
    BUILDING_T,
    BUILDING_TERRAIN_T,
    HALF_LEVEL,
    HEXSIDE_T,
    IN_BUILDING_T,
    LIGHT_WOODS_T,
    OUR_HEXSIDE,
    SPLIT,
)
from .walk import ReversibleWalks, hexless_in_reach, line_modes, walk


class RasterLosTable(LosTable):
    """``LosTable`` whose lines are judged on the map's rasters (see the module doc): its
    ``frame`` (``frame.Frame``) built once, the rules' modules called on each viewer's
    points."""
    # VASL judges A6.3, A6.8 and B6 from the viewer: a line can be clear one way only
    ground_lines_symmetric = False

    def __init__(self, game_map: Map, rasters, cache_size: int | None = None):
        super().__init__(game_map, cache_size)
        self.frame = build_frame(game_map, rasters)
        self._reversible = ReversibleWalks(self.frame.width)
        # the compiled walk loaded now for this frame's types (no line walked)
        none = np.zeros(0, dtype=np.int64)
        self._walk(0, 0, none, none, none, np.zeros(0, dtype=np.uint8))

    def _walk(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray, threshold: np.ndarray, mode: np.ndarray):
        """The walk of a viewer's lines (``walk.walk``)."""
        return walk(self.frame, viewer, viewer_elev, targets, target_elev, threshold, mode)

    def mirrors(self, viewer: int, targets: np.ndarray, clear: np.ndarray, kind: np.ndarray,
                hindrances: np.ndarray) -> np.ndarray:
        """Which ground-level lines from ``viewer`` (answered ``clear``, ``kind``,
        ``hindrances``) answer the lines back too: the walk back visits the same pixels
        (``kernel``) and no pixel in no hex (VASL) is within its reach, no end in a
        depression (A6.3) nor in a building with the other end
        at another level (A6.8), no bridge near the line (B6), not along hexsides, no end's
        centre on the frame's top row, and clear without a hindrance or blocked by more than
        hindrances (A6.1: by range from the viewer).  Each point's rule is alike both ways."""
        frame = self.frame
        targets = np.asarray(targets, dtype=np.int64)
        dx = frame.centre_x[targets] - frame.centre_x[viewer]
        dy = frame.centre_y[targets] - frame.centre_y[viewer]
        same = self._reversible(dx, dy)
        building = BUILDING_T[frame.centre_code[:-1]]
        other_level = frame.ground[targets] != frame.ground[viewer]
        ok = (same & ~frame.depression[targets]
              & ~((building[viewer] | building[targets]) & other_level)
              & ~along_hexsides(frame, viewer, targets) & (frame.centre_y[targets] != 0)
              & ~near_bridges(frame, viewer, targets)           # B6: judged from one end
              & ~hexless_in_reach(frame, viewer, targets))      # ends in no hex (VASL)
        if frame.depression[viewer] or frame.centre_y[viewer] == 0:
            ok[:] = False
        return ok & ((clear & (hindrances == 0)) | (~clear & (kind != HINDRANCES)))

    # ---------------------------------------------------------------------------- the rules
    def lines(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray) -> DayLines:
        targets = np.asarray(targets, dtype=np.int64)
        target_elev = np.asarray(target_elev, dtype=np.int64)
        n = len(targets)
        viewer_elev = int(viewer_elev)
        clear = np.ones(n, dtype=bool)
        kind = np.zeros(n, dtype=np.int8)
        block_h1 = np.full(n, -1, dtype=np.int64)
        block_h2 = np.full(n, -1, dtype=np.int64)
        block_side = np.zeros(n, dtype=np.int8)
        hindrances = np.zeros(n, dtype=np.int64)
        todo = np.flatnonzero(targets != viewer)
        for part in line_chunks(self.frame, viewer, targets[todo]):
            some = todo[part]
            (clear[some], kind[some], block_h1[some], block_h2[some], block_side[some],
             hindrances[some]) = self._judge(viewer, viewer_elev, targets[some],
                                             target_elev[some])
        return DayLines(viewer, viewer_elev, targets, target_elev, clear, kind, block_h1,
                        block_h2, hindrances, block_side)

    def _judge(self, viewer: int, viewer_elev: int, targets: np.ndarray,
               target_elev: np.ndarray):
        """Every point of every line walked and judged (see the module doc): (clear, kind, hex,
        hex across, hexside code, hindrances) per line."""
        frame = self.frame
        # a line along hexsides (VASL: horizontal, or within a tolerance of 60 degrees): at odd
        # ranges its points lie between two hexes, and each is judged as in both, with a hex's
        # inherent centre terrain (orchard, jungle...) standing for what is drawn there
        along = along_hexsides(frame, viewer, targets)
        ends = Ends(viewer, viewer_elev, targets, target_elev, along)
        points = walked_points(frame, ends, self._walk(
            viewer, viewer_elev, targets, target_elev,
            *line_modes(frame, viewer, viewer_elev, targets, target_elev, along)))
        if along.any():
            points = along_copies(frame, ends, points)
        points, building, depression, depression_skip = _candidates(frame, ends, points)
        measures = points.measures(frame, ends)
        marks = Marks(len(points.code))
        if depression is not None:                        # A6.3, found above
            marks.mark(depression, DEPRESSION)
        if building is not None:                          # A6.8, found above
            marks.mark(building, BUILDING_EXIT)
        blocks, hexside = hexside_blocks(frame, ends, points, measures)     # B9.2 / B9.52
        for cond, reason in blocks:
            marks.mark(cond, reason)
        if hexside is not None:
            marks.side_of[hexside] = OUR_HEXSIDE[points.code[hexside]]
        blocks = rowhouse_blocks(frame, ends, points, measures)            # B23.71 / O5.31
        if blocks:
            walls = np.logical_or.reduce([cond for cond, _ in blocks]) & ~marks.block
            for cond, reason in blocks:
                marks.mark(cond, reason)
            marks.side_of[walls] = OUR_HEXSIDE[points.code[walls]]
        blocks, hinders = height_blocks(frame, ends, points, measures, depression_skip)
        for cond, reason in blocks:
            marks.mark(cond, reason)
        # A6.1: a hindrance counts between the ends, once per range from the viewer
        line_range = (frame.ranges[viewer][targets] if frame.ranges is not None
                      else hex_range(frame, np.full(len(targets), viewer), targets))
        line_range = line_range[points.line]
        hinders &= (measures.from_viewer < line_range) & (measures.from_target < line_range)
        # a Light Woods hex hinders as two, but on a line along hexsides at an odd range
        # (rules.md 11.2; VASL's Map.addHindranceHex)
        weight = 1 + (LIGHT_WOODS_T[points.code]
                      & ~(ends.along[points.line] & (measures.from_viewer % 2 == 1)))
        out = _first_blocks(frame, points, marks, hinders, len(targets), measures.from_viewer,
                            weight)
        # the lines the walk answered (A6.2, A6.8): no point kept, blocked where it ended
        done = np.flatnonzero(points.answer)
        clear, kind, where, across, block_side, hindrances = out
        clear[done] = False
        kind[done] = np.array([CLEAR, HILL, HIGHER, EQUAL, BUILDING_EXIT],
                              dtype=np.int8)[points.answer[done]]
        where[done] = across[done] = points.answer_hex[done]
        block_side[done] = 0
        hindrances[done] = 0
        return out


POINT_BUDGET = 2_000_000    # the walk's points judged at once (memory bounded whatever the map)


def line_chunks(frame, viewer: int, targets: np.ndarray) -> list[slice]:
    """The viewer's lines in runs whose walks hold about ``POINT_BUDGET`` points at most (a
    line walks |dx| + |dy| + 2 pixels at most); each line is judged alone, so the answers do
    not depend on the runs."""
    if not len(targets):
        return []
    length = (np.abs(frame.centre_x[targets] - frame.centre_x[viewer])
              + np.abs(frame.centre_y[targets] - frame.centre_y[viewer]) + 2)
    ends = np.cumsum(length)
    cuts = np.searchsorted(ends, np.arange(POINT_BUDGET, int(ends[-1]), POINT_BUDGET),
                           side="right")
    bounds = np.unique(np.concatenate([[0], np.maximum(cuts, 1), [len(targets)]]))
    return [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]


def _candidates(frame, ends: Ends, points: Points):
    """Only points that can block or hinder are judged: above the lower end, hexside terrain,
    half-level or split terrain at its level, A6.3's and A6.8's points: (``points`` cut to
    them, with ``top``, target elevation and ``along``; A6.8's blocks, A6.3's blocks, A6.3's
    points the height rule leaves alone), None when none apply."""
    viewer_elev = ends.viewer_elev
    points = points.judged(ends)
    code, ground, top = points.code, points.ground, points.top
    lower = np.minimum(viewer_elev, points.target_elev)
    candidate = ((top > lower) | HEXSIDE_T[code] | (HALF_LEVEL[code] & (top == lower))
                 | (SPLIT[code] & (ground == lower)) | BRIDGE_T[code])
    depression, depression_skip = depression_blocks(frame, ends, points)
    if depression is not None:
        candidate |= depression
    building = None
    if BUILDING_T[frame.centre_code[ends.viewer]]:
        # A6.8 Example 2: leave the building before leaving the viewer's hex (to another
        # elevation, whatever the target: VASL)
        order = np.arange(len(code))
        first_out = np.full(len(ends.targets), len(code), dtype=np.int64)
        out = np.flatnonzero(~IN_BUILDING_T[code])
        np.minimum.at(first_out, points.line[out], order[out])
        building = ((order < first_out[points.line]) & ~points.in_viewer
                    & BUILDING_TERRAIN_T[code] & (viewer_elev != points.target_elev)
                    & (top >= viewer_elev))
        candidate |= building
    if candidate.all():                 # (nothing to cut)
        return points, building, depression, depression_skip
    keep = np.flatnonzero(candidate)
    if building is not None:
        building = building[keep]
    if depression is not None:
        depression, depression_skip = depression[keep], depression_skip[keep]
    return points.take(keep), building, depression, depression_skip


def _first_blocks(frame, points: Points, marks: Marks, hinders, n: int, from_viewer, weight):
    """Each line's first block, or its sixth hindrance when that comes first (A6.1): a range
    from the viewer counts the largest ``weight`` of its hindering points (VASL's
    LOSResult.addMapHindrance); (clear, kind, hex, hex across, hexside code, hindrances)."""
    line, map_hex, hexes, side = points.line, points.map_hex, points.hex, points.side
    block, why, side_of = marks.block, marks.why, marks.side_of
    count = len(points.code)
    order = np.arange(count)
    first = np.full(n, count, dtype=np.int64)
    blocking = np.flatnonzero(block)
    np.minimum.at(first, line[blocking], order[blocking])
    hindering = np.flatnonzero(hinders & (order < first[line]))
    hindrances = np.zeros(n, dtype=np.int64)
    sixth = np.full(n, -1, dtype=np.int64)
    if len(hindering):
        key, inverse = np.unique(line[hindering] * 4096
                                 + np.minimum(from_viewer[hindering], 4095), return_inverse=True)
        key_weight = np.zeros(len(key), dtype=np.int64)
        np.maximum.at(key_weight, inverse, weight[hindering])
        key_line = key // 4096
        hindrances = np.bincount(key_line, weights=key_weight, minlength=n).astype(np.int64)
        # where the sixth counts: the range at which the line's count reaches six
        total = np.cumsum(key_weight)
        start = np.searchsorted(key_line, key_line)
        so_far = total - (total[start] - key_weight[start])
        reach = (so_far >= MAX_HINDRANCES) & (so_far - key_weight < MAX_HINDRANCES)
        sixth[key_line[reach]] = key[reach] % 4096
    six = hindrances >= MAX_HINDRANCES
    blocked = (first < count) | six
    kind = np.zeros(n, dtype=np.int8)
    where = np.full(n, -1, dtype=np.int64)
    blocked_lines = np.flatnonzero(first < count)
    kind[blocked_lines] = why[first[blocked_lines]]
    where[blocked_lines] = map_hex[first[blocked_lines]]
    across = where.copy()
    block_side = np.zeros(n, dtype=np.int8)
    block_side[blocked_lines] = side_of[first[blocked_lines]]
    hexside_lines = blocked_lines[block_side[blocked_lines] > 0]
    across[hexside_lines] = frame.neighbours[hexes[first[hexside_lines]],
                                             side[first[hexside_lines]]]
    if six.any():
        # the sixth hindrance blocks first when it comes before the block: each line's first
        # hindering point at the sixth's range (one pass over the points, whatever the lines)
        hindering = np.flatnonzero(hinders & six[line])
        hit = hindering[from_viewer[hindering] == sixth[line[hindering]]]
        lines_hit, at_first = np.unique(line[hit], return_index=True)
        at = hit[at_first]
        before = (first[lines_hit] == count) | (at < first[lines_hit])
        lines_hit, at = lines_hit[before], at[before]
        kind[lines_hit] = HINDRANCES
        where[lines_hit] = across[lines_hit] = map_hex[at]
        block_side[lines_hit] = 0
    kind[~blocked] = CLEAR
    return (~blocked, kind, where, across, block_side,
            np.minimum(hindrances, MAX_HINDRANCES))


def raster_table(game_map: Map) -> RasterLosTable | None:
    """The raster LOS table of a map whose boards all carry rasters (else None)."""
    try:
        rasters = map_rasters(game_map)
    except ScenarioError:               # a raster file gone or damaged: the hex model answers
        return None
    if rasters is None:
        return None
    try:
        return RasterLosTable(game_map, rasters)
    except ValueError:
        return None
