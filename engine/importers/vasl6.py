"""Import a VASL 6 board archive: its per-pixel LOS data becomes a Starshell board file.

The archive (VASL's ``BoardArchive``): a ZIP file without an extension (``bd02``, ``bd34``...)
holding ``BoardMetadata.xml`` (root ``boardMetadata``: ``name``, ``version``, ``width`` and
``height`` in hexes, optional geometry ``A1CenterX``, ``A1CenterY``, ``hexWidth``, ``hexHeight``;
absent geometry means a standard geomorphic board) and ``LOSData`` (``losdata.py``).

Conversion, per hex (VASL centre: x = A1CenterX + hexWidth * col, y = A1CenterY + hexHeight * row
- hexHeight / 2 for odd columns; a standard board is 1800 x 645 pixels, hexes 56.25 x 64.5):

- terrain: the most common terrain code in a disc of radius 0.2 hex heights around the centre,
  not counting minor features (roads, paths, bridges, railroads) and hexside terrain (walls,
  hedges, bocage, cliffs...), which do not say what the hex is.  A building at VASL's own centre
  sample point (``Hex.resetTerrain``) wins, and VASL's inherent terrain (orchard trees, dense
  jungle, bamboo, rubble... drawn as dots or patches) wins over both when any of it lies within
  a quarter hex height of the centre (VASL: nearer the centre than any hexside location).
  Only minor features there: open ground.
- level: the elevation at VASL's centre sample point (VASL's data has depressions baked in:
  a gully or stream centre reads -1).
- buildings: building pixels that touch (4-connected) form one building; building hexes of one
  building share a ``building`` group named after its first hex (column by column, e.g. ``E4``).
  A single-hex building gets no group.
- upper_levels: "Stone/Wooden Building, N Level" (codes 41-44, 51-54) has N levels above ground,
  so upper_levels N; a plain "Stone/Wooden Building" (40, 50) is single-story, upper_levels 0
  (VASL's ``Hex.addBuildingLevels`` adds locations 1..N except to 40 and 50).  VASL makes such a
  building an obstacle of N + 1/2 levels; ours is 1 + N (whole levels, terrain.py).

- hexsides (rules.md 7): walls, hedges, cactus hedges, bocage, cliffs and rowhouse walls (codes
  72-80, 116; ``LOSCategory`` HEXSIDE) read by stations along each side
  (``hexside_stations.py``, as for VASL 5 pictures).
  Rubble is a half level (terrain.py).

- bridges (B6, ``bridges.py``): a hex with bridge pixels has a ``bridge`` key.

What cannot be represented is reported: factory walls, road blocks, dune crests... are not
imported, and terrain without an exact counterpart is imported as the nearest
one (the ``VASL_TERRAIN`` table says which and why).
A terrain code VASL does not define, a damaged archive or stream, or a grid that disagrees with
the metadata is refused with one ScenarioError naming the file and what is wrong.
"""
from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..boards import MAX_LEVEL, Board, HexTerrain
from ..errors import ScenarioError
from ..hexes import BOARD_COLUMNS, BOARD_ROWS, MAX_BOARD_COLUMNS, MAX_BOARD_ROWS, PLAIN, Naming
from ..raster_hexes import sample_hexes
from .archive import find_entry, open_archive, read_entry
from .board_metadata import (
    MAX_METADATA_BYTES,
    METADATA,
    metadata_geometry,
    metadata_number,
    parse_root,
    xml_root,
)
from .bridges import bridge_report, bridges_of_grid
from .buildings import building_runs, named_groups
from .grid import GEO, Geometry, grid_naming, hex_arrays, hex_name, hex_of_pixels
from .hexside_stations import station_hexsides
from .losdata import LOS_DATA, MAX_ENTRY_BYTES, LosData, read_los_data
from .slopes import read_slopes
from .vasl5_image import MAX_IMAGE_ENTRY_BYTES, board_image_entry
from .vasl_terrain import BUILDING, HEXSIDE_GROUPS, HEXSIDE_IMPORT, VASL_TERRAIN

FEATURE_PIXELS = 12                         # pixels of a hexside feature that put it in a hex
MAX_PICTURE_PIXELS = 40_000_000             # the board picture (a geomorphic board: 1.2 million)
MAX_SSR_IMAGES = 200


def read_metadata(raw: bytes) -> dict[str, str]:
    """The attributes of ``BoardMetadata.xml``'s root element."""
    return dict(parse_root(raw).attrib)


