"""Import a VASL 5 board archive: a board image whose colours encode terrain and ground level.

The archive and its pixels are read by ``vasl5_image.py``; the pixels are made into VASL's LOS
grid as VASL's own image-to-LOS pipeline does it by ``vasl5_grid.py`` (nearest terrain and level
for the frame and marking pixels, cliffs, ``BoardMetadata.xml``'s building types, depressions),
and the hexes are read from that grid.

Conversion, per hex (rules.md 2: terrain and levels as VASL draws them):

- ground level: the grid's level at VASL's centre sample point (``Hex.resetTerrain``); the most
  common level among the hill-coloured pixels nearest the centre (the smallest of the discs of
  0.2, 0.3 .. 0.6 hex heights holding at least ``MIN_LEVEL_PIXELS`` of them) is reported when
  close, or absent.
- terrain: the most common terrain among the pixels of a disc of 0.2 hex heights around the
  centre (roads, paths, hexside features and unnamed colours do not vote).  VASL's inherent
  terrain (orchard trees, rubble, crags... drawn as patches) wins when at least
  ``INHERENT_PIXELS`` of it lie within a quarter hex height of the centre; a building at VASL's
  centre sample point wins over the vote.  A vote whose runner-up
  (another of our terrains) has at least ``CLOSE_VOTE`` of the winner's pixels is reported.
- buildings: building pixels that touch (4-connected) form one building; the hexes of one
  building share a ``building`` group named after its first hex.  Upper levels from VASL's name
  ("Stone Building, 2 Level": 2), as ``BoardMetadata.xml``'s building types make them.
- rubble is a half-level obstacle (B24.1; VASL's isHalfLevelHeight): ``half_level``.
- bridges (B6, ``bridges.py``): a hex with bridge pixels has a ``bridge`` key.
- hexsides (B9): ``hexside_stations.py`` (stations along each side).

Boards of another size (HASL maps) import with their ``size``: the hexes whose centres lie
inside equal margins around the picture (A1's centre at ``x0``, ``y0``); VASL's ``alternate``
numbering, a picture read reduced, a JPEG's: ``vasl5_image``, each said in the report.  ``colors`` lines
that name no colour (VASL's own files hold a few) are left out and reported.

The picture is kept: the Board carries it (``image_data``) and ``save_board`` writes it beside
the board file, named in the board's ``image`` key (SPEC.md "Board file, version 1
extensions"); ``board_image_placement`` tells the program where it lies on a map.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from ..boards import MAX_LEVEL, Board, HexTerrain
from ..errors import ScenarioError
from ..hexes import PLAIN, Naming, board_hexes
from .bridges import bridge_report, bridges_of_grid
from .buildings import building_runs, named_groups
from .grid import Geometry
from .hexside_stations import HEXSIDE_OF, station_hexsides
from .vasl5_grid import Vasl5Pixels, centre_points, vasl5_pixels
from .vasl5_image import (
    MAX_IMAGE_PIXELS,
    NO_CODE,
    NO_LEVEL,
    Decoded,
    Vasl5Archive,
    board_naming,
    picture_geometry,
    read_archive,
)
from .vasl_terrain import VASL_TERRAIN

TERRAIN_RADIUS = 0.2        # hex heights: the disc that votes the terrain
INHERENT_RADIUS = 0.25      # ... where a few pixels of inherent terrain decide
INHERENT_PIXELS = 6
LEVEL_RADII = (0.2, 0.3, 0.4, 0.5, 0.6)
MIN_LEVEL_PIXELS = 12
CLOSE_VOTE = 0.6
FEATURE_PIXELS = 12         # fewer pixels of an unimported feature are noise, not reported

HALF_LEVEL_TERRAIN = {"rubble"}         # B24.1: VASL's isHalfLevelHeight area terrain

# ----------------------------------------------------------------------------- converting
_VOTES = np.zeros(256, dtype=bool)
_INHERENT = np.zeros(256, dtype=bool)
_BUILDING = np.zeros(256, dtype=bool)
_OURS = np.zeros(256, dtype=np.int64)           # code -> index of our terrain name
_OUR_NAMES = sorted({t.terrain for t in VASL_TERRAIN.values()})
for _code, _t in VASL_TERRAIN.items():
    _VOTES[_code] = _t.kind == "area"
    _INHERENT[_code] = _t.inherent
    _BUILDING[_code] = _t.kind == "area" and _t.terrain == "building"
    _OURS[_code] = _OUR_NAMES.index(_t.terrain)


def _disc(radius: float):
    r = int(math.ceil(radius))
    dy, dx = np.mgrid[-r:r + 1, -r:r + 1]
    d2 = dx ** 2 + dy ** 2
    keep = d2 <= radius * radius
    order = np.argsort(d2[keep], kind="stable")
    return dx[keep][order], dy[keep][order], np.sqrt(d2[keep][order])


class _Padded:
    """A pixel grid with a border of ``outside`` values wide enough for every sample around a
    hex centre (no clipping per sample)."""

    def __init__(self, grid: np.ndarray, pad: int, outside):
        self.pad = pad
        self.grid = np.pad(grid, pad, constant_values=outside)

    def __call__(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        return self.grid[Y + self.pad, X + self.pad]


def _per_hex_counts(values: np.ndarray, mask: np.ndarray, k: int) -> np.ndarray:
    """(n_hex, k) counts of ``values`` (0..k-1) where ``mask``."""
    n = values.shape[0]
    flat = (np.arange(n)[:, None] * (k + 1) + np.where(mask, values, k)).ravel()
    return np.bincount(flat, minlength=n * (k + 1)).reshape(n, k + 1)[:, :k]


def _ground_levels(level_at, cx: np.ndarray, cy: np.ndarray, hh: float):
    """Each hex's ground level (rules.md 2), its level votes, and the hexes with no hill
    colour near the centre."""
    n_hex = len(cx)
    # ground level: the level-coloured pixels nearest the centre
    dx, dy, dist = _disc(LEVEL_RADII[-1] * hh)
    lev = level_at(cx[:, None] + dx, cy[:, None] + dy).astype(np.int64)
    known = lev != NO_LEVEL
    level = np.zeros(n_hex, dtype=np.int64)
    decided = np.zeros(n_hex, dtype=bool)
    span = 2 * MAX_LEVEL + 1
    level_votes = np.zeros((n_hex, span), dtype=np.int64)
    # one tally per (hex, ring between two radii, level), summed outwards
    ring = np.searchsorted(np.array(LEVEL_RADII) * hh, dist, side="left")
    bins = (ring[None, :] * span + lev + MAX_LEVEL)
    by_ring = _per_hex_counts(bins, known, len(LEVEL_RADII) * span)
    by_ring = by_ring.reshape(n_hex, len(LEVEL_RADII), span).cumsum(axis=1)
    for k in range(len(LEVEL_RADII)):
        counts = by_ring[:, k, :]
        ok = (counts.sum(axis=1) >= MIN_LEVEL_PIXELS) & ~decided
        level = np.where(ok, counts.argmax(axis=1) - MAX_LEVEL, level)
        level_votes[ok] = counts[ok]
        decided |= ok
    undecided_level = np.flatnonzero(~decided)
    return level, level_votes, undecided_level


def convert(archive: Vasl5Archive, board_id: str,
            pixels: Vasl5Pixels | None = None) -> tuple[Board, list[str]]:
    """The board of a VASL 5 archive; ``pixels``: its VASL grid (``vasl5_grid``), already made."""
    if pixels is None:
        pixels = vasl5_pixels(archive)
    geo, size, dec = pixels.geometry, pixels.size, pixels.decoded
    naming = board_naming(archive)[0]        # rules.md 11.6: the hexes as VASL names them
    hexes_list = board_hexes(size)
    cols = np.array([c for c, _ in hexes_list], dtype=np.int64)
    rows = np.array([n for _, n in hexes_list], dtype=np.int64)
    n_hex = len(cols)
    fx, fy = geo.centres(cols, rows)
    cx = np.rint(fx).astype(np.int64)
    cy = np.rint(fy).astype(np.int64)
    hh = geo.hex_height
    h, w = pixels.code.shape
    beyond = max(0, -int(cx.min()), -int(cy.min()), int(cx.max()) - w + 1, int(cy.max()) - h + 1)
    pad = int(math.ceil(LEVEL_RADII[-1] * hh)) + 4 + beyond
    level_at = _Padded(dec.level, pad, NO_LEVEL)
    code_at = _Padded(pixels.code, pad, NO_CODE)

    _, level_votes, undecided_level = _ground_levels(level_at, cx, cy, hh)
    # the level is VASL's: its centre sample point's (Hex.resetTerrain), the colours' vote only
    # reported when close
    sx, sy = centre_points(geo, cols, rows, w, h)
    level = pixels.level[sy, sx].astype(np.int64)

    # terrain: the centre disc's vote, inherent terrain near the centre wins
    dx, dy, dist = _disc(INHERENT_RADIUS * hh)
    X, Y = cx[:, None] + dx, cy[:, None] + dy
    codes = code_at(X, Y).astype(np.int64)
    near = (dist <= TERRAIN_RADIUS * hh)[None, :]
    votes = _per_hex_counts(codes, near & _VOTES[codes], 256)
    code = np.where(votes.max(axis=1) > 0, votes.argmax(axis=1), 0)
    inherent = _per_hex_counts(codes, _INHERENT[codes], 256)
    centre_code = pixels.code[sy, sx].astype(np.int64)
    code = np.where(_BUILDING[centre_code], centre_code, code)   # VASL's centre location
    code = np.where(inherent.max(axis=1) >= INHERENT_PIXELS, inherent.argmax(axis=1), code)
    ours = _per_hex_counts(_OURS[codes], near & _VOTES[codes], len(_OUR_NAMES))

    groups = _building_groups(pixels.code, code, X, Y, cols, rows, naming)
    hexsides, side_counts = station_hexsides(pixels.code, geo, size)
    bridges = bridges_of_grid(pixels.code.T, geo, size)             # B6

    hexes: dict = {}
    default = HexTerrain("open", 0)
    approximated: dict[int, list[int]] = {}
    tally: dict[str, int] = {}
    close: list[str] = []
    for i in range(n_hex):
        vt = VASL_TERRAIN[int(code[i])]
        if vt.note:
            approximated.setdefault(int(code[i]), []).append(i)
        tally[vt.terrain] = tally.get(vt.terrain, 0) + 1
        is_bldg = vt.terrain == "building"
        bridge = bridges.get((int(cols[i]), int(rows[i])))
        spec = HexTerrain(vt.terrain, int(level[i]), groups.get(i) if is_bldg else None,
                          vt.upper_levels if is_bldg else 0,
                          {"bridge": bridge} if bridge else {},
                          half_level=vt.terrain in HALF_LEVEL_TERRAIN)
        if spec != default or bridge:
            hexes[(int(cols[i]), int(rows[i]))] = spec
        close += _close_votes(_name(board_id, cols[i], rows[i], naming), ours[i],
                              level_votes[i])

    report = _report(archive, dec, board_id, geo, size, tally, hexsides, side_counts,
                     approximated, cols, rows, undecided_level, close)
    report[1:1] = bridge_report(board_id, bridges, naming)
    extra = {"image": _image_key(archive, board_id),
             "imported_from": {"format": "vasl5", "file": Path(archive.file).name,
                               "version": archive.version},
             "import_report": report}
    title = f"VASL board {board_id}" + (f" (version {archive.version})" if archive.version else "")
    board = Board(board_id, title, default, hexes, extra, size=size, hexsides=hexsides,
                  image_data=archive.image_bytes, naming=naming)
    return board, report


def _close_votes(name: str, terrain_votes, level_votes) -> list[str]:
    """A hex's terrain and level votes whose runner-up has ``CLOSE_VOTE`` of the winner's."""
    out = []
    order = np.argsort(terrain_votes)[::-1]
    first, second = int(terrain_votes[order[0]]), int(terrain_votes[order[1]])
    if first and second >= CLOSE_VOTE * first:
        out.append(f"{name} ({_OUR_NAMES[order[0]]} {first} / {_OUR_NAMES[order[1]]} {second} "
                   "pixels)")
    order = np.argsort(level_votes)[::-1]
    first, second = int(level_votes[order[0]]), int(level_votes[order[1]])
    if first and second >= CLOSE_VOTE * first:
        out.append(f"{name} (level {order[0] - MAX_LEVEL} {first} / level "
                   f"{order[1] - MAX_LEVEL} {second} pixels)")
    return out


def _report(archive: Vasl5Archive, dec: Decoded, board_id: str, geo: Geometry, size, tally,
            hexsides, side_counts, approximated, cols, rows, undecided_level, close) -> list[str]:
    """What the import read, and what it could not import exactly."""
    naming, naming_notes = board_naming(archive)
    width, height = _picture_size(archive)
    report = [f"{archive.image_name}: {width} x {height} pixels, "
              f"{size[0]} x {size[1]} hexes; colours named by "
              + ("the archive's colors file" if archive.own_colors
                 else "Starshell's copy of VASL's colour table (the archive has no colors file)")]
    if archive.scale > 1:
        h, w = archive.index.shape
        report.append(f"a picture of over {MAX_IMAGE_PIXELS} pixels: read at one pixel in "
                      f"{archive.scale} across and down ({w} x {h}), the terrain as drawn kept "
                      "at that size (the picture itself is kept whole)")
    if not archive.exact:
        report.append("a JPEG picture: its colours are not VASL's exact terrain colours, so no "
                      "terrain is read from it (VASL draws such a board with no LOS either): "
                      "every hex is open ground at level 0 here, to be edited by hand")
    report += naming_notes
    report.append("terrain: " + ", ".join(f"{t} {n}" for t, n in
                                          sorted(tally.items(), key=lambda kv: (-kv[1], kv[0]))))
    if hexsides:
        report.append("hexsides: " + ", ".join(f"{s} {n}" for s, n in sorted(side_counts.items())))
    for c, members in sorted(approximated.items()):
        vt = VASL_TERRAIN[c]
        what = "a building" if vt.terrain == "building" else repr(vt.terrain)
        report.append(f"{len(members)} hex{'es' if len(members) != 1 else ''} of VASL "
                      f"'{vt.name}' imported as {what}: {vt.note} "
                      f"({_list(board_id, cols[members], rows[members], naming)})")
    if dec.nameless:
        report.append("colours whose names Starshell does not know (read as no terrain): "
                      + ", ".join(f"{n} ({p} pixels)" for n, p in sorted(dec.nameless.items())))
    if dec.unnamed:
        top = sorted(dec.unnamed.items(), key=lambda kv: -kv[1])
        report.append(f"{len(top)} colour{'s' if len(top) != 1 else ''} the colors file does not "
                      "name (read as no terrain): " + ", ".join(
                          f"{r},{g},{b} ({p} pixels)" for (r, g, b), p in top[:8])
                      + (f" and {len(top) - 8} more" if len(top) > 8 else ""))
    if archive.skipped_colors:
        report.append("colors file lines that name no colour, left out: "
                      + ", ".join(archive.skipped_colors[:8])
                      + (" ..." if len(archive.skipped_colors) > 8 else ""))
    report += _unimported_features(dec, board_id, geo, size, naming)
    if len(undecided_level):
        report.append("no hill colour near the centre (the level of the nearest one drawn "
                      "taken, as VASL takes it): "
                      + _list(board_id, cols[undecided_level], rows[undecided_level], naming))
    if close:
        report.append(f"close votes of terrain or level, worth a look ({len(close)}): "
                      + ", ".join(close))
    return report


def _image_key(archive: Vasl5Archive, board_id: str) -> dict:
    """The board's ``image`` key: the picture and its hex grid in its own pixels (SPEC.md)."""
    art = picture_geometry(archive)             # (the grid read may be reduced: not the art's)
    width, height = _picture_size(archive)
    safe = re.match(r"^[A-Za-z0-9_-]+\.(gif|png|GIF|PNG)$", archive.image_name)
    return {"file": archive.image_name if safe
            else f"bd{board_id}{Path(archive.image_name).suffix.lower()}",
            "hex_width": art.hex_width, "hex_height": art.hex_height,
            "a1": [art.a1_x, art.a1_y], "pixels": [int(width), int(height)]}


