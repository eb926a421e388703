"""A map slot's scenario set-up (SPEC.md, turn-four extensions; rules.md 11.1-11.2): its terrain
SSRs (``ssr``, VASL's rule names), overlays (``overlays``) and crop (``crop``), read, written,
and the rules applied to the slot's board (``board_for_slot``, the one place ``build_map`` uses).

Overlays (rules.md 11.3) are laid on the board's drawn terrain after its SSRs, from the overlay
files kept beside the position or its boards (``overlay_file.overlay_file_name``, written by the
importers from VASL's archives); an overlay whose file is not there is named by
``missing_overlays`` and left out.  A crop is kept (rules.md 11.6)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..boards import Board
from ..errors import ScenarioError, shown
from ..jsonio import is_int, type_name
from ..overlay_file import OverlayFile, load_overlay, overlay_file_name
from ..overlay_paste import left_to_ssr, overlays_hook
from ..ssr.apply import BoardKey, board_with_rules
from ..ssr.table import MAX_RULES

MAX_OVERLAYS = 200
MAX_NAME = 60
MAX_CROP = 100_000


def _bounded_list(obj: dict, key: str, place: str, what: str, items: str, limit: int) -> list:
    """``obj[key]``, a list (empty when absent) of at most ``limit`` ``items``."""
    v = obj.get(key, [])
    if not isinstance(v, list):
        raise ScenarioError(f"must be a list of {what}, not {type_name(v)}", place=f"{place}{key}")
    if len(v) > limit:
        raise ScenarioError(f"more than {limit} {items}", place=f"{place}{key}")
    return v


def read_ssr(obj: dict, place: str) -> tuple[str, ...]:
    """``obj["ssr"]``: VASL rule names, each a non-empty string (an unknown name is kept: it is
    named as not applied, never dropped)."""
    v = _bounded_list(obj, "ssr", place, "VASL rule names", "rules", MAX_RULES)
    for i, n in enumerate(v):
        if not isinstance(n, str) or not n.strip() or len(n) > MAX_NAME:
            raise ScenarioError(f"must be a rule name (a string of 1 to {MAX_NAME} characters), "
                                f"not {shown(n, 40)}", place=f"{place}ssr[{i}]")
    return tuple(v)


def read_overlays(obj: dict, place: str) -> tuple[tuple[str, str, str], ...]:
    """``obj["overlays"]``: ``{"name", "hex1", "hex2"}`` objects, as a save's ``OVR`` records."""
    v = _bounded_list(obj, "overlays", place, "overlays", "overlays", MAX_OVERLAYS)
    out = []
    for i, o in enumerate(v):
        p = f"{place}overlays[{i}]"
        if not isinstance(o, dict):
            raise ScenarioError(f"must be an object {{name, hex1, hex2}}, not {type_name(o)}",
                                place=p)
        parts = []
        for k in ("name", "hex1", "hex2"):
            s = o.get(k)
            if not isinstance(s, str) or not s.strip() or len(s) > MAX_NAME:
                raise ScenarioError(f"must be a string of 1 to {MAX_NAME} characters, not "
                                    f"{shown(s, 40)}", place=f"{p}.{k}")
            parts.append(s)
        out.append(tuple(parts))
    return tuple(out)


def read_crop(obj: dict, place: str) -> tuple[int, int, int, int] | None:
    """``obj["crop"]``: [x, y, width, height] in the board's own pixels (-1: to the edge, as
    VASL writes it)."""
    v: Any = obj.get("crop")
    if v is None:
        return None
    if (not isinstance(v, list) or len(v) != 4 or not all(is_int(n) for n in v)
            or not all(0 <= n <= MAX_CROP for n in v[:2])
            or not all(-1 <= n <= MAX_CROP for n in v[2:])):
        raise ScenarioError(f"must be [x, y, width, height], whole numbers of pixels (x and y "
                            f"from 0, width and height from -1), not {shown(v, 60)}",
                            place=f"{place}crop")
    return tuple(v)


def slot_json(ssr, overlays, crop) -> dict:
    """The slot's keys as written (only those it has)."""
    out: dict = {}
    if ssr:
        out["ssr"] = list(ssr)
    if overlays:
        out["overlays"] = [{"name": a, "hex1": b, "hex2": c} for a, b, c in overlays]
    if crop is not None:
        out["crop"] = list(crop)
    return out


def board_for_slot(board: Board, slot_ssr, scenario_ssr=(), overlays=()) -> Board:
    """The slot's board with the scenario's rules and then its own applied (rules.md 11.2),
    on its drawn terrain and its hex model, then its overlays pasted (rules.md 11.3:
    ``overlays``, (OverlayFile, hex1, hex2) in the save's order); kept per (board content,
    rules, overlays)."""
    names = tuple(scenario_ssr) + tuple(slot_ssr)
    overlays = tuple(o for o in overlays if not left_to_ssr(o[0].name))
    if not overlays:
        return board_with_rules(board, names).board if names else board
    return _with_overlays(BoardKey(board), names,
                          tuple((_Overlay(o), hex1, hex2) for o, hex1, hex2 in overlays))


class _Overlay:
    """An overlay file in a cache key, by identity (its arrays are not hashed: the files are
    kept once per file and time stamp, ``find_overlay``)."""
    __slots__ = ("overlay",)

    def __init__(self, overlay: OverlayFile):
        self.overlay = overlay

    def __hash__(self):
        return id(self.overlay)

    def __eq__(self, other):
        return isinstance(other, _Overlay) and other.overlay is self.overlay


@functools.lru_cache(maxsize=12)
def _with_overlays(board: BoardKey, names: tuple[str, ...], overlays: tuple) -> Board:
    step = overlays_hook((o.overlay, hex1, hex2) for o, hex1, hex2 in overlays)
    return board_with_rules(board.board, names, overlays=step).board


def overlay_paths(name: str, folders) -> list[Path]:
    """Where overlay ``name``'s file may be: in each folder, in order (the position's folder,
    then its boards' folders)."""
    return [Path(f) / overlay_file_name(name) for f in folders]


@functools.lru_cache(maxsize=64)
def _overlay_at(path: str, stamp: tuple[int, int]) -> OverlayFile:
    return load_overlay(path)


def find_overlay(name: str, folders) -> OverlayFile | None:
    """Overlay ``name``'s file in the first of ``folders`` that has it (kept per file and its
    time stamp), or None.  A file that cannot be read is a ScenarioError naming it."""
    for path in overlay_paths(name, folders):
        try:
            st = path.stat()
        except OSError:
            continue
        return _overlay_at(str(path), (st.st_mtime_ns, st.st_size))
    return None
