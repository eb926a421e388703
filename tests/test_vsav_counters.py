"""Counters in LOS read from a save by VASL's names (rules.md 11.4; SPEC.md turn four)."""
from __future__ import annotations

import vsav_synth as vs

from engine.importers import vsav
from engine.night.counters import los_counters
from engine.night.files import scenario_to_json

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def read(tmp_path, pieces):
    return vsav.read_vsav(vs.write_vsav(tmp_path / "g.vsav", BOARDS, pieces))


def test_smoke_of_each_strength_blazes_wrecks_rubble_ffe_and_entrenchments(tmp_path):
    names = ["Blazing Building", "2-level Blaze", "Wreck", "Burnt Out Wreck", "Red OBA FFE:1",
             "Stone Rubble Level 1", "Wood Rubble", "1S Foxhole", "Trench", "A-T Ditch",
             "PzKpfw IVH Wreck"]
    pieces = [vs.marker(n, "MS/x", vs.hex_pixel(f"K{k + 1}")) for k, n in enumerate(names[:10])]
    pieces.append(vs.marker(names[10], "ge/x", vs.hex_pixel("M2")))
    pieces += [vs.smoke(vs.hex_pixel("L5"), strength=1), vs.smoke(vs.hex_pixel("L6"), strength=2)]
    r = read(tmp_path, pieces)
    got = {m["hex"]: {k: v for k, v in m.items() if k not in ("vasl_name", "vasl_id")}
           for m in scenario_to_json(r.scenario())["markers"]}
    assert got == {
        "2K1": {"type": "blaze", "hex": "2K1", "building": True},
        "2K2": {"type": "blaze", "hex": "2K2", "levels": 2},
        "2K3": {"type": "wreck", "hex": "2K3"},
        "2K4": {"type": "wreck", "hex": "2K4", "burnt": True},
        "2K5": {"type": "ffe", "hex": "2K5"},
        "2K6": {"type": "rubble", "hex": "2K6", "material": "stone", "level": 1},
        "2K7": {"type": "rubble", "hex": "2K7", "material": "wood"},
        "2K8": {"type": "foxhole", "hex": "2K8"},
        "2K9": {"type": "trench", "hex": "2K9"},
        "2K10": {"type": "ad_ditch", "hex": "2K10"},
        "2M2": {"type": "wreck", "hex": "2M2"},
        "2L5": {"type": "smoke", "hex": "2L5", "kind": "white+3"},
        "2L6": {"type": "smoke", "hex": "2L6", "kind": "white+2"},
    }
    counters = los_counters(r.scenario())
    assert sorted(s.name for s in counters.smoke) == ["2-level Blaze", "Blazing Building",
                                                      "White +2 Smoke", "White +3 Smoke"]
    assert len(counters.vehicles) == 3 and len(counters.ffe) == 1
