"""Starshell's engine: the rules of three games, no Qt (import-linter contracts in pyproject.toml).

``import engine`` loads nothing of a room.  The names of SPEC.md's "Python API" are looked up on
first use (PEP 562), from the night room's door::

    scenario = engine.load_scenario("position.json")   # raises engine.ScenarioError
    field = engine.visibility_from(scenario, "L1")      # Mapping: hex id -> Verdict
    lit = engine.illuminated_hexes(scenario)            # set of canonical hex ids
    engine.save_scenario(scenario, "position.json")     # atomic, keeps NAME.bak

Programs use ``engine.api`` (the core and each room's door).
"""
from __future__ import annotations

import importlib

_NIGHT = ("load_scenario", "save_scenario", "scenario_from_json", "scenario_to_json",
          "illuminated_hexes", "illumination", "visibility_from", "unit_verdict", "reveal",
          "Scenario", "Unit", "Marker")
_WHERE = {"ScenarioError": "engine.errors", "HexIdError": "engine.hexes",
          **{name: "engine.night.api" for name in _NIGHT}}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_WHERE))
