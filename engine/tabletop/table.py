"""Tables (``format: "starshell-table"``, version 1; SPEC.md "Tabletop"): read, check, write.

Bad input gets one message naming the file and the place (``elements[2].facing``); nothing is
loaded half-way.  Saving is atomic (engine.jsonio).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

from shapely import STRtree

from ..errors import ScenarioError
from ..jsonio import atomic_write_json, check_format, read_json
from .geometry import TOL, corners, rectangle
from .terrain import MAX_COORD, TerrainPiece, as_saved, piece_to_json, terrain_from_json
from .troops import BW_MM, TROOPS, depth_bw

FORMAT = "starshell-table"
VERSION = 1
RULESETS = ("dba3",)
MAX_ELEMENTS = 160             # a big battle's four commands; one shot answers in seconds
MAX_DEPTH_BW = 10.0
MIN_DEPTH_BW = 0.05            # far thinner than any base, far thicker than TOL
MAX_ID = 40
TOP_KEYS = {"format", "version", "title", "ruleset", "bw_mm", "turn", "elements", "terrain"}
ELEMENT_KEYS = {"id", "side", "type", "x", "y", "facing", "depth", "visible", "moved"}


@dataclass(frozen=True)
class Element:
    id: str
    side: str
    type: str
    x: float
    y: float
    facing: float              # degrees clockwise from north, 0 <= facing < 360
    depth: float | None = None  # BW; None: from the type
    visible: bool = True
    moved: bool = False

    def depth_bw(self, bw_mm: float = BW_MM) -> float:
        return self.depth if self.depth is not None else depth_bw(self.type, bw_mm)


@dataclass(frozen=True)
class Table:
    elements: tuple[Element, ...]
    title: str = ""
    ruleset: str = "dba3"
    bw_mm: float = BW_MM
    turn: str | None = None
    file: str | None = field(default=None, compare=False)
    terrain: tuple[TerrainPiece, ...] = ()

    def element(self, element_id: str) -> Element:
        for e in self.elements:
            if e.id == element_id:
                return e
        raise ScenarioError(f"no element {element_id!r} on the table", file=self.file)

    def ids(self) -> list[str]:
        return [e.id for e in self.elements]

    def corners(self, element: Element) -> dict:
        return corners(element.x, element.y, element.facing, element.depth_bw(self.bw_mm))

    def sides(self) -> list[str]:
        return sorted({e.side for e in self.elements})

    def with_element(self, element: Element) -> "Table":
        """The table with the element of the same id replaced by ``element`` (or added)."""
        els = [element if o.id == element.id else o for o in self.elements]
        if element.id not in self.ids():
            els.append(element)
        return replace(self, elements=tuple(els))

    def without(self, element_id: str) -> "Table":
        return replace(self, elements=tuple(o for o in self.elements if o.id != element_id))


def _number(v, file, place, lo, hi) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ScenarioError(f"must be a number, not {type(v).__name__}", file=file, place=place)
    if not math.isfinite(v) or not lo <= v <= hi:
        raise ScenarioError(f"must be a number from {lo:g} to {hi:g}, not {v!r}", file=file,
                            place=place)
    return float(v)


def _text(v, file, place) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ScenarioError("must be a non-empty text", file=file, place=place)
    if len(v) > MAX_ID:
        raise ScenarioError(f"longer than {MAX_ID} characters", file=file, place=place)
    return v


def _flag(v, file, place) -> bool:
    if not isinstance(v, bool):
        raise ScenarioError("must be true or false", file=file, place=place)
    return v


def element_from_json(obj, file: str | None, place: str) -> Element:
    if not isinstance(obj, dict):
        raise ScenarioError("must be an object with id, side, type, x, y, facing", file=file,
                            place=place)
    for k in obj:
        if k not in ELEMENT_KEYS:
            raise ScenarioError(f"unknown key (known: {', '.join(sorted(ELEMENT_KEYS))})",
                                file=file, place=f"{place}.{k}")
    for k in ("id", "side", "type", "x", "y", "facing"):
        if k not in obj:
            raise ScenarioError(f"missing {k!r}", file=file, place=place)
    kind = obj["type"]
    if not isinstance(kind, str) or kind not in TROOPS:
        raise ScenarioError(f"unknown troop type {kind!r} (known: {', '.join(TROOPS)})",
                            file=file, place=f"{place}.type")
    depth = None
    if "depth" in obj:
        depth = _number(obj["depth"], file, f"{place}.depth", 0, MAX_DEPTH_BW)
        if depth < MIN_DEPTH_BW:    # a thinner base could overlap another unseen (TOL)
            raise ScenarioError(f"must be at least {MIN_DEPTH_BW} BW", file=file,
                                place=f"{place}.depth")
    return Element(
        id=_text(obj["id"], file, f"{place}.id"),
        side=_text(obj["side"], file, f"{place}.side"),
        type=kind,
        x=as_saved(_number(obj["x"], file, f"{place}.x", -MAX_COORD, MAX_COORD)),
        y=as_saved(_number(obj["y"], file, f"{place}.y", -MAX_COORD, MAX_COORD)),
        # twice: -1e-20 % 360 is 360.0, which is no facing (0 <= facing < 360)
        facing=_number(obj["facing"], file, f"{place}.facing", -3600, 3600) % 360.0 % 360.0,
        depth=depth,
        visible=_flag(obj.get("visible", True), file, f"{place}.visible"),
        moved=_flag(obj.get("moved", False), file, f"{place}.moved"),
    )


def overlaps(table: Table) -> list[tuple[str, str]]:
    """Pairs of elements whose bases overlap (more than touching)."""
    shapes = [rectangle(table.corners(e)) for e in table.elements]
    tree = STRtree(shapes)
    out = []
    for i, s in enumerate(shapes):
        inner = s.buffer(-TOL, join_style="mitre")
        for j in tree.query(inner):
            if j > i and inner.intersects(shapes[j]):
                out.append((table.elements[i].id, table.elements[int(j)].id))
    return out


def table_from_json(data, file: str | None = None) -> Table:
    check_format(data, FORMAT, (VERSION,), file, kind="a table file")
    for k in data:
        if k not in TOP_KEYS:
            raise ScenarioError(f"unknown key (known: {', '.join(sorted(TOP_KEYS))})", file=file,
                                place=k)
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 200:
        raise ScenarioError("must be a text of at most 200 characters", file=file, place="title")
    ruleset = data.get("ruleset", "dba3")
    if ruleset not in RULESETS:
        raise ScenarioError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})",
                            file=file, place="ruleset")
    bw_mm = _number(data.get("bw_mm", BW_MM), file, "bw_mm", 5, 200)
    turn = data.get("turn")
    if turn is not None:
        turn = _text(turn, file, "turn")
    els = data.get("elements")
    if not isinstance(els, list):
        raise ScenarioError("missing or not a list", file=file, place="elements")
    if len(els) > MAX_ELEMENTS:
        raise ScenarioError(f"{len(els)} elements (the limit is {MAX_ELEMENTS})", file=file,
                            place="elements")
    elements = []
    seen: dict[str, int] = {}
    for i, d in enumerate(els):
        e = element_from_json(d, file, f"elements[{i}]")
        if e.id in seen:
            raise ScenarioError(f"the id {e.id!r} is also elements[{seen[e.id]}]", file=file,
                                place=f"elements[{i}].id")
        seen[e.id] = i
        elements.append(e)
    terrain = terrain_from_json(data.get("terrain", []), file)
    table = Table(tuple(elements), title, ruleset, bw_mm, turn, file, terrain)
    if turn is not None and elements and turn not in table.sides():
        # the turn decides the order of the rolls (seed ex. 2): it must be a side on the table
        raise ScenarioError(f"no element of side {turn!r} on the table (sides: "
                            f"{', '.join(table.sides())})", file=file, place="turn")
    for a, b in overlaps(table):
        raise ScenarioError(f"overlaps element {a!r} (elements[{seen[a]}]): bases may touch, "
                            "not overlap", file=file, place=f"elements[{seen[b]}]")
    return table


def element_as_saved(element: Element) -> Element:
    """The element as its file keeps it (positions and facing as ``as_saved``): what the window
    holds is then what a save reopens."""
    return replace(element, x=as_saved(element.x), y=as_saved(element.y),
                   facing=as_saved(element.facing) % 360.0 + 0.0)


def element_to_json(element: Element) -> dict:
    d = {"id": element.id, "side": element.side, "type": element.type,
         "x": as_saved(element.x), "y": as_saved(element.y), "facing": as_saved(element.facing)}
    if element.depth is not None:
        d["depth"] = element.depth
    if not element.visible:
        d["visible"] = False
    if element.moved:
        d["moved"] = True
    return d


def table_to_json(table: Table) -> dict:
    d = {"format": FORMAT, "version": VERSION, "title": table.title, "ruleset": table.ruleset}
    if table.bw_mm != BW_MM:
        d["bw_mm"] = table.bw_mm
    if table.turn is not None:
        d["turn"] = table.turn
    d["elements"] = [element_to_json(e) for e in table.elements]
    if table.terrain:
        d["terrain"] = [piece_to_json(p) for p in table.terrain]
    return d


def load_table(path: str | Path) -> Table:
    """Raises ScenarioError naming the file and the place."""
    path = Path(path)
    return table_from_json(read_json(path), file=str(path))


def save_table(table: Table, path: str | Path) -> None:
    """Atomic: the old file survives any failure (kept as NAME.bak).  The save checks its own
    output first: a table that would not reopen as written (a coordinate rounded to
    ``SAVED_DECIMALS`` making a polygon cross itself...) is not saved, and the message says
    where."""
    data = table_to_json(table)
    try:
        table_from_json(data, file=str(path))
    except ScenarioError as e:
        raise ScenarioError(f"not saved: as written it would not reopen ({e.place}: "
                            f"{e.problem})", file=str(path)) from None
    atomic_write_json(Path(path), data)
