"""Starshell's engine: night visibility for ASL.  No Qt here (tests/test_architecture.py).

The front door (SPEC.md, "Python API")::

    scenario = engine.load_scenario("position.json")   # raises engine.ScenarioError
    field = engine.visibility_from(scenario, "L1")      # Mapping: hex id -> Verdict
    lit = engine.illuminated_hexes(scenario)            # set of canonical hex ids
    engine.save_scenario(scenario, "position.json")     # atomic, keeps NAME.bak
"""
from .errors import ScenarioError
from .hexes import HexIdError
from .night.files import load_scenario, save_scenario, scenario_from_json, scenario_to_json
from .night.light import illuminated_hexes, illumination
from .night.scenario import Marker, Scenario, Unit
from .night.unit_verdicts import reveal, unit_verdict
from .night.verdicts import visibility_from

__all__ = ["ScenarioError", "HexIdError", "load_scenario", "save_scenario", "scenario_from_json",
           "scenario_to_json", "illuminated_hexes", "illumination", "visibility_from",
           "unit_verdict", "reveal", "Scenario", "Unit", "Marker"]
