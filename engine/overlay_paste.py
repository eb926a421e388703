"""A VASL overlay placed on a board and pasted into its terrain as drawn (rules.md 11.3; newer
VASL's ``ASLMap.adjustLOSForOverlays``): pure functions over a board's pixel arrays (a Raster's
``terrain`` uint8 and ``level`` int8, image order), used by the night loader's board pipeline
(SSRs on the pixels, then overlays, then turning: rules.md 11.2).

- ``place_overlay``: the orientation a..f from the record's two hexes and the image's top-left in
  the board's own pixels (hex1's position minus the origin hex's), before crop and turning.
- ``paste_overlay``: opaque pixels laid on the board's, transparent ones keep the board's; hexside
  terrain only within ``HEXSIDE_REACH`` pixels of a hexside's centre; the hexes under the
  overlay re-derived from the pasted pixels as the board importers derive them
  (``raster_hexes.sample_hexes``).
- ``overlay_picture``: the image to draw and its top-left on the board.
"""
from __future__ import annotations

import dataclasses
import io
import math
import re
from dataclasses import dataclass

import numpy as np

from .boards import MAX_LEVEL, Board, HexTerrain
from .errors import ScenarioError
from .hexes import PLAIN, Naming, board_hexes, column_index
from .overlay_file import KEEP_LEVEL, KEEP_TERRAIN, MAX_PIXELS, OverlayFile, OverlayImage
from .raster_file import Raster, terrain_table
from .raster_hexes import pixel_centres, sample_hexes, sample_radius
from .vasl_terrain import VASL_TERRAIN

HEXSIDE_CODES = np.zeros(256, dtype=bool)        # VASL's hexside terrain (walls, hedges...)
for _code, _t in terrain_table().items():
    HEXSIDE_CODES[_code] = _t.category == "HEXSIDE"

GEOMORPHIC = (0.0, 32.25, 56.25, 64.5)  # a geomorphic board's [a1_x, a1_y, hex_width, hex_height]
HEXSIDE_REACH = 10.0                    # rules.md 11.3: hexside terrain within 10 px of a side
LEFT_TO_SSR = ("NoCliffs", "LightWoods", "RB_Gutted")   # rules.md 11.3: their SSR applies them
_HEX_RE = re.compile(r"^([A-Za-z]{1,4})(\d{1,3})$")


def left_to_ssr(name: str) -> bool:
    """rules.md 11.3: overlays named NoCliffs, LightWoods, RB_Gutted are not pasted (the SSR of
    that name changes the terrain)."""
    return any(word in name for word in LEFT_TO_SSR)


def hex_location(name: str, geometry=GEOMORPHIC, shift: tuple[int, int] = (0, 0),
                 naming: Naming = PLAIN) -> tuple[int, int]:
    """The whole-pixel centre of hex ``name`` (``N4``, ``b2``, ``gg10``: any case) on a board
    drawn with ``geometry`` that names its hexes by ``naming`` (rules.md 11.6: a "b" half's
    ``Q5`` is its first column); ``shift`` (columns, rows) moves an overlay's origin hex onto
    the board's own names (rules.md 11.3)."""
    m = _HEX_RE.match(name.strip()) if isinstance(name, str) else None
    if m is None or len(set(m.group(1).upper())) != 1:
        raise ScenarioError(f"{name!r} is not a hex name (a column A..Z, AA..GG, then a row)")
    col, row = naming.position(column_index(m.group(1).upper()), int(m.group(2)))
    col, row = col + shift[0], row + shift[1]
    x, y = pixel_centres(tuple(float(v) for v in geometry), col, row)
    return int(math.floor(x + 0.5)), int(math.floor(y + 0.5))   # VASL's points: whole pixels


