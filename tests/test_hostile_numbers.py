"""Hostile numbers and text met in the newer paths: pixel differences of very tall maps, vehicle
names of long runs of spaces, cost tables near the largest float, exponents in chart factors,
polygons with spikes below the saved precision. Each ends in a right answer or a message
naming the file and the place, within seconds."""
from __future__ import annotations

import importlib
import json
import pkgutil
import re
import time
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
import vsav_synth as vs
from support import SCENARIOS, el, run

import engine
from engine.api import ScenarioError, assets_dir
from engine.api import napoleonic as nap
from engine.importers import vsav
from engine.los.raster import kernel
from engine.los.raster.walk import ReversibleWalks
from engine.tabletop.table import load_table, save_table, table_from_json
from engine.tabletop.terrain import TerrainPiece


def test_pixel_differences_past_32767_rows_keep_their_own_reversal():
    """(-39, 40000) and (-38, -25536) once shared a key (dx * 65536 + dy), so the second asked
    took the first's answer; each must get its own, as the walk itself gives it."""
    width = 4000
    dxs = np.array([-39, -38, 21, 22], dtype=np.int64)
    dys = np.array([40000, 40000 - 65536, 40000, 40000 - 65536], dtype=np.int64)
    alone = kernel.reversible(dxs, dys, width)
    assert alone[0] != alone[1]      # the two answers differ, so a shared key shows
    cached = ReversibleWalks(width)
    for k in range(len(dxs)):
        assert cached(dxs[k:k + 1], dys[k:k + 1])[0] == alone[k]
    assert (cached(dxs[::-1], dys[::-1]) == alone[::-1]).all()


@pytest.mark.parametrize("space", [" ", "\u3000"])
def test_a_vehicle_named_with_a_long_run_of_spaces_reads_at_once(tmp_path, space):
    """A vehicle name of 60,000 spaces (or ideographic spaces) before its CE layer word: the
    save reads in linear time, the name as the player sees it (its words, one space apart)."""
    tank = vs.tank("PzKw" + space * 60_000 + "IVH" + space * 60_000 + "CE x", vs.hex_pixel("K8"))
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02"), (1, 0, "34")], [tank])
    started = time.monotonic()
    read = vsav.read_vsav(path)
    names = [u.extra["name"] for u in read.scenario().units]
    assert time.monotonic() - started < 5
    assert names == ["PzKw IVH"]


@pytest.mark.parametrize("cost", [1e308, 1.7e308, 1e-320, 0.0005, 1001])
def test_a_route_cost_out_of_bounds_is_refused_naming_the_table(tmp_path, cost):
    """Costs near 1e308 summed to Infinity (no JSON) and tied routes by hex count: every cost
    is bounded, each sum finite."""
    costs = tmp_path / "costs.json"
    costs.write_text('{"open": %s, "woods": 2}' % repr(cost))
    code, out, err = run("route", SCENARIOS / "W-10.json", "--unit", "L1", "--to", "2BB8",
                         "--costs", costs, "--json")
    assert code == 2 and out == "", out
    assert str(costs) in err and "costs.open" in err and "from 0.001 to 1000" in err


def test_route_costs_at_the_bound_give_the_exact_sum(tmp_path):
    costs = tmp_path / "costs.json"
    costs.write_text('{"open": 1000}')
    code, out, err = run("route", SCENARIOS / "W-10.json", "--unit", "L1", "--to", "2BB8",
                         "--costs", costs, "--json")
    assert code == 0, err
    doc = json.loads(out, parse_constant=lambda word: pytest.fail(f"{word} in the JSON"))
    assert doc["hexes"] == 8 and doc["cost"] == 8000


FIRE = assets_dir() / "fire"


@pytest.mark.parametrize("factor", ["1e-99999999", "1e-9999", "1e999", "1E-5", "1/0", "0/1",
                                    "11", "1/2e9", " 1/2", "\u0661/2"])
