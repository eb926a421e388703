"""Hexside terrain on the hex model's lines (rules.md 7, VASL's ``Map.java``).

A line crosses *hexsides* (``geometry``: the side of the first hex each one is, and its flag);
per map, an array of hexside terrain codes (hex x side) makes "what lies on every hexside of
every line of a viewer" one gather.

- Walls, hedges, cactus hedges (B9.2): block when the hexside's ground level (the higher of its
  two hexes') equals both ends' elevations.  Bocage (B9.52) and rowhouse walls (B23.71): an
  obstacle on the hexside, top = its ground + 1 (a rowhouse wall: its building's top), judged by
  A6.2 and A6.4 like a hex, with ranges counted from the hex of the side nearer the lower end.
- Walls, hedges and bocage are ignored on the viewer's or target's own hexsides; walls and
  hedges also on the hexsides radiating from their vertices (hexspines; VASL's
  ``isIgnorableHexsideTerrain``).  VASL's extra case for a line running along a hexspine
  (``LOSHexspine``) is not followed.
- A line running exactly along a hexside with terrain on it crosses that terrain, as in VASL
  (the terrain lies on the hexside; rules.md 7, B9.2 / B9.52): the hexspine runs below.
- Cliffs: a crest whose hexside towards the lower end is a cliff makes blind hexes by the
  obstacle formula (VASL's ``nearestHexsideIsCliff``: +1, at least 1), counted from the cliff's
  top hex.
"""
from __future__ import annotations

import numpy as np

from ..terrain import HEXSIDE_BY_CODE, HEXSIDES
from .day_lines import BLIND, CLEAR, EQUAL, HIGHER, WALL
from .geometry import CROSSINGS, OWN, hex_distance

# hexside terrain kinds (terrain.Hexside.kind) as small integers
_SIDE_KINDS = {"wall": 1, "obstacle": 2, "cliff": 3}
_SK_WALL, _SK_OBSTACLE, _SK_CLIFF = 1, 2, 3
_SIDE_KIND = np.array([0] + [_SIDE_KINDS[h.kind] for h in HEXSIDE_BY_CODE[1:]], np.int8)
_SIDE_HEIGHT = np.array([0] + [h.height for h in HEXSIDE_BY_CODE[1:]], np.int64)
_SIDE_IGNORABLE = np.array([False] + [h.ignorable for h in HEXSIDE_BY_CODE[1:]])
_SIDE_SPINE = np.array([False] + [h.spine_ignorable for h in HEXSIDE_BY_CODE[1:]])
_ROWHOUSE = HEXSIDES["rowhouse_wall"].code
# hexside terrain that is not a wall or hedge (those block only same-level lines, B9.2)
_NOT_WALL = _SIDE_KIND != _SK_WALL
_NONWALL, _NOSIDE = -(2 ** 40), -(2 ** 41)
_FIVE = np.arange(5)      # LosTable.side_value: no level is either
OFF_MAP_LEVEL = -10**6      # what lies off the map: below anything, so never in the way
FAR = np.iinfo(np.int64).max