def _picture_size(archive: Vasl5Archive) -> tuple[int, int]:
    """The picture's own (width, height) in pixels."""
    return archive.picture if archive.picture != (0, 0) else archive.index.shape[::-1]


def _name(board_id: str, col, row, naming: Naming = PLAIN) -> str:
    return f"{board_id}{naming.name(int(col), int(row))}"


def _list(board_id: str, cols, rows, naming: Naming = PLAIN, limit: int = 12) -> str:
    names = [_name(board_id, c, n, naming) for c, n in sorted(zip(cols.tolist(), rows.tolist()))]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _building_groups(code_grid, code, X, Y, cols, rows, naming: Naming = PLAIN) -> dict[int, str]:
    """Hex index -> building group, for the hexes of buildings that span several hexes."""
    bldg = np.flatnonzero(_BUILDING[code])
    if len(bldg) < 2:
        return {}
    starts, ends, label, stride = building_runs(_BUILDING[code_grid].T)
    h, w = code_grid.shape
    comp_of: dict[int, int] = {}
    for i in bldg.tolist():
        x, y = X[i], Y[i]
        ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        x, y = x[ok], y[ok]
        x, y = x[_BUILDING[code_grid[y, x]]], y[_BUILDING[code_grid[y, x]]]
        if not len(x):
            continue
        flat = x * stride + y
        run = np.searchsorted(starts, flat, side="right") - 1
        comps = label[run]
        values, n = np.unique(comps, return_counts=True)
        comp_of[i] = int(values[np.argmax(n)])
    return named_groups(comp_of, cols, rows, naming)


