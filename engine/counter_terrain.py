"""Counters that change their hex's terrain (rules.md 11.4, B24): rubble, laid on a map before
any LOS is judged, on the terrain as drawn and on the hex model alike.

VASL (``VASLGameInterface.updatePiece``: a TERRAIN counter; ``Map.applyLOSRules``): every point
of a hex that holds a rubble counter takes the counter's terrain instead of the drawn one
(``Stone Rubble``, ``Wooden Rubble``, or their level forms ``Stone Rubble Level 1``...), its
ground level unchanged; inherent terrain "spilling" into the hex is then not ignored there.
So here: every pixel of the hex (as the LOS frame reads a pixel's hex, ``raster.pixels``: the
nearest centre, where VASL's ``gridToHex`` cuts columns in thirds) takes VASL's rubble code, and
the hex model's hex becomes rubble (B24.1: a half-level obstacle) at its own level.  The level
forms keep their VASL code on the drawn terrain (VASL's table gives them a height; the raster
rules take them as inherent terrain, as VASL judges a counter's hex along its sides); on the
hex model they are rubble as the ground-level form (an approximation).

``map_with_rubble``: the map with its rubble laid (a map of its own content, so every per-map
table is its own); boards on two slots (a joined hex) get the rubble on both halves.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

import numpy as np

from .boards import Board, HexTerrain, board_raster, with_raster
from .hexes import parse_hex_id
from .los.raster.pixels import pixel_hexes
from .maps import Map, Placement
from .raster_file import Raster
from .ssr.apply import BoardKey
from .ssr.pixels import codes

RUBBLE_MATERIALS = ("stone", "wood")
MAX_RUBBLE_LEVEL = 3
_VASL_MATERIAL = {"stone": "Stone", "wood": "Wooden"}     # VASL's terrain names (rules.md 11.4)


class Rubble(NamedTuple):
    """A rubble counter on a board's own hex (``col``, ``row``): its material and level (0:
    the ground-level counter)."""
    col: int
    row: int
    material: str
    level: int = 0


def vasl_rubble_terrain(material: str, level: int = 0) -> str:
    """VASL's terrain for a rubble counter (its ``CounterMetadata.xml``: "Stone Rubble",
    "Wood Rubble Level 2" -> "Wooden Rubble Level 2")."""
    base = f"{_VASL_MATERIAL[material]} Rubble"
    return base if not level else f"{base} Level {level}"


def board_with_rubble(board: Board, rubble: tuple[Rubble, ...]) -> Board:
    """``board`` with each rubble counter's hex made rubble (B24; rules.md 11.4), on its hex
    model and its terrain as drawn; kept per (board content, counters)."""
    if not rubble:
        return board
    return _with_rubble(BoardKey(board), tuple(sorted(set(rubble))))


@functools.lru_cache(maxsize=8)
def _with_rubble(key: BoardKey, rubble: tuple[Rubble, ...]) -> Board:
    board = key.board
    hexes = dict(board.hexes)
    for r in rubble:            # B24.1: rubble, a half-level obstacle at the hex's own level
        spec = board.at(r.col, r.row)
        hexes[(r.col, r.row)] = HexTerrain("rubble", spec.level, half_level=True)
    new = dataclasses.replace(board, hexes=hexes, raster=None)
    raster = board_raster(board)
    if raster is None:
        return new
    return with_raster(new, _raster_with_rubble(board, raster, rubble))


def _raster_with_rubble(board: Board, raster: Raster, rubble: tuple[Rubble, ...]) -> Raster:
    """Every pixel of each rubble hex takes VASL's rubble terrain (``Map.applyLOSRules``: a
    terrain counter's terrain instead of the drawn one, levels unchanged); a pixel's hex as
    the LOS frame reads it (``raster.pixels``: VASL's ``gridToHex``, a pixel row between two
    hexes of a column the lower one's)."""
    alone = Map([Placement(board, (0, 0))])
    height, width = raster.shape
    hexi = pixel_hexes(alone, width, height, raster.geometry).hexi.reshape(height, width)
    code_of = codes()
    per_hex = np.full(alone.size + 1, -1, dtype=np.int16)      # the last: no hex (-1)
    for r in rubble:
        name = board.id + board.name(r.col, r.row)
        if alone.has(name):
            per_hex[alone.index(name)] = code_of[vasl_rubble_terrain(r.material, r.level)]
    drawn = per_hex[hexi]
    terrain = np.where(drawn >= 0, drawn, raster.terrain).astype(raster.terrain.dtype)
    return Raster(terrain, raster.level, raster.geometry, raster.size, raster.summary)


def map_with_rubble(game_map: Map, rubble: dict[int, tuple[str, int]]) -> Map:
    """``game_map`` with rubble in the hexes of ``rubble`` (map index -> (material, level)),
    on every board holding a part of each hex (rules.md 11.4)."""
    if not rubble:
        return game_map
    boards = {p.board.id: p.board for p in game_map.placements}
    on_board: dict[str, list[Rubble]] = {}
    for index, (material, level) in rubble.items():
        for name in game_map.aliases(index):
            board = boards[parse_hex_id(name, size=None).board]
            h = parse_hex_id(name, tuple(board.size), board.naming)     # rules.md 11.6 names
            on_board.setdefault(h.board, []).append(Rubble(h.col, h.row, material, level))
    placements = [Placement(board_with_rubble(p.board, tuple(on_board.get(p.board.id, ()))),
                          p.at, p.rotated) for p in game_map.placements]
    return Map.build(placements)
