"""Daytime LOS over the terrain as drawn (A6, VASL's point rules), for boards with a raster.

On a map whose boards all carry a raster (``engine.raster``: terrain and ground level of every
pixel), the line from centre dot to centre dot is walked pixel by pixel as VASL's ``Map.LOS``
walks it (one pixel column at a time, every pixel row between the line's entry and exit of the
column), and every point is judged by VASL's per-point rules, in numpy for all the lines of one
viewer at once:

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
- A6.8: a line from a building to a building location of another elevation must leave the
  building before it leaves the viewer's hex.
- Inherent terrain (orchard trees, rubble...) drawn over into another hex does not count there.
- A6.1: hindrances count once per range from the viewer; six block.

- A6.3: from a depression (gully, stream, sunken road) to a location it may not see over the
  edge, the line must stay in the depression until a hex lifts the restriction; into one from
  above by less than the range, it must be in the depression where the range exceeds the level
  difference (VASL's depression restriction).

The hexes of the two ends are not judged (only their hexside terrain and A6.3); a point within
an end's extended border (VASL: the hex one pixel larger, java.awt.Polygon's rule) belongs to
that end.  A line along hexsides (level, or within VASL's tolerance of 60 degrees) is judged
where it lies between two hexes as in both, each with its inherent centre terrain; for such
lines VASL's table of hexside terrain at the far end of the hexspine is followed.

Not followed: bridges, hillocks and slopes, rowhouse walls' own rule (they are obstacles here),
bocage on a hexspine (ignored here like a wall), entrenchments and counters (smoke, vehicles);
a point not in an end's border is in the hex whose centre is nearest (VASL's gridToHex splits
columns in thirds), and the walk's rows use exact products where VASL adds the rise column by
column.

The answer is the hex model's ``DayLines`` (blocked, the hex and the rule), so the night layer,
the LOS thread and the precomputed tables read it unchanged.
"""
from __future__ import annotations

import numpy as np

from .errors import ScenarioError
from .hexes import SQRT3
from .los import (
    BLIND,
    CLEAR,
    DEPRESSION,
    EQUAL,
    HALF,
    HIGHER,
    HILL,
    HINDRANCES,
    WALL,
    DayLines,
    LosTable,
)
from .maps import Map
from .raster import board_raster, terrain_table
from .terrain import HEXSIDES

MAX_HINDRANCES = 6          # A6.1
MAX_MAP_PIXELS = 40_000_000  # the map's pixel frame (boards side by side)
MAX_RANGE_TABLE = 4000       # hexes: ranges kept as a table (int16, 32 MB at most)
MAX_PATTERN_POINTS = 30_000_000  # walks kept (int32 offsets, 120 MB): beyond, start again

# ------------------------------------------------------------------ terrain properties by code
_T = terrain_table()


def _prop(f) -> np.ndarray:
    a = np.zeros(256, dtype=bool)
    for code, t in _T.items():
        a[code] = bool(f(t))
    return a


OBSTACLE = _prop(lambda t: t.obstacle)
HINDRANCE = _prop(lambda t: t.hindrance)
HALF_LEVEL = _prop(lambda t: t.half_level)
INHERENT = _prop(lambda t: t.inherent)
SPLIT = _prop(lambda t: t.split)
LOWER_OBSTACLE = _prop(lambda t: t.lower_obstacle)
LOWER_HINDRANCE = _prop(lambda t: t.lower_hindrance)
HEXSIDE_T = _prop(lambda t: t.category == "HEXSIDE")
CLIFF_T = _prop(lambda t: t.name == "Cliff")
BOCAGE_T = _prop(lambda t: t.name == "Bocage")
BUILDING_T = _prop(lambda t: t.category == "BUILDING" and "Rowhouse" not in t.name)
OUT_OF_SEASON = _prop(lambda t: t.name == "Orchard, Out of Season")
WATER_T = _prop(lambda t: t.category == "WATER")
DEPRESSION_T = _prop(lambda t: t.category == "DEPRESSION")
# VASL's hexside terrain as ours (terrain.HEXSIDES), for the explanation of a block
OUR_HEXSIDE = np.zeros(256, dtype=np.int8)
for _c, _t in _T.items():
    if _t.category == "HEXSIDE" and _t.name != "Cliff":
        _name = {"Hedge": "hedge", "Bocage": "bocage", "Cactus Hedge": "cactus_hedge"}.get(
            _t.name, "wall")
        if _name in HEXSIDES:
            OUR_HEXSIDE[_c] = HEXSIDES[_name].code
_DENSE_JUNGLE = next(c for c, t in _T.items() if t.name == "Dense Jungle")
_BAMBOO = next(c for c, t in _T.items() if t.name == "Bamboo")
HEIGHT = np.zeros(256, dtype=np.int64)
for _c, _t in _T.items():
    HEIGHT[_c] = _t.height


def map_rasters(m: Map):
    """The rasters of every board of the map (turned as placed), or None if one has none or
    they disagree on the hex spacing."""
    out = []
    for p in m.placements:
        r = board_raster(p.board)
        if r is None:
            return None
        out.append(r.rotated() if p.rotated else r)
    g = {r.geometry for r in out}
    if len(g) != 1:
        return None
    return out


