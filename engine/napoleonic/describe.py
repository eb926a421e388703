"""A hex of a fire position in words, for the window's hover and status bar: its terrain in the
game's own words (the chart pack's), what that terrain does to a line of fire and to the
defence (rules.md 8), and the units in it."""
from __future__ import annotations

from ..errors import ScenarioError
from ..hexes import HexIdError
from .fire import fmt
from .position import FirePosition


def terrain_effect(position: FirePosition, name: str) -> str:
    """What a terrain does to a line of fire, from the pack's terrain row."""
    row = position.charts.terrain.get(name)
    if row is None or (row.height == 0 and not row.hindrance):
        return "no obstacle: lines of fire cross it"
    if row.height:
        return (f"{row.height} level{'s' if row.height != 1 else ''} high: it blocks lines of fire "
                "across it at its level")
    return "a hindrance: lines of fire cross it"


def describe_hex(position: FirePosition, hex_id: str) -> str:
    """``"n1M6: village, ground level 0 - 1 level high: it blocks ...; defence of B2 (infantry
    in line) 16 - holds B2"``; ScenarioError for a hex not on the map."""
    m = position.map
    try:
        i = m.index(hex_id)
    except HexIdError as e:
        raise ScenarioError(str(e), place="hex") from None
    name = position.terrain_at(i)
    parts = [f"{m.names[i]}: {name.replace('_', ' ')}, ground level {int(m.level[i])}",
             terrain_effect(position, name)]
    units = position.units_in(m.names[i])
    fighting = [u for u in units if u.arm != "leader"] or units
    if fighting:
        top = fighting[0]
        hit = position.charts.defence_row(top.arm, top.formation, name)
        if hit is not None:
            parts.append(f"defence of {top.id} ({top.arm} in {top.formation.replace('_', ' ')}) "
                         f"here: {fmt(hit[1].value)}")
        parts.append("holds " + ", ".join(f"{u.id} ({u.side} {u.arm})" for u in units))
    else:
        hit = position.charts.defence_row("infantry", "line", name)
        if hit is not None:
            parts.append(f"defence of infantry in line here: {fmt(hit[1].value)}")
    return " - ".join(parts)
