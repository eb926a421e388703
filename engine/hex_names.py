"""A board file's ``hex_names`` key (docs/formats.md): how the board names its hexes, as VASL
names them (rules.md 11.6), read with every fault refused naming its place, and written."""
from __future__ import annotations

from typing import Any

from .errors import ScenarioError, shown
from .hexes import PLAIN, HexIdError, Naming, column_index, column_name
from .jsonio import is_int


def naming_from_json(obj: Any, size: tuple[int, int]) -> Naming:
    """The file's ``hex_names`` (rules.md 11.6): ``{"first_column": "Q", "first_row": 11,
    "alternate": true}``, each optional (A, 1, false); absent: the plain naming."""
    if obj is None:
        return PLAIN
    if not isinstance(obj, dict) or set(obj) - {"first_column", "first_row", "alternate"}:
        raise ScenarioError("hex_names must be an object with first_column (a column name), "
                            f"first_row (a row number) and alternate (true or false), not "
                            f"{shown(obj)}", place="hex_names")
    first = obj.get("first_column", "A")
    try:
        first_column = column_index(first)
    except HexIdError as e:
        raise ScenarioError(str(e), place="hex_names.first_column") from None
    first_row = obj.get("first_row", 1)
    if not is_int(first_row):
        raise ScenarioError(f"first_row must be a whole number, not {shown(first_row)}",
                            place="hex_names.first_row")
    alternate = obj.get("alternate", False)
    if not isinstance(alternate, bool):
        raise ScenarioError(f"alternate must be true or false, not {shown(alternate)}",
                            place="hex_names.alternate")
    naming = Naming(first_column, first_row, alternate)
    problem = naming.check(size)
    if problem:
        raise ScenarioError(problem, place="hex_names")
    return naming


def naming_json(naming: Naming) -> dict:
    """The file's ``hex_names`` of a naming (only the keys that are not plain)."""
    out: dict = {}
    if naming.first_column:
        out["first_column"] = column_name(naming.first_column)
    if naming.first_row != 1:
        out["first_row"] = naming.first_row
    if naming.alternate:
        out["alternate"] = True
    return out
