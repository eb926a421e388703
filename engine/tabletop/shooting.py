"""Which enemy element a shooter may shoot, which it must and who supports it (rules.md
9; seed ``004_*``, DBA 3.0 shooting); the order of the rolls is in ``rolls``.

Rule tags cited below and in the reasons: "DBA 3.0 pp. 35-36" (legal target, clear shot: the
rulebook pages the seed quotes), "DBA 3.0 priority" and "DBA 3.0 rear rank" (the third quote of
the seed), "seed ex. 1".. "seed ex. 5" (its worked examples, our cases S-01..S-06), shown to the
player as "shooting example 1".. "5".
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from shapely import STRtree
from shapely.geometry import LineString, Point, Polygon

from ..errors import ScenarioError
from . import terrain as ground
from .contact import CLOSE, close_combat
from .geometry import CORNERS, TOL, across, ahead_of, rectangle, same_facing
from .table import Element, Table
from .troops import TROOPS

LEGAL = "DBA 3.0 pp. 35-36"
CLEAR = "DBA 3.0 pp. 35-36"
RANGE = "DBA 3.0 range"
PRIORITY = "DBA 3.0 priority"
REAR = "DBA 3.0 rear rank"
GRID = 1e-9           # BW: the grid shot regions are snapped to (well under TOL)
GAP_BW = 1.0          # the shot needs a gap at least one element wide (DBA 3.0 pp. 35-36)


def fmt(value: float) -> str:
    return f"{round(value, 3):g}"


@dataclass
class TargetVerdict:
    target: str
    in_front: bool
    corners_in_front: int
    clear: bool
    in_range: bool
    visible: bool
    bisector_distance: float
    distance: float
    bearing: str                       # left | centre | right of the shooter's bisector
    blocked_by: tuple[str, ...] = ()
    narrow_gaps: tuple[tuple[str, str], ...] = ()
    in_close_combat: bool = False      # DBA 3.0 close combat: not shot at (contact)
    blocked_by_terrain: tuple[int, ...] = ()
    lines: tuple | None = None         # ((shooter corner, target corner), (.., ..)) when clear
    line_corners: tuple | None = None  # the corner names of those lines
    reasons: list[str] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return (self.in_front and self.clear and self.in_range and self.visible
                and not self.in_close_combat)

    def as_json(self) -> dict:
        return {
            "legal": self.legal, "in_front": self.in_front, "clear": self.clear,
            "in_range": self.in_range, "visible": self.visible,
            "bisector_distance": round(self.bisector_distance, 6),
            "distance": round(self.distance, 6), "bearing": self.bearing,
            "corners_in_front": self.corners_in_front,
            "in_close_combat": self.in_close_combat,
            "blocked_by": list(self.blocked_by), "blocked_by_terrain": list(self.blocked_by_terrain),
            "narrow_gaps": [list(g) for g in self.narrow_gaps],
            "lines": None if self.lines is None else [
                {"from": name[0], "to": name[1], "points": [list(map(_r, a)), list(map(_r, b))]}
                for (a, b), name in zip(self.lines, self.line_corners)],
            "reasons": list(self.reasons),
        }


def _r(v: float) -> float:
    return round(v, 6) + 0.0          # + 0.0: never print -0.0


class Shooting:
    """The shooting verdicts of one table (computed lazily, cached)."""

    def __init__(self, table: Table):
        self.table = table
        self.els = {e.id: e for e in table.elements}
        self.order = [e.id for e in table.elements]
        self.position = {i: k for k, i in enumerate(self.order)}
        self._front: dict[str, Element | None] = {}
        self.corners = {e.id: table.corners(e) for e in table.elements}
        self.shapes = {i: rectangle(c) for i, c in self.corners.items()}
        self.tree = STRtree([self.shapes[i] for i in self.order])
        xs = [p[0] for c in self.corners.values() for p in c.values()] or [0.0]
        ys = [p[1] for c in self.corners.values() for p in c.values()] or [0.0]
        self.reach = (max(xs) - min(xs)) + (max(ys) - min(ys)) + 10.0
        self._frames: dict[str, _Frame] = {}
        self._verdicts: dict[tuple[str, str], TargetVerdict] = {}
        self._must: dict[str, list[str]] = {}
        self.engaged = close_combat(table)        # DBA 3.0 close combat (contact)

    def frame(self, shooter: Element) -> "_Frame":
        f = self._frames.get(shooter.id)
        if f is None:
            f = self._frames[shooter.id] = _Frame(self, shooter)
        return f

    # -- who is who ---------------------------------------------------------------------------
    def element(self, element_id: str) -> Element:
        if element_id not in self.els:
            raise ScenarioError(f"no element {element_id!r} on the table (it has "
                                f"{', '.join(self.order) or 'none'})", file=self.table.file)
        return self.els[element_id]

    def enemies(self, shooter: Element) -> list[Element]:
        return [self.els[i] for i in self.order if self.els[i].side != shooter.side]

    def friends(self, shooter: Element) -> list[Element]:
        return [self.els[i] for i in self.order if self.els[i].side == shooter.side and i != shooter.id]

    def shooting_range(self, shooter: Element) -> tuple[float | None, str]:
        t = TROOPS[shooter.type]
        if shooter.id in self.engaged:
            return None, (f"{shooter.id} is in close combat with {', '.join(self.engaged[shooter.id])}:"
                          f" it does not shoot ({CLOSE})")
        if t.range_bw is None:
            return None, f"{shooter.id} ({t.name}) does not shoot ({RANGE})"
        if t.needs_still and shooter.moved:
            return None, f"{shooter.id} ({t.name}) moved this bound and may not shoot ({RANGE})"
        return t.range_bw, f"{shooter.id} ({t.name}) shoots {fmt(t.range_bw)} BW ({RANGE})"

    def front_rank(self, shooter: Element) -> Element | None:
        """The friendly archer directly in front of archer ``shooter`` (DBA 3.0 rear rank): same
        facing, its rear edge on the shooter's front edge, overlapping it by at least half a BW; followed
        to the front rank when ranks are deeper."""
        if shooter.id in self._front:
            return self._front[shooter.id]
        seen = {shooter.id}
        front = None
        cur = shooter
        while TROOPS[cur.type].archer:
            nxt = self._directly_in_front(cur)
            if nxt is None or nxt.id in seen:
                break
            seen.add(nxt.id)
            front = cur = nxt
        self._front[shooter.id] = front
        return front

    def _directly_in_front(self, shooter: Element) -> Element | None:
        best, best_overlap = None, 0.5 - TOL
        edge = LineString([self.corners[shooter.id]["front-left"], self.corners[shooter.id]["front-right"]])
        touching = [self.els[self.order[k]] for k in
                    sorted(self.tree.query(edge, predicate="dwithin", distance=1e-3))]
        for f in touching:
            if f.id == shooter.id or f.side != shooter.side:
                continue
            if not TROOPS[f.type].archer or not same_facing(f.facing, shooter.facing):
                continue
            rear = (self.corners[f.id]["rear-left"], self.corners[f.id]["rear-right"])
            if any(abs(ahead_of(shooter.x, shooter.y, shooter.facing, p)) > TOL for p in rear):
                continue
            lo, hi = sorted(across(shooter.x, shooter.y, shooter.facing, p) for p in rear)
            overlap = min(hi, 0.5) - max(lo, -0.5)
            if overlap > best_overlap:
                best, best_overlap = f, overlap
        return best

    # -- one shooter, one target (the shooter's own front) ---------------------------------------
    def verdict(self, shooter: Element, target: Element, *, need_clear: bool = True) -> TargetVerdict:
        key = (shooter.id, target.id)
        v = self._verdicts.get(key)
        if v is not None and (v.reasons or not need_clear):
            return v
        v = self._verdict(shooter, target, need_clear)
        self._verdicts[key] = v
        return v

    def _verdict(self, shooter: Element, target: Element, need_clear: bool) -> TargetVerdict:
        fr = self.frame(shooter)
        tc = fr.corners(target.id)
        shape = fr.shape(target.id)
        # DBA 3.0 pp. 35-36: at least two corners strictly in front of the line of its front
        ahead = [p[1] for p in tc.values()]
        n_front = sum(1 for a in ahead if a > TOL)
        in_front = n_front >= 2
        sides = [p[0] for p in tc.values()]
        bearing = "left" if max(sides) < -TOL else "right" if min(sides) > TOL else "centre"
        # DBA 3.0 priority: distance to the perpendicular bisector of the front, projected forward
        # (our reading: from the target's nearest point to that ray, 0 when the ray crosses it)
        bis = float(LineString([(0.0, 0.0), (0.0, self.reach)]).distance(shape))
        bis = 0.0 if bis <= TOL else bis
        # DBA 3.0 range, our reading: from the shooter's front edge to the target's nearest point
        dist = float(LineString([(-0.5, 0.0), (0.5, 0.0)]).distance(shape))
        dist = 0.0 if dist <= TOL else dist
        rng, rng_reason = self.shooting_range(shooter)
        in_range = rng is not None and dist <= rng + TOL
        v = TargetVerdict(target.id, in_front, n_front, False, in_range, target.visible, bis, dist, bearing,
                          in_close_combat=target.id in self.engaged)
        if not need_clear and not (in_front and in_range and target.visible and not v.in_close_combat):
            return v
        clear_reason = self._clear(shooter, target, v)
        r = v.reasons
        if in_front:
            r.append(f"{target.id} has {n_front} corners in front of the line of {shooter.id}'s front "
                     f"(at least two needed, {LEGAL})")
        else:
            on = sum(1 for a in ahead if abs(a) <= TOL)
            r.append(f"{target.id} has {'only ' if n_front else ''}{n_front} "
                     f"corner{'' if n_front == 1 else 's'} in front of the line of {shooter.id}'s front"
                     + (f" ({on} on it, which is not in front)" if on else "")
                     + f": not a legal target ({LEGAL})")
        r.append(clear_reason)
        if rng is None:
            r.append(rng_reason)
        elif in_range:
            r.append(f"{target.id} is {fmt(dist)} BW from {shooter.id}'s front edge: within its range of "
                     f"{fmt(rng)} BW ({RANGE})")
        else:
            r.append(f"{target.id} is {fmt(dist)} BW from {shooter.id}'s front edge: beyond its range of "
                     f"{fmt(rng)} BW ({RANGE})")
        if v.in_close_combat:
            r.append(f"{target.id} is in close combat with {', '.join(self.engaged[target.id])}: it is "
                     f"not shot at ({CLOSE})")
        if not target.visible:
            r.append(f"{target.id} is not visible: not a target, and it blocks no shot (our reading, "
                     "DBA 3.0 pp. 35-36)")
        r.append(f"{target.id} is {fmt(bis)} BW from the line square to the middle of {shooter.id}'s front"
                 f", on its {bearing} ({PRIORITY})" if bearing != "centre" else
                 f"{target.id} is {fmt(bis)} BW from the line square to the middle of {shooter.id}'s front"
                 f" ({PRIORITY})")
        return v

    def _blocks(self, shooter: Element, target: Element, i: str) -> bool:
        # DBA 3.0 pp. 35-36: friendly elements and visible enemy elements block
        e = self.els[i]
        return i != shooter.id and i != target.id and (e.side == shooter.side or e.visible)

    def _clear(self, shooter: Element, target: Element, v: TargetVerdict) -> str:
        """DBA 3.0 pp. 35-36: two lines, from the shooter's two front corners to two different
        corners of the target, that do not cross, with no blocking element between them, and a
        gap at least one element wide (our reading: two blocking elements less than 1 BW apart
        whose shortest connecting segments cross the region between the lines close it)."""
        frame = self.frame(shooter)
        tc = frame.corners(target.id)
        fl, fr = frame.corners(shooter.id)["front-left"], frame.corners(shooter.id)["front-right"]
        shape = frame.shape(target.id)
        ids, tree = frame.tree(everything=not v.in_range)
        options = []
        for ni, nj in itertools.permutations(CORNERS, 2):
            ci, cj = tc[ni], tc[nj]
            if LineString([fl, ci]).distance(LineString([fr, cj])) <= TOL:
                continue                                   # the lines cross (or touch)
            region = self._region(fl, fr, cj, ci)
            if region is None:
                continue
            near = [ids[k] for k in sorted(tree.query(region, predicate="dwithin",
                                                      distance=GAP_BW))]
            near = [i for i in near if self._blocks(shooter, target, i)]
            inside, gaps = [], []
            if near:
                inner = region.buffer(-TOL, join_style="mitre")
                if inner.is_empty:
                    continue
                inside = [i for i in near if inner.intersects(frame.shape(i))]
                if not inside:      # the gaps matter only to lines with nothing between them
                    gaps = self._narrow_gaps(frame, inner, near)
            hills = ground.blocking(self.table.terrain, frame.terrain(), region,
                                    frame.shape(shooter.id), shape) if self.table.terrain else []
            g = self.corners
            options.append(((len(inside) + len(hills), len(gaps)), -region.area, (ni, nj),
                            inside + hills, gaps,
                            ((g[shooter.id]["front-left"], g[target.id][ni]),
                             (g[shooter.id]["front-right"], g[target.id][nj]))))
        if not options:
            return (f"no two lines from {shooter.id}'s front corners reach two corners of {target.id} "
                    f"without crossing: no clear shot ({CLEAR})")
        fewest = min(o[0] for o in options)
        if fewest == (0, 0):
            best = min(options, key=lambda o: (o[0], o[1]))
            v.clear = True
            v.lines = best[5]
            v.line_corners = (("front-left", best[2][0]), ("front-right", best[2][1]))
            return (f"clear: the lines from {shooter.id}'s front-left corner to {target.id}'s "
                    f"{best[2][0]} corner and from its front-right corner to the "
                    f"{best[2][1]} corner have nothing between them ({CLEAR})")
        blocked, gaps = [], []
        for o in options:
            if o[0] == fewest:
                blocked += [i for i in o[3] if i not in blocked]
                gaps += [g for g in o[4] if g not in gaps]
        pieces = sorted(i for i in blocked if isinstance(i, int))
        blocked = [i for i in blocked if not isinstance(i, int)]
        v.blocked_by = tuple(sorted(blocked, key=self.position.__getitem__))
        v.blocked_by_terrain = tuple(pieces)
        v.narrow_gaps = tuple(gaps)
        parts = []
        named = list(v.blocked_by) + [ground.describe(self.table.terrain, i) for i in pieces]
        if named:
            parts.append(" or ".join(named) + (" lies" if len(named) == 1 else " lie")
                         + " between the lines")
        for a, b in gaps:
            d = self.shapes[a].distance(self.shapes[b])
            parts.append(f"the gap between {a} and {b} is {fmt(d)} BW, narrower than one "
                         "element")
        return (f"blocked: for every pair of lines from {shooter.id}'s front corners to {target.id}'s "
                f"corners, {'; '.join(parts)} ({CLEAR}"
                + (f"; terrain: {ground.TERRAIN_RULE}, our reading" if pieces else "") + ")")

    @staticmethod
    def _region(fl, fr, cj, ci) -> Polygon | None:
        """The region between the two lines, its corners on a fine grid (``GRID``) so that the
        same layout turned or mirrored gives the same shape (the shooter's frame): a sliver left
        by rounding becomes an exact spike, which buffer(0) removes.  None when the shape
        folds over itself."""
        if LineString([fl, fr]).crosses(LineString([cj, ci])):
            return None
        region = Polygon([fl, fr, cj, ci])
        if not region.is_valid:
            region = region.buffer(0)
        if region.geom_type != "Polygon" or region.area <= TOL:
            return None
        return region

    @staticmethod
    def _narrow_gaps(frame: "_Frame", inner, near: list[str]) -> list[tuple[str, str]]:
        out = []
        to_inner = {i: frame.shape(i).distance(inner) for i in near}
        for a, b in itertools.combinations(near, 2):
            if to_inner[a] + to_inner[b] >= GAP_BW - TOL:
                continue                # no path shorter than one element from a to b via it
            sa, sb = frame.shape(a), frame.shape(b)
            d = sa.distance(sb)
            if d >= GAP_BW - TOL or d <= TOL or to_inner[a] + to_inner[b] > d + 2 * TOL:
                continue                # wide, touching, or no shortest path through it
            # the passage between them: every point as near both as they are to each other
            # holds all their shortest connecting segments (parallel edges have many)
            passage = sa.buffer(d + TOL, join_style="mitre").intersection(
                sb.buffer(d + TOL, join_style="mitre"))
            if passage.intersects(inner):
                out.append((a, b))
        return out

    # -- the shooter's view: every enemy, its obligations ---------------------------------------
    def targets(self, shooter: Element) -> dict[str, TargetVerdict]:
        """Every enemy element as seen by ``shooter`` (a rear-rank archer sees as its front rank)."""
        f = self.front_rank(shooter)
        src = f if f is not None else shooter
        out = {}
        for t in self.enemies(shooter):
            v = self.verdict(src, t)
            if f is not None:
                v = TargetVerdict(**{**v.__dict__, "reasons": [
                    f"as {f.id}, the front-rank archer directly in front of {shooter.id}, at the same "
                    f"range ({REAR})"] + v.reasons})
            out[t.id] = v
        return out

    def must_shoot(self, shooter: Element) -> list[str]:
        """DBA 3.0 priority: the legal target(s) nearest the bisector of the front; several when
        they tie (the player chooses).  A rear-rank archer shoots as its front rank (REAR)."""
        if shooter.id in self._must:
            return self._must[shooter.id]
        f = self.front_rank(shooter)
        src = f if f is not None else shooter
        legal = []
        rng, _ = self.shooting_range(src)
        if rng is not None:
            edge = LineString([self.corners[src.id]["front-left"], self.corners[src.id]["front-right"]])
            near = self.tree.query(edge, predicate="dwithin", distance=rng + 1e-3)
            for k in sorted(near):
                t = self.els[self.order[k]]
                if t.side == shooter.side:
                    continue
                v = self.verdict(src, t, need_clear=False)
                if v.in_front and v.in_range and v.visible:
                    v = self.verdict(src, t)
                    if v.legal:
                        legal.append(v)
        out = []
        if legal:
            low = min(v.bisector_distance for v in legal)
            out = [v.target for v in legal if v.bisector_distance <= low + TOL]
        self._must[shooter.id] = out
        return out

    def supporters(self, shooter: Element, target_id: str) -> tuple[list[str], dict[str, str]]:
        """Friends that may shoot ``target_id`` too, supporting ``shooter`` (-1 each to its combat factor:
        the seed shows one supporter, each further one is our reading), and why each other shooting
        friend may not."""
        yes, no = [], {}
        for x in self.friends(shooter):
            rng, why = self.shooting_range(x)
            if rng is None and self.front_rank(x) is None:
                continue
            if target_id in self.must_shoot(x):
                yes.append(x.id)
                continue
            f = self.front_rank(x)
            if f is not None:
                no[x.id] = f"{x.id} is the rear rank of {f.id}, which does not shoot {target_id} ({REAR})"
                continue
            v = self.verdict(x, self.els[target_id])
            if not v.legal:
                fail = [r for r in v.reasons if "not a legal" in r or "beyond" in r
                        or "blocked" in r or "no two lines" in r or "not visible" in r
                        or "close combat" in r]
                no[x.id] = fail[0] if fail else f"{target_id} is no legal target of {x.id}"
            else:
                must = self.must_shoot(x)
                no[x.id] = (f"{x.id} must shoot {' or '.join(must)}, nearer the bisector of its "
                            f"front ({PRIORITY})")
        return yes, no

    def shot_at_by(self, shooter: Element) -> list[str]:
        # a rear-rank archer only supports the element in front of it (seed ex. 5): it does not
        # shoot on its own, so the shooter owes it no roll
        return [e.id for e in self.enemies(shooter)
                if self.front_rank(e) is None and shooter.id in self.must_shoot(e)]


class _Frame:
    """Elements in one shooter's own frame: x across its front (to its right), y ahead of it,
    origin at the middle of its front, on a grid of ``GRID`` BW.  The verdicts are computed here,
    so that moving, turning or mirroring the whole table gives the same numbers to the last bit
    (a mirror only flips the sign of x).  Shapes are made when asked; the search tree holds the
    elements near the shooter (enough for any target in range) or, when asked, all of them."""

    def __init__(self, shooting: Shooting, shooter: Element):
        self.sh, self.s = shooting, shooter
        self._corners: dict[str, dict] = {}
        self._shapes: dict[str, Polygon] = {}
        self._trees: dict[bool, tuple[list[str], STRtree]] = {}
        self._terrain = None

    def terrain(self) -> list:
        """The table's terrain pieces in this frame (``terrain.local_pieces``)."""
        if self._terrain is None:
            self._terrain = ground.local_pieces(self.sh.table.terrain, self._local)
        return self._terrain

    def _local(self, p):
        s = self.s
        return (round(across(s.x, s.y, s.facing, p) / GRID) * GRID + 0.0,
                round(ahead_of(s.x, s.y, s.facing, p) / GRID) * GRID + 0.0)

    def corners(self, i: str) -> dict:
        c = self._corners.get(i)
        if c is None:
            c = self._corners[i] = {k: self._local(p) for k, p in self.sh.corners[i].items()}
        return c

    def shape(self, i: str) -> Polygon:
        g = self._shapes.get(i)
        if g is None:
            g = self._shapes[i] = rectangle(self.corners(i))
        return g

    def tree(self, everything: bool) -> tuple[list[str], STRtree]:
        """(ids, tree): every element, or those that may matter to a target in range."""
        found = self._trees.get(everything)
        if found is None:
            rng, _ = self.sh.shooting_range(self.s)
            if everything or rng is None:
                ids = list(self.sh.order)
            else:
                reach = rng + 2.0 + GAP_BW + 1.0     # target corners, its gaps, a margin
                near = self.sh.tree.query(Point(self.s.x, self.s.y), predicate="dwithin",
                                          distance=reach)
                ids = [self.sh.order[k] for k in sorted(near)]
            found = self._trees[everything] = (ids, STRtree([self.shape(i) for i in ids]))
        return found