@dataclass(frozen=True)
class VaslArchive:
    """What a board archive holds that we use."""
    file: str
    name: str               # VASL's board name (metadata), e.g. "02"
    version: str
    geometry: Geometry
    standard: bool          # no geometry in the metadata: a standard geomorphic board
    los: LosData
    notes: tuple = ()
    picture: BoardPicture | None = None     # the board's own picture, as VASL draws it
    ssr_images: tuple = ()                  # (SSR name, image, x, y): listed, not applied
    naming: Naming = PLAIN  # how VASL names its hexes (rules.md 11.6: a "b" half's Q..GG)
    meta_raw: bytes | None = None           # BoardMetadata.xml (its slopes read with the size)


@dataclass(frozen=True)
class BoardPicture:
    """The board image of the archive (``boardImageFileName``, else ``bdNN.gif``): drawn with
    its pixel (0, 0) at the LOS grid's (0, 0), as VASL draws it."""
    name: str
    data: bytes
    size: tuple[int, int]


def read_archive(path: str | Path, progress=None, data: bytes | None = None) -> VaslArchive:
    """Open and decode a VASL board archive (``data``: its bytes, already read; ``path`` then
    only names it); ScenarioError naming the file on any problem.
    ``progress(fraction)`` is called as the LOS data is decompressed (it may raise
    ImportCancelled, vasl.py, to stop)."""
    path = Path(path)
    try:
        return _read_archive(path, progress, data)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None


def _read_archive(path: Path, progress=None, data: bytes | None = None) -> VaslArchive:
    with open_archive(path if data is None else data) as archive:
        return _read_entries(path, archive, progress)


def _read_entries(path: Path, archive: zipfile.ZipFile, progress) -> VaslArchive:
    los_info = find_entry(archive, LOS_DATA)
    if los_info is None:
        raise ScenarioError("the archive has no LOSData: VASL has no LOS data for this "
                            "board (an old board version?)")
    meta_info = find_entry(archive, METADATA)
    meta_raw = None if meta_info is None else read_entry(archive, meta_info, MAX_METADATA_BYTES)
    meta = {} if meta_raw is None else read_metadata(meta_raw)
    metadata_geometry(meta)                     # bad geometry is refused before the LOS data is read
    los = read_los_data(read_entry(archive, los_info, MAX_ENTRY_BYTES), progress)
    notes = []
    if meta_info is None:
        notes.append(f"no {METADATA} in the archive: read as a standard geomorphic board")
    for key in ("altHexGrain",):
        if meta.get(key, "").strip().lower() in ("true", "yes", "on", "1"):
            raise ScenarioError(f"{key}: boards whose hex grain runs the other way cannot be "
                                "imported", place=METADATA)
    config = meta.get("HexGridConfig", "").strip()
    if config and config != "Normal":
        raise ScenarioError(f"HexGridConfig {config!r}: only the normal geomorphic hex grid can "
                            "be imported", place=METADATA)
    geometry = metadata_geometry(meta)
    standard = geometry == GEO and not any(
        k in meta for k in ("A1CenterX", "A1CenterY", "hexWidth", "hexHeight"))
    _check_sizes(meta, los, geometry, standard)
    name = meta.get("name", "").strip() or path.name
    try:
        picture = read_picture(archive, meta.get("boardImageFileName", "").strip(), path.name)
    except ScenarioError as e:          # the terrain imports without it
        picture = None
        notes.append(f"{e.place}: {e.problem}: the board shows Starshell's terrain art")
    else:
        if picture is None:
            notes.append("no board picture in the archive: the board shows Starshell's terrain art")
        elif any(abs(p - g) > geometry.hex_width for p, g in zip(picture.size, los.grid_size)):
            notes.append(f"{picture.name}: the board picture is {picture.size[0]} x "
                         f"{picture.size[1]} pixels but the LOS data covers {los.grid_size[0]} x "
                         f"{los.grid_size[1]}: not drawn (the board shows Starshell's terrain art)")
            picture = None
    # rules.md 11.6: a "b" half's columns Q..GG, a "DW b" half's rows on from the "a" half's
    naming, named = grid_naming(metadata_number(meta, "A1CenterX"),
                                metadata_number(meta, "A1CenterY"), geometry.hex_width,
                                geometry.hex_height, (los.width, los.height))
    notes += named
    return VaslArchive(str(path), name, meta.get("version", "").strip(), geometry, standard, los,
                       tuple(notes), picture, ssr_images(meta_raw), naming, meta_raw)


