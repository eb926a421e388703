"""The map's pixel frame for LOS over the terrain as drawn (VASL's ``Map``, ``Hex``, ``LOS``).

Every board's raster (``engine.raster_file``, found by ``engine.boards.board_raster``) pasted
at its slot: per pixel its terrain and ground level, the map's hex it lies in, its nearest
hexside and whether the centre is its nearest location (VASL's ``Hex.getNearestLocation``), and
which neighbours' extended borders hold it too; pixels judged alike share a *class*.  And
VASL's walk of a line (``Map.LOS``: one pixel column at a time, every row between the line's
entry and exit of the column), kept once per pixel difference; and which hexside terrain an
end's own hexsides and hexspines hide (B9.2, VASL's ``isIgnorableHexsideTerrain``).  The rules
on these points: ``raster_table``.
"""
from __future__ import annotations

import numpy as np

from ..boards import board_raster
from ..hexes import SQRT3
from ..maps import Map
from ..raster_file import terrain_table
from ..terrain import HEXSIDES

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


def map_rasters(game_map: Map):
    """The rasters of every board of the map (turned as placed), or None if one has none or
    they disagree on the hex spacing."""
    out = []
    for p in game_map.placements:
        r = board_raster(p.board)
        if r is None:
            return None
        out.append(r.rotated() if p.rotated else r)
    g = {r.geometry for r in out}
    if len(g) != 1:
        return None
    return out


