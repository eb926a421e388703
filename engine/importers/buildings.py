"""Buildings as VASL draws them: building pixels that touch (4-connected) form one building,
and the hexes of one building share a ``building`` group named after its first hex (both kinds of
VASL board archive).

"""
from __future__ import annotations

import numpy as np

from ..hexes import PLAIN, Naming


def building_runs(is_building: np.ndarray):
    """4-connected components of building pixels, as vertical runs: (starts, ends, label) with
    starts/ends flat indices into the grid padded by one empty pixel at the bottom of each
    column (so runs never join across columns), ends exclusive."""
    gw, gh = is_building.shape
    stride = gh + 1
    padded = np.zeros((gw, stride), dtype=np.int8)
    padded[:, :gh] = is_building
    edges = np.diff(padded.ravel(), prepend=np.int8(0))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    if len(ends) < len(starts):         # the last column's padding closes every run, but be safe
        ends = np.append(ends, padded.size)
    # runs of the next column that overlap each run: [lo, hi) in run order
    lo = np.searchsorted(ends, starts + stride, side="right")
    hi = np.searchsorted(starts, ends + stride, side="left")
    count = np.maximum(hi - lo, 0)
    a = np.repeat(np.arange(len(starts)), count)
    b = np.repeat(lo, count) + (np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count))
    parent = np.arange(len(starts))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(a.tolist(), b.tolist()):
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    label = np.array([find(i) for i in range(len(starts))], dtype=np.int64)
    return starts, ends, label, stride


def named_groups(comp_of: dict[int, int], cols, rows, naming: Naming = PLAIN) -> dict[int, str]:
    """Hex index -> its building's group name, for the buildings found in two or more hexes
    (``comp_of``: hex index -> the building it stands in); a group is named after its first hex
    (leftmost column, then top row), as the board names it (rules.md 11.6)."""
    members: dict[int, list[int]] = {}
    for i, comp in comp_of.items():
        members.setdefault(comp, []).append(i)
    groups: dict[int, str] = {}
    for hexes in members.values():
        if len(hexes) < 2:
            continue
        first = min(hexes, key=lambda i: (cols[i], rows[i]))
        name = naming.name(int(cols[first]), int(rows[first]))
        for i in hexes:
            groups[i] = name
    return groups
