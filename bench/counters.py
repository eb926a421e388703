"""Benchmark: a night field with 20 smoke and vehicle counters against the same field without.

    python bench/counters.py [BOARD ...] [--counters 20] [--viewers 12] [--rounds 5] [--seed 1]

BOARD: board files (``.json``, with their rasters) or VASL board archives (imported as the
program imports them); three are joined in one column (as Hill 621's 2, 4, 3).  Without them,
the test suite's synthetic VASL board (tests/vasl_synth.py) is drawn and imported three times.

On that map, ``--viewers`` squads stand on random hexes; ``--counters`` counters (smoke of
every kind, Blazes, vehicles, wrecks, one FFE: rules.md 11.4) on random hexes, none in a
viewer's hex.  Measured in one process, alternately, processor time, median over the viewers
and ``--rounds`` rounds:

- ``field``: ``visibility_from`` of one viewer, its lines read from the map's LOS table
  (before ``prepare``: each field a lazy row), without and with the counters;
- ``prepared``: the same after ``engine.los.ground.prepare`` (the rows read from the table);
- ``all``: ``all_fields`` of every viewer at once, after ``prepare``;
- ``moved``: after ``prepare``, a viewer moved to another hex (a new position whose units
  changed: its counters read again, the counters' table the same) and its field asked.

The counters' table of the map (``engine.los.counter_table``: their hindrances to every ground
line) is built once per set of counters, once enough fields have been asked of it
(``fields_before_table``; a set asked for fewer, as a counter's drag, is answered line by
line): its build is timed on its own (``table``, processor time, median of ``--rounds``
builds: what placing, moving or changing a counter costs once the new set is used), and
``line by line`` a prepared field without it; then it is built and kept, as the app keeps
it, for the rows above.

Printed: each median, and with / without (target: within 1.5 x).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))

from engine.los import ground as los_ground  # noqa: E402
from engine.los import los_table  # noqa: E402
from engine.los.counter_table import CounterTable, counter_table, forget_tables  # noqa: E402
from engine.maps import Map, Placement  # noqa: E402
from engine.night.counters import field_rows as counter_rows  # noqa: E402
from engine.night.counters import los_counters  # noqa: E402
from engine.night.scenario import MapEntry, Marker, Scenario, Unit  # noqa: E402
from engine.night.verdicts import all_fields, visibility_from  # noqa: E402

KINDS = ["white+3", "white+2", "gray+2", "wp+2", "wp+1", "gray-wp+1", "smoke-grenade",
         "wp-grenade"]


def boards(paths: list[str], folder: Path) -> list:
    from engine.boards import load_board
    from engine.importers.vasl import import_board
    if not paths:
        import vasl_synth
        paths = [str(vasl_synth.standard_board(n).write(folder / f"bd{n}")) for n in "243"]
    out = []
    for p in paths:
        out.append(load_board(p) if p.endswith(".json") else import_board(p)[0])
    return out


def counters(game_map: Map, count: int, avoid: set, rng: random.Random):
    """``count`` counters: smoke and Blazes, vehicles and wrecks about half and half, one FFE."""
    spots = rng.sample([i for i in range(game_map.size) if i not in avoid], count)
    units, markers = [], []
    for k, i in enumerate(spots):
        name = game_map.names[i]
        if k == 0:
            markers.append(Marker("ffe", name, "axis"))
        elif k % 2:
            kind = KINDS[k % len(KINDS)]
            markers.append(Marker("smoke", name, extra={"kind": kind}) if k % 5 else
                           Marker("blaze", name, radius=1))
        elif k % 4:
            units.append(Unit(f"V{k}", "axis", "afv", name))
        else:
            markers.append(Marker("wreck", name))
    return units, markers


def timed(call) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("boards", nargs="*")
    p.add_argument("--counters", type=int, default=20)
    p.add_argument("--viewers", type=int, default=12)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        game_map = Map([Placement(b, (0, k)) for k, b in enumerate(boards(a.boards, Path(tmp)))])
    entries = tuple(MapEntry(pl.board.id, pl.at) for pl in game_map.placements)
    spots = rng.sample(range(game_map.size), a.viewers)
    viewers = tuple(Unit(f"A{k}", "allied", "squad", game_map.names[i])
                    for k, i in enumerate(spots))
    units, markers = counters(game_map, a.counters, set(spots), rng)
    bare = Scenario(entries, game_map, units=viewers, nvr=4)
    with_counters = Scenario(entries, game_map, units=viewers + tuple(units),
                             markers=tuple(markers), nvr=4)
    ids = [u.id for u in viewers]
    out: dict = {}
    build_times, builds = [], []
    for _ in range(a.rounds):
        build_times.append(timed(lambda: builds.append(
            CounterTable(los_table(game_map), los_counters(with_counters)))))
    counter_table(game_map, los_counters(with_counters), now=True)
    for phase in ("field", "prepared"):
        if phase == "prepared":
            los_ground.prepare(game_map)
        times: dict = {"without": [], "with": []}
        for _ in range(a.rounds):
            for uid in ids:                 # alternately, the same viewer each time
                for key, s in (("without", bare), ("with", with_counters)):
                    s = s.replace(nvr=s.nvr)            # a new position: nothing derived kept
                    counter_rows.cache_clear()     # no row kept (fields off the table)
                    times[key].append(timed(lambda s=s, uid=uid: visibility_from(s, uid)))
        out[phase] = {k: statistics.median(v) for k, v in times.items()}
    plain: list = []
    for uid in ids:                 # a prepared field with the counters, no table: line by line
        forget_tables()
        counter_rows.cache_clear()
        s = with_counters.replace(nvr=with_counters.nvr)
        plain.append(timed(lambda s=s, uid=uid: visibility_from(s, uid)))
    counter_table(game_map, los_counters(with_counters), now=True)
    times = {"without": [], "with": []}
    for _ in range(a.rounds):
        for key, s in (("without", bare), ("with", with_counters)):
            s = s.replace(nvr=s.nvr)
            times[key].append(timed(lambda s=s: all_fields(s, ids)))
    out["all"] = {k: statistics.median(v) for k, v in times.items()}
    times = {"without": [], "with": []}
    free = [i for i in range(game_map.size) if i not in spots]
    for _ in range(a.rounds):
        for uid in ids:             # a viewer moved: a new position, its units changed
            to = game_map.names[rng.choice(free)]
            for key, s in (("without", bare), ("with", with_counters)):
                s = s.moved(uid, to)
                counter_rows.cache_clear()
                times[key].append(timed(lambda s=s, uid=uid: visibility_from(s, uid)))
    out["moved"] = {k: statistics.median(v) for k, v in times.items()}
    print(f"{game_map.size} hexes, {len(viewers)} viewers, {a.counters} counters "
          f"({len(units)} vehicles, {sum(m.type == 'wreck' for m in markers)} wrecks)")
    print(f"table     {statistics.median(build_times) * 1000:8.1f} ms once per set of counters "
          f"({builds[0].nbytes / 1e6:.1f} MB, {len(builds[0].targets)} lines hindered); "
          f"line by line a prepared field {statistics.median(plain) * 1000:.2f} ms")
    for phase, t in out.items():
        print(f"{phase:9s} without {t['without'] * 1000:8.2f} ms   with {t['with'] * 1000:8.2f} ms"
              f"   with / without {t['with'] / t['without']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
