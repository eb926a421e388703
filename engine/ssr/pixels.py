"""Terrain SSRs over a board's terrain as drawn: VASL's pixel grids (rules.md 11.2, VASL's
``VASLBoard.applyColorSSRules``), vectorised over the ``Raster``'s ``terrain`` and ``level``.

The rules that look at hexes (bridges, woods roads, bamboo, dense jungle, swamp) read VASL's
hex grid as it stood before the rules (VASL resets its hexes only after the whole list): a hex's
centre terrain is the pixel at its truncated centre, its hexside terrain the pixel one pixel in
from a side's middle, and a pixel belongs to the hex whose centre is nearest.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..hexes import rows_of_column
from ..raster_file import Raster, terrain_table
from . import table as T


@lru_cache(maxsize=1)
def codes() -> dict[str, int]:
    """VASL terrain name -> code (VASL's ``Map.getTerrain``)."""
    return {t.name: c for c, t in terrain_table().items()}


def _category(cat: str) -> np.ndarray:
    m = np.zeros(256, dtype=bool)
    for c, t in terrain_table().items():
        m[c] = t.category == cat
    return m


@dataclass(frozen=True)
class HexGrid:
    """VASL's hexes over a raster: centres (truncated, VASL's LOS points), the hex of every
    pixel (on demand), centre terrain and level and hexside terrain before the rules."""
    cols: np.ndarray
    rows: np.ndarray
    cx: np.ndarray
    cy: np.ndarray
    centre_terrain: np.ndarray
    centre_level: np.ndarray
    side_terrain: np.ndarray       # (hexes, 6): VASL's hexside locations, 0 = top, clockwise
    raster: Raster

    @property
    def pixel_hex(self) -> np.ndarray:
        """int32 (H, W): the index of the hex holding each pixel."""
        return _pixel_hex(self.raster.shape, tuple(self.raster.geometry), tuple(self.raster.size))


def hex_grid(raster: Raster) -> HexGrid:
    r = raster
    a1x, a1y, w, h = r.geometry
    cols, rows = [], []
    for c in range(r.size[0]):
        for n in rows_of_column(c, r.size[1]):
            cols.append(c)
            rows.append(n)
    col = np.array(cols, dtype=np.int64)
    row = np.array(rows, dtype=np.int64)
    x, y = _centres(col, row, r.geometry)
    height, width = r.shape
    cx = np.clip(x.astype(np.int64), 0, width - 1)
    cy = np.clip(y.astype(np.int64), 0, height - 1)
    vo = h / 2
    ho = math.cos(math.radians(30.0)) * vo
    # VASL's Hex: hexside points, the side's middle moved a pixel toward the centre
    dx = [(0, 0), (ho, -1), (ho, -1), (0, 0), (-ho, 1), (-ho, 1)]
    dy = [(-vo, 1), (-vo / 2, 1), (vo / 2, -1), (vo, -1), (vo / 2, -1), (-vo / 2, 1)]
    sides = np.empty((len(col), 6), dtype=np.uint8)
    for s in range(6):
        sx = np.clip((x + dx[s][0] + dx[s][1]).astype(np.int64), 0, width - 1)
        sy = np.clip((y + dy[s][0] + dy[s][1]).astype(np.int64), 0, height - 1)
        sides[:, s] = r.terrain[sy, sx]
    return HexGrid(col, row, cx, cy, r.terrain[cy, cx], r.level[cy, cx], sides, r)


def _centres(col: np.ndarray, row: np.ndarray, geometry) -> tuple[np.ndarray, np.ndarray]:
    """Pixel centres of (column, printed row) hexes: VASL's row index is the printed row minus
    one in even columns and the printed row in odd ones."""
    a1x, a1y, w, h = geometry
    odd = col % 2
    return a1x + w * col, a1y + h * (row - 1 + odd) - h / 2 * odd


@lru_cache(maxsize=4)
def _pixel_hex(shape: tuple[int, int], geometry: tuple, size: tuple[int, int]) -> np.ndarray:
    """The nearest hex centre of every pixel (VASL's hexagons are regular: the nearest centre
    is the hex that holds the pixel), as indices in ``hex_grid``'s order."""
    a1x, a1y, w, h = geometry
    height, width = shape
    cols = np.arange(size[0])
    first = np.array([rows_of_column(c, size[1]).start for c in cols])
    count = np.array([len(rows_of_column(c, size[1])) for c in cols])
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    xs = np.arange(width, dtype=float)
    ys = np.arange(height, dtype=float)[:, None]
    best = np.full(shape, np.inf)
    out = np.zeros(shape, dtype=np.int32)
    c0 = np.floor((xs - a1x) / w).astype(np.int64)
    for dc in (0, 1):
        c = np.clip(c0 + dc, 0, size[0] - 1)
        odd = c % 2
        n = np.rint((ys - a1y + h / 2 * odd) / h).astype(np.int64) + 1 - odd
        n = np.clip(n, first[c], first[c] + count[c] - 1)
        x, y = _centres(c, n, geometry)
        d = (xs - x) ** 2 + (ys - y) ** 2
        closer = d < best
        best = np.where(closer, d, best)
        out = np.where(closer, start[c] + n - first[c], out).astype(np.int32)
    return out


def _disc(shape: tuple[int, int], cx: np.ndarray, cy: np.ndarray, radius: float):
    """Pixels (ys, xs) strictly within ``radius`` of the centres (Java's Ellipse2D.contains)."""
    k = int(math.ceil(radius))
    oy, ox = np.mgrid[-k:k + 1, -k:k + 1]
    keep = ox ** 2 + oy ** 2 < radius ** 2
    ox, oy = ox[keep], oy[keep]
    xs = (cx[:, None] + ox[None, :]).ravel()
    ys = (cy[:, None] + oy[None, :]).ravel()
    on = (xs >= 0) & (ys >= 0) & (xs < shape[1]) & (ys < shape[0])
    return ys[on], xs[on]


@dataclass
class PixelResult:
    raster: Raster
    outcome: T.Outcome
    woods_hexes: list          # (col, row) given a disc of woods (woods roads)


def apply_to_raster(raster: Raster, names) -> PixelResult:
    """The raster with the rules ``names`` applied in order (rules.md 11.2), and what became of
    each name.  Pure: the given raster is not changed."""
    r = raster
    t = r.terrain.copy()
    lv = r.level.copy()
    out = T.Outcome()
    grid = None
    woods: list = []
    pto = False
    table = T.rules()
    for name in T.unique(names):
        rule = table.get(name)
        if rule is None:
            out.not_applied.append(name)
            continue
        if rule.type == T.CUSTOM and grid is None:
            grid = hex_grid(r)
        done = _apply_rule(rule, t, lv, grid, woods)
        if done is None:
            out.not_applied.append(name)
        elif done:
            out.applied.append(name)
        else:
            out.no_effect.append(name)
        pto = pto or name in T.PTO_RULES
    if pto:          # rules.md 11.2 (G2.1: in the PTO, woods are light jungle)
        t[t == codes()["Woods"]] = codes()["Light Jungle"]
    new = Raster(t, lv, r.geometry, r.size, r.summary)
    return PixelResult(new, out, woods)


def _apply_rule(rule: T.SsrRule, t: np.ndarray, lv: np.ndarray, grid: HexGrid | None,
                woods: list) -> bool | None:
    """One rule on the grids, in place: True applied, False no LOS effect, None not applied."""
    c = codes()
    if rule.type == T.IGNORE:              # rules.md 11.2: no LOS effect (Winter, Mud...)
        return False
    if rule.type == T.TERRAIN_MAP:         # every pixel of terrain A becomes B
        a, b = c.get(rule.source), c.get(rule.target)
        if a is None or b is None:         # a terrain VASL's table lacks: nothing changes
            return False
        t[t == a] = b
        return True
    if rule.type == T.ELEVATION_MAP:       # level n becomes m
        n, m = T.level_of(rule.source), T.level_of(rule.target)
        if n is None or m is None:         # VASL cannot read it and turns LOS off
            return None
        lv[lv == n] = m
        return True
    if rule.type == T.TERRAIN_TO_ELEVATION:     # the terrain takes level v, becomes open ground
        a, v = c.get(rule.source), T.level_of(rule.target)
        if a is None or v is None:
            return None
        hit = t == a
        lv[hit] = v
        t[hit] = c["Open Ground"]
        return True
    if rule.type == T.ELEVATION_TO_TERRAIN:     # level n becomes level 0 of terrain T
        n, b = T.level_of(rule.source), c.get(rule.target)
        if n is None or b is None:
            return None
        hit = lv == n
        lv[hit] = 0
        t[hit] = b
        return True
    if rule.type == T.CUSTOM:
        return _custom(rule.name, t, lv, grid, woods)
    return None


def _custom(name: str, t: np.ndarray, lv: np.ndarray, grid: HexGrid, woods: list) -> bool | None:
    """VASL's hand-coded rules (rules.md 11.2)."""
    c = codes()
    if name == "NoStairwells":         # no hex has a stairway: no line between hexes changes
        return False
    if name in ("RowhouseBarsToBuildings", "RowhouseBarsToOpenGround"):
        # rowhouse walls become stone building of the same height, or open ground (B23.71)
        suffix = ["", ", 1 Level", ", 2 Level", ", 3 Level", ", 4 Level"]
        for s in suffix:
            to = c["Stone Building" + s] if name.endswith("Buildings") else c["Open Ground"]
            t[t == c["Rowhouse Wall" + s]] = to
        return True
    if name in ("NoBridge", "BridgeToFord"):
        _bridges_to_ford(t, lv, grid)
        return True
    if name in T.WOODS_ROADS:
        _woods_roads(t, grid, woods)
        return True
    if name == "Bamboo":               # brush is bamboo (G3.1); hexes of bamboo filled
        t[t == c["Brush"]] = c["Bamboo"]
        _fill_hexes(t, grid, grid.centre_terrain == c["Bamboo"], c["Bamboo"])
        return True
    if name == "PalmTrees":            # orchards are palm trees (rules.md 11.2)
        t[(t == c["Orchard"]) | (t == c["Orchard, Out of Season"])] = c["Palm Trees"]
        return True
    if name == "DenseJungle":          # woods hexes are dense jungle, water kept (G2.1)
        _fill_hexes(t, grid, grid.centre_terrain == c["Woods"], c["Dense Jungle"],
                    keep=_category("WATER"))
        t[t == c["Woods"]] = c["Dense Jungle"]
        return True
    if name == "SwampToSwampPattern":
        _swamp(t, grid)
        return True
    return None


def _fill_hexes(t: np.ndarray, grid: HexGrid, which: np.ndarray, code: int,
                keep: np.ndarray | None = None) -> None:
    """Every pixel of the chosen hexes becomes ``code`` (VASL's setGridTerrain on the hex
    border); pixels whose terrain is in ``keep`` stay."""
    if not which.any():
        return
    hit = which[grid.pixel_hex]
    if keep is not None:
        hit &= ~keep[t]
    t[hit] = code


def _bridges_to_ford(t: np.ndarray, lv: np.ndarray, grid: HexGrid) -> None:
    """Bridge pixels become gully, and a disc of radius hexHeight/3 at the centre of each hex
    holding a bridge goes a level down (the hex's base, kept if a depression already)."""
    bridge = _category("BRIDGE")[t]
    if not bridge.any():
        return
    hexes = np.unique(grid.pixel_hex[bridge])
    t[bridge] = codes()["Gully"]
    depression = _category("DEPRESSION")[grid.centre_terrain[hexes]]
    base = grid.centre_level[hexes].astype(np.int16) - np.where(depression, 0, 1)
    h = grid.raster.geometry[3]
    for value in np.unique(base):
        sel = hexes[base == value]
        ys, xs = _disc(t.shape, grid.cx[sel], grid.cy[sel], h / 3)
        lv[ys, xs] = value


def _woods_roads(t: np.ndarray, grid: HexGrid, woods: list) -> None:
    """A disc of woods (radius hexHeight/3) at the centre of each woods-road hex: a road at
    the centre, woods on a hexside (rules.md 11.2; woods roads B13.6)."""
    c = codes()
    which = _category("ROAD")[grid.centre_terrain] & (grid.side_terrain == c["Woods"]).any(1)
    sel = np.flatnonzero(which)
    if not len(sel):
        return
    ys, xs = _disc(t.shape, grid.cx[sel], grid.cy[sel], grid.raster.geometry[3] / 3)
    t[ys, xs] = c["Woods"]
    woods.extend(zip(grid.cols[sel].tolist(), grid.rows[sel].tolist()))


def _swamp(t: np.ndarray, grid: HexGrid) -> None:
    """Marsh hexes next to woods or jungle: their marsh pixels become swamp (G8)."""
    c = codes()
    near = np.zeros(256, dtype=bool)
    near[[c["Woods"], c["Light Jungle"], c["Dense Jungle"]]] = True
    index = {(a, b): i for i, (a, b) in enumerate(zip(grid.cols.tolist(), grid.rows.tolist()))}
    marsh = np.flatnonzero(grid.centre_terrain == c["Marsh"])
    chosen = np.zeros(len(grid.cols), dtype=bool)
    for i in marsh:
        around = T.around(int(grid.cols[i]), int(grid.rows[i]))
        chosen[i] = any(near[grid.centre_terrain[index[k]]] for k in around if k in index)
    if chosen.any():
        hit = chosen[grid.pixel_hex] & (t == c["Marsh"])
        t[hit] = c["Swamp"]
