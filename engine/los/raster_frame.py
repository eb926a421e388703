"""The map's pixel frame for LOS over the terrain as drawn (VASL's ``Map``, ``Hex``, ``LOS``).

Every board's raster (``engine.raster_file``, found by ``engine.boards.board_raster``) pasted
at its slot: per pixel its terrain and ground level, the map's hex it lies in, its nearest
hexside and whether the centre is its nearest location (VASL's ``Hex.getNearestLocation``), and
which neighbours' extended borders hold it too (``raster_pixels``); pixels judged alike share a
*class*, and what the compiled walk reads of each class.  And VASL's walk of every line of a
viewer (``Map.LOS``: one pixel column at a time, every row between the line's entry and exit
of the column), compiled: ``raster_kernel``; and which hexside terrain an end's own hexsides
and hexspines hide (B9.2, VASL's ``isIgnorableHexsideTerrain``).  The rules on these points:
``raster_table``.
"""
from __future__ import annotations

import numpy as np

from ..boards import board_raster
from ..hexes import SQRT3
from ..maps import Map
from ..raster_file import terrain_table
from ..terrain import HEXSIDES
from . import raster_bits as bits
from .raster_pixels import PixelHexes, extended_borders, pixel_hexes, shared_slots

MAX_MAP_PIXELS = 40_000_000  # the map's pixel frame (boards side by side)
MAX_RANGE_TABLE = 4000       # hexes: ranges kept as a table (int16, 32 MB at most)

# ------------------------------------------------------------------ terrain properties by code
_T = terrain_table()


def _prop(f) -> np.ndarray:
    a = np.zeros(256, dtype=bool)
    for code, t in _T.items():
        a[code] = bool(f(t))
    return a


