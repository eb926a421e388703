"""The explanation of the hex under the cursor: its terrain (``map.describe``), what is there,
and the engine's verdict for the viewer with its reasons (``field.reasons_at``); without a
viewer, whether a light reaches it and why (``light.why_lit`` / ``why_dark``)."""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser

from .. import style
from .unit import sight_html


def _bullets(reasons) -> str:
    return "<ul style='margin-left:-20px'>" + "".join(f"<li>{escape(r)}</li>" for r in reasons) + "</ul>"


class ExplanationPanel(QTextBrowser):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.setObjectName("explanation")
        self.document = document
        self.hex = -1
        self.setOpenLinks(False)
        document.answersChanged.connect(self.refresh)
        self.refresh()

    def show_hex(self, i: int) -> None:
        if i != self.hex:
            self.hex = i
            self.refresh()

    def refresh(self) -> None:
        a = self.document.answers
        i = self.hex
        if a is None or i < 0 or i >= a.scenario.map.size:
            self.setHtml(f"<p style='color:{style.TEXT_DIM}'>Hover a hex: its terrain, and what "
                         "the selected unit sees there and why.</p>")
            return
        s, m = a.scenario, a.scenario.map
        name = m.names[i]
        html = f"<p><b style='font-size:large'>{escape(name)}</b>"
        others = [n for n in m.aliases(i) if n != name]
        if others:
            html += f" <span style='color:{style.TEXT_DIM}'>(also {escape(', '.join(others))})</span>"
        html += f"<br>{escape(m.describe(i).split(': ', 1)[-1])}</p>"
        here = [f"{u.id} ({u.side} {u.type.replace('_', ' ')})" for u in s.units
                if m.index(u.hex) == i]
        here += [mk.type.replace("_", " ") for mk in s.markers if m.index(mk.hex) == i]
        if here:
            html += f"<p>Here: {escape(', '.join(here))}</p>"
        if a.field is not None:
            html += (f"<p>{escape(a.viewer)} \u2192 {escape(name)}: "
                     f"{sight_html(a.field.sight_at(i))}</p>")
            html += _bullets(a.field.reasons_at(i))
        else:
            lit = a.light.why_lit(s, i)
            html += _bullets(lit if lit else [a.light.why_dark(s, i)])
        self.setHtml(html)
