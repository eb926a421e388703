"""Read a VASL overlay archive (rules.md 11.3; VASL's ``Overlay``) and decode its images into
the overlay file format (``engine.overlay_file``) that the board pipeline places and pastes
(``engine.overlay_paste``).

The archive, in the boards folder's ``overlays/`` folder, is named from the overlay's name
(``archive_name``); it holds ``ovr<name><o>.gif`` images (orientations a..f), a ``data`` file
(``<name> oa;ob;oc;od;oe;of``: the origin hex of each orientation; ``version``) and sometimes a
``colors`` file (``Name R,G,B``, as a VASL 5 board's).  Each opaque pixel's colour is decoded by
the colour table the board importers use (``vasl5_image.colour_table``, the archive's own
``colors`` names first): its terrain code and level; an unknown colour takes the nearest named
one, white is level-0 winter ground, depression terrain lies a level down, X-overlay buildings
take the type of their overlay number.

Bounds: the archive as a board archive (``archive.open_archive``), each image entry at most
``MAX_IMAGE_ENTRY_BYTES`` and ``overlay_file.MAX_PIXELS`` pixels (from its header, before any
pixel is decoded), ``data`` and ``colors`` at most 1 MiB, at most ``MAX_IMAGES`` images.
"""
from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ScenarioError, shown
from ..overlay_file import (
    KEEP_LEVEL,
    KEEP_TERRAIN,
    MAX_PIXELS,
    ORIENTATIONS,
    OverlayFile,
    OverlayImage,
    overlay_file_name,
    save_overlay,
)
from ..raster_file import terrain_table
from ..vasl_terrain import BUILDING, VASL_TERRAIN
from .archive import find_entry, open_archive, read_entry
from .vasl5_image import COLORS, DATA, MAX_TEXT_BYTES, colour_table, parse_colors

MAX_IMAGE_ENTRY_BYTES = 16 * 1024 * 1024
MAX_IMAGES = 64
OVERLAYS_FOLDER = "overlays"
WHITE = (255, 255, 255)
WHITE_NAME = "L0Winter"         # rules.md 11.3: white is level-0 winter ground
MAX_LEVEL = 10
NEIGHBOUR_STEPS = 6             # VASL looks 2..6 pixels down the diagonals for a known colour
# colours VASL never reads for a neighbour: black lines, hex numbers, hex dots, manholes
SKIPPED_NAMES = frozenset({"WhiteHexNumbers", "WinterBlackHexNumbers", "MudBoardNum",
                           "DTO_BoardNum", "AD_WinterBlackHexNumbers"})
SKIPPED_RGB = frozenset((r << 16) | (g << 8) | b for r, g, b in (
    (0, 0, 0), (175, 184, 160), (255, 254, 253), (255, 255, 10), (0, 1, 0)))
_CODE_OF_NAME = {t.name: code for code, t in VASL_TERRAIN.items()}

# rules.md 11.3: building pixels on X overlays, typed by overlay number (VASL terrain codes;
# None: a mixed overlay keeps the types its colours name)
_STONE, _WOODEN = (40, 41, 42), (50, 51, 52)        # (plain, one-level, two-level)
X_BUILDINGS: dict[int, int | None] = {}
for _numbers, _code in (((1, 2, 4, 5, 6, 7, 11), _STONE[0]), ((3, 9, 26, 28, 29), _WOODEN[0]),
                        ((12, 17, *range(19, 26), 27, 30, 39), _STONE[1]), ((13, 41), _WOODEN[1]),
                        ((8, 16, 38, 40), _STONE[2]), ((10,), _WOODEN[2]),
                        ((14, 15, 18, *range(32, 38)), None)):
    X_BUILDINGS.update(dict.fromkeys(_numbers, _code))


def equivalent(name: str) -> str:
    """rules.md 11.3: be2/be3 use be1's files, be5/be6 be4's, oc2 oc1's, oc4 oc3's."""
    for shared, uses in (("be2", "be1"), ("be3", "be1"), ("be5", "be4"), ("be6", "be4"),
                         ("oc2", "oc1"), ("oc4", "oc3")):
        if name.startswith(shared):
            return uses + name[len(shared):]
    return name