def read_picture(archive: zipfile.ZipFile, named: str, stem: str) -> BoardPicture | None:
    """The board picture: the metadata's ``boardImageFileName``, else the image named like the
    archive; its size read from its header (at most ``MAX_PICTURE_PIXELS``) before any use."""
    info = find_entry(archive, named) if named and "/" not in named else None
    if info is None:
        info = board_image_entry(archive, stem)
    if info is None:
        return None
    data = read_entry(archive, info, MAX_IMAGE_ENTRY_BYTES)
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(io.BytesIO(data)) as im:
            size = (int(im.size[0]), int(im.size[1]))
            kind = im.format
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as e:
        raise ScenarioError(f"the board picture cannot be read ({e})", place=info.filename) from None
    if kind not in ("GIF", "PNG") or size[0] * size[1] > MAX_PICTURE_PIXELS or min(size) < 1:
        raise ScenarioError(f"the board picture is a {size[0]} x {size[1]} {kind} image: a GIF "
                            f"or PNG of at most {MAX_PICTURE_PIXELS} pixels is expected",
                            place=info.filename)
    return BoardPicture(info.filename.rsplit("/", 1)[-1], data, size)


def ssr_images(raw: bytes | None) -> tuple:
    """The metadata's SSR overlay images (``overlaySSRule``: name, image, x, y), listed only."""
    if not raw:
        return ()
    try:
        root = xml_root(raw)
    except ScenarioError:
        return ()
    out = []
    for rule in root.iter("overlaySSRule"):
        name, image = rule.get("name", "").strip(), rule.get("image", "").strip()
        if name and image:
            out.append((name[:80], image[:120], rule.get("x", "0")[:8], rule.get("y", "0")[:8]))
        if len(out) >= MAX_SSR_IMAGES:
            break
    return tuple(out)


def _picture_extra(archive: VaslArchive, board_id: str) -> dict:
    """SPEC.md "image" of the archive's picture: its hexes where VASL's geometry puts them."""
    pic, geo = archive.picture, archive.geometry
    safe = re.match(r"^[A-Za-z0-9_-]+\.(gif|png|GIF|PNG)$", pic.name)
    out = {"file": pic.name if safe else f"bd{board_id}{Path(pic.name).suffix.lower()}",
           "hex_width": geo.hex_width, "hex_height": geo.hex_height,
           "a1": [geo.a1_x, geo.a1_y], "pixels": list(pic.size)}
    if archive.ssr_images:
        out["ssr_overlays"] = [{"name": n, "image": i, "at": [x, y]}
                               for n, i, x, y in archive.ssr_images]
    return out


def _check_sizes(meta: dict, los: LosData, geometry: Geometry, standard: bool) -> None:
    for key, got in (("width", los.width), ("height", los.height)):
        want = metadata_number(meta, key, int)
        if want is not None and want != got:
            raise ScenarioError(f"LOSData is {los.width} x {los.height} hexes but the metadata "
                                f"says {key}={want}", place=LOS_DATA)
    # rules.md 11.6: geomorphic 33 x 10, half boards 17 x 20, Deluxe 15 x 5, maps of their size
    if not (2 <= los.width <= MAX_BOARD_COLUMNS and 1 <= los.height <= MAX_BOARD_ROWS):
        raise ScenarioError(f"a {los.width} x {los.height} hex board cannot be imported: a "
                            f"board has 2..{MAX_BOARD_COLUMNS} columns and 1..{MAX_BOARD_ROWS} "
                            "rows", place=LOS_DATA)
    gw, gh = los.grid_size
    if standard and (los.width, los.height) == (BOARD_COLUMNS, BOARD_ROWS):
        # VASL's Map(width, height): gridWidth = (int) ((width - 1) * 56.25), gridHeight likewise
        want = (int((los.width - 1) * GEO.hex_width), int(los.height * GEO.hex_height))
        if (gw, gh) != want:
            raise ScenarioError(f"the grid is {gw} x {gh} pixels, but a standard "
                                f"{los.width} x {los.height} hex board has {want[0]} x {want[1]}",
                                place=LOS_DATA)
    else:
        cols, rows = hex_arrays((los.width, los.height))
        x, y = geometry.centres(cols, rows)
        if x.min() < -1 or y.min() < -1 or x.max() > gw + 1 or y.max() > gh + 1:
            raise ScenarioError(f"the hex centres of the metadata's geometry fall outside the "
                                f"{gw} x {gh} pixel grid", place=METADATA)


