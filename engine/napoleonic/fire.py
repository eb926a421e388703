"""The pieces of fire combat against one hex (rules.md 8, seed 002 "Secuencia de juego:
¡Fuego!"): what ``attack.assess`` puts together.

Each firer's fire value and how it was reached (``fire_value``), its LOS to the target hex in the
fire room's own words (``has_los``, over the chart pack's terrain), the unit that defends a hex
and the side a line leaves it by (``top_unit``, ``bearing``, ``in_front``: enfilade), and the odds
(``step_roll``, ``distribution``: the exact chance of every result, Fractions over the 36 rolls).
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..los import (
    BLIND,
    BUILDING_EXIT,
    DEPRESSION,
    EQUAL,
    HALF,
    HIGHER,
    HILL,
    WALL,
    DayLines,
    LosTable,
    hexside_words,
)
from ..maps import Map
from ..terrain import HEXSIDE_BY_CODE
from .charts import READINGS, ChartPack, Column, reading_index
from .position import FirePosition, FireUnit

# rules.md 8: the multiplier counts increments in line, square and skirmish (and what else a chart
# pack multiplies); column, general order and disorder fire the PRINTED value
PRINTED_FORMATIONS = ("column", "general_order", "disorder")
KINDS = ("intentional", "roundshot", "scatter")
KIND_WORDS = {"roundshot": "bouncing roundshot (18.9)", "scatter": "howitzer scatter (18.15)"}


@dataclass
class Firer:
    id: str
    hex: str
    value: Fraction = Fraction(0)
    how: str = ""
    steps: list = field(default_factory=list)      # the computation, one short line each
    can_fire: bool = True
    los: bool = False
    combines: bool = True
    counted: bool = False
    offered: bool = False                          # would fire, but the attack is refused
    reasons: list = field(default_factory=list)
    why_not: str = ""                              # the first reason it is left out

    def to_json(self) -> dict:
        return {"id": self.id, "hex": self.hex, "value": number_json(self.value),
                "value_exact": str(self.value), "how": self.how, "steps": self.steps,
                "los": self.los, "combines": self.combines, "counted": self.counted,
                **({"offered": True} if self.offered else {}),
                "reasons": self.reasons, **({"why_not": self.why_not} if self.why_not else {})}


@dataclass
class Assessment:
    target: str
    kind: str
    allowed: bool = True
    reasons: list = field(default_factory=list)
    firers: list = field(default_factory=list)
    fire: Fraction = Fraction(0)
    defence: Fraction | None = None
    defence_how: str = ""
    defender: str | None = None
    ratio: Fraction | None = None
    column: str | None = None
    drm: int = 0
    drms: list = field(default_factory=list)       # [(why, drm)]
    outcomes: dict = field(default_factory=dict)   # result -> Fraction (36ths), for the column
    roll: int | None = None
    modified: int | None = None
    result: str | None = None

    def counted(self) -> list[Firer]:
        return [f for f in self.firers if f.counted]

    def to_json(self) -> dict:
        out = {"allowed": self.allowed, "reasons": self.reasons, "target": self.target,
               "kind": self.kind, "firers": [f.to_json() for f in self.firers],
               "fire": number_json(self.fire), "fire_exact": str(self.fire),
               "defence": None if self.defence is None else number_json(self.defence),
               "defence_how": self.defence_how, "defender": self.defender,
               "ratio": None if self.ratio is None or not self.allowed else round(float(self.ratio), 3),
               "column": self.column, "drm": self.drm,
               "drms": [{"why": w, "drm": d} for w, d in self.drms],
               "outcomes": {k: float(v) for k, v in self.outcomes.items()},
               "outcomes_exact": {k: str(v) for k, v in self.outcomes.items()}}
        if self.roll is not None:
            out.update({"roll": self.roll, "modified": self.modified, "result": self.result})
        return out


def number_json(value: Fraction):
    return int(value) if value.denominator == 1 else round(float(value), 4)


def fmt(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    f = float(value)
    return f"{f:g}" if abs(f * 1000 - round(f * 1000)) < 1e-9 else f"{value} ({f:.3f})"


# ------------------------------------------------------------------------------------ LOS

class PackLos(LosTable):
    """The core's hex LOS with the game's own terrain table: the chart pack says each terrain's
    obstacle height (levels) and whether it hinders; a terrain it does not name is open ground."""

    def __init__(self, game_map: Map, charts: ChartPack, names: tuple[str, ...]):
        super().__init__(game_map)
        height = np.zeros(game_map.size, dtype=np.int64)
        hind = np.zeros(game_map.size, dtype=bool)
        for i in range(game_map.size):
            row = charts.terrain.get(names[i])
            if row is not None:
                height[i] = row.height
                hind[i] = row.hindrance
        ground = game_map.level.astype(np.int64)
        self.top = np.append(ground + height, self.top[-1])
        self.hindrance = np.append(hind, False)
        self.orchard = np.zeros(game_map.size + 1, dtype=bool)
        self.any_orchard = False


_LOS: dict = {}


def pack_los(position: FirePosition) -> PackLos:
    names = tuple(position.terrain_at(i) for i in range(position.map.size))
    key = (position.map.content_key, tuple(sorted(position.charts.terrain.items())), names)
    t = _LOS.get(key)
    if t is None:
        if len(_LOS) > 8:
            _LOS.pop(next(iter(_LOS)))
        t = _LOS[key] = PackLos(position.map, position.charts, names)
    return t


# rules.md 8 (seed 002, "Combinando el fuego"): each firer needs LOS to the target hex.  The seed
# gives LOS no rule number of its own, so the reasons cite the digest's section.
LOS_RULE = "combined fire: every firer needs LOS to the target hex"
PACK_RULE = "heights from the chart pack's terrain table"


def _hex_words(position: FirePosition, i: int) -> str:
    m = position.map
    if i < 0:
        return "the ground beyond the map edge"
    name = position.terrain_at(i)
    row = position.charts.terrain.get(name)
    if row is None:
        what = name if name == "open" else f"{name}, open ground for this chart pack"
    elif row.height:
        what = f"{name}: {row.height} level{'s' if row.height != 1 else ''} high"
    else:
        what = name
    return f"{m.names[i]} ({what}, ground level {int(m.level[i])})"


def explain_los(position: FirePosition, lines: DayLines, line: int = 0) -> str:
    """Why line ``line`` is clear or blocked, in the fire room's own words: the chart pack's terrain
    (its heights and hindrances) and the Napoleonic rule (rules.md 8), never the ASL rules."""
    m = position.map
    src = m.names[lines.viewer]
    dst = m.names[int(lines.targets[line])]
    if lines.clear[line]:
        h = int(lines.hindrances[line])
        extra = (f", across {h} hindering hex{'es' if h != 1 else ''}, which neither block it "
                 "nor change the fire") if h else ""
        return f"LOS from {src} to {dst} is clear{extra} ({LOS_RULE})"
    kind = int(lines.kind[line])
    b1, b2 = int(lines.block_h1[line]), int(lines.block_h2[line])
    side = 0 if lines.block_side is None else int(lines.block_side[line])
    hi = max(lines.viewer_elev, int(lines.target_elev[line]))
    lo = min(lines.viewer_elev, int(lines.target_elev[line]))
    if side:
        where = f"the {HEXSIDE_BY_CODE[side].label} on the {hexside_words(m, b1, b2)} hexside"
        rule = f"{LOS_RULE}; the map's hexside terrain"
    else:
        where = _hex_words(position, b1)
        if b2 != b1:
            where = (f"the line runs along the hexside of {where} and {_hex_words(position, b2)}, "
                     "both high enough: their hexside")
        rule = f"{LOS_RULE}; {'ground levels from the map' if kind == HILL else PACK_RULE}"
    if kind == HILL:
        why = f"its ground is higher than both ends (ground levels {lo} and {hi})"
    elif kind == HIGHER:
        why = f"its terrain rises above both ends (levels {lo} and {hi})"
    elif kind == EQUAL:
        why = (f"its terrain is as high as the higher end (level {hi}) and above the lower "
               f"(level {lo}): neither end sees over it")
    elif kind == BLIND:
        why = (f"{dst} lies in the dead ground behind it, seen from level {hi} down to level "
               f"{lo}")
    elif kind == WALL:
        why = f"both ends are at its ground level (level {lo})"
    elif kind == HALF:
        why = f"its low obstacle stands on the ground level of both ends (level {lo})"
    elif kind == DEPRESSION:
        why = "the line leaves or enters a depression the firer cannot see into"
    elif kind == BUILDING_EXIT:     # drawn terrain (A6.8 Example 2 on VASL boards)
        why = "the line is still inside the firer's building where it leaves the firer's hex"
    else:
        why = "six or more hindering hexes in a row block it"   # our reading of rules.md 2 (A6.1)
    return f"{where} blocks LOS from {src} to {dst}: {why} ({rule})"


def has_los(position: FirePosition, start: str, end: str) -> tuple[bool, str]:
    """Hex LOS from hex ``start`` to hex ``end`` (both at ground level), with the sentence explaining it in
    the fire room's words (rules.md 8)."""
    table = pack_los(position)
    i, j = position.map.index(start), position.map.index(end)
    if i == j:
        return True, f"{start} is the target hex itself"
    lines = table.line(i, 0, j, 0)
    return bool(lines.clear[0]), explain_los(position, lines, 0)


