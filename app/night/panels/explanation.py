"""The explanation of the hex under the cursor: its terrain (``map.describe``), what is there,
and the engine's verdict for the viewer with its reasons (``field.reasons_at``); without a
viewer, whether a light reaches it and why (``light.why_lit`` / ``why_dark``).  A stretched LOS
thread is explained first: range, levels, the daytime verdict and the night verdict."""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser

from app import style
from engine import api

from .unit import sight_html


def _bullets(reasons) -> str:
    return "<ul style='margin-left:-20px'>" + "".join(f"<li>{escape(r)}</li>" for r in reasons) + "</ul>"


def kept_words(piece: dict) -> str:
    """A VASL save's support weapon or Gun, as the hex's hover text lists it (not a viewer)."""
    kind = "Gun" if piece.get("kind") == "gun" else "support weapon"
    side = f"{piece['side']} " if piece.get("side") else ""
    return f"{piece['name']} ({side}{kind}, not a viewer)"


class ExplanationPanel(QTextBrowser):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.setObjectName("explanation")
        self.document = document
        self.hex = -1
        self.thread = None
        self.route_html = ""            # the Route tool's way (``planner.install.route_html``)
        self.held = False               # a drag is on: the hovered hex is explained at the drop
        self.setOpenLinks(False)
        document.answersChanged.connect(self.refresh)     # not a drag's: the drop's
        document.dragged.connect(self._hold)
        document.changed.connect(self._release)           # a drop: no answer of before stays
        self.refresh()

    def _hold(self) -> None:
        self.held = True

    def _release(self) -> None:
        self.held = False
        self.refresh()

    def show_hex(self, hex_index: int) -> None:
        if hex_index != self.hex:
            self.hex = hex_index
            if not self.held:           # each drag step would lay out the page again
                self.refresh()

    def show_thread(self, thread) -> None:
        self.thread = thread
        self.refresh()

    def show_route(self, html: str) -> None:
        self.route_html = html
        self.refresh()

    def thread_html(self) -> str:
        t = self.thread
        if t is None:
            return self.route_html
        day = ("clear" if t.day_clear else "blind hex (A6.4)" if t.blind
               else f"blocked by {escape(' / '.join(t.blocking))}")
        who = t.viewer or "a Good Order squad there"
        html = (f"<p><b style='font-size:large'>LOS thread {escape(t.start)} \u2192 "
                f"{escape(t.end)}</b><br>range {t.range}; levels {t.start_elevation} \u2192 "
                f"{t.end_elevation}; crosses {escape(', '.join(t.crossed) or 'no hex')}</p>"
                f"<p><b>Day</b>: {day}; {t.hindrances} hindrance"
                f"{'s' if t.hindrances != 1 else ''}"
                + (f", +{t.counter_hindrances} from counters" if t.counter_hindrances else "")
                + f"<br>{escape(t.day_reason)}</p>" + _bullets(t.counter_reasons)
                + f"<p><b>Night</b>, seen by {escape(who)}: {sight_html(t.night_sight)}</p>")
        return self.route_html + html + _bullets(t.night_reasons) + "<hr>"

    def refresh(self) -> None:
        a, d = self.document.answers, self.document
        i = self.hex
        if a is None or i < 0 or i >= min(a.scenario.map.size, d.scenario.map.size):
            self.setHtml(self.thread_html() + f"<p style='color:{style.TEXT_DIM}'>Hover a hex: "
                         "its terrain, and what the selected unit sees there and why.</p>")
            return
        late = a.scenario is not d.scenario or a.viewer != d.viewer     # answers of before
        s = d.scenario if late else a.scenario
        m = s.map
        name = m.names[i]
        html = self.thread_html() + f"<p><b style='font-size:large'>{escape(name)}</b>"
        others = [n for n in m.aliases(i) if n != name]
        if others:
            html += f" <span style='color:{style.TEXT_DIM}'>(also {escape(', '.join(others))})</span>"
        html += f"<br>{escape(m.describe(i).split(': ', 1)[-1])}</p>"
        here = [f"{u.id} ({u.side} {u.type.replace('_', ' ')})" for u in s.units
                if m.index(u.hex) == i]
        here += [api.night.marker_words(mk, m) for mk in s.markers if m.index(mk.hex) == i]
        here += [kept_words(p) for p in api.vasl.kept_pieces(s) if m.has(p["hex"]) and m.index(p["hex"]) == i]
        if here:
            html += f"<p>Here: {escape(', '.join(here))}</p>"
        if late:            # the engine works out the new position: no reason of the old one
            who = f"what {escape(d.viewer)} sees" if d.viewer else "the lights"
            html += (f"<p style='color:{style.TEXT_DIM}'>Working out {who} in the new "
                     "position\u2026</p>")
        elif a.field is not None:
            html += (f"<p>{escape(a.viewer)} \u2192 {escape(name)}: "
                     f"{sight_html(a.field.sight_at(i))}</p>")
            html += _bullets(self.document.call(a.field.reasons_at, i))   # engine thread
        else:
            lit = self.document.call(a.light.why_lit, s, i)
            html += _bullets(lit if lit else [self.document.call(a.light.why_dark, s, i)])
        self.setHtml(html)