def test_a_range_band_factor_not_written_as_a_factor_is_refused_at_once(tmp_path, factor):
    """"1e-99999999" hung ``fire`` and the window (Fraction worked out 10**99999999);
    "1e-9999" gave an internal error: a factor is read only as digits, "/" and "."."""
    pack = json.loads((FIRE / "charts" / "sample.json").read_text())
    artillery = next(r for r in pack["range"] if r.get("bands"))
    artillery["bands"][1]["factor"] = factor
    path = tmp_path / "charts.json"
    path.write_text(json.dumps(pack))
    started = time.monotonic()
    with pytest.raises(ScenarioError) as e:
        nap.load_charts(str(path), tmp_path)
    assert time.monotonic() - started < 2
    assert e.value.file == str(path) and e.value.place == "range[3].bands[1].factor"


@pytest.mark.parametrize("factor, want", [("1/3", Fraction(1, 3)), ("0.25", Fraction(1, 4)),
                                          ("10", Fraction(10)), (2, Fraction(2))])
def test_a_range_band_factor_is_read_exactly(tmp_path, factor, want):
    pack = json.loads((FIRE / "charts" / "sample.json").read_text())
    artillery = next(r for r in pack["range"] if r.get("bands"))
    artillery["bands"][1]["factor"] = factor
    path = tmp_path / "charts.json"
    path.write_text(json.dumps(pack))
    row = next(r for r in nap.load_charts(str(path), tmp_path).ranges if r.bands)
    assert row.bands[1].factor == want


SPIKE = [[0, 0], [10, 0], [10, 10], [5 + 2e-10, 10], [5, 15], [5 - 2e-10, 10], [0, 10]]


def spiked_table() -> dict:
    """A wood whose spike is 4e-10 BW wide: valid as written, a line out and back (no area,
    the polygon touching itself) once its corners are kept to 9 decimals."""
    return {"format": "starshell-table", "version": 1, "ruleset": "dba3",
            "elements": [el("1", "blue", "Bd", 40, 40, 0), el("2", "red", "Bd", 40, 60, 180)],
            "terrain": [{"type": "woods", "polygon": SPIKE}]}


def test_a_polygon_valid_only_below_the_saved_precision_is_refused_when_read(tmp_path):
    path = tmp_path / "spike.json"
    path.write_text(json.dumps(spiked_table()))
    with pytest.raises(ScenarioError) as e:
        load_table(path)
    assert e.value.file == str(path) and e.value.place == "terrain[0].polygon"


def test_a_table_that_would_not_reopen_is_not_saved(tmp_path):
    """Made in memory (as an edit makes it): the save checks its own output, refuses and
    names the place; the file it would have replaced is left as it was."""
    good = table_from_json(spiked_table() | {"terrain": []}, file="t.json")
    spiked = replace(good, terrain=(TerrainPiece("woods", tuple(map(tuple, SPIKE))),))
    path = tmp_path / "t.json"
    save_table(good, path)
    before = path.read_bytes()
    with pytest.raises(ScenarioError) as e:
        save_table(spiked, path)
    assert e.value.file == str(path) and "terrain[0].polygon" in e.value.problem
    assert path.read_bytes() == before and load_table(path) == good


HOSTILE_TEXTS = [" " * 60_000 + "x", "\u3000" * 60_000 + "x", "1" * 60_000 + "x",
                 "a" * 60_000 + "!", "-" * 60_000, "1-" * 30_000 + "x", " :" * 30_000,
                 "ge" + " " * 60_000 + "4-6-7x", "\\" * 60_000, "\t" * 60_000 + "BU"]


def engine_expressions():
    """Every regular expression an engine module compiles (input is matched by them)."""
    found = []
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found += [(f"{info.name}.{name}", value) for name, value in vars(module).items()
                  if isinstance(value, re.Pattern)]
    return found


def test_no_expression_of_the_engine_backtracks_on_hostile_text():
    """60,000 characters of spaces, digits, dashes... searched by each: linear time (a
    backtracking one takes seconds to hours)."""
    expressions = engine_expressions()
    assert len(expressions) > 20
    for name, pattern in expressions:
        for text in HOSTILE_TEXTS:
            started = time.monotonic()
            pattern.search(text if isinstance(pattern.pattern, str) else text.encode())
            assert time.monotonic() - started < 1, (name, text[:8])
