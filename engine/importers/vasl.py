"""Import a VASL board archive, either kind: the door that picks the decoder.

A VASL 6 archive (``LOSData``: per-pixel LOS data) goes to ``vasl6.py``, a VASL 5 archive (a
board image whose colours encode the terrain) to ``vasl5.py``; both keep the terrain as drawn
(``vasl_raster.py``).  Anything else is refused by ``vasl6.py`` with its own message.
"""
from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

from ..boards import Board, with_raster
from ..errors import ScenarioError
from ..hexes import BOARD_ID_RE
from ..jsonio import open_regular
from . import vasl5, vasl5_grid, vasl5_image, vasl6, vasl_raster
from .archive import check_directory, find_entry
from .board_metadata import MAX_METADATA_BYTES, METADATA
from .losdata import LOS_DATA


class ImportCancelled(Exception):
    """The ``progress`` callback of ``import_board`` stopped the import."""


_BOARD_FILE_RE = re.compile(r"^bd(.+)$")


def board_id_from_filename(name: str) -> str:
    """``bd02`` -> ``"2"``, ``bd34`` -> ``"34"``, ``bdRO`` -> ``"ro"``, ``bd10a`` -> ``"bd10a"``:
    a valid board id ([0-9]+ or a lower-case letter, then letters and digits)."""
    stem = Path(name).name
    if "." in stem:
        stem = stem.rsplit(".", 1)[0]
    stem = re.sub(r"[^a-z0-9]", "", stem.lower())
    m = _BOARD_FILE_RE.match(stem)
    rest = m.group(1) if m else stem
    if rest.isdigit():
        return str(int(rest))
    if BOARD_ID_RE.match(rest):
        return rest
    if BOARD_ID_RE.match(stem):
        return stem
    return "vasl" + stem if stem else "vasl"


def is_board_archive(path: str | Path) -> bool:
    """Whether ``path`` is a VASL board archive (``bd05``: a ZIP holding ``LOSData``, or a board
    picture as VASL 5 kept them), read no further than its directory: what opening it as a
    position should offer to import.  Never raises."""
    if vasl5_image.is_vasl5(path):
        return True
    try:
        fd, _ = open_regular(Path(path), "")
    except (ScenarioError, OSError):
        return False
    with os.fdopen(fd, "rb") as handle:
        try:
            check_directory(handle)
            with zipfile.ZipFile(handle) as z:
                return find_entry(z, LOS_DATA) is not None
        except (ScenarioError, zipfile.BadZipFile, EOFError, ValueError, OverflowError, OSError):
            return False


def read_metadata_file(path: str | Path) -> bytes:
    """The bytes of a ``BoardMetadata.xml`` the user names (a regular file, bounded)."""
    fd, _ = open_regular(Path(path))
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(MAX_METADATA_BYTES + 1)
    if len(raw) > MAX_METADATA_BYTES:
        raise ScenarioError(f"more than {MAX_METADATA_BYTES} bytes: not a board's metadata",
                            file=str(path))
    return raw


def import_board(path: str | Path, board_id: str | None = None,
                 progress=None, metadata: str | Path | None = None) -> tuple[Board, list[str]]:
    """Read a VASL board archive and convert it: (Board, report), the Board carrying its
    terrain as drawn (``Board.raster``) and its picture (``Board.image_data``) in memory; nothing
    is written (``engine.boards.save_board`` writes the board file, its raster and picture).
    The board id is ``board_id`` or derived from the file name (``bd02`` -> ``"2"``).  Raises
    ScenarioError naming the file.
    ``progress(fraction)``, when given, is called as the work goes on; it may raise
    ImportCancelled to stop the import.  ``metadata``: a ``BoardMetadata.xml`` to read a VASL 5
    archive with (its building types, ``hasHills``), over the archive's own."""
    path = Path(path)
    if board_id is None:
        board_id = board_id_from_filename(path.name)
    elif not isinstance(board_id, str) or not BOARD_ID_RE.match(board_id):
        raise ScenarioError(f"board id {board_id!r} must be digits, or a lower-case letter "
                            "followed by lower-case letters and digits", file=str(path),
                            place="--id")
    report = progress if progress is not None else (lambda fraction: None)
    if vasl5_image.is_vasl5(path):     # the older kind: a board image and its colours
        report(0.05)
        extra = None if metadata is None else (str(metadata), read_metadata_file(metadata))
        archive = vasl5_image.read_archive(path)
        try:
            pixels = vasl5_grid.vasl5_pixels(archive, extra, lambda fraction: report(0.05 + 0.55 * fraction))
        except ScenarioError as e:
            raise e.at(file=e.file or str(path)) from None
        report(0.6)
        board, notes = vasl5.import_board(path, board_id, pixels, archive)
        if pixels.metadata_from:
            notes.append(f"building types and levels read from {METADATA} "
                         f"({Path(pixels.metadata_from).name if metadata else 'the archive'})")
        report(0.8)
        board = with_raster(board, vasl_raster.raster_from_vasl5(pixels))   # the terrain as drawn
        report(1.0)
        return board, notes
    archive = vasl6.read_archive(path, lambda fraction: report(0.8 * fraction))
    report(0.8)
    try:
        board, notes = vasl6.convert(archive, board_id)
        board = with_raster(board, vasl_raster.raster_from_los(archive.los, archive.geometry,
                                                               board.size))
        report(1.0)
        return board, notes
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