def origin_shift(geometry) -> tuple[int, int]:
    """rules.md 11.3: an overlay's origin hexes are named from the first column and row of a
    whole board; on a board whose A1 lies outside its picture (the b halves of half boards,
    1b..15b: columns on from 16; BFPDW..b: rows on from 10) they move by as many hexes."""
    a1_x, a1_y, hex_width, hex_height = (float(v) for v in geometry)
    columns = int(round(-a1_x / hex_width)) if a1_x < 0 else 0
    rows = int(round(-a1_y / hex_height)) if a1_y < 0 else 0
    return columns, rows


def orientation(hex1: str, hex2: str, images, geometry=GEOMORPHIC, naming: Naming = PLAIN
                ) -> str:
    """rules.md 11.3: ``a`` for a one-hex overlay (hex1 = hex2, or an ``a`` image and no ``d``);
    else from the two hexes' positions: same x: ``d`` if hex1 is above hex2, else ``a``; hex1
    right of hex2: ``f`` if lower, else ``e``; hex1 left: ``b`` if lower, else ``c``."""
    if hex1.strip().lower() == hex2.strip().lower() or ("a" in images and "d" not in images):
        return "a"
    x1, y1 = hex_location(hex1, geometry, naming=naming)
    x2, y2 = hex_location(hex2, geometry, naming=naming)
    if x1 == x2:
        return "d" if y1 < y2 else "a"
    if x1 > x2:
        return "f" if y1 > y2 else "e"
    return "b" if y1 > y2 else "c"


@dataclass(frozen=True, eq=False)
class PlacedOverlay:
    """An overlay on one board: its image in the chosen orientation and the image's top-left in
    the board's own pixels (before crop and turning)."""
    overlay: OverlayFile
    image: OverlayImage
    orientation: str
    x: int
    y: int
    hex1: str
    hex2: str

    @property
    def name(self) -> str:
        return self.overlay.name


def place_overlay(overlay: OverlayFile, hex1: str, hex2: str, geometry=GEOMORPHIC,
                  shift: tuple[int, int] | None = None, naming: Naming = PLAIN
                  ) -> PlacedOverlay:
    """Place an ``OVR name hex1 hex2`` record (rules.md 11.1, 11.3) on a board drawn with
    ``geometry`` naming its hexes by ``naming`` (the record's hexes are VASL's names, rules.md
    11.6); ``shift`` defaults to ``origin_shift(geometry)``.  ScenarioError (place: the
    overlay's name) for a hex that is not one, an orientation without image or origin hex."""
    try:
        x1, y1 = hex_location(hex1, geometry, naming=naming)
        x2, y2 = hex_location(hex2, geometry, naming=naming)
        # VASL's Overlay.check: the two hexes of a record are neighbours (or one hex)
        if abs(x2 - x1) > 1.1 * float(geometry[2]) or abs(y2 - y1) > 1.1 * float(geometry[3]):
            raise ScenarioError(f"hexes {hex1} and {hex2} are not neighbours: an overlay's "
                                "record names one hex or two adjacent ones")
        o = orientation(hex1, hex2, overlay.images, geometry, naming)
        image = overlay.images.get(o)
        if image is None:
            raise ScenarioError(f"no image for orientation {o!r} (hexes {hex1} {hex2}); it has "
                                f"{', '.join(sorted(overlay.images)) or 'none'}")
        origin = overlay.origins["abcdef".index(o)].strip()
        if not origin:
            raise ScenarioError(f"no origin hex for orientation {o!r} in its data line")
        ox, oy = hex_location(origin, geometry, origin_shift(geometry) if shift is None else shift)
    except ScenarioError as e:
        raise e.at(place=f"overlay {overlay.name}") from None
    return PlacedOverlay(overlay, image, o, x1 - ox, y1 - oy, hex1, hex2)


@dataclass(frozen=True, eq=False)
class Pasted:
    """A board's pixels with an overlay pasted, and the hexes under it re-derived."""
    terrain: np.ndarray         # uint8 (H, W), a new array
    level: np.ndarray           # int8 (H, W), a new array
    hexes: dict                 # (col, row) -> HexTerrain of every hex whose pixels changed
    pixels: int                 # board pixels the overlay set
    covered: np.ndarray | None = None   # bool (H, W): the pixels whose terrain it set
    geometry: tuple = ()                # the board's [a1_x, a1_y, hex_width, hex_height]