def _unimported_features(dec: Decoded, board_id: str, geo: Geometry, size,
                         naming: Naming = PLAIN) -> list[str]:
    """Hexside features with no Starshell counterpart: where they are."""
    out = []
    groups: dict[str, list[int]] = {}
    for code, t in VASL_TERRAIN.items():
        if t.kind == "hexside" and t.name not in HEXSIDE_OF:
            groups.setdefault(t.name, []).append(code)
    present = np.bincount(dec.code.ravel(), minlength=256)
    for label, codes in sorted(groups.items()):
        n = int(sum(present[c] for c in codes))
        if n < FEATURE_PIXELS:
            continue
        ys, xs = np.nonzero(np.isin(dec.code, codes))
        c = np.clip(np.rint((xs - geo.a1_x) / geo.hex_width), 0, size[0] - 1).astype(np.int64)
        hexes = sorted(set(c.tolist()))
        out.append(f"{label} not imported ({n} pixels, in columns "
                   f"{', '.join(naming.column(x) for x in hexes[:8])}"
                   f"{' ...' if len(hexes) > 8 else ''})")
    return out


def import_board(path: str | Path, board_id: str, pixels: Vasl5Pixels | None = None,
                 archive: Vasl5Archive | None = None) -> tuple[Board, list[str]]:
    """Read and convert a VASL 5 archive (``archive``, ``pixels``: already read and made);
    ScenarioError naming the file."""
    try:
        if archive is None:
            archive = read_archive(path)
        return convert(archive, board_id, pixels)
    except ScenarioError as e:
        raise e.at(file=e.file or str(path)) from None


