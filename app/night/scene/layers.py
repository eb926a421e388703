"""The map's layers the player can show or hide: one checkable QAction each, shared by the View
menu and the legend's checkboxes."""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction


@dataclass(frozen=True)
class Layer:
    name: str
    label: str
    default: bool = True


LAYERS = (
    Layer("sight", "Night field of the selected unit"),
    Layer("nvr_ring", "NVR ring"),
    Layer("moving_rings", "Moving-vehicle rings (1.5\u00d7 / 2\u00d7 NVR)"),
    Layer("lights", "Lights: circles and lit hexes"),
    Layer("blaze_shadows", "Blind hexes of a Blaze or Flame"),
    Layer("viewer_blind", "Blind hexes of the selected unit (A6.4)"),
    Layer("gunflashes", "Gunflash locations"),
    Layer("counters", "Units and markers"),
    Layer("board_art", "Board art (the boards' own pictures)"),
    Layer("hill_levels", "Hill levels (L1, L2) over the boards' own pictures", False),
    Layer("grid", "Hex grid"),
    Layer("coordinates", "Hex coordinates and board ids"),
)


def layer_actions(parent, toggled) -> dict[str, QAction]:
    """A checkable action per layer; ``toggled(name, on)`` is called when one changes."""
    actions = {}
    for layer in LAYERS:
        a = QAction(layer.label, parent)
        a.setCheckable(True)
        a.setChecked(layer.default)
        a.toggled.connect(lambda on, name=layer.name: toggled(name, on))
        actions[layer.name] = a
    return actions
