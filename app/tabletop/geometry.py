"""Scene pixels and table base widths: the one conversion the tabletop room's drawing uses."""
from __future__ import annotations

from PySide6.QtCore import QPointF

S = 100.0                      # scene pixels per BW


def to_scene(x_bw: float, y_bw: float) -> QPointF:
    return QPointF(x_bw * S, -y_bw * S)


def from_scene(point: QPointF) -> tuple[float, float]:
    return point.x() / S, -point.y() / S