class HexsideTerrain:
    """The hexside-terrain half of ``hex_table.LosTable`` (see the module doc): its per-map
    arrays and the rules of rules.md 7 on them."""

    def _build_hexsides(self, m) -> None:
        """Hexside terrain codes per lookup-grid cell and side (7 slots: side 6 is "none"), set
        from both hexes of each hexside, also in the cells just off the map (rules.md 7)."""
        side = np.zeros(len(self.grid) * 7, dtype=np.int8)
        ii, kk = np.nonzero(m.hexside)
        codes = m.hexside[ii, kk]
        side[self.cell_of[ii] * 7 + kk] = codes
        beyond = self.cell_of[ii] + self.step_of[kk]
        np.maximum.at(side, beyond * 7 + (kk + 3) % 6, codes)
        # three layers, by the crossing's flag: 0 all terrain; SPINE: what a hexspine of an
        # end does not hide; OWN: what an end's own hexside does not hide (B9.2, B9.52)
        self.layer = len(side)
        spine_seen = np.append(~_SIDE_SPINE, False)[side] | (side == 0)
        own_seen = np.append(~_SIDE_IGNORABLE, False)[side] | (side == 0)
        self.side_grid = np.concatenate([side, np.where(spine_seen, side, 0),
                                         np.where(own_seen, side, 0)]).astype(np.int8)
        # the hexside's ground: the higher of its two hexes' (rules.md 7), by the same index
        ground = np.full(len(self.grid) * 7, OFF_MAP_LEVEL, dtype=np.int64)
        g = self.ground[ii]
        np.maximum.at(ground, self.cell_of[ii] * 7 + kk, g)
        np.maximum.at(ground, beyond * 7 + (kk + 3) % 6, g)
        near = self.grid[beyond]
        on = near >= 0
        np.maximum.at(ground, self.cell_of[ii[on]] * 7 + kk[on], self.ground[near[on]])
        np.maximum.at(ground, beyond[on] * 7 + (kk[on] + 3) % 6, self.ground[near[on]])
        self.side_ground = np.tile(ground, 3)
        # by the same index: a wall's or hedge's ground level (B9.2: it blocks lines whose
        # ends are both there), _NONWALL for other hexside terrain, _NOSIDE for none
        kind = _SIDE_KIND[self.side_grid]
        self.side_value = np.where(kind == _SK_WALL, self.side_ground,
                                   np.where(self.side_grid != 0, _NONWALL, _NOSIDE))
        # the hex of each cell, by the same index
        self.grid7 = np.tile(np.repeat(self.grid, 7), 3)
        # what the sparse checks may skip: no bocage, cliff or rowhouse wall anywhere; none
        # of what an end's own hexside does not hide (cliffs, rowhouse walls)
        self.any_nonwall = bool(np.any(_NOT_WALL[codes]))
        self.any_own_seen = bool(np.any(~_SIDE_IGNORABLE[codes]))

    def _side_terrain_met(self, ids, base, xside, hexes, pairs, ends, first_t):
        """The hexside terrain the lines cross that blocks them (rules.md 7): (side_hit,
        spine_walls), for ``_first_side_blocks``; each line's first block lowers ``first_t``."""
        C = CROSSINGS
        hi_t, lo_t, viewer, viewer_elev, targets, te = ends
        spos, sowner = pairs.spos, pairs.sowner
        side_hit = spine_walls = None
        if self.any_sides and (self.any_nonwall or self.any_own_seen):
            found = self._sides_met(base, hexes.where, hexes.sval, hexes.owner, hexes.t, targets,
                                    ids, xside, hi_t == lo_t, spos, sowner)
            if found is not None:
                code, xwhere, xo, xt = found
                xblock, xkind = self._side_blocks(code, xwhere, xo, hi_t, lo_t, viewer,
                                                  viewer_elev, targets, te)
                xb = np.flatnonzero(xblock)
                if len(xb):
                    np.minimum.at(first_t, xo[xb], xt[xb])
                    side_hit = (xb, xo, xt, xwhere, code, xkind)
        elif self.any_sides and len(spos):
            # walls and hedges only (the map's other hexside terrain is none): those on the
            # hexsides of lines along a hexspine block the lines whose two ends are at their
            # ground level (B9.2), as ``_sides_met`` and ``_side_blocks`` find them
            xwhere = xside[spos] + 7 * base               # 5 hexsides per run
            xval = self.side_value[xwhere].ravel()
            k = np.flatnonzero(xval > _NONWALL)
            if len(k):
                xo = sowner[k // 5]
                k = k[(xval[k] == hi_t[xo]) & (xval[k] == lo_t[xo])]
                if len(k):
                    xo, xt, xwhere = sowner[k // 5], C.xt[5 * spos[k // 5] + k % 5], \
                        xwhere.ravel()[k]
                    np.minimum.at(first_t, xo, xt)
                    spine_walls = (xo, xt, xwhere)
        return side_hit, spine_walls

    def _first_side_blocks(self, side_hit, spine_walls, first_t, six, out) -> None:
        """Lines whose first block is hexside terrain (rules.md 7; not those six hindrances
        block first, A6.1): the hexside, its terrain and why, into ``out``."""
        kind, b1_out, b2_out, side_out = out
        if spine_walls is not None:          # walls and hedges along hexspines (B9.2)
            xo, xt, xwhere = spine_walls
            sel = np.flatnonzero((xt == first_t[xo]) & ~six[xo])
            if len(sel):                # each line's first (its entries are in order)
                sel = sel[np.concatenate([[True], xo[sel[1:]] != xo[sel[:-1]]])]
                o = xo[sel]
                b1_out[o], b2_out[o] = self._side_hexes(xwhere[sel])
                side_out[o] = self.side_grid[xwhere[sel]]
                kind[o] = WALL
        if side_hit is not None and len(side_hit[0]):
            xb, xo, xt, xwhere, code, xkind = side_hit
            sel = xb[xt[xb] == first_t[xo[xb]]]
            o, first = np.unique(xo[sel], return_index=True)
            mine = ~six[o]
            o, first = o[mine], first[mine]
            b1_out[o], b2_out[o] = self._side_hexes(xwhere[sel[first]])
            side_out[o] = code[sel[first]]
            kind[o] = xkind[sel[first]]


    def _sides_met(self, base, where_i, sval, owner, t, targets, ids, xside, same, spos, sowner):
        """The hexside terrain the lines cross and that may block them: (codes, where, line,
        order), or None.  ``where`` = 7 x the lookup-grid cell of the hex the line enters by
        the hexside + its side (``_side_hexes`` names both hexes; ``side_grid`` and
        ``side_ground`` are indexed by it).  Entering each interior hex, then the target: one
        gather each; lines along a hexspine: their own short list.  Left out at once: terrain
        ignored on an end's own hexside or hexspine (B9.2, B9.52), and walls and hedges on
        lines between two elevations (``same``: per line, both ends at one level)."""
        C = CROSSINGS
        sg = self.side_grid
        parts = []
        if self.any_nonwall:
            e = np.flatnonzero(sval == _NONWALL)    # walls and hedges: in _blocks
            if len(e):
                parts.append((where_i[e], owner[e], t[e] - 1))
        if self.any_own_seen:                       # the target's own hexside
            where = 7 * self.cell_of[targets] + C.tdir[ids] + OWN * self.layer
            e = np.flatnonzero(sg[where] != 0)
            if len(e):
                parts.append((where[e], e, np.full(len(e), FAR - 1, np.int64)))
        if len(spos):                   # lines along a hexspine: 5 hexsides per run
            xpos = ((5 * spos)[:, None] + _FIVE).ravel()
            xowner = np.repeat(sowner, 5)
            where = 7 * base + xside[spos].ravel()
            e = np.flatnonzero(sg[where] != 0)
            if len(e):
                parts.append((where[e], xowner[e], C.xt[xpos[e]]))
        if not parts:
            return None
        where, line, order = (np.concatenate(a) for a in zip(*parts)) if len(parts) > 1 \
            else parts[0]
        code = sg[where]
        k = np.flatnonzero(same[line] | _NOT_WALL[code])     # B9.2: walls, same-level lines
        if not len(k):
            return None
        return code[k], where[k], line[k], order[k]

    def _side_hexes(self, where):
        """The two hexes (map indices, -1 off the map) of hexsides ``where`` (see _sides_met),
        the one nearer the line's start first."""
        cell = (where % self.layer) // 7
        return self.grid[cell + self.step_of[where % 7]], self.grid[cell]

    def _side_blocks(self, code, where, owner, hi_t, lo_t, viewer, viewer_elev, targets, te):
        """(blocks, kind) for hexside terrain ``code`` at hexsides ``where`` (see _sides_met)
        on lines owner (rules.md 7: B9.2, B9.52, B23.71, cliffs)."""
        sk = _SIDE_KIND[code]
        hi, lo = hi_t[owner], lo_t[owner]
        g = self.side_ground[where]                   # the hexside's ground
        # B9.2: a wall or hedge blocks a line whose two ends are at its ground level
        wall = sk == _SK_WALL
        block = wall & (g == hi) & (g == lo)
        kind = np.where(block, WALL, CLEAR).astype(np.int8)
        rest = np.flatnonzero(~wall)
        if not len(rest):
            return block, kind
        # B9.52 / B23.71: an obstacle on the hexside, judged by A6.2 and A6.4; cliffs: A6.4
        code, g, hi, lo, o = code[rest], g[rest], hi[rest], lo[rest], owner[rest]
        h1, h2 = self._side_hexes(where[rest])
        top = g + _SIDE_HEIGHT[code]
        row = code == _ROWHOUSE
        if row.any():
            top[row] = np.maximum(top[row], np.maximum(self.top[h1[row]], self.top[h2[row]]))
        ob = _SIDE_KIND[code] == _SK_OBSTACLE
        higher = ob & (top > hi)
        equal = ob & (top == hi) & (top > lo)
        sub = np.where(equal, EQUAL, CLEAR)
        sub = np.where(higher, HIGHER, sub)
        # A6.4 behind an obstacle hexside (from its hex nearer the lower end) or a cliff (from
        # its top hex)
        cliff = (_SIDE_KIND[code] == _SK_CLIFF) & (g > lo) & (g < hi)
        b = np.flatnonzero((ob & (top > lo) & (top < hi)) | cliff)
        if len(b):
            m = self.map
            ob_ = o[b]
            v_hi = viewer_elev > te[ob_]
            tq, tr = m.q[targets[ob_]], m.r[targets[ob_]]
            vq, vr = m.q[viewer], m.r[viewer]
            lq, lr = np.where(v_hi, tq, vq), np.where(v_hi, tr, vr)     # the lower end
            uq, ur = np.where(v_hi, vq, tq), np.where(v_hi, vr, tr)     # the higher end
            a1, a2 = h1[b], h2[b]
            D1 = np.where(a1 >= 0, hex_distance(m.q[a1] - lq, m.r[a1] - lr), FAR)
            D2 = np.where(a2 >= 0, hex_distance(m.q[a2] - lq, m.r[a2] - lr), FAR)
            R1 = hex_distance(m.q[a1] - uq, m.r[a1] - ur)
            R2 = hex_distance(m.q[a2] - uq, m.r[a2] - ur)
            # the side's hex nearer the lower end (then farther from the higher); a cliff's top
            first = (D1 < D2) | ((D1 == D2) & (R1 >= R2))
            g1, g2 = self.ground[a1], self.ground[a2]
            first = np.where(cliff[b] & (g1 != g2), g1 > g2, first)
            D = np.where(first, D1, D2)
            R = np.where(first, R1, R2)
            t = np.where(cliff[b], g[b], top[b])
            blind = D <= np.maximum(2 * t + R // 5 - hi[b] - lo[b] + 1, 1)
            sub[b[blind]] = BLIND
        kind[rest] = sub
        block[rest] = sub != CLEAR
        return block, kind
