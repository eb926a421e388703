"""A random 2 x 2-board map and a busy night position on it (for the benchmark and the tests)."""
from __future__ import annotations

import random

from engine.boards import Board, HexTerrain, hexside_key
from engine.hexes import board_hexes
from engine.maps import Map, Placement
from engine.night.scenario import MapEntry, Marker, Scenario, Unit

TERRAIN_MIX = [("open", 60), ("woods", 12), ("building", 6), ("grain", 8), ("brush", 4),
               ("orchard", 3)]
# hexside terrain (rules.md 7): walls and hedges on about one hex in six
SIDE_MIX = [("wall", 1), ("hedge", 1)]
SIDE_SHARE = 0.16


def random_board(board_id: str, rng: random.Random, hexsides: bool = True) -> Board:
    hexes = {}
    names, weights = zip(*TERRAIN_MIX)
    # hills: a few blobs of level 1 with level 2 tops
    centres = [rng.choice(board_hexes()) for _ in range(3)]
    for (c, n) in board_hexes():
        t = rng.choices(names, weights)[0]
        level = 0
        for (cc, cn) in centres:
            d = abs(cc - c) + abs(cn - n)
            if d <= 1:
                level = max(level, 2)
            elif d <= 3:
                level = max(level, 1)
        if t == "open" and level == 0:
            continue
        spec = HexTerrain(t, level, f"b{c}_{n}" if t == "building" else None,
                          rng.choice([0, 0, 1]) if t == "building" else 0)
        hexes[(c, n)] = spec
    return Board(board_id, f"random {board_id}", HexTerrain(), hexes,
                 hexsides=random_hexsides(board_id) if hexsides else {})


def random_hexsides(board_id: str) -> dict:
    """Walls and hedges in short runs along hexsides (their own random stream: the terrain of
    the map is what it was before hexsides were added)."""
    rng = random.Random(f"hexsides-{board_id}")
    names, weights = zip(*SIDE_MIX)
    sides = {}
    for (c, n) in board_hexes():
        if rng.random() < SIDE_SHARE:
            name = rng.choices(names, weights)[0]
            first = rng.randint(1, 6)
            for d in range(first, first + rng.choice([1, 1, 2])):       # one side or two
                sides[hexside_key(c, n, (d - 1) % 6 + 1)] = name
    return sides


def random_map(seed: int = 1, hexsides: bool = True) -> tuple[list[Board], Map]:
    """Four random boards, 2 x 2; ``hexsides=False``: the same map without its walls, hedges
    and bocage (to measure what they cost)."""
    rng = random.Random(seed)
    boards = [random_board(f"r{k}", rng, hexsides) for k in range(4)]
    slots = [(0, 0), (1, 0), (0, 1), (1, 1)]
    return boards, Map([Placement(b, at) for b, at in zip(boards, slots)])


def row_map(seed: int = 1, count: int = 3) -> tuple[list[Board], Map]:
    """``count`` random real-size boards (33 x 10 hexes) in a row."""
    rng = random.Random(seed)
    boards = [random_board(f"r{k}", rng) for k in range(count)]
    return boards, Map([Placement(b, (k, 0)) for k, b in enumerate(boards)])


def busy_scenario(game_map: Map, seed: int = 2, units: int = 80) -> Scenario:
    rng = random.Random(seed)
    names = game_map.names
    us = []
    for k in range(units):
        side = "allied" if k % 2 else "axis"
        typ = rng.choice(["squad", "squad", "half_squad", "leader", "crew", "afv", "mortar"])
        kw = {}
        if typ == "afv":
            kw = {"bu": rng.random() < 0.5, "tracked": True,
                  "moving": rng.choice([None, "entered", "stopped"])}
        if typ == "mortar":
            kw = {"ir": True}
        us.append(Unit(f"U{k}", side, typ, rng.choice(names), **kw))
    markers = [Marker("starshell", rng.choice(names)) for _ in range(3)]
    markers += [Marker("ir", rng.choice(names))]
    markers += [Marker("blaze", rng.choice(names), radius=2) for _ in range(2)]
    markers += [Marker("gunflash", rng.choice(names), side="axis") for _ in range(4)]
    entries = tuple(MapEntry(p.board.id, p.at) for p in game_map.placements)
    return Scenario(entries, game_map, title="benchmark", nvr=3, units=tuple(us),
                    markers=tuple(markers))