# ------------------------------------------------------------------------------ fire value

def fire_value(position: FirePosition, unit: FireUnit) -> Firer:
    """rules.md 8, "valor de fuego": the chart row, multiplier x increments firing or PRINTED,
    optional first fire, then disorder and opportunity fire each halve (they multiply)."""
    f = Firer(unit.id, unit.hex)
    if unit.arm == "leader" and unit.increments == 0:
        f.can_fire = False
        f.reasons.append(f"{unit.id} is a leader without increments: it does not fire")
        return f
    hit = position.charts.fire_row(unit.nation, unit.troop, unit.formation, unit.arm)
    if hit is None:
        f.can_fire = False
        f.reasons.append(f"the Fire Effects chart has no row for {unit.nation} {unit.troop} {unit.arm} in "
                         f"{unit.formation}: {unit.id} cannot fire")
        return f
    k, row = hit
    f.steps.append(f"Fire Effects chart row {k + 1} ({row.nation} / {row.troop} / {row.formation}): "
                   f"{row.text}")
    firing = unit.increments if unit.firing is None else unit.firing
    if row.multiplier is not None and unit.formation not in PRINTED_FORMATIONS:
        mult = row.multiplier
        # rules.md 8, optional first fire: infantry in line that has not fired adds 1 to the multiplier
        if position.first_fire and unit.arm == "infantry" and unit.formation == "line" and not unit.fired:
            f.steps.append(f"first fire: infantry in line that has not fired: x{fmt(mult)} becomes "
                           f"x{fmt(mult + 1)}")
            mult += 1
        value = mult * firing
        f.how = f"x{fmt(mult)} x {firing} increment{'s' if firing != 1 else ''}"
        f.steps.append(f"x{fmt(mult)} x {firing} increment{'s' if firing != 1 else ''} firing = {fmt(value)}")
    else:
        # rules.md 8: column, general order and disorder fire the printed value
        value = Fraction(unit.printed)
        f.how = f"printed {unit.printed}"
        why = "the chart says PRINTED" if row.multiplier is None else \
            f"{unit.formation} fires the printed value"
        f.steps.append(f"{why}: printed {unit.printed}")
    if unit.formation == "disorder":
        value /= 2
        f.how += ", halved (disorder)"
        f.steps.append(f"disorder halves it: {fmt(value)}")
    if position.segment == "opportunity":
        value /= 2
        f.how += ", halved (opportunity fire)"
        f.steps.append(f"opportunity fire halves it: {fmt(value)}")
    f.value = value
    return f


