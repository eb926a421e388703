"""How far and where a firer reaches (rules.md 10: the seed gives no ranges and says nothing of
units in the way; they are the game's chart pack's, never invented here).

- range: the pack's ``range`` rows (per arm, formation and troop; first match wins, no row no
  limit), with optional bands that multiply the fire value (artillery's canister and roundshot);
- units in the way: with the pack's ``units_block``, a unit of either side in a hex between the
  firer and the target blocks the line;
- the front: a firer with a facing, in one of the pack's ``front`` formations, fires only at
  hexes through its front.
"""
from __future__ import annotations

from fractions import Fraction

from ..hexes import pixel_to_hex
from .fire import bearing, fmt, in_front
from .position import FirePosition, FireUnit

DIRECTIONS = {1: "N", 2: "NE", 3: "SE", 4: "S", 5: "SW", 6: "NW"}
SAMPLES_PER_HEX = 8


def in_range(position: FirePosition, unit: FireUnit, target: int) -> tuple[bool, Fraction, str]:
    """(reaches, factor on its fire value, the sentence) for ``unit`` firing at map index
    ``target``, from the pack's range rows."""
    m = position.map
    dist = int(m.distance(m.index(unit.hex), target))
    hit = position.charts.range_row(unit.arm, unit.formation, unit.troop)
    if hit is None:
        return True, Fraction(1), ""
    k, row = hit
    what = f"{unit.arm} in {unit.formation}"
    if dist > row.max:
        return False, Fraction(0), (f"{unit.id} is {dist} hexes from the target: {what} reaches "
                                    f"{row.max} hex{'es' if row.max != 1 else ''} (range row "
                                    f"{k + 1} of the charts)")
    for band in row.bands:
        if dist <= band.max:
            words = f"{dist} hex{'es' if dist != 1 else ''}, within {band.max}"
            if band.factor == 1:
                return True, band.factor, f"{unit.id} fires at {words}: its full value"
            return True, band.factor, f"{unit.id} fires at {words}: x{fmt(band.factor)}"
    return True, Fraction(1), f"{unit.id} is {dist} hexes from the target, within its {row.max}"


def _hex_at(position: FirePosition, x: float, y: float) -> int:
    return position.map.index_of_pos.get(pixel_to_hex(x, y), -1)


def units_in_the_way(position: FirePosition, start: int, end: int) -> list[tuple[str, list[str]]]:
    """The hexes between ``start`` and ``end`` whose units block the line, with those units.

    Our reading where the line runs along a hexside: it is blocked only when the hexes on both
    sides of it hold units (as the map's obstacles on a hexside spine)."""
    m = position.map
    held: dict[int, list[str]] = {}
    for u in position.units:
        held.setdefault(m.index(u.hex), []).append(u.id)
    x0, y0, x1, y1 = float(m.x[start]), float(m.y[start]), float(m.x[end]), float(m.y[end])
    dist = int(m.distance(start, end))
    if dist < 2:
        return []
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    nx, ny = -(y1 - y0) / length * 1e-6, (x1 - x0) / length * 1e-6
    found: dict[int, None] = {}
    steps = SAMPLES_PER_HEX * dist
    for k in range(1, steps):
        t = k / steps
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        left, right = _hex_at(position, x + nx, y + ny), _hex_at(position, x - nx, y - ny)
        if left in (start, end) or right in (start, end):
            continue
        if left == right and left in held:
            found[left] = None
        elif left != right and left in held and right in held:
            found[left] = found[right] = None
    return [(m.names[i], held[i]) for i in found]


def faces_target(position: FirePosition, unit: FireUnit, target: int) -> tuple[bool, str]:
    """Whether a firer in one of the pack's front formations has the target through its front
    (our reading, as for enfilade: the hexside faced and its two neighbours)."""
    if unit.facing is None or unit.formation not in position.charts.front:
        return True, ""
    m = position.map
    toward = bearing(m, m.index(unit.hex), target)
    faced = DIRECTIONS[unit.facing]
    if in_front(unit.facing, toward):
        return True, f"{unit.id} faces {faced}: the target is through its front"
    return False, (f"{unit.id} faces {faced} and the target lies "
                   f"{'/'.join(DIRECTIONS[d] for d in sorted(toward))} of it, outside its front: "
                   f"{unit.formation} fires only to its front")
