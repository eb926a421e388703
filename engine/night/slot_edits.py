"""A map slot's scenario set-up changed in the window (rules.md 11.2-11.3): the terrain SSRs of
the whole map or of one slot (``with_ssr``), a slot's overlays (``with_overlays``), each board
concerned rebuilt from the board without the position's rules (``board_without_rules``) with its
rules and overlays again; and the overlays' pictures where they lie on their board
(``overlay_pictures``), for drawing."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..boards import Board, board_raster
from ..errors import ScenarioError
from ..overlay_paste import (
    GEOMORPHIC,
    left_to_ssr,
    overlay_picture,
    picture_geometry,
    place_overlay,
)
from ..ssr.apply import without_rules
from .board_rules import board_for_slot, find_overlay, read_overlays, read_ssr
from .files import BoardSource
from .layout import LayoutResult, set_layout
from .scenario import MapEntry, Scenario


def board_without_rules(scenario: Scenario, index: int) -> Board | None:
    """Map slot ``index``'s board without the terrain SSRs and overlays the position lays on it
    (rules.md 11.2-11.3): the board as its file holds it.  None when the board was edited on
    the map after they were applied (they cannot be taken off)."""
    e, board = scenario.map_entries[index], scenario.map.placements[index].board
    if not scenario.ssr and not e.ssr and not e.overlays:
        return board
    return without_rules(board)


def slot_overlays(scenario: Scenario, index: int) -> tuple[tuple, list[str]]:
    """Slot ``index``'s overlays as (OverlayFile, hex1, hex2), found beside the position or its
    board (rules.md 11.3), and the sentences naming those not found."""
    source = BoardSource(scenario.folder)
    found = source.overlays(scenario.map_entries[index], f"map[{index}]")
    return found, source.missing


def _rebuilt(scenario: Scenario, new: Scenario, entries: list[MapEntry], slots) -> LayoutResult:
    boards = {}
    for k in slots:
        base = board_without_rules(scenario, k)
        if base is None:
            board_id = scenario.map.placements[k].board.id
            raise ScenarioError(f"board {board_id} was edited on the map under its SSRs or "
                                "overlays, which cannot be taken off it now: undo the edits, or "
                                "save the board and add it again")
        overlays, _missing = slot_overlays(new.replace(map_entries=tuple(entries)), k)
        try:
            boards[entries[k].board] = board_for_slot(base, entries[k].ssr, new.ssr, overlays)
        except ScenarioError as err:
            raise err.at(place=f"map[{k}].overlays") from None
    return set_layout(new, entries, boards)


def with_ssr(scenario: Scenario, names, index: int | None = None) -> LayoutResult:
    """The scenario with the terrain SSRs ``names`` (VASL's rule names, rules.md 11.2) for the
    whole map (``index`` None: the scenario's ``ssr``) or for map slot ``index`` alone (its
    ``ssr``).  Units and markers keep their hexes (one above what its hex now holds comes
    down, reported)."""
    names = tuple(names)
    read_ssr({"ssr": list(names)}, "" if index is None else f"map[{index}].")
    entries = list(scenario.map_entries)
    if index is not None:
        entries[index] = dataclasses.replace(entries[index], ssr=names)
    new = scenario.replace(ssr=names) if index is None else scenario
    return _rebuilt(scenario, new, entries, range(len(entries)) if index is None else [index])


def with_overlays(scenario: Scenario, index: int, overlays) -> LayoutResult:
    """Map slot ``index`` with the overlays ``overlays`` ((name, hex1, hex2) in the order they
    are laid, rules.md 11.3).  Raises ScenarioError for a record that cannot be placed."""
    overlays = tuple(tuple(o) for o in overlays)
    read_overlays({"overlays": [{"name": a, "hex1": b, "hex2": c} for a, b, c in overlays]},
                  f"map[{index}].")
    entries = list(scenario.map_entries)
    entries[index] = dataclasses.replace(entries[index], overlays=overlays)
    return _rebuilt(scenario, scenario, entries, [index])


def overlay_pictures(scenario: Scenario, index: int) -> list[dict]:
    """Each overlay of slot ``index`` as drawn (rules.md 11.3): {"name", "hex1", "hex2", and
    either "image" (width, height, RGBA bytes) with "x", "y" its top-left in the board's own
    pixels, or "problem": why it is not drawn (no file, cannot be placed or decoded, left to
    its SSR)}."""
    e, board = scenario.map_entries[index], scenario.map.placements[index].board
    raster = board_raster(board)
    # the picture's own pixels, where the window draws it (rules.md 11.3)
    geometry = picture_geometry(board, raster.geometry if raster is not None else GEOMORPHIC)
    folders = _folders(scenario, e)
    out = []
    for name, hex1, hex2 in e.overlays:
        item: dict = {"name": name, "hex1": hex1, "hex2": hex2}
        out.append(item)
        if left_to_ssr(name):
            item["problem"] = "laid by its SSR (rules.md 11.3), no picture"
            continue
        try:
            overlay = find_overlay(name, folders)
            if overlay is None:
                item["problem"] = "no overlay file beside the position or its board"
                continue
            picture, (x, y) = overlay_picture(place_overlay(overlay, hex1, hex2, geometry,
                                                            naming=board.naming))
        except ScenarioError as err:
            item["problem"] = str(err)
            continue
        item.update(image=(picture.width, picture.height, picture.tobytes()), x=x, y=y)
    return out


def slot_overlay(scenario: Scenario, index: int, name: str):
    """Overlay ``name``'s file as slot ``index`` finds it (beside the position or its board,
    rules.md 11.3), or None; ScenarioError for a file that cannot be read."""
    return find_overlay(name, _folders(scenario, scenario.map_entries[index]))


def _folders(scenario: Scenario, entry: MapEntry) -> list[Path]:
    """Where a slot's overlay files are looked for: the position's folder, then its board
    file's (as the loader looks, ``files.BoardSource.overlays``)."""
    folder = Path(scenario.folder or ".")
    out = [folder]
    if entry.board.endswith(".json"):
        ref = Path(entry.board)
        out.append((ref if ref.is_absolute() else folder / ref).parent)
    return out
