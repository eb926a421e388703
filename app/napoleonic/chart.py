"""The chance of every result of the fire table's column, as bars (in 36ths)."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from .. import style
from .scene import COUNTED


class OutcomeChart(QWidget):
    """The chance of every result of the column, as bars (in 36ths)."""

    def __init__(self):
        super().__init__()
        self.outcomes: dict = {}
        self.result: str | None = None
        self.setMinimumHeight(150)

    def set_outcomes(self, outcomes: dict, result: str | None = None) -> None:
        self.outcomes, self.result = dict(outcomes), result
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.fillRect(self.rect(), QColor("#11151d"))
        if not self.outcomes:
            p.setPen(QColor("#9aa3b5"))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no attack: no results")
            p.end()
            return
        n = len(self.outcomes)
        w, h = self.width(), self.height()
        top, bottom = 22, 26
        slot = (w - 20) / n
        p.setFont(style.font(12))
        for k, (res, prob) in enumerate(self.outcomes.items()):
            x = 10 + k * slot
            bar_h = (h - top - bottom) * float(prob)
            rect = QRectF(x + slot * 0.15, h - bottom - bar_h, slot * 0.7, bar_h)
            if res == self.result:
                p.setPen(QPen(QColor("#ffffff"), 2))
            else:
                p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(COUNTED if res == self.result else QColor("#6f8fc0"))
            p.drawRect(rect)
            p.setPen(QColor("#e7eddf"))
            count = int(prob * 36)
            p.drawText(QRectF(x, rect.top() - 18, slot, 16), Qt.AlignmentFlag.AlignCenter,
                       f"{count}/36")
            label = res if res else "no effect"
            p.drawText(QRectF(x, h - bottom + 4, slot, 18), Qt.AlignmentFlag.AlignCenter, label)
        p.end()
