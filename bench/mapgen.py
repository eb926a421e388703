"""A random 2 x 2-board map and a busy night position on it (issue 5's benchmark; tests too)."""
from __future__ import annotations

import random

from engine.boards import Board, HexTerrain
from engine.hexes import board_hexes
from engine.maps import Map, Placement
from engine.night.scenario import MapEntry, Marker, Scenario, Unit

TERRAIN_MIX = [("open", 60), ("woods", 12), ("building", 6), ("grain", 8), ("brush", 4),
               ("orchard", 3)]


def random_board(board_id: str, rng: random.Random) -> Board:
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
    return Board(board_id, f"random {board_id}", HexTerrain(), hexes)


def random_map(seed: int = 1) -> tuple[list[Board], Map]:
    rng = random.Random(seed)
    boards = [random_board(f"r{k}", rng) for k in range(4)]
    slots = [(0, 0), (1, 0), (0, 1), (1, 1)]
    return boards, Map([Placement(b, at) for b, at in zip(boards, slots)])


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