def paste_overlay(terrain: np.ndarray, level: np.ndarray, geometry, size: tuple[int, int],
                  placed: PlacedOverlay, reach: float = HEXSIDE_REACH) -> Pasted:
    """rules.md 11.3: lay ``placed`` on a board's pixel arrays (not changed: new ones are
    returned).  Opaque pixels set the terrain and level their colour names (a colour naming
    none keeps the board's), transparent pixels and pixels off the board keep the board's;
    hexside terrain is set only within ``reach`` pixels of a hexside's centre
    (``HEXSIDE_REACH`` on a board read at every pixel)."""
    terrain = np.array(terrain, dtype=np.uint8, copy=True)
    level = np.array(level, dtype=np.int8, copy=True)
    H, W = terrain.shape
    im = placed.image
    h, w = im.shape
    bx0, by0 = max(0, placed.x), max(0, placed.y)
    bx1, by1 = min(W, placed.x + w), min(H, placed.y + h)
    if bx0 >= bx1 or by0 >= by1:
        return Pasted(terrain, level, {}, 0, None, tuple(geometry))
    win = (slice(by0, by1), slice(bx0, bx1))
    sl = (slice(by0 - placed.y, by1 - placed.y), slice(bx0 - placed.x, bx1 - placed.x))
    mask = im.mask[sl]
    set_t = mask & (im.terrain[sl] != KEEP_TERRAIN)
    side_y, side_x = np.nonzero(set_t & im.hexside[sl])
    if len(side_x):
        far = ~near_hexsides(geometry, side_x + bx0, side_y + by0, reach)
        set_t[side_y[far], side_x[far]] = False
    set_l = mask & (im.level[sl] != KEEP_LEVEL)
    terrain[win][set_t] = im.terrain[sl][set_t]
    level[win][set_l] = im.level[sl][set_l]
    changed = np.zeros((H, W), dtype=bool)
    changed[win] = set_t | set_l
    covered = np.zeros((H, W), dtype=bool)
    covered[win] = set_t
    hexes = rederived_hexes(terrain, level, geometry, size, changed, (bx0, by0, bx1, by1),
                            f"{placed.name} {placed.hex1}")
    return Pasted(terrain, level, hexes, int(changed[win].sum()), covered,
                  tuple(float(v) for v in geometry))