def archive_name(name: str) -> str:
    """rules.md 11.3: ``ovr`` + the name without its trailing digits (for a name starting with
    a letter), upper-cased: ``x12`` -> ``ovrX``, ``rr10`` -> ``ovrRR``, ``1`` -> ``ovr1``."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_\-]{1,40}", name):
        raise ScenarioError(f"{shown(name)} is not a VASL overlay name")
    stem = equivalent(name)
    if not stem[0].isdigit():
        stem = stem.rstrip("0123456789") or stem
    return "ovr" + stem.upper()


def image_name(name: str, orient: str) -> str:
    """The image of orientation ``orient``: ``ovr`` + the name (its shared one) + the
    orientation letter + ``.gif``."""
    return f"ovr{equivalent(name + orient)}.gif"


def find_archive(boards_dir: str | Path, name: str) -> Path:
    """The archive of overlay ``name`` in the boards folder's ``overlays/`` folder (its name in
    any case); ScenarioError naming the file looked for when there is none."""
    folder = Path(boards_dir) / OVERLAYS_FOLDER
    wanted = archive_name(name)
    exact = folder / wanted
    if exact.is_file():
        return exact
    if folder.is_dir():
        for p in folder.iterdir():
            if p.name.lower() == wanted.lower() and p.is_file():
                return p
    raise ScenarioError(f"no archive for overlay {name!r}", file=str(exact))


@dataclass(frozen=True)
class OverlayReport:
    """How much of an overlay was read: per orientation, pixels decoded and colours unknown."""
    name: str
    archive: str
    images: dict            # orientation -> dict(opaque, decoded, nearest, no_terrain, colours)
    skipped_colors: tuple = ()

    def lines(self) -> list[str]:
        out = []
        for o, d in sorted(self.images.items()):
            out.append(f"overlay {self.name} ({Path(self.archive).name}) image {o}: "
                       f"{d['opaque']} opaque pixels, {d['decoded']} decoded by their colour, "
                       f"{d['nearest']} by a neighbour's, {d['kept']} keep the board's terrain; "
                       f"{d['unknown_colours']} colour(s) no table names ({d['unknown_pixels']} "
                       "pixels)")
        return out


def read_overlay(path: str | Path, name: str) -> tuple[OverlayFile, OverlayReport]:
    """Read and decode overlay ``name`` from its archive ``path``; ScenarioError naming the
    archive (and the entry) on any problem."""
    path = Path(path)
    try:
        return _read_overlay(path, name)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None


def _read_overlay(path: Path, name: str) -> tuple[OverlayFile, OverlayReport]:
    archive_name(name)                      # the name is one
    with open_archive(path) as archive:
        info = find_entry(archive, DATA)
        if info is None:
            raise ScenarioError(f"no '{DATA}' file (the overlays' origin hexes)")
        origins = parse_origins(read_entry(archive, info, MAX_TEXT_BYTES).decode("latin-1"),
                                name)
        info = find_entry(archive, COLORS)
        colours, skipped = _colours(None if info is None else read_entry(
            archive, info, MAX_TEXT_BYTES).decode("latin-1"))
        entries = {i.filename.rsplit("/", 1)[-1].lower(): i for i in archive.infolist()
                   if not i.is_dir()}
        raw = {}
        for o in ORIENTATIONS:
            info = entries.get(image_name(name, o).lower())
            if info is not None:
                raw[o] = (info.filename, read_entry(archive, info, MAX_IMAGE_ENTRY_BYTES))
    if not raw:
        raise ScenarioError(f"no image of overlay {name!r} ({image_name(name, 'a')} ... "
                            f"{image_name(name, 'f')})")
    images, report = {}, {}
    for o, (entry, data) in raw.items():
        images[o], report[o] = decode_overlay_image(data, entry, o, name, colours)
    return (OverlayFile(name, origins, images),
            OverlayReport(name, str(path), report, tuple(skipped)))


def parse_origins(text: str, name: str) -> tuple[str, ...]:
    """The origin hexes of overlay ``name`` from its ``data`` line (``x1 b2;b1;c1;d1;d2;c3``;
    blanks where an orientation has none); ScenarioError (place: data) when there is no line."""
    for n, line in enumerate(text.splitlines()[:100_000], start=1):
        parts = line.split(None, 1)
        if len(parts) == 2 and parts[0].lower() == name.lower():
            origins = [o.strip() for o in parts[1].split(";")]
            if len(origins) > len(ORIENTATIONS) or not any(origins):
                raise ScenarioError(f"line {n} ({shown(line.strip()[:60])}) is not six origin "
                                    "hexes separated by ';'", place=DATA)
            bad = [o for o in origins if o and not re.fullmatch(r"[A-Za-z]{1,4}\d{1,3}", o)]
            if bad:
                raise ScenarioError(f"line {n}: {shown(bad[0])} is not a hex name", place=DATA)
            return tuple(origins + [""] * (len(ORIENTATIONS) - len(origins)))
    raise ScenarioError(f"no line for overlay {name!r} ('{name} oa;ob;oc;od;oe;of': its origin "
                        "hexes)", place=DATA)


def _colours(text: str | None) -> tuple[list, list]:
    """(name, rgb) of the archive's own colours first, then the shared table's; lines left
    out."""
    table = [(c.name, c.rgb) for c in colour_table().values()]
    if text is None:
        return table, []
    own, skipped = parse_colors(text)
    named = {n for n, _ in own}
    return own + [(n, rgb) for n, rgb in table if n not in named], skipped


def decode_overlay_image(data: bytes, entry: str, orient: str, name: str, colours: list
                         ) -> tuple[OverlayImage, dict]:
    """One image: RGBA pixels (size checked from the header first) decoded by colour."""
    rgba, picture = _read_image(data, entry)
    mask = rgba[..., 3] != 0                     # VASL: an alpha of 0 is transparent
    rgb = rgba[..., :3].astype(np.int64)
    packed = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    values, inverse = np.unique(np.where(mask, packed, -1), return_inverse=True)
    inverse = inverse.reshape(mask.shape)
    lut = colour_luts(values, colours, name)
    # rules.md 11.3: a colour naming no terrain (or no level) reads a neighbour's colour
    near = neighbour_colour(inverse, mask, lut.skip[inverse])
    found = near >= 0
    near_c = np.where(found, near, 0)
    no_code = lut.code[inverse] == KEEP_TERRAIN
    code = np.where(no_code & found, lut.fallback_code[near_c], lut.code[inverse])
    no_level = lut.level[inverse] == KEEP_LEVEL
    level = np.where(no_level & found, lut.level[near_c], lut.level[inverse])
    depressed = lut.depression[code]             # rules.md 11.3: depressions a level down
    level = np.where(depressed, np.where(level == KEEP_LEVEL, 0, level) - 1, level)
    building = _x_building(name)
    if building is not None:                     # rules.md 11.3: X overlays' building types
        code = np.where(BUILDING[code] & ~lut.side[code], building, code)
    code = np.where(mask, code, KEEP_TERRAIN).astype(np.uint8)
    level = np.where(mask, np.clip(level, KEEP_LEVEL, MAX_LEVEL), KEEP_LEVEL).astype(np.int8)
    image = OverlayImage(orient, code, level, mask, lut.side[code] & mask, picture)
    unknown = mask & lut.unknown[inverse]
    stats = {"opaque": int(mask.sum()), "decoded": int((mask & ~no_code).sum()),
             "nearest": int((mask & no_code & found).sum()),
             "kept": int((mask & (code == KEEP_TERRAIN)).sum()),
             "unknown_colours": int(np.unique(inverse[unknown]).size),
             "unknown_pixels": int(unknown.sum())}
    return image, stats


def _read_image(data: bytes, entry: str) -> tuple[np.ndarray, bytes]:
    from PIL import Image, UnidentifiedImageError
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(data)) as im:
                w, h = im.size
                if w * h > MAX_PIXELS or w < 1 or h < 1:
                    raise ScenarioError(f"{w} x {h} pixels: an overlay image holds 1 to "
                                        f"{MAX_PIXELS} pixels", place=entry)
                if im.format not in ("GIF", "PNG"):
                    raise ScenarioError(f"a {im.format} image, not GIF or PNG", place=entry)
                rgba = im.convert("RGBA")
    except ScenarioError:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError,
            Image.DecompressionBombError) as e:
        raise ScenarioError(f"cannot be decoded as an image ({e})", place=entry) from None
    out = io.BytesIO()
    rgba.save(out, format="PNG")
    return np.asarray(rgba), out.getvalue()


def neighbour_colour(inverse: np.ndarray, mask: np.ndarray, skip: np.ndarray) -> np.ndarray:
    """Per pixel, the colour (index) VASL reads for a colour it cannot name
    (``ASLMap.getOverlayNearestColor``): at steps 2..6 down the diagonals, the first opaque pixel
    of (x+s-1, y+s), (x+s-1, y-s), (x-s+1, y+s), (x-s+1, y-s); the first whose colour is not a
    line, hex dot or number (``skip``) is taken; -1 when none is."""
    h, w = inverse.shape
    pad = NEIGHBOUR_STEPS + 1
    idx = np.pad(inverse, pad, constant_values=-1)
    opaque = np.pad(mask, pad, constant_values=False)
    bad = np.pad(skip, pad, constant_values=True)
    out = np.full((h, w), -1, dtype=np.int64)
    for step in range(2, NEIGHBOUR_STEPS + 1):
        pick = np.full((h, w), -1, dtype=np.int64)
        picked_bad = np.zeros((h, w), dtype=bool)
        for dx, dy in ((step - 1, step), (step - 1, -step), (1 - step, step), (1 - step, -step)):
            window = (slice(pad + dy, pad + dy + h), slice(pad + dx, pad + dx + w))
            take = (pick < 0) & ~picked_bad & opaque[window]
            pick = np.where(take & ~bad[window], idx[window], pick)
            picked_bad |= take & bad[window]
        out = np.where((out < 0) & (pick >= 0), pick, out)
    return out


@dataclass(frozen=True)
class ColourLuts:
    """Per distinct colour of an image: what it names, and per VASL terrain code its kind."""
    code: np.ndarray            # uint8: the terrain code it names, KEEP_TERRAIN: none
    level: np.ndarray           # int: the level it names, KEEP_LEVEL: none
    fallback_code: np.ndarray   # the code it gives a neighbour that names none (open ground)
    skip: np.ndarray            # bool: a line, hex dot or number (not read for a neighbour)
    unknown: np.ndarray         # bool: a colour no table names
    depression: np.ndarray      # bool[256] by code
    side: np.ndarray            # bool[256] by code: hexside terrain


def colour_luts(values: np.ndarray, colours: list, name: str) -> ColourLuts:
    """The tables of ``values`` (packed RGB, -1: transparent) by the archive's and the shared
    colour names (rules.md 11.3: white is level-0 winter ground)."""
    table = colour_table()
    by_rgb: dict[int, str] = {}
    for cname, (r, g, b) in colours:
        by_rgb.setdefault((r << 16) | (g << 8) | b, cname)
    by_rgb[(WHITE[0] << 16) | (WHITE[1] << 8) | WHITE[2]] = WHITE_NAME
    n = len(values)
    code = np.full(n, KEEP_TERRAIN, np.uint8)
    level = np.full(n, KEEP_LEVEL, np.int64)
    fallback = np.zeros(n, np.uint8)            # VASL: a colour of no terrain: open ground
    skip = np.zeros(n, bool)
    unknown = np.zeros(n, bool)
    for i, v in enumerate(values.tolist()):
        cname = by_rgb.get(v)
        entry = table.get(cname) if cname else None
        skip[i] = v < 0 or v in SKIPPED_RGB or cname in SKIPPED_NAMES
        unknown[i] = v >= 0 and entry is None
        if entry is None:
            continue
        if entry.terrain in _CODE_OF_NAME:
            code[i] = fallback[i] = _CODE_OF_NAME[entry.terrain]
        if entry.level is not None:
            level[i] = entry.level
    depression = np.zeros(256, bool)
    depression[[c for c, t in terrain_table().items() if t.category == "DEPRESSION"]] = True
    side = np.zeros(256, bool)
    side[[c for c, t in VASL_TERRAIN.items() if t.kind == "hexside"]] = True
    return ColourLuts(code, level, fallback, skip, unknown, depression, side)


def _x_building(name: str) -> int | None:
    """The building code of X overlay ``name`` (``x12``), None for other overlays and mixed
    ones."""
    m = re.fullmatch(r"[xX](\d+)", name)
    return X_BUILDINGS.get(int(m.group(1))) if m else None


def import_overlay(boards_dir: str | Path, name: str) -> tuple[OverlayFile, OverlayReport]:
    """Find overlay ``name``'s archive in the boards folder and read it."""
    return read_overlay(find_archive(boards_dir, name), name)


