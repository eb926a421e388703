"""The map a position's LOS is judged on: its boards with the counters that change terrain
laid on them (rules.md 11.4, B24: rubble), ``los_map``.

The position's own ``map`` stays the boards' (what is drawn, edited and saved); every daytime
line the night rules read (fields, one unit's verdict, the LOS thread, the lights' shadows, the
threat map, the planner, the ground table the app prepares) is asked of ``los_map``: the same
hexes, names and levels, the rubble hexes rubble.  Computed once per position and kept while
only its units change (the markers decide it).
"""
from __future__ import annotations

from ..counter_terrain import map_with_rubble, vasl_rubble_terrain
from ..maps import Map
from .scenario import DERIVED_LOS_MAP, Scenario


def rubble_hexes(scenario: Scenario) -> dict[int, tuple[str, int]]:
    """Map index -> (material, level) of each rubble counter (rules.md 11.4: VASL keeps one
    terrain counter a hex, the last one read)."""
    m = scenario.map
    out: dict[int, tuple[str, int]] = {}
    for mk in scenario.markers:
        if mk.type == "rubble":
            out[m.index(mk.hex)] = (str(mk.extra.get("material", "stone")),
                                    int(mk.extra.get("level", 0)))
    return out


def los_map(scenario: Scenario) -> Map:
    """The position's map with its rubble laid (B24; rules.md 11.4): ``scenario.map`` itself
    when it has none."""
    return scenario.derived(DERIVED_LOS_MAP,
                            lambda: map_with_rubble(scenario.map, rubble_hexes(scenario)))


def rubble_words(scenario: Scenario, block_hexes) -> list[str]:
    """Which of the hexes that block a line (map indices, -1: none) are rubble by a counter:
    "t1Q7 is rubble: a Stone Rubble counter (B24, rules.md 11.4)"."""
    rubble = rubble_hexes(scenario) if any(mk.type == "rubble" for mk in scenario.markers) else {}
    out = []
    for h in dict.fromkeys(int(b) for b in block_hexes):
        if h in rubble:
            material, level = rubble[h]
            name = vasl_rubble_terrain(material, level).replace("Wooden", "Wood")
            out.append(f"{scenario.map.names[h]} is rubble: a {name} counter (B24, rules.md 11.4)")
    return out
