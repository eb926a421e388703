"""tools/vasl_counters.py: the oracle kit's counters file read into a position's counters, as
VASL names them (rules.md 11.4), and compared line by line (``vasl_compare --counters``)."""
from __future__ import annotations

import numpy as np
from support import board

from engine.los import los_table
from engine.maps import Map, Placement
from engine.night.counters import los_counters
from tools import vasl_compare as vc
from tools.vasl_counters import add_counters, counters_position, read_counters

FILE = """# a position
Q7\tsmoke\tWhite +2 WP
Q6\tsmoke\tWhite +3 Smoke\t1
R6\tsmoke\t3-level Blaze
S6\tsmoke\tBlazing Building
T6\tsmoke\tBlaze
K2\tvehicle\tSherman
K3\tvehicle\tKubelwagen\t4
K4\twreck\tBurnt Out Wreck
K5\toba\tRed OBA FFE:C
K6\tterrain\tWood Rubble Level 1
"""


def test_the_kits_counters_become_the_positions(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text(FILE)
    m = Map([Placement(board("t1", {"Q6": {"level": 2}}), (0, 0))])
    s = counters_position(m, vc.Namer(m), read_counters(path))
    c = los_counters(s)
    smoke = {m.names[x.hex]: (x.name, x.base, x.height, x.hindrance) for x in c.smoke}
    assert smoke == {"t1Q7": ("White +2 WP", 0, 4, 2),
                     "t1Q6": ("White +3 Smoke", 3, 2, 3),       # one level above its hill
                     "t1R6": ("3-level Blaze", 0, 6, 3),
                     "t1S6": ("Blazing Building", 0, 4, 3), "t1T6": ("Blaze", 0, 2, 3)}
    assert {(m.names[v.hex], v.bypass_side) for v in c.vehicles} == {
        ("t1K2", None), ("t1K3", 4), ("t1K4", None)}
    assert [m.names[f.hex] for f in c.ffe] == ["t1K5"]
    rubble = [mk for mk in s.markers if mk.type == "rubble"]
    assert rubble[0].extra == {"material": "wood", "level": 1}     # B24: its level form


def test_counters_add_to_the_rows_and_six_block(tmp_path):
    path = tmp_path / "c.tsv"
    path.write_text("Q7\tsmoke\tWhite +3 Smoke\nQ6\tsmoke\tWhite +3 Smoke\n")
    m = Map([Placement(board("t1"), (0, 0))])
    table = los_table(m)
    s = counters_position(m, vc.Namer(m), read_counters(path))
    v = m.index("t1Q9")
    row = table.from_location(v, 0)
    clear, hind = add_counters(table, s, [v], row.clear[None, :], row.hindrances[None, :])
    assert not clear[0, m.index("t1Q4")]                 # 3 + 3: six block (A6.1)
    assert hind[0, m.index("t1Q7")] == 3                # the smoke in the target's hex
    assert not clear[0, m.index("t1Q6")]                 # through one, into the other
    assert clear[0, m.index("t1S9")] and hind[0, m.index("t1S9")] == 0
    assert not np.any(clear[0] & ~row.clear)            # counters never clear a blocked line
