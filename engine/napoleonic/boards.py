"""The boards of a fire position in their own game's terrain (SPEC.md turn three, "Fire room").

A Napoleonic map has villages, towns, chateaux, slopes, streams, ridges: the terrain its chart
pack names (its ``terrain`` rows, and the ``defence`` and ``drm`` rows' terrain), not ASL's
list.  A fire board is read as a plain board file whose terrain names are checked against the
position's pack; the core map is built with the ground levels and hexsides only (every hex open
ground to the core), and the pack's name of every hex is kept beside it (``hex_terrain``), for
the LOS (heights, hindrances from the pack) and the defence (rules.md 8).  The night room keeps
ASL's list.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..boards import Board, assets_dir, board_from_json, board_to_json, bundled_board
from ..errors import ScenarioError
from ..hexes import HexIdError, parse_local
from ..jsonio import read_json, type_name
from ..maps import Map
from .charts import ChartPack, within

OPEN = "open"
_TERRAIN_KEYS = ("terrain", "building", "upper_levels")


def vocabulary(charts: ChartPack) -> list[str]:
    """Every terrain name the pack knows: ``open``, its terrain rows, then the names its defence
    and drm rows give (``"*"`` is no name)."""
    names = [OPEN, *charts.terrain]
    names += [r.terrain for r in charts.defence] + [r.terrain for r in charts.drms]
    return [n for n in dict.fromkeys(names) if n != "*"]


def _board_json(ref: str, folder: Path) -> tuple[Any, str | None]:
    """The board's JSON and its file (None for a bundled ASL board): fire boards first."""
    if ref.endswith(".json"):
        path = Path(ref)
        if not path.is_absolute():
            path = folder / path
        elif not within(path, folder):      # SPEC: relative to the position's folder
            raise ScenarioError(f"board file {str(path)!r}: an absolute path outside the "
                                "position's folder (write it relative to the position)")
        if not path.is_file():
            raise ScenarioError(f"board file {str(path)!r} not found")
        return read_json(path), str(path)
    own = assets_dir() / "fire" / "boards" / f"{ref}.json"
    if re.match(r"^[a-z][a-z0-9]*\Z", ref) and own.is_file():
        return read_json(own), str(own)
    return board_to_json(bundled_board(ref)), None


def _name_of(obj: Any, place: str, known: list[str], default: str) -> str:
    if not isinstance(obj, dict):
        raise ScenarioError(f"must be an object, not {type_name(obj)}", place=place)
    name = obj.get("terrain", default)
    if not isinstance(name, str) or name not in known:
        raise ScenarioError(f"unknown terrain {name!r}: the chart pack names "
                            f"{', '.join(known)}", place=f"{place}.terrain")
    return name


def fire_board(ref: str, folder: Path, charts: ChartPack) -> tuple[Board, dict, str]:
    """A fire board: (the core's board, its hexes' terrain by (column, row), the default
    terrain), its names checked against ``charts``; ScenarioError naming the file and the hex."""
    data, file = _board_json(ref, folder)
    known = vocabulary(charts)
    try:
        if not isinstance(data, dict):
            raise ScenarioError(f"a board file is an object, not {type_name(data)}")
        default = _name_of(data.get("default", {}), "default", known, OPEN)
        hexes = data.get("hexes", {})
        names = {}
        plain = dict(data)
        if isinstance(hexes, dict):
            plain["hexes"] = {}
            for key, val in hexes.items():
                names[key] = _name_of(val, f"hexes.{key}", known, default)
                plain["hexes"][key] = {k: v for k, v in val.items() if k not in _TERRAIN_KEYS}
        if isinstance(plain.get("default"), dict):
            plain["default"] = {k: v for k, v in plain["default"].items() if k not in _TERRAIN_KEYS}
        board = board_from_json(plain)
    except ScenarioError as e:
        raise e.at(file=file) from None
    by_cell = {}
    for key, name in names.items():
        try:
            by_cell[parse_local(key, board.size, board.naming)] = name
        except HexIdError as e:                 # board_from_json has refused it already
            raise ScenarioError(str(e), file=file, place=f"hexes.{key}") from None
    return board, by_cell, default


def hex_terrain(game_map: Map, boards: dict) -> tuple[str, ...]:
    """The pack's terrain name of every map index; ``boards``: board id -> (cells, default)."""
    out = []
    for h in game_map.board_of:
        cells, default = boards[h.board]
        out.append(cells.get((h.col, h.row), default))
    return tuple(out)
