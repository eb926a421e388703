"""The Napoleonic fire room's front door (rules.md 8): ``engine.api.napoleonic``."""
from __future__ import annotations

from .attack import assess, record, record_attack
from .charts import CHARTS_FORMAT, READINGS, ChartPack, charts_from_json, load_charts
from .choice import ChosenAttack, choose_attack, chosen_firers
from .describe import describe_hex, terrain_effect
from .fire import KINDS, Assessment, Firer, distribution, fire_value, fmt, has_los, step_roll
from .position import (
    ARMS,
    FIRE_FORMAT,
    FORMATIONS,
    SEGMENTS,
    FirePosition,
    FireUnit,
    blank_position,
    free_id,
    load_position,
    position_from_json,
    position_to_json,
    save_position,
    unit_to_json,
    with_unit,
    without_unit,
)
from .reach import DIRECTIONS
from .results import (
    applied_words,
    apply_result,
    default_spread,
    loss_takers,
    parse_result,
    result_words,
    unmarked,
)
from .segments import SETTINGS, new_turn, next_segment, with_segment, with_settings


def bundled_positions_dir():
    from ..boards import assets_dir
    return assets_dir() / "fire"


__all__ = [
    "CHARTS_FORMAT", "READINGS", "ChartPack", "charts_from_json", "load_charts", "KINDS",
    "Assessment", "Firer", "assess", "distribution", "fire_value", "fmt",
    "has_los", "record_attack", "step_roll", "ARMS", "FIRE_FORMAT", "FORMATIONS", "SEGMENTS",
    "FirePosition", "FireUnit", "load_position", "position_from_json", "position_to_json",
    "save_position", "bundled_positions_dir", "record", "DIRECTIONS",
    "applied_words", "apply_result", "result_words", "unmarked", "blank_position", "free_id",
    "unit_to_json", "with_unit", "without_unit", "describe_hex", "terrain_effect",
    "ChosenAttack", "choose_attack", "chosen_firers", "default_spread", "loss_takers",
    "parse_result", "SETTINGS", "new_turn", "next_segment", "with_segment", "with_settings",
]
