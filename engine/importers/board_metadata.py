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
from ..hexes import PLAIN, HexIdError, Naming, parse_local
from .grid import GEO, MAX_HEX_PIXELS, MIN_HEX_PIXELS, Geometry
from .vasl_terrain import VASL_TERRAIN

METADATA = "BoardMetadata.xml"
MAX_METADATA_BYTES = 4 * 1024 * 1024
MAX_BUILDING_TYPES = 10_000
_CODE_OF_NAME = {t.name: code for code, t in VASL_TERRAIN.items()}


@dataclass(frozen=True)
class BoardMetadata:
    attributes: dict = field(default_factory=dict)     # the root element's attributes
    has_hills: bool = True
    building_types: dict = field(default_factory=dict)  # (column, printed row) -> VASL code


# the encodings an XML document may come in (XML 1.0 appendix F: a byte order mark, else the
# first bytes, else the declaration's encoding); expat's own, no other
_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"),
         (b"\x00\x00\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
_FIRST_BYTES = ((b"<\x00\x00\x00", "utf-32-le"), (b"\x00\x00\x00<", "utf-32-be"),
                (b"<\x00", "utf-16-le"), (b"\x00<", "utf-16-be"))
_DECLARED = {"utf-8": "utf-8", "utf8": "utf-8", "us-ascii": "ascii", "ascii": "ascii",
             "iso-8859-1": "latin-1", "latin-1": "latin-1", "latin1": "latin-1",
             "utf-16": "utf-16", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be"}
_DECLARATION = re.compile(rb"<\?xml[^>]{0,200}?encoding\s{0,20}=\s{0,20}[\"']([A-Za-z0-9._-]{1,40})[\"']")


def xml_text(raw: bytes, place: str = METADATA) -> str:
    """An XML document's text, decoded as its byte order mark, first bytes or declaration say
    (a ScenarioError at ``place`` for an encoding we do not read or bytes it cannot decode)."""
    encoding = next((e for bom, e in _BOMS if raw.startswith(bom)), None)
    encoding = encoding or next((e for first, e in _FIRST_BYTES if raw.startswith(first)), None)
    if encoding is None:
        declared = _DECLARATION.match(raw)
        name = declared.group(1).decode("ascii").lower() if declared else "utf-8"
        encoding = _DECLARED.get(name)
        if encoding is None:
            raise ScenarioError(f"the encoding {shown(name)} is not read (UTF-8, UTF-16 or "
                                "Latin-1 is)", place=place)
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as e:
        raise ScenarioError(f"not {encoding} text: byte {e.start} cannot be decoded",
                            place=place) from None


def xml_root(raw: bytes, place: str = METADATA) -> ET.Element:
    """An XML document's root element, its declarations checked on the decoded text that is
    parsed (whatever its encoding): no document type declaration, so no entity."""
    text = xml_text(raw, place)
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise ScenarioError("document type declarations are not accepted", place=place)
    try:
        return ET.fromstring(text)
    except ET.ParseError as e:
        raise ScenarioError(f"not well-formed XML ({e})", place=place) from None


def parse_root(raw: bytes) -> ET.Element:
    """The ``<boardMetadata>`` root element (``xml_root``: no declarations, no entities)."""
    root = xml_root(raw, METADATA)
    if root.tag != "boardMetadata":
        raise ScenarioError(f"the root element is <{root.tag}>, not <boardMetadata>",
                            place=METADATA)
    return root


def read_board_metadata(raw: bytes, size: tuple[int, int], naming: Naming = PLAIN
                        ) -> BoardMetadata:
    """``BoardMetadata.xml`` of a board of ``size`` (columns, rows) whose hexes VASL names by
    ``naming`` (rules.md 11.6: a "b" half's ``hexName="AA9"`` is its column K)."""
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
        try:
            col, row = parse_local(hex_name, size, naming)
        except HexIdError:
            col = row = -1
        if col < 0:
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
