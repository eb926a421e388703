"""An entrenchment adds its location (B27; rules.md 11.4, VASL's location counters): a line from
a unit in it to a non-adjacent location at its level or lower, or to it from one at its level or
lower, is blocked where it meets a wall, hedge or bocage, its own hexside included (B27.2, as
VASL's checkHexsideTerrainRule)."""
from __future__ import annotations

import pytest
import vsav_synth as vs
from support import marker, position, unit

from engine.boards import board_from_json
from engine.errors import ScenarioError
from engine.importers import vsav
from engine.night import reference
from engine.night.counter_terrain import entrenched
from engine.night.files import scenario_from_json, scenario_to_json
from engine.night.los_thread import los_thread
from engine.night.planner_threat import threat
from engine.night.unit_verdicts import unit_verdict
from engine.night.verdicts import all_fields, visibility_from


def walled(hexsides: dict, hexes: dict | None = None):
    return board_from_json({"format": "starshell-board", "version": 1, "id": "t1",
                            "title": "walls", "hexes": hexes or {}, "hexsides": hexsides})


def two(b, markers=(), a_extra=None, b_extra=None):
    return position(b, units=[unit("A", "t1Q9", extra=a_extra or {}),
                              unit("B", "t1Q5", side="axis", extra=b_extra or {})],
                    markers=markers, nvr=6)


def test_a_unit_in_a_foxhole_cannot_see_over_the_wall_of_its_own_hex_B27_2():
    b = walled({"Q9/1": "wall"})                    # Q9's north side, on the line Q9 -> Q5
    assert visibility_from(two(b), "A")["t1Q5"].sight == "nvr"     # B9.2: its own hexside
    s = two(b, [marker("foxhole", "t1Q9")])
    assert entrenched(s, s.unit("A"))
    field = visibility_from(s, "A")
    assert field["t1Q5"].sight == "none"
    assert any("A is in the foxhole of t1Q9" in r and "B27.2" in r
               for r in field["t1Q5"].reasons)
    assert field["t1Q8"].sight == "nvr"             # adjacent: B27.2 spares it
    assert unit_verdict(s, "A", "B").sight == "none"
    assert reference.sight(s, "A", "t1Q5") == "none"
    assert all_fields(s, ["A"])[0][s.map.index("t1Q5")] == 0
    thread = los_thread(s, "t1Q9", "t1Q5", viewer_id="A")
    assert not thread.day_clear and "B27.2" in thread.day_reason
    # the threat map: A, entrenched, would not see an axis unit standing in Q5
    assert threat(s, "axis").codes[0][s.map.index("t1Q5")] == 0


def test_a_higher_target_is_seen_and_a_unit_out_of_the_foxhole_too():
    b = walled({"Q9/1": "wall"}, {"Q5": {"level": 1}})
    s = two(b, [marker("trench", "t1Q9")])
    assert visibility_from(s, "A")["t1Q5"].sight == "nvr"
    out = two(walled({"Q9/1": "wall"}), [marker("foxhole", "t1Q9")], a_extra={"entrenched": False})
    assert not entrenched(out, out.unit("A"))
    assert visibility_from(out, "A")["t1Q5"].sight == "nvr"


def test_a_unit_in_an_entrenchment_is_not_seen_over_a_wall_from_its_level():
    b = walled({"Q6/1": "wall"})                    # between Q5 and Q6: the target's hexside
    assert unit_verdict(two(b), "A", "B").sight == "nvr"        # B9.2 spares the end's side
    s = two(b, [marker("ad_ditch", "t1Q5")])
    assert entrenched(s, s.unit("B"))
    v = unit_verdict(s, "A", "B")
    assert v.sight == "none"
    assert any("B is in the antitank ditch of t1Q5" in r for r in v.reasons)


def test_a_vehicle_is_never_in_an_entrenchment_and_the_key_is_read_and_written():
    s = position(walled({}), units=[unit("T", "t1Q9", type="vehicle")],
                 markers=[marker("foxhole", "t1Q9")])
    assert not entrenched(s, s.unit("T"))
    data = scenario_to_json(two(walled({}), a_extra={"entrenched": False}))
    assert data["units"][0]["entrenched"] is False
    data["units"][0]["entrenched"] = "yes"
    data["map"] = [{"board": "2", "at": [0, 0]}]
    for u in data["units"]:
        u["hex"] = "2" + u["hex"][2:]
    with pytest.raises(ScenarioError, match=r"units\[0\]\.entrenched"):
        scenario_from_json(data)


def test_a_save_puts_only_the_units_under_the_counter_in_it(tmp_path):
    at = vs.hex_pixel("K5")
    fox, under, over = (vs.marker("1S Foxhole", "MS/x", at), vs.squad("4-6-7", at),
                        vs.squad("4-4-7", at, nation="ru"))
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02")], [fox, under, over],
                         stacks=[[under, fox, over]])
    units = {u.side: u for u in vsav.read_vsav(path).scenario().units}
    assert units["axis"].extra["entrenched"] is True
    assert units["allied"].extra["entrenched"] is False
