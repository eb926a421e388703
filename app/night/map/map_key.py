"""The caption and key the view can print over the map (screenshots show them): the position and
the viewer on top, what each colour and pattern means at the bottom."""
from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter

from app import style

from ..panels.info import PHASE_NAMES, STARSHELL_WORDS
from ..panels.legend import map_key_entries

PAD = 10.0
GAP = 22.0
ROW = 30.0
CAPTION = 50.0


def caption_lines(document) -> tuple[str, str]:
    s, viewer = document.scenario, document.viewer
    if viewer is None:
        who = "no unit selected: lights and markers only"
    else:
        u = s.unit(viewer)
        a = document.answers
        nvr = a.nvr if a is not None and a.viewer == viewer and a.nvr is not None else s.nvr
        who = f"seen by {u.id} ({u.side} {u.type.replace('_', ' ')} in {u.hex}), NVR {nvr}"
    first = f"{s.title or 'Untitled position'} \u2014 {who}"
    second = (f"{s.phase} ({PHASE_NAMES.get(s.phase, '')}), {s.attacker} attacking; "
              f"starshells: {STARSHELL_WORDS.get(s.starshells_used, s.starshells_used)}")
    return first, second


class MapKey:
    def __init__(self):
        self.entries = map_key_entries()

    def _rows(self, width: float) -> list[list[tuple]]:
        fm = QFontMetricsF(style.font(13))
        rows, row, x = [], [], PAD
        for pix, text in self.entries:
            w = pix.width() + 6 + fm.horizontalAdvance(text) + GAP
            if row and x + w > width - PAD:
                rows.append(row)
                row, x = [], PAD
            row.append((pix, text, w))
            x += w
        if row:
            rows.append(row)
        return rows

    def height(self, width: float) -> float:
        return len(self._rows(width)) * ROW + 2 * PAD

    def paint(self, painter: QPainter, document, viewport: QRectF) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        first, second = caption_lines(document)
        painter.setPen(style.BOARD_LABEL)
        painter.setFont(style.font(17, bold=True))
        painter.drawText(QRectF(PAD, 4, viewport.width() - 2 * PAD, 24),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, first)
        painter.setPen(style.rgba("#c3cad6"))
        painter.setFont(style.font(13))
        painter.drawText(QRectF(PAD, 27, viewport.width() - 2 * PAD, 20),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, second)
        rows = self._rows(viewport.width())
        y = viewport.bottom() - len(rows) * ROW - PAD
        painter.fillRect(QRectF(0, y - PAD / 2, viewport.width(), viewport.bottom() - y + PAD),
                         style.BOARD_LABEL_BACK)
        painter.setPen(style.rgba("#dfe3ea"))
        for row in rows:
            x = PAD
            for pix, text, w in row:
                painter.drawPixmap(QPointF(x, y + (ROW - pix.height()) / 2), pix)
                painter.drawText(QRectF(x + pix.width() + 6, y, w, ROW),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
                x += w
            y += ROW
