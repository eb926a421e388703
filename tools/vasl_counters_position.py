"""Write a counters position for the VASL oracle kit: every kind of smoke, Blazes, vehicles (one
in bypass), wrecks, a Blaze over a wreck, an FFE, on random hexes of a board, and viewers.

    python tools/vasl_counters_position.py BOARD OUT_PREFIX [--seed N] [--viewers N] [--id ID]

BOARD is a VASL board archive or a Starshell board file (as ``vasl_compare.py`` reads it).
Writes ``OUT_PREFIX_counters.tsv`` (the kit's counters file: ``HEX kind NAME [extra]``, hex
names as VASL names them on a single board) and ``OUT_PREFIX_viewers.txt`` (one hex a line):
the inputs of the kit's ``Oracle ... --counters FILE --viewers FILE``, and of
``vasl_compare.py --counters FILE``.  The hexes are drawn with ``--seed``; half of the viewers
stand within three hexes of a counter (where the lines meet them).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.maps import Map, Placement  # noqa: E402
from tools.vasl_compare import read_board  # noqa: E402

# (kind, VASL's name, extra) - every smoke counter of VASL's counter metadata, Blazes,
# vehicles, wrecks, an FFE (rules.md 11.4)
COUNTERS = [
    ("smoke", "White +3 Smoke", None), ("smoke", "White +3 Smoke", None),
    ("smoke", "White +2 Smoke", None), ("smoke", "Gray +2 Smoke", None),
    ("smoke", "White +2 WP", None), ("smoke", "White +1 WP", None), ("smoke", "Gray +1 WP", None),
    ("smoke", "Smoke grenade +2", None), ("smoke", "WP grenade +1", None),
    ("smoke", "Blaze", None), ("smoke", "Blazing Building", None), ("smoke", "2-level Blaze", None),
    ("vehicle", "Sherman", None), ("vehicle", "PzIVH", None), ("vehicle", "Kubelwagen", 2),
    ("wreck", "Wreck", None), ("wreck", "Burnt Out Wreck", None),
    ("oba", "Red OBA FFE:1", None),
]
# --rubble: rubble counters alone, each of VASL's terrain counters (B24, rules.md 11.4)
RUBBLE = [("terrain", n, None) for n in (
    "Stone Rubble", "Stone Rubble", "Stone Rubble", "Wood Rubble", "Wood Rubble",
    "Stone Rubble Ground Level", "Wood Rubble Ground Level", "Stone Rubble Level 1",
    "Wood Rubble Level 2", "Stone Rubble Level 3")]


def vasl_name(game_map: Map, index: int) -> str:
    """VASL's name of a hex on a single board (the board id dropped)."""
    return game_map.names[index][len(game_map.placements[0].board.id):]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("board")
    p.add_argument("out_prefix")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--viewers", type=int, default=40)
    p.add_argument("--id", help="board id (default: from the file name)")
    p.add_argument("--rubble", action="store_true",
                   help="rubble counters alone (VASL's terrain counters), no smoke or vehicles")
    a = p.parse_args(argv)
    counters = RUBBLE if a.rubble else COUNTERS
    game_map = Map([Placement(read_board(a.board, a.id), (0, 0))])
    rng = random.Random(a.seed)
    hexes = list(range(game_map.size))
    spots = rng.sample(hexes, len(counters) + 2)
    lines = [f"{vasl_name(game_map, spots[k])}\t{kind}\t{name}" + ("" if extra is None
                                                                  else f"\t{extra}")
             for k, (kind, name, extra) in enumerate(counters)]
    if not a.rubble:    # a Blaze over a wreck, and two smokes in one hex (rules.md 11.4: caps)
        lines.append(f"{vasl_name(game_map, spots[-1])}\tsmoke\tBlaze")
        lines.append(f"{vasl_name(game_map, spots[-1])}\twreck\tWreck")
        lines.append(f"{vasl_name(game_map, spots[-2])}\tsmoke\tWhite +2 Smoke")
        lines.append(f"{vasl_name(game_map, spots[-2])}\tsmoke\tGray +1 WP")
    near = sorted({int(h) for s in spots for h in range(game_map.size)
                   if int(game_map.distance(s, h)) <= 3})
    viewers = set(rng.sample(near, min(len(near), a.viewers // 2)))
    viewers |= set(rng.sample(hexes, a.viewers - len(viewers)))
    Path(f"{a.out_prefix}_counters.tsv").write_text(
        "# a counters position (tools/vasl_counters_position.py, seed %d)\n" % a.seed
        + "\n".join(lines) + "\n")
    Path(f"{a.out_prefix}_viewers.txt").write_text(
        "\n".join(vasl_name(game_map, v) for v in sorted(viewers)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
