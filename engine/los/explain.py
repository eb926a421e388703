"""LOS in words (A6, rules.md 7): why a line is blocked, naming the hex or hexside and its rule.

Sentences are built only when asked for (the tables keep codes: ``day_lines``).
"""
from __future__ import annotations

import re

import numpy as np

from ..hex_lines import line_transits
from ..maps import Map
from ..terrain import BY_CODE, HEXSIDE_BY_CODE
from .day_lines import (
    BLIND,
    BUILDING_EXIT,
    DEPRESSION,
    EQUAL,
    HALF,
    HIGHER,
    HILL,
    KIND_RULE,
    WALL,
    DayLines,
)
from .geometry import OWN, SPINE, transit_flags


def explain_block(game_map: Map, lines: DayLines, index: int) -> str:
    """A sentence saying why line ``index`` of ``lines`` is blocked (or that it is clear)."""
    m, k = game_map, index
    src = m.names[lines.viewer]
    dst = m.names[int(lines.targets[k])]
    if lines.clear[k]:
        h = int(lines.hindrances[k])
        extra = f", through {h} hindrance{'s' if h != 1 else ''} (+{h} DRM, A6.1)" if h else ""
        return cite(f"daytime LOS from {src} to {dst} is clear{extra}", "A6.1")
    kind = int(lines.kind[k])
    b1, b2 = int(lines.block_h1[k]), int(lines.block_h2[k])
    side = 0 if lines.block_side is None else int(lines.block_side[k])
    if side:
        return _explain_side(m, lines, k, side, kind, src, dst)
    where = _hex_words(m, b1)
    if b2 != b1:
        where = f"the hexside of {_hex_words(m, b1)} and {_hex_words(m, b2)} (both block, A6.1)"
    hi = max(lines.viewer_elev, int(lines.target_elev[k]))
    lo = min(lines.viewer_elev, int(lines.target_elev[k]))
    if kind == HILL:
        why = f"its ground is higher than both ends (levels {lo} and {hi})"
    elif kind == HIGHER:
        why = f"its obstacle rises above both ends (levels {lo} and {hi})"
    elif kind == EQUAL:
        why = (f"its top is as high as the higher end (level {hi}) and above the lower (level "
               f"{lo}): no height advantage")
    elif kind == BLIND:
        why = f"{dst} lies in its blind hexes, seen from level {hi} down to level {lo}"
    elif kind == HALF:
        why = (f"its half-level obstacle stands on the ground level of both ends (level {lo})")
    elif kind == DEPRESSION:
        why = ("the line leaves or enters the depression where the range and levels do not "
               "allow it")
    elif kind == BUILDING_EXIT:
        why = (f"the line from {src} is still in its building there: it must leave the "
               "building before leaving its own hex to see another elevation")
    else:
        why = "six or more hindrances block"
    return cite(f"{where} blocks LOS from {src} to {dst}: {why}", KIND_RULE[kind])


def cite(sentence: str, rule: str) -> str:
    """``sentence (rule)``, the rule said once: not again when the sentence cites it already
    (a hindrance's "+1 DRM, A6.1", a hexside pair's "both block, A6.1")."""
    said = re.findall(r"[A-Z]\d+(?:\.\d+)*", sentence)
    if all(part.strip() in said for part in rule.split("/")):
        return sentence
    return f"{sentence} ({rule})"


def hexside_words(game_map: Map, first: int, second: int) -> str:
    """``"2M4/2M5"``: a hexside by its two hexes (the edge of the map for one off it)."""
    names = [game_map.names[x] for x in (first, second) if x >= 0]
    return "/".join(names) if len(names) == 2 else f"{names[0]} map edge"


def _explain_side(m: Map, lines: DayLines, k: int, side: int, kind: int, src: str, dst: str
                  ) -> str:
    """Why hexside terrain blocks line k (rules.md 7), naming the hexside and its rule."""
    h = HEXSIDE_BY_CODE[side]
    b1, b2 = int(lines.block_h1[k]), int(lines.block_h2[k])
    where = f"the {h.label} on the {hexside_words(m, b1, b2)} hexside"
    hi = max(lines.viewer_elev, int(lines.target_elev[k]))
    lo = min(lines.viewer_elev, int(lines.target_elev[k]))
    if kind == WALL:
        why = f"both ends are at its ground level (level {lo}) and it is no end's own hexside"
    elif kind == HIGHER:
        why = f"it rises above both ends (levels {lo} and {hi})"
    elif kind == EQUAL:
        why = (f"it is as high as the higher end (level {hi}) and above the lower (level {lo}): "
               "no height advantage")
    else:
        cliff = " (a cliff: the obstacle count, VASL)" if h.kind == "cliff" else ""
        why = f"{dst} lies in its blind hexes{cliff}, seen from level {hi} down to level {lo}"
    rule = h.rule if kind != BLIND else f"{h.rule} / A6.4"
    return f"{where} blocks LOS from {src} to {dst}: {why} ({rule})"


def _hex_words(m: Map, i: int) -> str:
    if i < 0:
        return "off-map ground"
    t = BY_CODE[int(m.terrain[i])]
    ground, height = int(m.level[i]), int(m.obstacle_height[i])
    if not height:
        return f"{m.names[i]} ({t.label}, ground level {ground})"
    # A6.2: the obstacle's top is its ground level plus its height; both are named
    return f"{m.names[i]} ({t.label}, ground level {ground}, {t.label} top level {ground + height})"


def hexsides_crossed(game_map: Map, start: int, end: int) -> list[tuple[int, int, str, bool]]:
    """The hexside terrain the line from hex ``start`` to hex ``end`` crosses, nearest first:
    (hex, hex, terrain name, ignored on an end's own hexside or hexspine; rules.md 7)."""
    m, a, b = game_map, start, end
    dq, dr = int(m.q[b] - m.q[a]), int(m.r[b] - m.r[a])
    tr = line_transits(dq, dr)
    if not len(tr.t):
        return []
    cube = lambda o: np.stack([o[:, 0], -o[:, 0] - o[:, 1], o[:, 1]])  # noqa: E731
    flags = transit_flags(cube(tr.sides[:, 0]), cube(tr.sides[:, 1]), dq, dr)
    out = []
    for (p, q), k, flag in zip(tr.sides.tolist(), tr.direction.tolist(), flags.tolist()):
        i = int(m.lookup_axial(m.q[a] + p[0], m.r[a] + p[1]))
        j = int(m.lookup_axial(m.q[a] + q[0], m.r[a] + q[1]))
        code = max(int(m.hexside[i, k]) if i >= 0 else 0,
                   int(m.hexside[j, (k + 3) % 6]) if j >= 0 else 0)
        if code:
            side = HEXSIDE_BY_CODE[code]
            ignored = bool((flag == OWN and side.ignorable) or (flag == SPINE and side.spine_ignorable))
            out.append((i, j, side.name, ignored))
    return out