def convert(archive: VaslArchive, board_id: str) -> tuple[Board, list[str]]:
    """The Starshell board of a decoded archive, and the report of what was not (exactly)
    imported.  ScenarioError (without the file) for terrain codes VASL does not define."""
    los, geo = archive.los, archive.geometry
    gw, gh = los.grid_size
    counts = np.bincount(los.terrain.ravel(), minlength=256)
    unknown = [c for c in np.flatnonzero(counts) if int(c) not in VASL_TERRAIN]
    if unknown:
        first = int(np.flatnonzero(los.terrain.ravel() == unknown[0])[0])
        x, y = divmod(first, gh)
        raise ScenarioError(f"unknown terrain code {int(unknown[0])} (first at pixel x={x}, "
                            f"y={y}; {int(counts[unknown[0]])} pixels)"
                            + (f"; other unknown codes: {', '.join(map(str, unknown[1:]))}"
                               if len(unknown) > 1 else ""), place=LOS_DATA)

    size = (los.width, los.height)
    cols, rows = hex_arrays(size)
    n_hex = len(cols)
    code, level, samples = _sample_hexes(los, geo, cols, rows)

    naming = archive.naming
    steep = np.flatnonzero(np.abs(level) > MAX_LEVEL)
    if len(steep):
        i = int(steep[0])
        raise ScenarioError(f"{hex_name(board_id, int(cols[i]), int(rows[i]), naming)} is at level "
                            f"{int(level[i])}: a board's levels run from {-MAX_LEVEL} to "
                            f"{MAX_LEVEL}", place=LOS_DATA)
    groups = _building_groups(los, code, *samples, cols, rows, archive.naming)
    bridges = bridges_of_grid(los.terrain, geo, size)

    hexes: dict = {}
    default = HexTerrain("open", 0)
    approximated: dict[int, list[int]] = {}
    for i in range(n_hex):
        vt = VASL_TERRAIN[int(code[i])]
        if vt.note:
            approximated.setdefault(int(code[i]), []).append(i)
        building = groups.get(i) if vt.terrain == "building" else None
        bridge = bridges.get((int(cols[i]), int(rows[i])))       # B6
        spec = HexTerrain(vt.terrain, int(level[i]), building,
                          vt.upper_levels if vt.terrain == "building" else 0,
                          {"bridge": bridge} if bridge else {})
        if spec != default or bridge:
            hexes[(int(cols[i]), int(rows[i]))] = spec

    report = list(archive.notes) + bridge_report(board_id, bridges, naming)
    for c, members in sorted(approximated.items()):
        vt = VASL_TERRAIN[c]
        what = "a building" if vt.terrain == "building" else repr(vt.terrain)
        if vt.terrain == "building":
            what += f" with {vt.upper_levels} upper level{'s' if vt.upper_levels != 1 else ''}"
        report.append(f"{len(members)} hex{'es' if len(members) != 1 else ''} of VASL "
                      f"'{vt.name}' (code {c}) imported as {what}: {vt.note} "
                      f"({_list_hexes(board_id, cols[members], rows[members], naming)})")
    sides, side_report = _import_hexsides(los, geo, counts, board_id, naming)
    report += side_report
    report += _feature_report(los, geo, counts, board_id, naming)
    if archive.ssr_images:
        report.append(f"{len(archive.ssr_images)} SSR overlay image(s) listed, not applied: "
                      + ", ".join(n for n, *_ in archive.ssr_images[:12])
                      + (" ..." if len(archive.ssr_images) > 12 else ""))
    extra = {"imported_from": {"format": "vasl", "file": Path(archive.file).name,
                               "name": archive.name, "version": archive.version},
             "import_report": report}
    slopes = read_slopes(archive.meta_raw, size, naming)    # B10.2, rules.md 11.4
    if slopes:
        extra["slopes"] = slopes
    if archive.picture is not None:
        extra = {"image": _picture_extra(archive, board_id)} | extra
    title = f"VASL board {archive.name}" + (f" (version {archive.version})"
                                            if archive.version else "")
    return Board(board_id, title, default, hexes, extra, size=size, hexsides=sides,
                 image_data=archive.picture.data if archive.picture else None,
                 naming=naming), report


