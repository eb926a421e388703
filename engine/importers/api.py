"""The VASL importers' front door (rules.md 7): ``engine.api.vasl``.

Board archives of both kinds (VASL 6 with ``LOSData``, VASL 5 with a picture and its colours)
become Starshell boards (``import_board``: a ``Board`` carrying its terrain as drawn in
``Board.raster``, and a report); saved games (``.vsav``) become night positions (``read_vsav``:
a ``VsavImport``, whose ``scenario()`` is the position).  Reading writes nothing: writing the
board files is the caller's step (``engine.boards.save_board``, ``save_boards``), and
``vsav_scenario`` is the app's open of a save, which keeps its imported boards beside it.
Overlay archives (rules.md 11.3) become overlay files (``engine.overlay_file``).
"""
from __future__ import annotations

from .follow import game_changes, same_unit, unit_words
from .follow_keep import Merge, merge_reading
from .overlays import import_overlay, overlay_names, write_overlay
from .sides import Sides, default_sides, parse_sides, save_nations
from .vasl import ImportCancelled, board_id_from_filename, import_board, is_board_archive
from .vasl5 import board_image_placement
from .vsav import VsavImport, import_vsav, read_vsav, save_boards, vsav_scenario
from .vsav_boards import CACHE_FOLDER, MissingBoards
from .waiting import (
                      PIECES_KEY,
                      WAITING_KEY,
                      kept_pieces,
                      place_piece,
                      place_waiting,
                      waiting_pieces,
                      waiting_units,
)

__all__ = ["ImportCancelled", "board_id_from_filename", "import_board", "is_board_archive",
           "board_image_placement",
           "import_vsav", "read_vsav", "vsav_scenario", "save_boards", "VsavImport",
           "MissingBoards", "CACHE_FOLDER",
           "WAITING_KEY", "PIECES_KEY", "kept_pieces", "place_waiting", "waiting_units",
           "game_changes", "same_unit", "unit_words", "Merge", "merge_reading",
           "waiting_pieces", "place_piece", "Sides", "default_sides",
           "parse_sides", "save_nations", "import_overlay", "write_overlay", "overlay_names"]
