"""What a VASL ``BoardMetadata.xml`` says about a board's pixels, for both kinds of archive:
``hasHills`` (FALSE: the board is level 0 under its terrain, whatever its colours say) and the
``buildingTypes`` overrides (``<buildingType hexName="M2" buildingTypeName="Stone Building, 2
Level"/>``: VASL's colours cannot tell a two-level building from a single-story one).

A building type VASL does not name, a hex name that is no hex of the board or a damaged file is
refused with a ScenarioError naming ``BoardMetadata.xml`` and the element.
"""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from ..errors import ScenarioError, shown
from ..hexes import COLUMN_NAMES
from .grid import GEO, MAX_HEX_PIXELS, MIN_HEX_PIXELS, Geometry
from .vasl_terrain import VASL_TERRAIN

METADATA = "BoardMetadata.xml"
MAX_METADATA_BYTES = 4 * 1024 * 1024
MAX_BUILDING_TYPES = 10_000
_CODE_OF_NAME = {t.name: code for code, t in VASL_TERRAIN.items()}
_HEX_RE = re.compile(r"^([A-Z]{1,2})(\d{1,2})$")


@dataclass(frozen=True)
class BoardMetadata:
    attributes: dict = field(default_factory=dict)     # the root element's attributes
    has_hills: bool = True
    building_types: dict = field(default_factory=dict)  # (column, printed row) -> VASL code


def parse_root(raw: bytes) -> ET.Element:
    """The ``<boardMetadata>`` root element (no document type declarations: no entities)."""
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise ScenarioError("document type declarations are not accepted", place=METADATA)
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise ScenarioError(f"not well-formed XML ({e})", place=METADATA) from None
    if root.tag != "boardMetadata":
        raise ScenarioError(f"the root element is <{root.tag}>, not <boardMetadata>",
                            place=METADATA)
    return root


def read_board_metadata(raw: bytes, size: tuple[int, int]) -> BoardMetadata:
    """``BoardMetadata.xml`` of a board of ``size`` (columns, rows)."""
    root = parse_root(raw)
    hills = root.attrib.get("hasHills", "TRUE").strip().lower() not in ("false", "no", "0")
    types: dict = {}
    for n, e in enumerate(root.iter("buildingType"), start=1):
        if n > MAX_BUILDING_TYPES:
            raise ScenarioError(f"more than {MAX_BUILDING_TYPES} buildingType elements",
                                place=METADATA)
        hex_name = (e.get("hexName") or "").strip()
        kind = (e.get("buildingTypeName") or "").strip()
        where = f"{METADATA}, buildingType {n}"
        m = _HEX_RE.match(hex_name)
        col = COLUMN_NAMES.index(m.group(1)) if m and m.group(1) in COLUMN_NAMES else -1
        row = int(m.group(2)) if m else -1
        if not (0 <= col < size[0] and (1 - col % 2) <= row <= size[1]):
            raise ScenarioError(f"hexName {shown(hex_name)} is no hex of a {size[0]} x "
                                f"{size[1]} board", place=where)
        code = _CODE_OF_NAME.get(kind)
        if code is None:
            raise ScenarioError(f"buildingTypeName {shown(kind)} names no VASL terrain",
                                place=where)
        types[(col, row)] = code
    return BoardMetadata(dict(root.attrib), hills, types)


def metadata_number(meta: dict, key: str, kind=float):
    """The number of root attribute ``key`` (None when absent or blank)."""
    text = meta.get(key)
    if text is None or not text.strip():
        return None
    try:
        value = kind(text.strip())
    except (ValueError, OverflowError):
        raise ScenarioError(f"{key}={shown(text)} is not a number", place=METADATA) from None
    if not math.isfinite(value):
        raise ScenarioError(f"{key}={shown(text)} is not a finite number", place=METADATA)
    return value


def metadata_geometry(meta: dict) -> Geometry:
    """The hex grid the metadata's root attributes give (``A1CenterX``, ``A1CenterY``,
    ``hexWidth``, ``hexHeight``; each absent one a standard geomorphic board's)."""
    given = {k: metadata_number(meta, k)
             for k in ("A1CenterX", "A1CenterY", "hexWidth", "hexHeight")}
    for key in ("hexHeight", "hexWidth"):
        v = given[key]
        if v is not None and not MIN_HEX_PIXELS <= v <= MAX_HEX_PIXELS:
            raise ScenarioError(f"{key}={v:g} pixels: a hex is {MIN_HEX_PIXELS:g} to "
                                f"{MAX_HEX_PIXELS:g} pixels across", place=METADATA)
    for key in ("A1CenterX", "A1CenterY"):
        v = given[key]
        if v is not None and abs(v) > 100_000:
            raise ScenarioError(f"{key}={v:g} lies far outside any board", place=METADATA)
    # rules.md 11.6: a negative A1CenterX (-901: the "b" half boards) puts A1 at x = 0, a
    # negative A1CenterY (the BFP "DW b" halves) at half a hex height (Map.getHexCenterPoint)
    hex_height = GEO.hex_height if given["hexHeight"] is None else given["hexHeight"]
    a1_y = given["A1CenterY"]
    return Geometry(
        GEO.a1_x if given["A1CenterX"] is None else max(0.0, given["A1CenterX"]),
        GEO.a1_y if a1_y is None else (hex_height / 2 if a1_y < 0 else a1_y),
        GEO.hex_width if given["hexWidth"] is None else given["hexWidth"],
        hex_height)
