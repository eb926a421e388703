"""Bridges (B6) as VASL draws them, for both kinds of archive: a hex holding any pixel of bridge
terrain has a bridge (VASL's ``Hex.hasBridgeTerrain`` and ``fixBridges``: a bridge location
over the hex's depression, or a depression location under a bridge at its centre), of the kind
of its first bridge pixel, column by column (``getBridgeTerrain``).  The board file keeps it in
the hex's ``bridge`` key (SPEC.md "Board file": extra keys are kept), one of ``BRIDGE_KINDS``;
the bridge pixels stay in the raster (VASL codes 82-87), never lowered as a depression (A6.3).
"""
from __future__ import annotations

import numpy as np

from ..hexes import PLAIN, Naming
from .grid import Geometry, hex_of_pixels

# VASL code -> our kind of bridge (B6)
BRIDGE_KINDS = {82: "single_hex_stone", 83: "single_hex_wooden", 84: "stone", 85: "wooden",
                86: "pontoon", 87: "foot"}
BRIDGE_CODES = np.array(sorted(BRIDGE_KINDS))


def bridge_hexes(xs: np.ndarray, ys: np.ndarray, codes: np.ndarray, geo: Geometry,
                 size: tuple[int, int]) -> dict:
    """(column, printed row) -> bridge kind, from the bridge pixels (xs, ys) of VASL codes
    ``codes``, given in column-major order (x, then y, ascending)."""
    if not len(xs):
        return {}
    cols, rows = hex_of_pixels(geo, xs, ys, size)
    ok = (cols >= 0) & (cols < size[0]) & (rows >= 1 - cols % 2) & (rows <= size[1])
    out: dict = {}
    for c, n, code in zip(cols[ok].tolist(), rows[ok].tolist(), codes[ok].tolist()):
        out.setdefault((c, n), BRIDGE_KINDS[int(code)])
    return out


def bridges_of_grid(terrain_xy: np.ndarray, geo: Geometry, size: tuple[int, int]) -> dict:
    """``bridge_hexes`` of a terrain grid indexed [x, y] (VASL's own order)."""
    flat = np.flatnonzero(np.isin(terrain_xy.ravel(), BRIDGE_CODES))
    xs, ys = np.divmod(flat, terrain_xy.shape[1])
    return bridge_hexes(xs, ys, terrain_xy.ravel()[flat], geo, size)


def bridge_report(board_id: str, bridges: dict, naming: Naming = PLAIN) -> list[str]:
    """The import report's line on bridges (none without any), hexes named by ``naming``."""
    if not bridges:
        return []
    names = [f"{board_id}{naming.name(c, n)}" for c, n in sorted(bridges)]
    more = f" and {len(names) - 8} more" if len(names) > 8 else ""
    return [f"{len(names)} hex{'es' if len(names) != 1 else ''} with a bridge (B6) imported "
            f"({', '.join(names[:8])}{more})"]