# ---------------------------------------------------------------------------------- defence

def top_unit(units: list[FireUnit]) -> FireUnit:
    """rules.md 8 (our stopgap): the unit deployed in the hex is the first listed that is not a
    leader (a leader alone is its own defender)."""
    for u in units:
        if u.arm != "leader":
            return u
    return units[0]


def bearing(game_map: Map, target: int, other: int) -> set[int]:
    """The direction(s) 1..6 of the target's hexside(s) the line to ``other`` leaves through
    (two when it runs through a vertex)."""
    dx = float(game_map.x[other] - game_map.x[target])
    dy = float(game_map.y[other] - game_map.y[target])
    ang = math.degrees(math.atan2(dy, dx))            # y grows south; direction 1 (N) at -90
    rel = (ang + 90.0) % 360.0 / 60.0                 # 0 = N, 1 = NE ...
    frac = rel - math.floor(rel)
    if abs(frac - 0.5) < 1e-9:                        # a vertex: both hexsides
        lo = int(math.floor(rel)) % 6
        return {lo + 1, (lo + 1) % 6 + 1}
    return {int(round(rel)) % 6 + 1}


def in_front(facing: int, directions: set[int]) -> bool:
    """Our reading of the facing: the front is the hexside faced and its two neighbours."""
    front = {facing, (facing % 6) + 1, ((facing - 2) % 6) + 1}
    return bool(front & directions)


# --------------------------------------------------------------------------------- the odds

def step_roll(reading: int, drm: int) -> int:
    """rules.md 8 (our reading): a modifier steps through the 36 readings 11..66 and stops at
    the ends (43 + 3 = 46, 46 + 1 = 51)."""
    i = min(35, max(0, reading_index(reading) + drm))
    return READINGS[i]


def distribution(column: Column, drm: int) -> dict[str, Fraction]:
    """The exact chance of every result of a column over the 36 rolls (sums to 1)."""
    counts = Counter(column.results[reading_index(step_roll(r, drm))] for r in READINGS)
    order = list(dict.fromkeys(column.results))
    return {res: Fraction(counts[res], 36) for res in order if counts[res]}