def near_hexsides(geometry, xs: np.ndarray, ys: np.ndarray, reach: float = HEXSIDE_REACH
                  ) -> np.ndarray:
    """bool per pixel (xs, ys): within ``reach`` pixels of a hexside's centre (halfway
    between two neighbouring hexes' centres)."""
    a1_x, a1_y, hw, hh = (float(v) for v in geometry)
    # hexside centres lie on a lattice half a column across, a quarter hex height down: the
    # sides above and below a hex in a column (k even), at a half-height offset in odd columns;
    # the slanting sides between columns (k odd) at odd quarter heights
    fx = (np.asarray(xs, float) - a1_x) / (hw / 2)
    fy = (np.asarray(ys, float) - a1_y) / (hh / 4)
    best = np.full(fx.shape, np.inf)
    span_k = int(math.ceil(reach / (hw / 2))) + 1
    span_m = int(math.ceil(reach / (hh / 4))) + 1
    for dk in range(-span_k, span_k + 1):
        k = np.floor(fx).astype(np.int64) + dk
        for dm in range(-span_m, span_m + 1):
            m = np.floor(fy).astype(np.int64) + dm
            side = np.where(k % 2 == 0, (m - 2 * ((k // 2) % 2)) % 4 == 2, m % 2 == 1)
            d = ((fx - k) * hw / 2) ** 2 + ((fy - m) * hh / 4) ** 2
            best = np.where(side & (d < best), d, best)
    return best <= reach ** 2


def rederived_hexes(terrain: np.ndarray, level: np.ndarray, geometry, size, changed: np.ndarray,
                    box, building: str) -> dict:
    """{(col, row): HexTerrain} of the hexes whose centre region holds a changed pixel, read
    from the pixels as the importers read a board's hexes (``raster_hexes.sample_hexes``); a
    building's hexes take the name ``building``."""
    hexes = board_hexes(size)
    cols = np.array([c for c, _ in hexes], dtype=np.int64)
    rows = np.array([r for _, r in hexes], dtype=np.int64)
    fx, fy = pixel_centres(tuple(float(v) for v in geometry), cols, rows)
    reach = sample_radius(float(geometry[3])) + 2
    x0, y0, x1, y1 = box
    near = (fx >= x0 - reach) & (fx < x1 + reach) & (fy >= y0 - reach) & (fy < y1 + reach)
    if not near.any():
        return {}
    cols, rows, fx, fy = cols[near], rows[near], fx[near], fy[near]
    code, lev, (Xc, Yc, inside, sx, sy) = sample_hexes(terrain.T, level.T, float(geometry[3]),
                                                       fx, fy)
    touched = (changed.T[Xc, Yc] & inside).any(axis=1) | changed.T[sx, sy]
    out = {}
    for i in np.flatnonzero(touched):
        vt = VASL_TERRAIN.get(int(code[i]), VASL_TERRAIN[0])
        lv = int(np.clip(lev[i], -MAX_LEVEL, MAX_LEVEL))
        is_building = vt.terrain == "building"
        out[(int(cols[i]), int(rows[i]))] = HexTerrain(
            vt.terrain, lv, building if is_building else None,
            vt.upper_levels if is_building else 0)
    return out


def with_pasted_hexes(board: Board, pasted: Pasted) -> Board:
    """``board`` with the hexes an overlay re-derived (a hex's other keys, such as a bridge,
    kept when its terrain stays) and without the hexside terrain it covers (rules.md 11.3:
    the overlay's pixels replace the board's, a wall under a hill overlay is gone)."""
    hexes = dict(board.hexes)
    for key, spec in pasted.hexes.items():
        old = board.at(*key)
        if old.terrain == spec.terrain:
            spec = dataclasses.replace(spec, extra=old.extra, half_level=old.half_level)
        hexes[key] = spec
    return dataclasses.replace(board, hexes=hexes, hexsides=_sides_left(board, pasted))


# a hexside's centre from its hex's centre, in hex widths and heights (directions: hexes.py)
_SIDE_CENTRE = {1: (0.0, -0.5), 2: (0.5, -0.25), 3: (0.5, 0.25),
                4: (0.0, 0.5), 5: (-0.5, 0.25), 6: (-0.5, -0.25)}


def _sides_left(board: Board, pasted: Pasted) -> dict:
    """The board's hexside terrain but where the overlay set the pixel at the side's centre
    to terrain that is not hexside terrain."""
    if pasted.covered is None or not board.hexsides:
        return board.hexsides
    keys = list(board.hexsides)
    cols = np.array([k[0] for k in keys], dtype=np.int64)
    rows = np.array([k[1] for k in keys], dtype=np.int64)
    fx, fy = pixel_centres(pasted.geometry, cols, rows)
    hw, hh = pasted.geometry[2], pasted.geometry[3]
    dx = np.array([_SIDE_CENTRE[k[2]][0] for k in keys]) * hw
    dy = np.array([_SIDE_CENTRE[k[2]][1] for k in keys]) * hh
    H, W = pasted.covered.shape
    x = np.clip((fx + dx).astype(np.int64), 0, W - 1)
    y = np.clip((fy + dy).astype(np.int64), 0, H - 1)
    gone = pasted.covered[y, x] & ~HEXSIDE_CODES[pasted.terrain[y, x]]
    return {k: v for k, v, g in zip(keys, board.hexsides.values(), gone.tolist()) if not g}


def overlay_picture(placed: PlacedOverlay):
    """(the overlay's image as drawn, a PIL RGBA image; its top-left (x, y) in the board's own
    pixels).  ScenarioError for a picture that cannot be decoded or is larger than allowed."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(placed.image.picture)) as im:
            if im.size[0] * im.size[1] > MAX_PIXELS:
                raise ScenarioError(f"{im.size[0]} x {im.size[1]} pixels: an overlay picture "
                                    f"has at most {MAX_PIXELS}")
            picture = im.convert("RGBA")
    except ScenarioError as e:
        raise e.at(place=f"overlay {placed.name}") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError,
            Image.DecompressionBombError) as e:
        raise ScenarioError(f"its picture cannot be decoded ({e})",
                            place=f"overlay {placed.name}") from None
    return picture, (placed.x, placed.y)


def picture_geometry(board: Board, raster_geometry) -> tuple:
    """The board picture's own hex grid (its ``image`` key: what an overlay's pixels and VASL's
    points are measured in), else the raster's."""
    image = board.extra.get("image")
    try:
        return (float(image["a1"][0]), float(image["a1"][1]), float(image["hex_width"]),
                float(image["hex_height"]))
    except (TypeError, KeyError, ValueError, IndexError):
        return tuple(float(v) for v in raster_geometry)


def reading_step(board: Board, raster_geometry) -> int:
    """Picture pixels per pixel of the board's terrain as drawn: 1, or k for a picture over 10
    million pixels read at one pixel in k across and down (rules.md 11.6)."""
    ratio = picture_geometry(board, raster_geometry)[2] / float(raster_geometry[2])
    return max(1, int(round(ratio)))


def at_step(placed: PlacedOverlay, every: int) -> PlacedOverlay:
    """rules.md 11.3 on a board read at one pixel in ``every``: the overlay read the same way,
    its pixels under the board's (pixel i of the terrain as drawn is the picture's every * i),
    its top-left in the terrain's pixels.  ``placed`` is in the picture's own pixels."""
    if every == 1:
        return placed
    fx, fy = -placed.x % every, -placed.y % every       # first overlay pixel on a read one
    im = placed.image
    cut = (slice(fy, None, every), slice(fx, None, every))
    image = OverlayImage(im.orientation, im.terrain[cut], im.level[cut], im.mask[cut],
                         im.hexside[cut], im.picture)
    return dataclasses.replace(placed, image=image, x=(placed.x + fx) // every,
                               y=(placed.y + fy) // every)


def overlays_hook(records):
    """The board pipeline's overlay step (``ssr.apply.board_with_rules(..., overlays=)``: SSRs,
    then overlays, then turning, rules.md 11.2): ``records`` are (OverlayFile, hex1, hex2) in
    the save's order; the step pastes each into the board's raster and re-derives the hexes
    under it.  A board without a raster is left as it is (its hexes have no pixels to paste
    into).  ScenarioError from a record that cannot be placed, naming the overlay."""
    records = tuple(records)

    def step(board: Board, raster: Raster | None):
        if raster is None:
            return board, None
        terrain, level = raster.terrain, raster.level
        every = reading_step(board, raster.geometry)
        for overlay, hex1, hex2 in records:
            if left_to_ssr(overlay.name):   # rules.md 11.3: its SSR applies it
                continue
            # placed in the picture's own pixels, then read as the board was (rules.md 11.6)
            placed = place_overlay(overlay, hex1, hex2, picture_geometry(board, raster.geometry),
                                   naming=board.naming)
            pasted = paste_overlay(terrain, level, raster.geometry, raster.size,
                                   at_step(placed, every), HEXSIDE_REACH / every)
            board, terrain, level = with_pasted_hexes(board, pasted), pasted.terrain, pasted.level
        return board, Raster(terrain, level, raster.geometry, raster.size, raster.summary)
    return step
