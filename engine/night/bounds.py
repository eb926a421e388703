"""The bounds of a night position, one set for the file loader (``files``) and for ``check``
(every edit): how many units and markers, how large a map, how long a hex id."""
from __future__ import annotations

from ..errors import ScenarioError
from ..hexes import BOARD_COLUMNS, BOARD_ROWS, board_hexes
from ..maps import Placement

MAX_NVR = 99
MAX_UNITS = 2000
MAX_MARKERS = 2000
MAX_RADIUS = 12
MAX_MAP_SLOT = 20
MAX_MAP_HEXES = 11072          # 32 boards: a night field answers within a few seconds (README)
MAX_MAP_SPAN = 132
MAX_HEX_ID = 40              # longer is no hex id (a board id, a column, a row)


def check_map_size(placements: list[Placement]) -> None:
    """Bound the map so that a night field answers within a few seconds: at most
    ``MAX_MAP_HEXES`` hexes, and the slots the boards take at most ``MAX_MAP_SPAN`` hexes wide
    and tall (a field's work grows with its hexes times the length of its lines of sight)."""
    sizes = [tuple(getattr(p.board, "size", (BOARD_COLUMNS, BOARD_ROWS))) for p in placements]
    total = sum(len(board_hexes(size)) for size in sizes)
    if total > MAX_MAP_HEXES:
        raise ScenarioError(f"a map of {total} hexes is too large: at most {MAX_MAP_HEXES} "
                            "(32 geomorphic boards)", place="map")
    cols = [p.at[0] for p in placements]
    rows = [p.at[1] for p in placements]
    wide = (max(cols) - min(cols) + 1) * max(c for c, _ in sizes)
    tall = (max(rows) - min(rows) + 1) * max(r for _, r in sizes)
    if wide > MAX_MAP_SPAN or tall > MAX_MAP_SPAN:
        raise ScenarioError(f"the boards span {wide} x {tall} hexes (slots {min(cols)}..{max(cols)}"
                            f" x {min(rows)}..{max(rows)}): at most {MAX_MAP_SPAN} hexes each way "
                            "(4 geomorphic boards wide, 13 tall)", place="map")
