"""Fuzzing the loaders: mutations of valid scenario and board files either load or raise
engine.ScenarioError (with a message naming the file) -- never anything else."""
import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import SCENARIOS

from engine import ScenarioError
from engine.boards import board_from_json, bundled_boards_dir
from engine.jsonio import parse_json_text
from engine.night.files import scenario_from_json

SCENARIO_FILES = sorted(SCENARIOS.glob("*.json"))
BOARD_FILES = sorted(bundled_boards_dir().glob("*.json"))
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.integers()
    | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["2CC6", "2ZZ9", "34A1", "", "squad", "afv", "PFPh", "never", "1", "2.json",
                       "../x.json", "t1", "GG10", "A0", "\u0000", "2A01"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


@st.composite
def mutated(draw, files):
    path = draw(st.sampled_from(files))
    data = json.loads(path.read_text())
    for _ in range(draw(st.integers(1, 4))):
        places = [p for p in _paths(data) if p]
        if not places:
            break
        where = draw(st.sampled_from(places))
        parent = data
        for k in where[:-1]:
            parent = parent[k]
        key = where[-1]
        action = draw(st.sampled_from(["replace", "delete", "duplicate", "add"]))
        if action == "replace":
            parent[key] = draw(json_values)
        elif action == "delete":
            del parent[key]
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(json_values)
    return path, data


def _must_load_or_refuse(load, data, file):
    try:
        load(data, file=file)
    except ScenarioError as e:
        assert str(e).startswith(file), str(e)


@SETTINGS
@given(case=mutated(SCENARIO_FILES))
def test_mutated_scenarios_load_or_raise_scenario_error(case):
    path, data = case
    _must_load_or_refuse(lambda d, file: scenario_from_json(d, file=file, folder=str(path.parent)),
                         data, path.name)


@SETTINGS
@given(case=mutated(BOARD_FILES))
def test_mutated_boards_load_or_raise_scenario_error(case):
    path, data = case
    _must_load_or_refuse(board_from_json, data, path.name)


@SETTINGS
@given(src=st.sampled_from(SCENARIO_FILES + BOARD_FILES), cut=st.integers(0, 4000),
       flip=st.integers(0, 4000), byte=st.integers(0, 255))
def test_damaged_bytes_are_refused_or_load(src, cut, flip, byte):
    raw = bytearray(src.read_bytes())
    if flip < len(raw):
        raw[flip] = byte
    raw = bytes(raw[:cut]) if cut < len(raw) else bytes(raw)
    try:
        data = parse_json_text(raw, src.name)
        if isinstance(data, dict) and data.get("format") == "starshell-board":
            board_from_json(data, file=src.name)
        else:
            scenario_from_json(data, file=src.name, folder=str(src.parent))
    except ScenarioError as e:
        assert str(e).startswith(src.name)
