"""A map slot's scenario set-up (SPEC.md, turn-four extensions; RULES.md 11.1-11.2): its terrain
SSRs (``ssr``, VASL's rule names), overlays (``overlays``) and crop (``crop``), read, written,
and the rules applied to the slot's board (``board_for_slot``, the one place ``build_map`` uses).

Overlays are kept and written, not yet laid on the board; a crop is kept (RULES.md 11.6)."""
from __future__ import annotations

from typing import Any

from ..boards import Board
from ..errors import ScenarioError, shown
from ..jsonio import is_int, type_name
from ..ssr.apply import board_with_rules
from ..ssr.table import MAX_RULES

MAX_OVERLAYS = 200
MAX_NAME = 60
MAX_CROP = 100_000


def read_ssr(obj: dict, place: str) -> tuple[str, ...]:
    """``obj["ssr"]``: VASL rule names, each a non-empty string (an unknown name is kept: it is
    named as not applied, never dropped)."""
    v = obj.get("ssr", [])
    if not isinstance(v, list):
        raise ScenarioError(f"must be a list of VASL rule names, not {type_name(v)}",
                            place=f"{place}ssr")
    if len(v) > MAX_RULES:
        raise ScenarioError(f"more than {MAX_RULES} rules", place=f"{place}ssr")
    for i, n in enumerate(v):
        if not isinstance(n, str) or not n.strip() or len(n) > MAX_NAME:
            raise ScenarioError(f"must be a rule name (a string of 1 to {MAX_NAME} characters), "
                                f"not {shown(n, 40)}", place=f"{place}ssr[{i}]")
    return tuple(v)


def read_overlays(obj: dict, place: str) -> tuple[tuple[str, str, str], ...]:
    """``obj["overlays"]``: ``{"name", "hex1", "hex2"}`` objects, as a save's ``OVR`` records."""
    v = obj.get("overlays", [])
    if not isinstance(v, list):
        raise ScenarioError(f"must be a list of overlays, not {type_name(v)}",
                            place=f"{place}overlays")
    if len(v) > MAX_OVERLAYS:
        raise ScenarioError(f"more than {MAX_OVERLAYS} overlays", place=f"{place}overlays")
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


def board_for_slot(board: Board, slot_ssr, scenario_ssr=()) -> Board:
    """The slot's board with the scenario's rules and then its own applied (RULES.md 11.2),
    on its drawn terrain and its hex model; kept per (board content, rules)."""
    names = tuple(scenario_ssr) + tuple(slot_ssr)
    if not names:
        return board
    return board_with_rules(board, names).board
