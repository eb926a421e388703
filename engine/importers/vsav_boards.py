"""The boards of a VASL saved game: found in the boards folder (board files or VASL board
archives), bundled, or blank stand-ins; and where each lies on VASL's main map.

VASL's main map puts its boards behind a margin of 400 pixels; a board is 56.25 x 64.5 pixel
hexes, A1's centre at (0, 32.25) (or the geometry of its archive), cropped and turned as its
``bd`` record says.  A counter stands in the hex whose centre is nearest its position.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..boards import Board, HexTerrain, bundled_board, load_board
from ..errors import ScenarioError
from ..hexes import DEFAULT_SIZE, board_hexes
from ..ssr.table import not_known, unique
from .grid import GEO, Geometry
from .pieces import SavedGame, VsavBoard, is_board_name
from .vasl import import_board

MAP_EDGE = 400                          # VASL's main map: pixels of margin around the boards
BOARD_PIXELS = (1800, 645)              # a standard geomorphic board: 32 x 56.25, 10 x 64.5


@dataclass
class PlacedBoard:
    record: VsavBoard
    board: Board
    ref: str                        # the map entry's board reference
    geometry: Geometry
    size: tuple[int, int]           # the uncropped board image, pixels
    source: str                     # "dir", "bundled", "blank"
    write: bool = False             # a new board file to write beside the position
    origin: tuple[int, int] = (0, 0)

    @property
    def bounds(self) -> tuple[int, int]:
        c = self.record.crop
        w = c[2] if c and c[2] > 0 else self.size[0]
        h = c[3] if c and c[3] > 0 else self.size[1]
        return w, h

    def local(self, map_x: int, map_y: int, closed: bool = False) -> tuple[float, float] | None:
        """Board image pixels of a main map point on this board, or None (VASL's ASLBoard
        ``localCoordinates``: turned boards mirror, then the crop's corner is added).  A board
        holds [0, width) x [0, height); ``closed``: also its east and south edges, where the
        centres of the last half hexes lie."""
        w, h = self.bounds
        px, py = map_x - self.origin[0], map_y - self.origin[1]
        inside = (0 <= px <= w and 0 <= py <= h) if closed else (0 <= px < w and 0 <= py < h)
        if not inside:
            return None
        if self.record.reversed:
            px, py = w - px, h - py
        c = self.record.crop
        if c:
            px, py = px + c[0], py + c[1]
        return px, py


@lru_cache(maxsize=16)
def _hexes(size: tuple[int, int]):
    hexes = board_hexes(size)
    return hexes, np.array([c for c, _ in hexes]), np.array([r for _, r in hexes])


def hex_at(geometry: Geometry, pixel_x: float, pixel_y: float,
           size: tuple[int, int] = DEFAULT_SIZE) -> tuple[int, int]:
    """The hex of a board of ``size`` whose centre is nearest the pixel: the hex containing it."""
    hexes, cols, rows = _hexes(tuple(size))
    cx, cy = geometry.centres(cols, rows)
    k = int(np.argmin((cx - pixel_x) ** 2 + (cy - pixel_y) ** 2))
    return hexes[k]


def _board_notes(rec: VsavBoard, notes: list[str]) -> None:
    """What of the board's VASL set-up Starshell does not show."""
    if rec.crop:
        notes.append(f"board {rec.name} is cropped in VASL ({', '.join(map(str, rec.crop))}"
                     "): Starshell shows the whole board")
    if rec.overlays:
        notes.append(f"board {rec.name}: overlays " + ", ".join(
            f"{o.name} ({o.hex1}-{o.hex2})" for o in rec.overlays) + " kept in the position")
    unknown = not_known(rec.ssr)
    if rec.ssr:
        notes.append(f"board {rec.name}: SSRs {', '.join(rec.ssr)} applied to its terrain "
                     "(rules.md 11.2)" + (f"; not applied (unknown to Starshell or unreadable): "
                                          f"{', '.join(unknown)}" if unknown else ""))
    if rec.other:
        notes.append(f"board {rec.name}: parts of its record not read: {', '.join(rec.other)}")


def ssr_not_applied(records) -> list[str]:
    """The rule names of the records Starshell does not apply (each once, in order)."""
    return unique(n for rec in records for n in not_known(rec.ssr))


def _layout(placed: list[PlacedBoard]) -> None:
    """VASSAL's Map.setBoardBoundaries: a board's corner is the margin plus the widths of the
    boards left of it in its row and the heights of those above it in its column."""
    by_slot = {(p.record.column, p.record.row): p for p in placed}
    for p in placed:
        c, r = p.record.column, p.record.row
        x = MAP_EDGE + sum(by_slot[(k, r)].bounds[0] for k in range(c) if (k, r) in by_slot)
        y = MAP_EDGE + sum(by_slot[(c, k)].bounds[1] for k in range(r) if (c, k) in by_slot)
        p.origin = (x, y)


# ------------------------------------------------------------------------------ boards
CACHE_FOLDER = "starshell-boards"       # boards imported for saves, beside them


class MissingBoards(ScenarioError):
    """Boards of the layout found neither in the boards folder nor among the bundled ones;
    ``reasons``: board name -> why the folder does not serve it."""

    def __init__(self, problem: str, file: str, boards: list[str],
                 reasons: dict[str, str] | None = None):
        super().__init__(problem, file=file)
        self.boards = boards
        self.reasons = dict(reasons or {})


def _candidates(folder: Path, rec: VsavBoard) -> list[Path]:
    names = {rec.name, rec.name.upper(), rec.name.lower(), rec.board_id, rec.board_id.zfill(2)}
    out = []
    for n in sorted(f"bd{name}" for name in names if is_board_name(name)):   # no path out
        out += [folder / f"{n}.json", folder / n, folder / f"{n}.zip"]
    out.append(folder / f"{rec.board_id}.json")
    return out


def board_file_name(rec: VsavBoard) -> str:
    """The board file a saved game's board is written to: ``bd02.json``."""
    return f"bd{rec.name}.json" if is_board_name(rec.name) else f"bd{rec.board_id}.json"


def _blank(board_id: str) -> Board:
    return Board(board_id, f"Blank open board standing in for VASL board {board_id}",
                 HexTerrain("open", 0), {})


def _fingerprint(path: Path) -> str:
    """The archive's content hash: a cached import is used only for the very same archive."""
    digest = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _cached(cache_dir: Path | None, rec: VsavBoard, sha1: str) -> tuple[Board | None, str]:
    """The board imported earlier from the same archive, beside the position, or None and
    why it does not serve (its file or raster gone, damaged or changed: imported again)."""
    if cache_dir is None:
        return None, ""
    path = cache_dir / board_file_name(rec)
    if not path.is_file():
        return None, ""
    try:
        board = load_board(path)        # its raster read and checked with it
    except (ScenarioError, OSError) as e:
        return None, f"the board imported before cannot be used ({e}): imported again"
    source = board.extra.get("imported_from")
    if isinstance(source, dict) and source.get("sha1") == sha1:
        return board, ""
    return None, ""


def _from_archive(found: Path, rec: VsavBoard, cache_dir: Path | None) -> tuple[PlacedBoard, str]:
    """The board of a VASL archive of either kind, imported as ``import-vasl`` imports it
    (raster, picture, report), or taken from the cache when the archive has not changed."""
    sha1 = _fingerprint(found)
    board, why = _cached(cache_dir, rec, sha1)
    if board is not None:
        placed = PlacedBoard(rec, board, str(Path(board.path).resolve()), *_geometry(board),
                             "dir")
        return placed, f"board {rec.name}: the VASL board archive {found} (imported before)"
    board, report = import_board(found, rec.board_id)
    board = replace(board, extra=board.extra | {
        "imported_from": dict(board.extra.get("imported_from", {})) | {"sha1": sha1}})
    placed = PlacedBoard(rec, board, board_file_name(rec), *_geometry(board), "dir", write=True)
    kind = board.extra["imported_from"].get("format")
    return placed, (f"board {rec.name}: imported from the VASL {'5 ' if kind == 'vasl5' else ''}"
                    f"board archive {found}"
                    + (f" ({len(report)} approximation(s), see import-vasl)" if report else "")
                    + (f"; {why}" if why else ""))


def _geometry(board: Board) -> tuple[Geometry, tuple[int, int]]:
    """The hex grid of the board's picture (SPEC.md "image") and its size, else a standard
    geomorphic board's."""
    image = board.extra.get("image")
    try:
        a1x, a1y = (float(v) for v in image["a1"])
        geo = Geometry(a1x, a1y, float(image["hex_width"]), float(image["hex_height"]))
        w, h = (int(v) for v in image["pixels"])
        return geo, (w, h)
    except (TypeError, KeyError, ValueError):
        return GEO, BOARD_PIXELS


def resolve_boards(game: SavedGame, boards_dir: str | Path | None, blank_missing: bool,
                   file: str, cache_dir: str | Path | None = None
                   ) -> tuple[list[PlacedBoard], list[str]]:
    """Long: one pass over the layout's boards, each through the same ladder of sources."""
    placed: list[PlacedBoard] = []
    notes: list[str] = []
    missing: list[str] = []
    reasons: dict[str, str] = {}
    broken: set[str] = set()            # boards whose file in the folder does not serve
    folder = Path(boards_dir) if boards_dir else None
    cache = Path(cache_dir) if cache_dir else None
    if folder is not None and not folder.is_dir():
        raise ScenarioError("is not a folder", file=str(boards_dir), place="--boards")
    for rec in game.boards:
        bid = rec.board_id
        found = None
        if folder is not None:
            found = next((c for c in _candidates(folder, rec) if c.is_file()), None)
        if found is not None and found.suffix == ".json":
            try:
                board = load_board(found)
            except ScenarioError as e:
                reasons[rec.name] = f"its board file cannot be read ({e})"
                broken.add(rec.name)
                board = None
            if board is not None:
                placed.append(PlacedBoard(rec, board, str(found.resolve()), GEO, BOARD_PIXELS,
                                          "dir"))
                notes.append(f"board {rec.name}: the board file {found}")
                _board_notes(rec, notes)
                continue
        elif found is not None:
            try:
                p, note = _from_archive(found, rec, cache)
            except (ScenarioError, OSError) as e:
                reasons[rec.name] = f"its archive cannot be imported ({e})"
                broken.add(rec.name)
            else:
                placed.append(p)
                notes.append(note)
                _board_notes(rec, notes)
                continue
        elif folder is not None:
            reasons[rec.name] = f"no bd{rec.name} archive or board file in {folder}"
        try:
            board = None if rec.name in broken else bundled_board(bid)
        except ScenarioError:
            board = None
        if board is not None:
            placed.append(PlacedBoard(rec, board, bid, GEO, BOARD_PIXELS, "bundled"))
            notes.append(f"board {rec.name}: no VASL board archive or board file for it, "
                         f"so Starshell's bundled stand-in of board {bid} is used (it holds "
                         "only some of the board's terrain)")
        elif blank_missing:
            placed.append(PlacedBoard(rec, _blank(bid), board_file_name(rec)[:-5] + "-blank.json", GEO,
                                      BOARD_PIXELS, "blank", write=True))
            notes.append(f"board {rec.name}: missing"
                         + (f" ({reasons[rec.name]})" if rec.name in reasons else "")
                         + ", so a blank open board stands in for it (no terrain at all: the "
                         "night field ignores its hills, woods and buildings)")
        else:
            missing.append(rec.name)
            reasons.setdefault(rec.name, f"no boards folder, and no board {bid} of Starshell's")
        _board_notes(rec, notes)
    if missing:
        where = f"in {boards_dir}" if boards_dir else "(no --boards folder given)"
        why = "; ".join(f"{n}: {reasons[n]}" for n in missing)
        raise MissingBoards(
            f"missing board(s) {', '.join(missing)}: no VASL board archive (bdNN) or board file "
            f"{where} serves them ({why}); give the folder of your VASL boards with --boards "
            "DIR, or use blank open boards for the missing ones (--blank-missing)",
            file, missing, {n: reasons[n] for n in missing})
    seen: dict[str, str] = {}
    for p in placed:
        if p.board.id in seen:
            raise ScenarioError(f"boards {seen[p.board.id]} and {p.record.name} are both board "
                                f"{p.board.id!r}: a map holds a board once", file=file)
        seen[p.board.id] = p.record.name
    _layout(placed)
    return placed, notes