OBSTACLE = _prop(lambda t: t.obstacle)
HALF_LEVEL = _prop(lambda t: t.half_level)
INHERENT = _prop(lambda t: t.inherent)
SPLIT = _prop(lambda t: t.split)
LOWER_OBSTACLE = _prop(lambda t: t.lower_obstacle)
LOWER_HINDRANCE = _prop(lambda t: t.lower_hindrance)
HEXSIDE_T = _prop(lambda t: t.category == "HEXSIDE")
CLIFF_T = _prop(lambda t: t.name == "Cliff")
BOCAGE_T = _prop(lambda t: t.name == "Bocage")
BRIDGE_T = _prop(lambda t: t.category == "BRIDGE")         # B6: VASL's isBridge
# B23.71 / O5.31: VASL's isRowhouseFactoryWall
ROWHOUSE_T = _prop(lambda t: t.name.startswith(("Rowhouse Wall", "Interior Factory Wall")))
BUILDING_T = _prop(lambda t: t.category == "BUILDING" and "Rowhouse" not in t.name)
# A6.8: VASL's isBuilding (a line still in the building) and isBuildingTerrain (what blocks)
IN_BUILDING_T = _prop(lambda t: t.category in ("BUILDING", "FACTORY", "MARKETPLACE"))
BUILDING_TERRAIN_T = _prop(lambda t: t.category in ("BUILDING", "MARKETPLACE"))
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
OUR_HEXSIDE[_prop(lambda t: t.name.startswith("Rowhouse Wall"))] = HEXSIDES["rowhouse_wall"].code
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
        px = pixel_hexes(m, self.W, self.H, self.geometry, *self._slots)
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
            self.D = np.empty((m.size + 1, m.size + 1), dtype=np.int16)
            for a in range(0, m.size + 1, 256):       # a band of rows at a time (memory)
                self.D[a:a + 256] = self._dist(idx[a:a + 256, None], idx[None, :])
        self._kernel_classes(m)

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
        # boards of one size tiling the frame share their pixels' hexes (raster_pixels)
        shapes = [r.shape for r in rasters]
        slots = shared_slots(m, self.geometry, offs, shapes, W, H) if covered.all() else None
        self._slots = (slots, shapes[0]) if slots is not None else (None, None)
        self.terr = terr.ravel()
        self.lev = lev.ravel()
        return terr, lev, covered

    def _classify(self, m: Map, terr, lev, px: PixelHexes) -> None:
        """Pixels of one hex, terrain, level, extended borders and nearest location are judged
        alike: their classes (``pix_cls``) and what each class is (``cls_*``)."""
        hexi, side, at_centre = px.hexi, px.side, px.at_centre
        # the neighbours (bits 0..5) whose extended border holds the pixel too
        edge = extended_borders(m, px, self.W, self.H, self.geometry)
        # pixels of one hex, terrain, level and nearest location are judged alike: classes,
        # keyed (((hexi + 1) * 256 + terr) * 64 + lev + 32) * 1024 + edge * 16 + side * 2
        # + at_centre; the same classes as np.unique of every pixel's key, from the runs along
        # the rows (a run: no part changes)
        parts = (hexi, terr.ravel(), lev.ravel(), edge, side, at_centre)
        change = np.empty(len(hexi), dtype=bool)
        change[0] = True
        np.not_equal(parts[0][1:], parts[0][:-1], out=change[1:])
        for part in parts[1:]:
            change[1:] |= part[1:] != part[:-1]
        starts = np.flatnonzero(change)
        key = hexi[starts].astype(np.int64)
        for scale, part in ((1, 1), (256, terr.ravel()[starts]), (64, lev.ravel()[starts]),
                            (1, 32), (64, edge[starts]), (8, side[starts]),
                            (2, at_centre[starts])):
            if scale != 1:
                key *= scale
            key += part
        uniq, inv = np.unique(key, return_inverse=True)
        # what a class is to the first cut of a line's points (raster_table): its obstacle
        # top, or 127 for terrain that counts whatever the ends' heights (hexside, half-level,
        # split; every floor is below 127); classes numbered in the order of this byte, so
        # that a pixel's class says at once whether it can matter above a floor (``cls_from``)
        code = (uniq // (1024 * 64)) % 256
        special = HEXSIDE_T[code] | HALF_LEVEL[code] | SPLIT[code]
        top = ((uniq // 1024) % 64) - 32 + HEIGHT[code]
        low = np.where(special, 127, np.clip(top, -127, 126))
        order = np.argsort(low, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        uniq, inv, low = uniq[order], rank[inv], low[order]
        self.cls_from = np.searchsorted(low, np.arange(-128, 128), side="right")
        # (two bytes a pixel when the classes allow: the walk reads one per point)
        small = np.uint16 if len(uniq) <= np.iinfo(np.uint16).max else np.int32
        runs = np.diff(np.append(starts, len(hexi)))
        self.pix_cls = np.repeat(inv.astype(small), runs)
        at_c = (uniq % 2).astype(bool)
        self.cls_side = (uniq // 2) % 8
        self.cls_edge = ((uniq // 16) % 64).astype(np.int64)
        rest = uniq // 1024
        self.cls_lev = (rest % 64) - 32
        rest //= 64
        self.cls_code = (rest % 256).astype(np.int64)
        self.cls_hex = rest // 256 - 1
        self.cls_centre = at_c

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
    def _kernel_classes(self, m: Map) -> None:
        """What the compiled walk (``raster_kernel``) reads of each pixel class: ground, top,
        what it is (bits) and its hex with the neighbours whose extended border holds it."""
        code, hexc = self.cls_code, self.cls_hex
        on_map = hexc >= 0
        bridge_hex = np.zeros(m.size + 1, dtype=bool)
        bridge_hex[hexc[BRIDGE_T[code] & on_map]] = True
        foreign = INHERENT[code] & (self.centre_code[hexc] != code)   # drawn over from another
        can_block = on_map & ~foreign & ~bridge_hex[hexc]
        flags = (bits.CAN_BLOCK * can_block
                 + bits.OBSTACLE_CLS * (can_block & OBSTACLE[code] & ~ROWHOUSE_T[code])
                 + bits.SPLIT_CLS * SPLIT[code]
                 + bits.KEEP_IN_ENDS * (HEXSIDE_T[code] | BRIDGE_T[code] | ROWHOUSE_T[code])
                 + bits.IN_BUILDING * IN_BUILDING_T[code]
                 + bits.ON_EDGE * (self.cls_edge != 0)
                 + bits.AS_HIGH_OK * (can_block & ~OUT_OF_SEASON[code] & ~ROWHOUSE_T[code])
                 + bits.LEAVE_FIRST * BUILDING_TERRAIN_T[code])
        self.cls_flags = flags.astype(np.uint16)
        self.cls_top = self.cls_lev + HEIGHT[code]
        # what a class can matter above between ends at two elevations (raster_kernel)
        self.cls_low = np.where(BRIDGE_T[code], 127, self.cls_top + CLIFF_T[code])
        nbr = np.full((len(code), 7), -2, dtype=np.int64)
        nbr[:, 0] = hexc
        edge_bits = ((self.cls_edge[:, None] >> np.arange(6)[None, :]) & 1) == 1
        across = np.where(on_map[:, None], m.neighbours[np.where(on_map, hexc, 0)], -2)
        nbr[:, 1:] = np.where(edge_bits & (across >= 0), across, -2)
        self.cls_nbr = nbr
        inherent = INHERENT[self.centre_code]               # per hex (the void row: none)
        near = (inherent[hexc] & on_map) | (inherent[np.where(nbr[:, 1:] >= 0, nbr[:, 1:], -1)]
                                            & (nbr[:, 1:] >= 0)).any(axis=1)
        self.cls_flags |= (bits.INHERENT_NEAR * near).astype(np.uint16)
        # the highest class of each tile of the frame (the walk skips tiles below a threshold)
        size = bits.TILE_SIZE
        rows, cols = -(-self.H // size) * size, -(-self.W // size) * size
        tiles = np.zeros((rows, cols), dtype=np.int32)
        tiles[:self.H, :self.W] = self.pix_cls.reshape(self.H, self.W)
        self.tile_max = tiles.reshape(rows // size, size, cols // size, size).max(
            axis=(1, 3)).ravel()
        # the compiled walk loaded now for this frame's types (no line walked)
        none = np.zeros(0, dtype=np.int64)
        self._walk(0, 0, none, none, none, np.zeros(0, dtype=np.uint8))
        self._reversible_keys = np.zeros(0, dtype=np.int64)    # pixel differences asked
        self._reversible_same = np.zeros(0, dtype=bool)

    def _walk(self, viewer: int, S: int, targets: np.ndarray, te: np.ndarray,
              threshold: np.ndarray, mode: np.ndarray):
        """Every point of every line (VASL's walk) that can matter, as the pixel classes met in
        turn (consecutive points of one class kept once): (class, line, answer hex, answer),
        a line's points together and in the walk's order; which points, and where a walk
        ends, by each line's class ``threshold`` and ``mode``; the lines the walk answers
        itself (``answer`` not 0, ``raster_bits``' answers, at ``answer hex``) keep no
        point."""
        n = len(targets)
        answer_hex = np.full(n, -1, dtype=np.int64)
        answer = np.zeros(n, dtype=np.int8)
        sx, sy = int(self.cx[viewer]), int(self.cy[viewer])
        targets = np.asarray(targets, dtype=np.int64)
        dxs = self.cx[targets] - sx
        dys = self.cy[targets] - sy
        room = int((np.abs(dxs) + np.abs(dys)).sum()) + 2 * n
        out_cls = np.empty(room, dtype=np.int32)
        out_line = np.empty(room, dtype=np.int32)
        te = np.asarray(te, dtype=np.int64)
        count = compiled().walk_lines(
            self.pix_cls, self.W, self.H, self.tile_max, sx, sy, int(viewer), int(S), dxs, dys,
            np.asarray(threshold, dtype=np.int64), np.asarray(mode, dtype=np.uint8),
            np.maximum(S, te), te, targets, self.cls_lev, self.cls_top, self.cls_low,
            self.cls_flags, self.cls_nbr, self.qa, self.ra, out_cls, out_line, answer_hex, answer)
        return (out_cls[:count].astype(np.int64), out_line[:count].astype(np.int64),
                answer_hex, answer)

    def _reversible(self, dxs: np.ndarray, dys: np.ndarray) -> np.ndarray:
        """Per pixel difference: whether the walk back visits the same pixels, in reverse
        (``raster_kernel.reversible``), kept per difference (sorted keys, looked up)."""
        keys = np.asarray(dxs, dtype=np.int64) * 65536 + np.asarray(dys, dtype=np.int64)
        known, same = self._reversible_keys, self._reversible_same
        at = np.minimum(np.searchsorted(known, keys), max(len(known) - 1, 0))
        found = (known[at] == keys) if len(known) else np.zeros(len(keys), dtype=bool)
        if not found.all():
            new = np.unique(keys[~found])
            ndx = (new + 32768) // 65536
            known = np.concatenate([known, new])
            same = np.concatenate([same, compiled().reversible(ndx, new - ndx * 65536, self.W)])
            order = np.argsort(known, kind="stable")
            known, same = known[order], same[order]
            self._reversible_keys, self._reversible_same = known, same
            at = np.searchsorted(known, keys)
        return same[at]

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

    def _along_copies(self, p, v: int, along: np.ndarray) -> None:
        """A line along hexsides: of the points ``p`` being judged (``raster_table``), those
        between two hexes (at odd ranges, in both hexes' extended borders) judged as in both,
        each with its inherent centre terrain (VASL's checkLOSOnHexsideRule): a copy of each
        in the other hex, in the walk's order."""
        hexi, hx, code, g, side, at_centre, line, t, on_map, in_end, in_v, edge = (
            p.hexi, p.hx, p.code, p.g, p.side, p.at_centre, p.line, p.t, p.on_map, p.in_end,
            p.in_v, p.edge)
        sel = np.flatnonzero(along[line] & ~in_end & on_map & (edge != 0))
        both = sel[self._range(v, hx[sel]) % 2 == 1]
        if not len(both):
            return
        nbs = self.nb[hx[both]]
        edge_bits = ((edge[both][:, None] >> np.arange(6)[None, :]) & 1) == 1
        ok = edge_bits & (nbs >= 0) & (nbs != v) & (nbs != t[both][:, None])
        has = ok.any(axis=1)
        both = both[has]
        k = np.argmax(ok[has], axis=1)
        other = nbs[has, k]
        raw = code[both]
        code[both] = inherent_instead(self.centre_code[hx[both]], raw)
        # the copy judged in the other hex (from its side of the shared hexside)
        hexi = np.concatenate([hexi, other])
        hx = np.concatenate([hx, other])
        code = np.concatenate([code, inherent_instead(self.centre_code[other], raw)])
        g = np.concatenate([g, g[both]])
        side = np.concatenate([side, (k + 3) % 6])
        at_centre = np.concatenate([at_centre, np.zeros(len(both), dtype=bool)])
        line = np.concatenate([line, line[both]])
        t = np.concatenate([t, t[both]])
        on_map = np.concatenate([on_map, np.ones(len(both), dtype=bool)])
        in_end = np.concatenate([in_end, np.zeros(len(both), dtype=bool)])
        # each copy right after its point: the walk's order (both is ascending)
        count = len(p.hexi)
        shift = np.zeros(count + 1, dtype=np.int64)
        shift[both + 1] = 1
        shift = np.cumsum(shift[:count])           # copies before each point
        o = np.empty(count + len(both), dtype=np.int64)
        o[np.arange(count) + shift] = np.arange(count)
        o[both + np.arange(1, len(both) + 1)] = np.arange(count, count + len(both))
        in_v = np.concatenate([in_v, np.zeros(len(both), dtype=bool)])
        (p.hexi, p.hx, p.code, p.g, p.side, p.at_centre, p.line, p.t, p.on_map, p.in_end,
         p.in_v) = (a[o] for a in (hexi, hx, code, g, side, at_centre, line, t, on_map, in_end,
                                   in_v))

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


def compiled():
    """The compiled walk (``raster_kernel``, numba): loaded on the first map whose boards are
    drawn (a tenth of a second or two; compiled and cached beside it the first time, a few
    seconds), never for the hex model."""
    from . import raster_kernel
    return raster_kernel


def inherent_instead(centre: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """What a point between two hexes counts as in one of them (VASL's checkLOSOnHexsideRule):
    the hex's inherent centre terrain, except jungle or bamboo over water drawn there."""
    jungle = (centre == _DENSE_JUNGLE) | (centre == _BAMBOO)
    return np.where(INHERENT[centre] & ~(jungle & WATER_T[drawn]), centre, drawn)
