"""VASL's slopes (``BoardMetadata.xml``: ``<slopes><slope hex="G5" hexsides="012"/></slopes>``,
read by its ``BoardMetadata.parseSlopes``): the hexsides of a hex that are slopes (B10.2),
VASL's sides 0 (the top) to 5, clockwise.  VASL gives no vehicle hindrance to a line up a slope
(rules.md 11.4); the board file keeps them as ``"slopes": {"G5": [0, 1, 2]}``.

A hex name that is no hex of the board or a side that is not 0-5 is refused with a
ScenarioError naming ``BoardMetadata.xml`` and the element."""
from __future__ import annotations

from ..errors import ScenarioError, shown
from ..hexes import PLAIN, HexIdError, Naming, parse_local
from .board_metadata import METADATA, xml_root

MAX_SLOPES = 10_000


def read_slopes(raw: bytes | None, size: tuple[int, int], naming: Naming = PLAIN
                ) -> dict[str, list[int]]:
    """The slopes of a board of ``size`` (columns, rows) naming its hexes by ``naming``
    (rules.md 11.6): hex name (the board's) -> its slope sides."""
    if raw is None:
        return {}
    out: dict[str, list[int]] = {}
    for n, e in enumerate(xml_root(raw).iter("slope"), start=1):
        if n > MAX_SLOPES:
            raise ScenarioError(f"more than {MAX_SLOPES} slope elements", place=METADATA)
        where = f"{METADATA}, slope {n}"
        name = (e.get("hex") or "").strip()
        try:
            col, row = parse_local(name, size, naming)
        except HexIdError:
            raise ScenarioError(f"hex {shown(name)} is no hex of a {size[0]} x {size[1]} "
                                "board", place=where) from None
        name = naming.name(col, row)
        sides = (e.get("hexsides") or "").strip()
        if not sides or any(c not in "012345" for c in sides) or len(sides) > 6:
            raise ScenarioError(f"hexsides {shown(sides)} are not VASL's sides 0 to 5",
                                place=where)
        out[name] = sorted(set(out.get(name, [])) | {int(c) for c in sides})
    return out
