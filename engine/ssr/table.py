"""VASL's terrain SSRs, as a table (rules.md 11.2: ``vasl_los_ssr_rules.csv``, 131 rules)."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

# rule types (VASL's LOSSSRule.getType)
TERRAIN_MAP = "terrainMap"
ELEVATION_MAP = "elevationMap"
TERRAIN_TO_ELEVATION = "terrainToElevationMap"
ELEVATION_TO_TERRAIN = "elevationToTerrainMap"
IGNORE = "ignore"
CUSTOM = "customCode"
TYPES = (TERRAIN_MAP, ELEVATION_MAP, TERRAIN_TO_ELEVATION, ELEVATION_TO_TERRAIN, IGNORE, CUSTOM)

# PTO rules: any of them also turns all woods into light jungle (rules.md 11.2, G2.1)
PTO_RULES = frozenset({"Bamboo", "PalmTrees", "SwampToSwampPattern", "DenseJungle"})
# the names VASL's code accepts for the woods-roads rule (rules.md 11.2)
WOODS_ROADS = frozenset({"RoadsToPaths", "NoWoodsRoads", "NoWoodsRoad"})
MAX_RULES = 64                 # rule names on one board, at most


@dataclass(frozen=True)
class SsrRule:
    name: str
    type: str
    source: str = ""           # fromValue: a VASL terrain name or a level
    target: str = ""           # toValue


@lru_cache(maxsize=1)
def rules() -> dict[str, SsrRule]:
    """VASL's LOS rules by name (the first of a repeated name counts, as VASL's map)."""
    text = (resources.files("engine.importers") / "data" / "vasl_los_ssr_rules.csv").read_text(
        encoding="utf-8")
    out: dict[str, SsrRule] = {}
    for row in csv.DictReader(io.StringIO(text)):
        out.setdefault(row["name"], SsrRule(row["name"], row["type"], row["fromValue"] or "",
                                            row["toValue"] or ""))
    return out


def level_of(text: str) -> int | None:
    """A rule's level (VASL: Integer.parseInt); None when VASL cannot read it (``_1`` in
    ``Level1ToLevel_1``: VASL then turns LOS off, rules.md 11.4)."""
    try:
        return int(text)
    except ValueError:
        return None


@dataclass
class Outcome:
    """What became of a board's rule names: ``applied`` changed LOS terrain (or could have),
    ``no_effect`` are rules with no LOS effect (VASL's ``ignore`` type, or naming terrain the
    board's table lacks), ``not_applied`` are names Starshell does not know or cannot apply."""
    applied: list[str] = field(default_factory=list)
    no_effect: list[str] = field(default_factory=list)
    not_applied: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"applied": list(self.applied), "no_effect": list(self.no_effect),
                "not_applied": list(self.not_applied)}


def unique(names) -> list[str]:
    """The rule names in order, each once (VASL's SSRFilter reads them so)."""
    out: list[str] = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


def not_known(names) -> list[str]:
    """The names of ``names`` that are not applied: not VASL LOS rules, or a level VASL cannot
    read (named, never dropped silently)."""
    table = rules()
    levels = {ELEVATION_MAP: ("source", "target"), TERRAIN_TO_ELEVATION: ("target",),
              ELEVATION_TO_TERRAIN: ("source",)}
    return [n for n in unique(names) if n not in table or any(
        level_of(getattr(table[n], k)) is None for k in levels.get(table[n].type, ()))]


def around(col: int, row: int) -> list[tuple[int, int]]:
    """A hex's six neighbours on its board, (column, printed row): even columns sit half a hex
    above odd ones (VASL's grid: A1 at the top of column A, B0 above B1)."""
    rows = (row - 1, row) if col % 2 == 0 else (row, row + 1)
    return [(col, row - 1), (col, row + 1)] + [(col + d, r) for d in (-1, 1) for r in rows]