class PixelFrame:
    """The pixel half of ``raster_table.RasterLosTable`` (see the module doc): its per-map
    arrays and the walk of its lines."""

    def _build_frame(self, game_map: Map, rasters) -> None:
        m = game_map
        a1x, a1y, hw, hh = rasters[0].geometry
        self.geometry = (a1x, a1y, hw, hh)
        terr, lev, covered = self._paste(m, rasters)
        # the hex (map index) of every pixel, its nearest hexside and whether the centre is its
        # nearest location (VASL's Hex.getNearestLocation)
        px = _pixel_hexes(m, self.W, self.H, self.geometry)
        px.hexi[~covered.ravel()] = -1
        hexi, at_centre = px.hexi, px.at_centre
        self._classify(m, terr, lev, px)
        # hex centres in pixels (VASL's LOS point: truncated), and the terrain there
        cx = a1x + hw * m.col
        cy = a1y + hh * (m.row - 1 + (m.col % 2)) - hh / 2 * (m.col % 2)
        self.cx = np.clip(cx.astype(np.int64), 0, self.W - 1)
        self.cy = np.clip(cy.astype(np.int64), 0, self.H - 1)
        self._centre_terrain(m, hexi, at_centre)
        self._hexside_points(m, cx, cy)
        self.qa = np.append(m.q, 0)
        self.ra = np.append(m.r, 0)
        # ranges between hexes, looked up (the last row and column: off the map)
        self.D = None
        if m.size <= MAX_RANGE_TABLE:
            idx = np.arange(m.size + 1)
            self.D = self._dist(idx[:, None], idx[None, :]).astype(np.int16)
        self._patterns: dict = {}        # (dx, dy) -> the walk's pixel offsets (_walk_offsets)
        self._pattern_points = 0

    def _paste(self, m: Map, rasters):
        """The map's pixel frame: every board pasted at its slot's origin (terrain, level, and
        which pixels a board covers); sets W, H, terr and lev (flat)."""
        hw, hh = self.geometry[2:]
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
        return terr, lev, covered

    def _classify(self, m: Map, terr, lev, px: _PixelHexes) -> None:
        """Pixels of one hex, terrain, level, extended borders and nearest location are judged
        alike: their classes (``pix_cls``) and what each class is (``cls_*``)."""
        hexi, side, at_centre = px.hexi, px.side, px.at_centre
        # the neighbours (bits 0..5) whose extended border holds the pixel too
        edge = _extended_borders(m, px, self.W, self.H, self.geometry)
        # pixels of one hex, terrain, level and nearest location are judged alike: classes
        key = (((hexi + 1) * 256 + terr.ravel()) * 64 + (lev.ravel().astype(np.int64) + 32)) \
            * 1024 + edge.astype(np.int64) * 16 + side * 2 + at_centre
        # the same classes as np.unique of every pixel's key, from the runs along the rows
        starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        uniq, inv = np.unique(key[starts], return_inverse=True)
        self.pix_cls = np.repeat(inv.astype(np.int32), np.diff(np.append(starts, len(key))))
        at_c = (uniq % 2).astype(bool)
        self.cls_side = (uniq // 2) % 8
        self.cls_edge = ((uniq // 16) % 64).astype(np.int64)
        rest = uniq // 1024
        self.cls_lev = (rest % 64) - 32
        rest //= 64
        self.cls_code = (rest % 256).astype(np.int64)
        self.cls_hex = rest // 256 - 1
        self.cls_centre = at_c
        # what a class is to the first cut of a line's points (raster_table): its obstacle top,
        # and whether its terrain counts whatever the ends' heights (hexside, half-level, split)
        self.cls_top = self.cls_lev + HEIGHT[self.cls_code]
        self.cls_special = HEXSIDE_T[self.cls_code] | HALF_LEVEL[self.cls_code] \
            | SPLIT[self.cls_code]

    def _centre_terrain(self, m: Map, hexi, at_centre) -> None:
        """The terrain of each hex's centre location (VASL's Hex.resetTerrain): at its sample
        point next to the dot, unless inherent terrain (orchard trees, rubble...) lies nearer
        the centre than any hexside location: then that."""
        W, H = self.W, self.H
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
        # hexes whose centre is depression terrain (gully, stream, sunken road: A6.3)
        self.depression = np.append(DEPRESSION_T[self.centre_code[:-1]], False)

    def _hexside_points(self, m: Map, cx, cy) -> None:
        """The terrain at each hexside's location point (its middle), per hex and side; the
        neighbours, cliffs, and hexside terrain on each side of each hex (B9.2)."""
        W, H = self.W, self.H
        hw, hh = self.geometry[2:]
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
        # hexside terrain on each side of each hex (VASL's Hex.getHexsideTerrain): imported, or
        # drawn at the side's middle
        st = np.zeros((m.size + 1, 6), dtype=bool)
        st[:-1] = (m.hexside != 0) | HEXSIDE_T[self.side_code]
        self.side_terrain = st

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
        if (self.cy[targets] == 0).any():
            flat, lens = _inside_frame(flat, lens)
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

    # ------------------------------------------------- hexside terrain an end ignores (B9.2)
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


def _inherent_instead(centre: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """What a point between two hexes counts as in one of them (VASL's checkLOSOnHexsideRule):
    the hex's inherent centre terrain, except jungle or bamboo over water drawn there."""
    jungle = (centre == _DENSE_JUNGLE) | (centre == _BAMBOO)
    return np.where(INHERENT[centre] & ~(jungle & WATER_T[drawn]), centre, drawn)


_ROWS_AT_ONCE = 256      # pixel rows classified at a time (bounds the frame's working memory)


class _PixelHexes:
    """Per pixel of the frame (flat): the map's hex (or -1), the nearest side (0..5 clockwise
    from north), whether the centre is nearer still; and per side the pixels close to it (the
    only ones a neighbour's extended border can hold)."""

    def __init__(self, size: int):
        self.hexi = np.empty(size, dtype=np.int64)
        self.side = np.empty(size, dtype=np.int64)
        self.at_centre = np.empty(size, dtype=bool)
        self.near: list[list[np.ndarray]] = [[] for _ in range(6)]


def _pixel_hexes(m: Map, W: int, H: int, geometry) -> _PixelHexes:
    """The hex whose centre is nearest (the hex scaled regular), the side whose middle is
    nearest, and whether the centre is nearer still (VASL's Hex.getNearestLocation), of every
    pixel of the map's W x H pixel frame; a band of rows at a time, per pixel column what
    depends on the column only (the same float32 arithmetic pixel by pixel)."""
    a1x, a1y, hw, hh = geometry
    x = np.arange(W, dtype=np.float64)
    y = np.arange(H, dtype=np.float64)
    c0 = np.floor((x - a1x) / hw).astype(np.int64)
    odd0 = (c0 % 2).astype(bool)[None, :]          # the parity of the nearer-left column
    # per row: the nearest row of an even and of an odd column, and the offset from it
    rows = [np.rint((y - a1y) / hh + 1).astype(np.int64),            # even columns
            np.rint((y - a1y + hh / 2) / hh).astype(np.int64)]       # odd columns
    vs = [((y - (a1y + hh * (rows[0] - 1))) / hh * SQRT3).astype(np.float32),
          ((y - (a1y + hh * rows[1] - hh / 2)) / hh * SQRT3).astype(np.float32)]
    us = [((x - a1x - hw * (c0 + dc)) / hw * 1.5).astype(np.float32)[None, :] for dc in (0, 1)]
    # the map's index of (global column, row), looked up as one flat index
    cmin, rmin = int(m.col.min()), int(m.row.min())
    grid = np.full((int(m.col.max()) - cmin + 3, int(m.row.max()) - rmin + 3), -1, np.int64)
    grid[m.col - cmin + 1, m.row - rmin + 1] = np.arange(m.size)
    gcols = [(np.clip(c0 + dc - cmin + 1, 0, grid.shape[0] - 1) * grid.shape[1])[None, :]
             for dc in (0, 1)]
    grows = [np.clip(r - rmin + 1, 0, grid.shape[1] - 1) for r in rows]
    grid = grid.ravel()
    s60, c60 = np.float32(SQRT3 / 2), np.float32(0.5)
    # a neighbour's extended border reaches less than 3 pixels past its hexagon (a vertex
    # truncated and moved by one pixel): pixels farther from a side than that are not in it
    near_limit = np.float32(SQRT3 / 2 - 3.01 * max(1.5 / hw, SQRT3 / hh))
    out = _PixelHexes(W * H)
    for y0 in range(0, H, _ROWS_AT_ONCE):
        y1 = min(H, y0 + _ROWS_AT_ONCE)
        v_even, v_odd = vs[0][y0:y1, None], vs[1][y0:y1, None]
        v0 = np.where(odd0, v_odd, v_even)          # the nearer-left column (dc = 0)
        v1 = np.where(odd0, v_even, v_odd)          # the next one (dc = 1)
        better = us[1] * us[1] + v1 * v1 < us[0] * us[0] + v0 * v0
        bu = np.where(better, us[1], us[0])
        bv = np.where(better, v1, v0)
        r_even, r_odd = grows[0][y0:y1, None], grows[1][y0:y1, None]
        cell = np.where(better, gcols[1] + np.where(odd0, r_even, r_odd),
                        gcols[0] + np.where(odd0, r_odd, r_even))
        lo, hi = y0 * W, y1 * W
        out.hexi[lo:hi] = grid[cell].ravel()
        # the sides' outward normals at 0 (N), 60 (NE), 120 (SE) degrees; 3..5 their opposites
        proj = (-bv, bu * s60 - bv * c60, bu * s60 + bv * c60)
        mag = [np.abs(q) for q in proj]
        k = np.where(mag[1] > mag[0], 1, 0)             # the first largest, as argmax
        top = np.maximum(mag[0], mag[1])
        k = np.where(mag[2] > top, 2, k)
        pk = np.where(k == 0, proj[0], np.where(k == 1, proj[1], proj[2]))
        out.side[lo:hi] = np.where(pk >= 0, k, k + 3).ravel()
        # the centre is nearer than the side's middle (at sqrt(3)/2) when the projection is
        # < sqrt(3)/4
        out.at_centre[lo:hi] = (np.abs(pk) < SQRT3 / 4).ravel()
        for d in range(6):
            q = proj[d] if d < 3 else -proj[d - 3]
            out.near[d].append(np.flatnonzero(q.ravel() > near_limit) + lo)
    return out


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


def _inside_frame(flat: np.ndarray, lens: np.ndarray):
    """The walk's points without those above the frame's top row: a line to a centre on row 0
    can step one row past it (the rise per column times the columns falls just short), and
    row -1 is no pixel (numpy would read the bottom row)."""
    off = flat < 0
    if not off.any():
        return flat, lens
    line = np.repeat(np.arange(len(lens)), lens)
    return flat[~off], lens - np.bincount(line[off], minlength=len(lens))


def _java_contains(xp, yp, X, Y) -> np.ndarray:
    """java.awt.Polygon.contains of integer points (X, Y), each in its own polygon of integer
    vertices (xp, yp: one row of vertices per point): the crossing rule VASL's tests use."""
    inside = ((X >= xp.min(axis=1)) & (Y >= yp.min(axis=1)) & (X < xp.max(axis=1))
              & (Y < yp.max(axis=1)))
    hits = np.zeros(X.shape, dtype=np.int64)
    lastx, lasty = xp[:, -1], yp[:, -1]
    for e in range(xp.shape[1]):
        curx, cury = xp[:, e], yp[:, e]
        left = curx < lastx
        cx_ok = X < np.where(left, lastx, curx)
        leftx = np.where(left, curx, lastx)
        up = cury < lasty
        y_ok = np.where(up, (Y >= cury) & (Y < lasty), (Y >= lasty) & (Y < cury))
        t1 = X - np.where(up, curx, lastx)
        t2 = Y - np.where(up, cury, lasty)
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = (X < leftx) | (t1 < t2 / (lasty - cury) * (lastx - curx))
        hits += (cury != lasty) & cx_ok & y_ok & cross
        lastx, lasty = curx, cury
    return inside & (hits % 2 == 1)


def _border_polygons(m: Map, W: int, H: int, geometry):
    """Every hex's extended border (VASL's Hex.getExtendedHexBorder: the hex polygon one pixel
    larger, its vertices kept inside the frame): (xp, yp), one row of six vertices per hex."""
    a1x, a1y, hw, hh = geometry
    side = hw * 2.0 / 3.0
    half = hh / 2.0
    odd = m.col % 2
    x = (a1x + hw * m.col)[:, None]
    y = (a1y + hh * (m.row - 1 + odd) - half * odd)[:, None]
    vx = x + np.array([-side / 2, side / 2, side, side / 2, -side / 2, -side])[None, :]
    vy = y + np.array([-half, -half, 0.0, half, half, 0.0])[None, :]

    def fix(v, lim):
        v = np.where(v == -1.0, 0.0, v)
        whole = np.trunc(v)
        return np.where((whole == lim) | (whole == lim + 1), lim - 1.0, v)

    xp = np.trunc(fix(vx, W)).astype(np.int64) + np.array([-1, -1, 1, 1, -1, -1])[None, :]
    yp = np.trunc(fix(vy, H)).astype(np.int64) + np.array([-1, 1, 0, 1, 1, 0])[None, :]
    return xp, yp


def _extended_borders(m: Map, px: _PixelHexes, W: int, H: int, geometry) -> np.ndarray:
    """Per pixel, 6 bits: the neighbours of its hex whose extended border (VASL's
    Hex.getExtendedHexBorder: the hex polygon one pixel larger) holds it too; bit k for the
    neighbour across side k, tried only on the pixels close to that side."""
    hexi = px.hexi
    out = np.zeros(len(hexi), dtype=np.uint8)
    xp, yp = _border_polygons(m, W, H, geometry)
    nb = m.neighbours
    for k in range(6):
        f = np.concatenate(px.near[k]) if px.near[k] else np.zeros(0, np.int64)
        own = hexi[f]
        f, own = f[own >= 0], own[own >= 0]
        other = nb[own, k]
        f, other = f[other >= 0], other[other >= 0]
        inside = _java_contains(xp[other], yp[other], f % W, f // W)
        out[f[inside]] |= np.uint8(1 << k)
    return out
