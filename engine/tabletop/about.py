"""What the window says of an element or a terrain piece under the pointer: its troop type, the
terrain it stands in and what that does, close combat (rules.md 9 and 10)."""
from __future__ import annotations

from .contact import CLOSE, close_combat
from .geometry import rectangle
from .shooting import Shooting
from .table import Table
from .terrain import KINDS, TERRAIN_RULE, describe, pieces_under
from .troops import TROOPS


def ties(table: Table, element_id: str) -> list[str]:
    """The targets ``element_id`` must shoot (several when they tie: its player chooses);
    [] for an element not on the table."""
    if element_id not in table.ids():
        return []
    sh = Shooting(table)
    return sh.must_shoot(sh.element(element_id))


def terrain_effect(table: Table, index: int) -> str:
    """What a terrain piece does to shooting, in words (DBA 3.0 terrain, our reading)."""
    piece = table.terrain[index]
    kind = KINDS[piece.type]
    if kind.blocks:
        what = ("blocks a shot whose lines cross it, unless the shooter or the target stands in "
                "it (it sees out, and is seen in it)")
    elif kind.hill:
        what = ("blocks a shot between two elements off it; when one of them stands on it, the "
                + ("crest blocks a shot that crosses it" if piece.crest else
                   "hill does not block (it has no crest drawn)"))
    else:
        what = "does not block sight"
    return f"{describe(table.terrain, index)} {what} ({TERRAIN_RULE}, our reading)"


def about_element(table: Table, element_id: str) -> list[str]:
    """Sentences on one element: type and side, terrain it stands in, close combat."""
    e = table.element(element_id)
    t = TROOPS[e.type]
    out = [f"{e.id}: {t.name} ({e.type}), {e.side}"
           + ("" if e.visible else ", not visible to the enemy")
           + (", moved this bound" if e.moved else "")]
    under = pieces_under(table.terrain, rectangle(table.corners(e)))
    for i in under:
        out.append(f"stands in {terrain_effect(table, i)}")
    if not under:
        out.append("stands in the open")
    engaged = close_combat(table).get(e.id)
    if engaged:
        out.append(f"in close combat with {', '.join(engaged)}: neither shoots nor is shot at "
                   f"({CLOSE})")
    return out
