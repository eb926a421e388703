"""The tools of the player's hand on the map (``app.night.map.hand.Hand`` routes the mouse to them).

- ``select``: a click picks a unit (its night field is shown) or a marker; empty ground clears.
- ``drag``: a unit or marker follows the mouse, the overlays follow live; one undo step.
- ``thread``: the LOS thread from one hex to another (right button, Shift + drag, or the T tool).
- ``starshell``: the drift preview under the mouse; a release fires a starshell or IR.
- ``pieces``: the palette's new pieces put down, and the picked piece deleted.

Each tool reports to the status bar through its ``told`` signal.  No rule here: legal hexes,
drift, LOS and the dice's verdicts are the engine's, asked through the Document's engine thread.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF


@dataclass(frozen=True)
class Spot:
    """Where the mouse is: the map index of the hex (-1 off the map), the scene point, and the
    counter under it (on a press)."""
    hex: int
    scene: QPointF
    item: object | None = None          # app.night.scene.counters.CounterItem
    outside: bool = False               # outside the map view (over a panel): no hex seen there