def write_overlay(boards_dir: str | Path, name: str, dest_dir: str | Path
                  ) -> tuple[Path, OverlayReport]:
    """Import overlay ``name`` from the boards folder and keep it, decoded, in ``dest_dir``
    (``overlay_file.overlay_file_name``): the file the night loader places and pastes."""
    overlay, report = import_overlay(boards_dir, name)
    path = Path(dest_dir) / overlay_file_name(name)
    save_overlay(overlay, path)
    return path, report


MAX_ARCHIVES_LISTED = 500       # overlay archives read for their names, at most


def overlay_names(boards_dir: str | Path) -> list[str]:
    """The overlays the boards folder's ``overlays/`` archives hold (rules.md 11.3: an image
    ``ovr<name><a..f>.gif``), sorted; an archive that cannot be read is skipped (adding its
    overlay names the problem)."""
    folder = Path(boards_dir) / OVERLAYS_FOLDER
    if not folder.is_dir():
        return []
    names: set[str] = set()
    pattern = re.compile(r"^ovr([a-z0-9]+?)[a-f]\.gif$", re.IGNORECASE)
    for path in sorted(folder.iterdir())[:MAX_ARCHIVES_LISTED]:
        try:
            with open_archive(path) as archive:
                entries = [i.filename.rsplit("/", 1)[-1] for i in archive.infolist()]
        except (ScenarioError, OSError):
            continue
        names.update(m.group(1).lower() for m in map(pattern.match, entries) if m)
    return sorted(names, key=lambda n: (re.sub(r"\d+$", "", n), len(n), n))