def _sample_hexes(los: LosData, geo: Geometry, cols, rows):
    """Each hex's terrain code and level from the pixels around its centre, with the samples
    (``raster_hexes.sample_hexes``: the same reading re-derives hexes under a pasted overlay)."""
    return sample_hexes(los.terrain, los.elevation, geo.hex_height, *geo.centres(cols, rows))


def _import_hexsides(los: LosData, geo: Geometry, counts, board_id: str,
                     naming: Naming = PLAIN) -> tuple[dict, list[str]]:
    """Hexside terrain (rules.md 7) from the pixels of codes ``HEXSIDE_IMPORT``, read by the
    stations along each side (``hexside_stations``); ({(col, row, direction): name}, report)."""
    present = [c for c in HEXSIDE_IMPORT if counts[c]]
    if not present:
        return {}, []
    sides, _ = station_hexsides(np.ascontiguousarray(los.terrain.T), geo,
                                (los.width, los.height))
    names = sorted(set(sides.values()))
    report = []
    for name in names:
        keys = sorted(k for k, v in sides.items() if v == name)
        if keys:
            listed = ", ".join(f"{hex_name(board_id, c, r, naming)}/{d}" for c, r, d in keys[:8])
            more = f" and {len(keys) - 8} more" if len(keys) > 8 else ""
            report.append(f"{len(keys)} hexside{'s' if len(keys) != 1 else ''} of "
                          f"{name.replace('_', ' ')} imported ({listed}{more}) (rules.md 7)")
    return sides, report


def _building_groups(los: LosData, code, Xc, Yc, inside, sx, sy, cols, rows,
                     naming: Naming = PLAIN) -> dict[int, str]:
    """Hex index -> building group name, for the hexes of multi-hex buildings."""
    is_bldg = np.flatnonzero(BUILDING[code])
    if len(is_bldg) < 2:
        return {}
    starts, ends, label, stride = building_runs(BUILDING[los.terrain])

    def component(x, y):
        flat = np.asarray(x) * stride + np.asarray(y)
        run = np.searchsorted(starts, flat, side="right") - 1
        ok = (run >= 0) & (flat < ends[np.maximum(run, 0)])
        return np.where(ok, label[np.maximum(run, 0)], -1)

    comp_of: dict[int, int] = {}
    for i in is_bldg.tolist():
        at_centre = int(component(sx[i], sy[i]))
        if at_centre < 0:               # the building is in the centre region, not at its point
            found = component(Xc[i][inside[i]], Yc[i][inside[i]])
            found = found[found >= 0]
            if not len(found):
                continue
            values, n = np.unique(found, return_counts=True)
            at_centre = int(values[np.argmax(n)])
        comp_of[i] = at_centre
    return named_groups(comp_of, cols, rows, naming)


def _list_hexes(board_id: str, cols, rows, naming: Naming = PLAIN, limit: int = 8) -> str:
    names = [hex_name(board_id, int(c), int(n), naming) for c, n in sorted(zip(cols, rows))]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _feature_report(los: LosData, geo: Geometry, counts, board_id: str,
                    naming: Naming = PLAIN) -> list[str]:
    """Hexside terrain and bridges: where they are, and that they are not imported."""
    out = []
    groups = [(label, codes) for label, codes in HEXSIDE_GROUPS.items()
              if not set(codes) <= set(HEXSIDE_IMPORT)]
    flat = los.terrain.ravel()
    gh = los.grid_size[1]
    for label, codes in groups:
        present = [c for c in codes if counts[c]]
        if not present:
            continue
        where = np.flatnonzero(np.isin(flat, present))
        x, y = np.divmod(where, gh)
        c, n = hex_of_pixels(geo, x, y, (los.width, los.height))
        keys, pixels = np.unique(c * 100 + n, return_counts=True)
        # a feature's end may spill a few pixels over a hex corner into a third hex
        keys = keys[pixels >= min(FEATURE_PIXELS, pixels.max())]
        hexes = sorted(zip((keys // 100).tolist(), (keys % 100).tolist()))
        hc = [h[0] for h in hexes]
        hn = [h[1] for h in hexes]
        why = "this hexside terrain has no Starshell counterpart yet"
        out.append(f"{label} (VASL code{'s' if len(present) > 1 else ''} "
                   f"{', '.join(map(str, present))}) not imported, in {len(hexes)} hex"
                   f"{'es' if len(hexes) != 1 else ''} ({_list_hexes(board_id, hc, hn, naming)}): "
                   f"{why}")
    return out