class RasterLosTable(LosTable):
    """``LosTable`` whose lines are judged on the map's rasters (see the module doc)."""

    def __init__(self, game_map: Map, rasters, cache_size: int | None = None):
        super().__init__(game_map, cache_size)
        m = game_map
        a1x, a1y, hw, hh = rasters[0].geometry
        self.geometry = (a1x, a1y, hw, hh)
        # the map's pixel frame: every board pasted at its slot's origin
        offs = []
        for (ox, oy) in m.origins:
            X0, Y0 = ox * hw, oy * hh
            if X0 != int(X0) or Y0 != int(Y0):
                raise ValueError("boards off the pixel grid")
            offs.append((int(X0), int(Y0)))
        W = max(o[0] + r.shape[1] for o, r in zip(offs, rasters))
        H = max(o[1] + r.shape[0] for o, r in zip(offs, rasters))
        if W * H > MAX_MAP_PIXELS:
            raise ValueError("map too large for its rasters")
        terr = np.zeros((H, W), dtype=np.uint8)
        lev = np.zeros((H, W), dtype=np.int8)
        covered = np.zeros((H, W), dtype=bool)
        for (X0, Y0), r in zip(offs, rasters):
            h, w = r.shape
            terr[Y0:Y0 + h, X0:X0 + w] = r.terrain
            lev[Y0:Y0 + h, X0:X0 + w] = r.level
            covered[Y0:Y0 + h, X0:X0 + w] = True
        self.W, self.H = W, H
        self.terr = terr.ravel()
        self.lev = lev.ravel().astype(np.int64)
        # the hex (map index) of every pixel, its nearest hexside and whether the centre is its
        # nearest location (VASL's Hex.getNearestLocation)
        hexi, side, at_centre = _pixel_hexes(m, W, H, self.geometry)
        hexi[~covered.ravel()] = -1
        # the neighbours (bits 0..5) whose extended border holds the pixel too
        edge = _extended_borders(m, hexi, W, H, self.geometry)
        # pixels of one hex, terrain, level and nearest location are judged alike: classes
        key = (((hexi + 1) * 256 + terr.ravel()) * 64 + (lev.ravel().astype(np.int64) + 32)) \
            * 1024 + edge.astype(np.int64) * 16 + side * 2 + at_centre
        uniq, inv = np.unique(key, return_inverse=True)
        self.pix_cls = inv.astype(np.int32)
        at_c = (uniq % 2).astype(bool)
        self.cls_side = (uniq // 2) % 8
        self.cls_edge = ((uniq // 16) % 64).astype(np.int64)
        rest = uniq // 1024
        self.cls_lev = (rest % 64) - 32
        rest //= 64
        self.cls_code = (rest % 256).astype(np.int64)
        self.cls_hex = rest // 256 - 1
        self.cls_centre = at_c
        # hex centres in pixels (VASL's LOS point: truncated), and the terrain there
        cx = a1x + hw * m.col
        cy = a1y + hh * (m.row - 1 + (m.col % 2)) - hh / 2 * (m.col % 2)
        self.cx = np.clip(cx.astype(np.int64), 0, W - 1)
        self.cy = np.clip(cy.astype(np.int64), 0, H - 1)
        # the terrain of each hex's centre location (VASL's Hex.resetTerrain): at its sample
        # point next to the dot, unless inherent terrain (orchard trees, rubble...) lies nearer
        # the centre than any hexside location: then that
        px = np.clip(self.cx + 1, 0, W - 1)
        py = np.clip(self.cy - 1, 0, H - 1)
        centre = self.terr[py * W + px].astype(np.int64)
        sel = np.flatnonzero(at_centre & INHERENT[self.terr] & (hexi >= 0))
        if len(sel):
            votes = np.bincount(hexi[sel] * 256 + self.terr[sel],
                                minlength=m.size * 256).reshape(m.size, 256)
            has = votes.max(axis=1) > 0
            centre = np.where(has, votes.argmax(axis=1), centre)
        self.centre_code = np.append(centre, 0)
        # the terrain at each hexside's location point (its middle), per hex and side
        k = np.arange(6)
        ang = np.radians(60.0 * k)
        mx = cx[:, None] + np.sin(ang)[None, :] * (SQRT3 / 2) * hw / 1.5
        my = cy[:, None] - np.cos(ang)[None, :] * (SQRT3 / 2) * hh / SQRT3
        mx = np.clip(mx.astype(np.int64), 0, W - 1)
        my = np.clip(my.astype(np.int64), 0, H - 1)
        self.side_code = self.terr[my * W + mx]              # (n, 6)
        self.nb = np.vstack([m.neighbours, np.full((1, 6), -1, np.int64)])   # -1 row: none
        cliff = np.zeros((m.size + 1, 6), dtype=bool)
        if "cliff" in HEXSIDES:
            cliff[:-1] = m.hexside == HEXSIDES["cliff"].code
        self.cliff_side = cliff
        # hexes whose centre is depression terrain (gully, stream, sunken road: A6.3)
        self.depression = np.append(DEPRESSION_T[self.centre_code[:-1]], False)
        # hexside terrain on each side of each hex (VASL's Hex.getHexsideTerrain): imported, or
        # drawn at the side's middle
        st = np.zeros((m.size + 1, 6), dtype=bool)
        st[:-1] = (m.hexside != 0) | HEXSIDE_T[self.side_code]
        self.side_terrain = st
        self.qa = np.append(m.q, 0)
        self.ra = np.append(m.r, 0)
        # ranges between hexes, looked up (the last row and column: off the map)
        self.D = None
        if m.size <= MAX_RANGE_TABLE:
            idx = np.arange(m.size + 1)
            self.D = self._dist(idx[:, None], idx[None, :]).astype(np.int16)
        self._patterns: dict = {}        # (dx, dy) -> the walk's pixel offsets (_walk_offsets)
        self._pattern_points = 0


    # ---------------------------------------------------------------------------- the walk
    def _walk(self, viewer: int, targets: np.ndarray):
        """Every point of every line (VASL's walk), as the pixel classes met in turn (runs of
        one class kept once): (class, line)."""
        sx, sy = int(self.cx[viewer]), int(self.cy[viewer])
        dx = self.cx[targets] - sx
        dy = self.cy[targets] - sy
        keys = (dx * 65536 + dy).tolist()
        pats = self._patterns
        missing = sorted({k for k in keys if k not in pats})
        if missing:
            if self._pattern_points > MAX_PATTERN_POINTS:
                pats.clear()
                self._pattern_points = 0
                missing = sorted(set(keys))
            mk = np.array(missing, dtype=np.int64)
            mdx = (mk + 32768) // 65536
            for key, offsets in zip(missing, _walk_offsets(mdx, mk - mdx * 65536, self.W)):
                pats[key] = offsets
                self._pattern_points += len(offsets)
        parts = [pats[k] for k in keys]
        lens = np.fromiter((len(p) for p in parts), dtype=np.int64, count=len(parts))
        flat = np.concatenate(parts)
        flat += sy * self.W + sx
        cls = self.pix_cls[flat]
        # consecutive points of one class are judged once (the first of them)
        keep = np.empty(len(cls), dtype=bool)
        keep[0] = True
        np.not_equal(cls[1:], cls[:-1], out=keep[1:])
        first_pt = np.cumsum(lens) - lens
        keep[first_pt] = True
        kept = np.flatnonzero(keep)
        ln = np.searchsorted(first_pt, kept, side="right") - 1
        return cls[kept], ln

    def _depressions(self, v, S, targets, te, line, hexi, hx, t, in_end, in_v, g):
        """A6.3 (VASL's depression restrictions): from a depression to a location it may not
        see over the depression's edge (lower, or higher by less than the range; or in another
        depression at its level), the line must stay in the depression until it reaches a hex
        that lifts the restriction; into a depression from above by less than the range, it
        must be in the depression wherever the range is more than the level difference.
        Returns (blocking points, points the height rule leaves alone) or (None, None)."""
        dep = self.depression
        rng = self._range(v, targets)
        exits = dep[v] & ((te < S) | ((te > S) & (te - S < rng)) | (dep[targets] & (te == S)))
        enters = dep[targets] & (S > te) & (S - te < rng)
        if not (exits.any() or enters.any()):
            return None, None
        cur = np.where(in_end, np.where(in_v, v, t), hx)            # VASL's current hex
        base = self.ground[cur]
        T = te[line]
        pos = np.arange(len(line))
        rt = self.D[cur, t] if self.D is not None else self._dist(cur, t)
        rs = self._range(v, cur)
        lift = exits[line] & (cur != v) & ((dep[cur] & (T - base >= rt))
                                           | (~dep[cur] & (base <= S)))
        lift_at = np.full(len(targets), len(pos), dtype=np.int64)
        li = np.flatnonzero(lift)
        np.minimum.at(lift_at, line[li], pos[li])
        lift_hex = np.full(len(targets) + 1, -2, dtype=np.int64)
        got = lift_at < len(pos)
        lift_hex[np.flatnonzero(got)] = cur[lift_at[got]]
        still = exits[line] & (pos < lift_at[line])
        block = still & (g > base)
        block |= enters[line] & (rs > S - T) & ~(dep[cur] & (g == base))
        skip = (exits[line] & ~still & (cur == lift_hex[line])) | (enters[line] & dep[cur]) \
            | (still & dep[cur])
        return block, skip

    def _range(self, v: int, hx: np.ndarray) -> np.ndarray:
        if self.D is not None:
            return self.D[v][hx]
        return self._dist(hx, np.full_like(hx, v))

    def _along_hexsides(self, v: int, targets: np.ndarray) -> np.ndarray:
        """VASL's LOSisHorizontal / LOSis60Degree: lines between centre points (truncated) that
        are level, or within a tolerance (by range) of 60 degrees."""
        dx = (self.cx[targets] - self.cx[v]).astype(np.float64)
        dy = (self.cy[targets] - self.cy[v]).astype(np.float64)
        rng = self._range(v, targets)
        tol = np.where(rng <= 2, 0.05, np.where(rng <= 4, 0.028, np.where(rng <= 10, 0.02,
                                                                         0.015)))
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = np.abs(dy / dx)
        sixty = np.abs(slope - np.tan(np.radians(60.0))) < tol
        return ((dy == 0) | sixty) & (targets != v)

    def _dist(self, a, b):
        dq = self.qa[a] - self.qa[b]
        dr = self.ra[a] - self.ra[b]
        return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2

    # ---------------------------------------------------------------------------- the rules
    def lines(self, viewer: int, viewer_elev: int, targets: np.ndarray,
              target_elev: np.ndarray) -> DayLines:
        targets = np.asarray(targets, dtype=np.int64)
        te = np.asarray(target_elev, dtype=np.int64)
        n = len(targets)
        S = int(viewer_elev)
        clear = np.ones(n, dtype=bool)
        kind = np.zeros(n, dtype=np.int8)
        b1 = np.full(n, -1, dtype=np.int64)
        b2 = np.full(n, -1, dtype=np.int64)
        bside = np.zeros(n, dtype=np.int8)
        hcount = np.zeros(n, dtype=np.int64)
        todo = np.flatnonzero(targets != viewer)
        if len(todo):
            c, k, w1, w2, sd, h = self._judge(viewer, S, targets[todo], te[todo])
            clear[todo] = c
            kind[todo] = k
            b1[todo] = w1
            b2[todo] = w2
            bside[todo] = sd
            hcount[todo] = h
        return DayLines(viewer, S, targets, te, clear, kind, b1, b2, hcount, bside)

    def _judge(self, v: int, S: int, targets: np.ndarray, te: np.ndarray):
        cls, line = self._walk(v, targets)
        n = len(targets)
        hexi = self.cls_hex[cls]
        code = self.cls_code[cls]
        g = self.cls_lev[cls]
        side = self.cls_side[cls]
        at_centre = self.cls_centre[cls]
        edge = self.cls_edge[cls]
        t = targets[line]
        on_map = hexi >= 0
        void = len(self.qa) - 1
        hx = np.where(on_map, hexi, void)
        in_v = hexi == v
        in_end = in_v | (hexi == t)
        # a point in an end's extended border belongs to that end (VASL)
        e = np.flatnonzero((edge != 0) & ~in_end & on_map)
        if len(e):
            nbs = self.nb[hx[e]]                                # (k, 6)
            bits = (edge[e][:, None] >> np.arange(6)[None, :]) & 1
            ends = (nbs == v) | (nbs == t[e][:, None])
            in_end[e[(ends & (bits == 1)).any(axis=1)]] = True
            in_v[e[((nbs == v) & (bits == 1)).any(axis=1)]] = True
        pos = np.arange(len(cls))
        # a line along hexsides (VASL: horizontal, or within a tolerance of 60 degrees): at odd
        # ranges its points lie between two hexes, and each is judged as in both, with a hex's
        # inherent centre terrain (orchard, jungle...) standing for what is drawn there
        along = self._along_hexsides(v, targets)
        if along.any():
            rsv = self._range(v, hx)
            p = np.flatnonzero(along[line] & ~in_end & on_map & (rsv % 2 == 1) & (edge != 0))
            if len(p):
                nbs = self.nb[hx[p]]
                bits = ((edge[p][:, None] >> np.arange(6)[None, :]) & 1) == 1
                ok = bits & (nbs >= 0) & (nbs != v) & (nbs != t[p][:, None])
                has = ok.any(axis=1)
                p = p[has]
                k = np.argmax(ok[has], axis=1)
                other = nbs[has, k]
                raw = code[p]
                code[p] = _inherent_instead(self.centre_code[hx[p]], raw)
                # the copy judged in the other hex (from its side of the shared hexside)
                hexi = np.concatenate([hexi, other])
                hx = np.concatenate([hx, other])
                code = np.concatenate([code, _inherent_instead(self.centre_code[other], raw)])
                g = np.concatenate([g, g[p]])
                side = np.concatenate([side, (k + 3) % 6])
                at_centre = np.concatenate([at_centre, np.zeros(len(p), dtype=bool)])
                line = np.concatenate([line, line[p]])
                t = np.concatenate([t, t[p]])
                on_map = np.concatenate([on_map, np.ones(len(p), dtype=bool)])
                in_end = np.concatenate([in_end, np.zeros(len(p), dtype=bool)])
                pos = np.concatenate([pos, p])
                o = np.argsort(pos, kind="stable")
                in_v = np.concatenate([in_v, np.zeros(len(p), dtype=bool)])
                hexi, hx, code, g, side, at_centre, line, t, on_map, in_end, in_v = (
                    a[o] for a in (hexi, hx, code, g, side, at_centre, line, t, on_map, in_end,
                                   in_v))
        # only points that can block or hinder are judged: above the lower end, hexside
        # terrain, half-level or split terrain at its level, and A6.8's building points
        top = g + HEIGHT[code]
        T = te[line]
        lo = np.minimum(S, T)
        cand = (top > lo) | HEXSIDE_T[code] | (HALF_LEVEL[code] & (top == lo)) \
            | (SPLIT[code] & (g == lo))
        dep_block, dep_skip = self._depressions(v, S, targets, te, line, hexi, hx, t, in_end,
                                                in_v, g)
        if dep_block is not None:
            cand |= dep_block
        bldg = None
        if BUILDING_T[self.centre_code[v]]:
            # A6.8: leave the building before leaving the viewer's hex (building to building)
            order = np.arange(len(code))
            first_out = np.full(n, len(code), dtype=np.int64)
            o = np.flatnonzero(~BUILDING_T[code])
            np.minimum.at(first_out, line[o], order[o])
            bldg = ((order < first_out[line]) & (hexi != v) & BUILDING_T[code]
                    & BUILDING_T[self.centre_code[t]] & (S != T) & (top >= S))
            cand |= bldg
        keep = np.flatnonzero(cand)
        hexi, hx, code, g, side, at_centre, line, t, on_map, in_end, top, T = (
            a[keep] for a in (hexi, hx, code, g, side, at_centre, line, t, on_map, in_end, top,
                              T))
        if bldg is not None:
            bldg = bldg[keep]
        if dep_block is not None:
            dep_block, dep_skip = dep_block[keep], dep_skip[keep]
        pix = code                                          # one entry per point judged
        hi = np.maximum(S, T)
        lo = np.minimum(S, T)
        h = HEIGHT[code]
        if self.D is not None:
            rs = self.D[v][hx]
            rt = self.D[hx, t]
            R = self.D[v][targets][line]
        else:
            rs = self._dist(hx, np.full_like(hx, v))
            rt = self._dist(hx, t)
            R = self._dist(np.full(n, v), targets)[line]
        centre = self.centre_code[hx]
        order = np.arange(len(pix))
        block = np.zeros(len(pix), dtype=bool)
        why = np.zeros(len(pix), dtype=np.int8)
        side_of = np.zeros(len(pix), dtype=np.int8)       # our hexside terrain code of a block

        def mark(cond, reason):
            new = cond & ~block
            why[new] = reason
            block[:] |= cond

        if dep_block is not None:                         # A6.3, found above
            mark(dep_block, DEPRESSION)
        if bldg is not None:                              # A6.8, found above
            mark(bldg, EQUAL)

        # B9.2 / B9.52: hexside terrain, also in the ends' own hexes
        hs = HEXSIDE_T[code] & ~CLIFF_T[code] & on_map
        if hs.any():
            e = np.flatnonzero(hs)
            exit_spine, enter_spine = self._line_spines(v, targets, along)
            ign = (self._ignorable(v, hx[e], side[e], at_centre[e], exit_spine[line[e]])
                   | self._ignorable(t[e], hx[e], side[e], at_centre[e],
                                     enter_spine[line[e]]))
            boc = BOCAGE_T[code[e]]
            wall = ~ign & ~boc & (g[e] == S) & (g[e] == T[e])
            btop = top[e]
            bo = ~ign & boc
            bblock = bo & ((btop > hi[e]) | ((btop == hi[e]) & (btop > lo[e])))
            bblind = bo & ~bblock & (btop > lo[e]) & (btop < hi[e]) & _blind(
                S, T[e], rs[e], rt[e], btop, np.ones(len(e), bool))
            cond = np.zeros(len(pix), dtype=bool)
            cond[e[wall]] = True
            mark(cond, WALL)
            cond[:] = False
            cond[e[bblock]] = True
            mark(cond, HIGHER)
            cond[:] = False
            cond[e[bblind]] = True
            mark(cond, BLIND)
            hit = e[wall | bblock | bblind]
            side_of[hit] = OUR_HEXSIDE[code[hit]]

        # the hexes between the ends; inherent terrain drawn over from another hex is ignored
        mid = on_map & ~in_end & ~(INHERENT[code] & (centre != code))
        hind = np.zeros(len(pix), dtype=bool)
        # A6.2: ground higher than both ends
        mark(mid & (g > hi), HILL)
        # split terrain (orchards) with both ends at its ground level
        sp = mid & SPLIT[code] & (g == S) & (g == T)
        mark(sp & LOWER_OBSTACLE[code], HIGHER)
        hind |= sp & LOWER_HINDRANCE[code] & ~LOWER_OBSTACLE[code]
        # half-level terrain at both ends' level (B24.1)
        half = mid & HALF_LEVEL[code] & ~HEXSIDE_T[code] & (top == S) & (top == T)
        mark(half & OBSTACLE[code], HALF)
        hind |= half & ~OBSTACLE[code]
        # A6.2: higher than both ends
        higher = mid & ~sp & (top > hi)
        mark(higher & OBSTACLE[code], HIGHER)
        hind |= higher & ~OBSTACLE[code]
        # A6.2: as high as the higher end and above the lower (no height advantage)
        water = (WATER_T[centre] & (h < 1)
                 & (((rs == 1) & (S > T) & WATER_T[self.centre_code[t]])
                    | ((rt == 1) & (T > S) & WATER_T[self.centre_code[v]])))
        level = mid & (top == hi) & (top > lo) & ~water
        if dep_skip is not None:          # A6.3: the depression's own hexes, as VASL
            level &= ~dep_skip
        mark(level & ~OUT_OF_SEASON[code], EQUAL)
        hind |= level & OUT_OF_SEASON[code]
        # A6.4 / B10.23: blind hexes behind obstacles and crests
        between = mid & (top > lo) & (top < hi)
        if between.any():
            e = np.flatnonzero(between)
            cliff = ~at_centre[e] & self.cliff_side[hx[e], side[e]]
            bl = _blind(S, T[e], rs[e], rt[e], top[e], (h[e] > 0) | cliff)
            ob = OBSTACLE[code[e]]
            cond = np.zeros(len(pix), dtype=bool)
            cond[e[bl & ob]] = True
            mark(cond, BLIND)
            crest = bl & ~ob & (g[e] > lo[e]) & (g[e] < hi[e]) & _blind(
                S, T[e], rs[e], rt[e], g[e], cliff)
            cond[:] = False
            cond[e[crest]] = True
            mark(cond, BLIND)
            hb = bl & ~ob & ~crest & (~OUT_OF_SEASON[code[e]] | (rt[e] == 1))
            hind[e[hb]] = True
        # A6.1: a hindrance counts between the ends, once per range from the viewer
        hind &= (rs < R) & (rt < R)

        first = np.full(n, len(pix), dtype=np.int64)
        bi = np.flatnonzero(block)
        np.minimum.at(first, line[bi], order[bi])
        hi_pts = np.flatnonzero(hind & (order < first[line]))
        hcount = np.zeros(n, dtype=np.int64)
        sixth = np.full(n, -1, dtype=np.int64)
        if len(hi_pts):
            key = np.unique(line[hi_pts] * 4096 + np.minimum(rs[hi_pts], 4095))
            hl = key // 4096
            hcount = np.bincount(hl, minlength=n)
            # where the sixth counts: the sixth range met
            rank = np.arange(len(key)) - np.searchsorted(hl, hl)
            six_keys = key[rank == MAX_HINDRANCES - 1]
            sixth[six_keys // 4096] = six_keys % 4096
        six = hcount >= MAX_HINDRANCES
        blocked = (first < len(pix)) | six
        kind = np.zeros(n, dtype=np.int8)
        where = np.full(n, -1, dtype=np.int64)
        bl_lines = np.flatnonzero(first < len(pix))
        kind[bl_lines] = why[first[bl_lines]]
        where[bl_lines] = hexi[first[bl_lines]]
        across = where.copy()
        bside = np.zeros(n, dtype=np.int8)
        bside[bl_lines] = side_of[first[bl_lines]]
        hs_lines = bl_lines[bside[bl_lines] > 0]
        across[hs_lines] = self.nb[hx[first[hs_lines]], side[first[hs_lines]]]
        if six.any():
            # the sixth hindrance blocks first when it comes before the block
            s = np.flatnonzero(six)
            pts = np.flatnonzero(hind & six[line])
            for li in s.tolist():
                p = pts[(line[pts] == li) & (rs[pts] == sixth[li])]
                if len(p) and (first[li] == len(pix) or p[0] < first[li]):
                    kind[li] = HINDRANCES
                    where[li] = across[li] = hexi[p[0]]
                    bside[li] = 0
        kind[~blocked] = CLEAR
        return ~blocked, kind, where, across, bside, np.minimum(hcount, MAX_HINDRANCES)

    def _line_spines(self, v: int, targets: np.ndarray, along: np.ndarray):
        """VASL's source exit and target entry hexspines (0..5) of lines along hexsides (-1 for
        the others): level lines leave by spine 2 or 5, 60-degree lines by 0, 1, 3 or 4."""
        east = self.cx[targets] >= self.cx[v]
        south = self.cy[targets] >= self.cy[v]
        level = self.cy[targets] == self.cy[v]
        out = np.where(level, np.where(east, 2, 5),
                       np.where(east, np.where(south, 3, 1), np.where(south, 4, 0)))
        into = np.where(level, np.where(east, 5, 2),
                        np.where(east, np.where(south, 0, 4), np.where(south, 1, 3)))
        return np.where(along, out, -1), np.where(along, into, -1)

    def _ignorable(self, end, hexp, side, at_centre, spine_dir) -> np.ndarray:
        """VASL's isIgnorableHexsideTerrain: the hexside (hexp, side) seen from end hex ``end``:
        its own hexside, a hexspine of it, or next to it where the location holds no hexside
        terrain (B9.2); for a line along a hexspine (``spine_dir``, its hexspine at that end;
        -1: none), hexside terrain at the far end of that hexspine as VASL's table says."""
        end = np.broadcast_to(np.asarray(end), hexp.shape)
        rr = self._dist(hexp, end)
        other = self.nb[hexp, side]
        own = ~at_centre & ((hexp == end) | (other == end))
        near_o = (other >= 0) & (self._dist(np.where(other >= 0, other, hexp), end) == 1)
        spine = ~at_centre & (rr == 1) & near_o
        loc_code = np.where(at_centre, self.centre_code[hexp], self.side_code[
            np.minimum(hexp, len(self.side_code) - 1), side])
        spill = (rr == 1) & ~HEXSIDE_T[loc_code]
        out = (rr <= 2) & (own | spine | spill)
        sel = np.flatnonzero(~out & (rr <= 2) & ~at_centre & (spine_dir >= 0))
        if len(sel):
            e, lh, ls, d = end[sel], hexp[sel], side[sel], spine_dir[sel]
            # two hexes away: the same hexside seen from the hex across it
            two = rr[sel] == 2
            opp = self.nb[lh, ls]
            none = two & (opp < 0)
            far = two & (opp >= 0) & (self._dist(np.where(opp >= 0, opp, lh), e) > 1)
            lh = np.where(two, opp, lh)
            ls = np.where(two, (ls + 3) % 6, ls)
            hs = (d + 5) % 6
            sp = (d + 4) % 6
            hex1, hex2 = self.nb[e, hs], self.nb[e, d]
            valid = (hex1 >= 0) & (hex2 >= 0)
            h1, h2 = np.where(valid, hex1, 0), np.where(valid, hex2, 0)
            t1 = self.side_terrain[h2, sp]
            t2 = self.side_terrain[h1, d]
            t3 = self.side_terrain[h2, hs]
            match = ((lh == hex1) & (ls == d)) | ((lh == hex2) & (ls == hs))
            res = valid & t1 & match & (~t2 | ~t3)
            out[sel] = none | (~far & ~none & res)
        return out


def _blind(S: int, T: np.ndarray, rs, rt, top, obstacle) -> np.ndarray:
    """A6.4 (VASL's isBlindHex): with the higher end's range R to the point and the point's
    range D to the lower end: D <= max(2 top + R//5 - hi - lo + 1, 1) behind an obstacle (or a
    cliff), D <= max(2 top + R//5 - hi - lo, 0) behind a crest; never between equal ends."""
    hi = np.maximum(S, T)
    lo = np.minimum(S, T)
    R = np.where(S >= T, rs, rt)
    D = np.where(S >= T, rt, rs)
    limit = np.where(obstacle, np.maximum(2 * top + R // 5 - hi - lo + 1, 1),
                     np.maximum(2 * top + R // 5 - hi - lo, 0))
    return (S != T) & (D <= limit)


def _pixel_hexes(m: Map, W: int, H: int, geometry):
    """(map hex index or -1, nearest side 0..5 clockwise from north, centre nearest), flat, of
    every pixel of the map's W x H pixel frame: the hex whose centre is nearest (the hex scaled
    regular), the side whose middle is nearest, and whether the centre is nearer still (VASL's
    Hex.getNearestLocation)."""
    a1x, a1y, hw, hh = geometry
    x = np.arange(W, dtype=np.float64)
    y = np.arange(H, dtype=np.float64)
    c0 = np.floor((x - a1x) / hw).astype(np.int64)
    # per row: the nearest row of an even and of an odd column, and the offset from it
    rows = [np.rint((y - a1y) / hh + 1).astype(np.int64),            # even columns
            np.rint((y - a1y + hh / 2) / hh).astype(np.int64)]       # odd columns
    vs = [((y - (a1y + hh * (rows[0] - 1))) / hh * SQRT3).astype(np.float32),
          ((y - (a1y + hh * rows[1] - hh / 2)) / hh * SQRT3).astype(np.float32)]
    best = bu = bv = bc = bn = None
    for dc in (0, 1):
        c = c0 + dc
        odd = (c % 2).astype(bool)
        u = ((x - a1x - hw * c) / hw * 1.5).astype(np.float32)[None, :]
        v = np.where(odd[None, :], vs[1][:, None], vs[0][:, None])
        n = np.where(odd[None, :], rows[1][:, None], rows[0][:, None])
        dd = u * u + v * v
        if best is None:
            best, bu, bv, bc, bn = dd, np.broadcast_to(u, dd.shape), v, np.broadcast_to(
                c[None, :], dd.shape), n
        else:
            better = dd < best
            bu = np.where(better, u, bu)
            bv = np.where(better, v, bv)
            bc = np.where(better, c[None, :], bc)
            bn = np.where(better, n, bn)
            best = np.where(better, dd, best)
    # the map's index of (global column, row)
    cmin, rmin = int(m.col.min()), int(m.row.min())
    grid = np.full((int(m.col.max()) - cmin + 3, int(m.row.max()) - rmin + 3), -1, np.int64)
    grid[m.col - cmin + 1, m.row - rmin + 1] = np.arange(m.size)
    gi = np.clip(bc - cmin + 1, 0, grid.shape[0] - 1)
    gj = np.clip(bn - rmin + 1, 0, grid.shape[1] - 1)
    hexi = grid[gi, gj].ravel()
    # the sides' outward normals at 0 (N), 60 (NE), 120 (SE) degrees; 3..5 are their opposites
    s60, c60 = np.float32(SQRT3 / 2), np.float32(0.5)
    proj = np.stack([-bv, bu * s60 - bv * c60, bu * s60 + bv * c60])
    k = np.abs(proj).argmax(axis=0)
    pk = np.take_along_axis(proj, k[None], axis=0)[0]
    side = np.where(pk >= 0, k, k + 3).astype(np.int64).ravel()
    # the centre is nearer than the side's middle (at sqrt(3)/2) when the projection is < sqrt(3)/4
    at_centre = (np.abs(pk) < SQRT3 / 4).ravel()
    return hexi, side, at_centre


def _inherent_instead(centre: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """What a point between two hexes counts as in one of them (VASL's checkLOSOnHexsideRule):
    the hex's inherent centre terrain, except jungle or bamboo over water drawn there."""
    jungle = (centre == _DENSE_JUNGLE) | (centre == _BAMBOO)
    return np.where(INHERENT[centre] & ~(jungle & WATER_T[drawn]), centre, drawn)


def _walk_offsets(dx: np.ndarray, dy: np.ndarray, W: int) -> list[np.ndarray]:
    """The points VASL's walk visits from (0, 0) to (dx, dy), one pixel column at a time and
    every row between the line's entry into the column and its exit, as flat offsets y * W + x
    (int32), for each (dx, dy).  A walk depends on these differences only, so the map keeps
    each once."""
    n = np.abs(dx) + 1                                  # pixel columns of each line
    d = dy / n                                          # rise per column
    lstart = np.cumsum(n) - n
    c = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(lstart, n)
    x = c * np.repeat(np.where(dx < 0, -1, 1), n)
    dl = np.repeat(d, n)
    enter = np.floor(c * dl).astype(np.int64)
    leave = np.floor((c + 1) * dl).astype(np.int64)
    k = np.abs(leave - enter) + 1
    pstart = np.cumsum(k) - k
    step = np.where(leave < enter, -W, W)
    base = enter * W + x - pstart * step
    flat = (np.repeat(base, k) + np.arange(int(k.sum()), dtype=np.int64) * np.repeat(step, k))
    cuts = pstart[lstart][1:]
    return np.split(flat.astype(np.int32), cuts)


def _java_contains(xp, yp, X, Y) -> np.ndarray:
    """java.awt.Polygon.contains of integer points (X, Y) in the polygon of integer vertices
    (xp, yp): the crossing rule VASL's tests use."""
    inside = (X >= min(xp)) & (Y >= min(yp)) & (X < max(xp)) & (Y < max(yp))
    hits = np.zeros(X.shape, dtype=np.int64)
    lastx, lasty = xp[-1], yp[-1]
    for curx, cury in zip(xp, yp):
        if cury != lasty:
            if curx < lastx:
                cx_ok, leftx = X < lastx, curx
            else:
                cx_ok, leftx = X < curx, lastx
            if cury < lasty:
                y_ok = (Y >= cury) & (Y < lasty)
                t1, t2 = X - curx, Y - cury
            else:
                y_ok = (Y >= lasty) & (Y < cury)
                t1, t2 = X - lastx, Y - lasty
            cross = (X < leftx) | (t1 < t2 / (lasty - cury) * (lastx - curx))
            hits += cx_ok & y_ok & cross
        lastx, lasty = curx, cury
    return inside & (hits % 2 == 1)


def _extended_borders(m: Map, hexi: np.ndarray, W: int, H: int, geometry) -> np.ndarray:
    """Per pixel, 6 bits: the neighbours of its hex whose extended border (VASL's
    Hex.getExtendedHexBorder: the hex polygon one pixel larger) holds it too."""
    a1x, a1y, hw, hh = geometry
    out = np.zeros(len(hexi), dtype=np.uint8)
    side = hw * 2.0 / 3.0
    half = hh / 2.0

    def fix(x, lim):
        x = 0.0 if x == -1.0 else x
        return lim - 1.0 if int(x) in (lim, lim + 1) else x

    nb = m.neighbours
    for i in range(m.size):
        col, row = int(m.col[i]), int(m.row[i])
        odd = col % 2
        x = a1x + hw * col
        y = a1y + hh * (row - 1 + odd) - half * odd
        vx = [x - side / 2, x + side / 2, x + side, x + side / 2, x - side / 2, x - side]
        vy = [y - half, y - half, y, y + half, y + half, y]
        vx = [fix(v, W) for v in vx]
        vy = [fix(v, H) for v in vy]
        d = [(-1, -1), (-1, 1), (1, 0), (1, 1), (-1, 1), (-1, 0)]
        xp = [int(vx[k]) + d[k][0] for k in range(6)]
        yp = [int(vy[k]) + d[k][1] for k in range(6)]
        x0, x1 = max(min(xp), 0), min(max(xp), W - 1)
        y0, y1 = max(min(yp), 0), min(max(yp), H - 1)
        if x1 < x0 or y1 < y0:
            continue
        Y, X = np.mgrid[y0:y1 + 1, x0:x1 + 1]
        flat = (Y * W + X).ravel()
        inside = _java_contains(xp, yp, X.ravel(), Y.ravel())
        own = hexi[flat]
        pick = inside & (own != i) & (own >= 0)
        if not pick.any():
            continue
        f = flat[pick]
        k = np.argmax(nb[own[pick]] == i, axis=1)
        ok = nb[own[pick], k] == i
        np.bitwise_or.at(out, f[ok], (1 << k[ok]).astype(np.uint8))
    return out


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


__all__ = ["RasterLosTable", "map_rasters", "raster_table"]