# ------------------------------------------------------------------------- drawing the art
def board_image_placement(game_map, pi: int) -> dict | None:
    """Where placement ``pi``'s board picture (SPEC.md "image") lies on map ``game_map``: ``path`` of
    the image file and ``affine`` (a, b, c, d, e, f) taking its pixel (u, v) to map units
    (x = a u + b v + c, y = d u + e v + f), exact at every hex centre (a turned board's picture
    is turned with it).  None when the board has no picture, or it is not on disk."""
    from ..boards import board_image_path
    from ..hexes import center
    from ..maps import place_in_slot
    p = game_map.placements[pi]
    path = board_image_path(p.board)
    image = p.board.extra.get("image")
    if path is None or not path.is_file():
        return None
    try:
        a1x, a1y = (float(v) for v in image.get("a1", (0.0, 32.25)))
        hw = float(image.get("hex_width", 56.25))
        hh = float(image.get("hex_height", 64.5))
    except (TypeError, ValueError):
        return None
    if not (all(math.isfinite(v) for v in (a1x, a1y, hw, hh)) and hw > 0 and hh > 0):
        return None
    geo = Geometry(a1x, a1y, hw, hh)
    columns, rows = p.board.size
    local = [(0, 1), (columns - 1, 1), (0, rows), (columns - 1, rows)]
    ox, oy = game_map.origins[pi]
    src, dst = [], []
    for c, n in local:
        u, v = geo.centres(np.array([c]), np.array([n]))
        pc, pn = place_in_slot(c, n, p.rotated, p.board.size)
        src.append((float(u[0]), float(v[0]), 1.0))
        dst.append(center(ox + pc, oy + pn))
    sol, *_ = np.linalg.lstsq(np.array(src), np.array(dst), rcond=None)
    (a, d), (b, e), (c, f) = sol.tolist()
    return {"path": str(path), "affine": (a, b, c, d, e, f)}
