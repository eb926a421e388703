"""The selected unit: its properties, its own NVR and rings, and what it sees of each enemy unit
(the engine's unit verdicts: sight, Known, fire)."""
from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app import style

from .piece_editor import MOVING_WORDS

SIGHT_WORDS = {"nvr": "within NVR or lit", "gunflash": "Gunflash only", "none": "no LOS"}
FLAGS = ("broken", "concealed", "pinned", "bypass", "tracked", "ir")


def sight_html(sight: str) -> str:
    colour = style.PANEL_SIGHT.get(sight, style.TEXT_DIM)
    return f"<span style='color:{colour}'><b>{SIGHT_WORDS.get(sight, sight)}</b></span>"


def unit_rows(unit) -> list[tuple[str, str]]:
    """The unit panel's rows for ``unit``: (what, its value)."""
    u = unit
    rows = [("Side", u.side), ("Type", u.type.replace("_", " ")), ("Hex", u.hex),
            ("Level in its hex", str(u.level))]
    if u.is_vehicle or u.type == "armor_leader":
        rows.append(("Crew", "CE (commander exposed)" if u.is_ce else "BU (buttoned up)"))
    if u.moving:
        rows.append(("Moving", MOVING_WORDS.get(u.moving, u.moving.replace("_", " "))))
    flags = [f for f in FLAGS if getattr(u, f)]
    if flags:
        rows.append(("State", ", ".join(flags)))
    return rows


class UnitPanel(QWidget):
    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.text = QLabel()
        self.text.setObjectName("unit")
        self.text.setWordWrap(True)
        self.text.setTextFormat(self.text.textFormat().RichText)
        box = QVBoxLayout(self)
        box.addWidget(self.text)
        box.addStretch(1)
        # not a drag's steps nor their answers: the drop refreshes it
        for signal in (document.selectionChanged, document.changed, document.answersChanged,
                       document.pastBound):
            signal.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        d = self.document
        if d.viewer is None:
            self.text.setText(f"<span style='color:{style.TEXT_DIM}'>Click a unit (or choose a viewer "
                              "above) to see its "
                              "night field.</span>")
            return
        u = d.scenario.unit(d.viewer)
        rows = "".join(f"<tr><td style='color:{style.TEXT_DIM}'>{k}&nbsp;</td>"
                       f"<td>{escape(v)}</td></tr>" for k, v in unit_rows(u))
        html = f"<b style='font-size:large'>{escape(u.id)}</b><table>{rows}</table>"
        a = d.answers
        if a is None and d.refusal:         # a drawn map past the bound, not built
            self.text.setText(html + f"<p style='color:#ff8080'>{escape(d.refusal)}</p>")
            return
        if a is None or a.viewer != u.id or a.scenario is not d.scenario:
            self.text.setText(html + "<p><i>asking the engine\u2026</i></p>")
            return
        if a.error:
            self.text.setText(html + f"<p style='color:#ff8080'>{escape(a.error)}</p>")
            return
        html += (f"<p>NVR <b>{a.nvr}</b> (E1.1{', halved: BU AFV, E1.14' if a.nvr_halved else ''})"
                 f"; a moving vehicle is seen out to {a.moving_ranges[0]} hexes, "
                 f"{a.moving_ranges[1]} if tracked (E1.14).")
        if a.light.unit_lit(u):
            html += " <b>It stands in light</b>: it sees only lit locations and Gunflashes (E1.101)."
        html += "</p>"
        if a.enemies:
            html += "<p><b>Enemy units</b></p><table>"
            for eid, v in a.enemies.items():
                e = a.scenario.unit(eid)
                known = "Known" if v.known else "not Known"
                html += (f"<tr><td><b>{escape(eid)}</b>&nbsp;</td><td>{escape(e.hex)}&nbsp;</td>"
                         f"<td>{sight_html(v.sight)}</td></tr>")
                if v.sight != "none":
                    html += (f"<tr><td></td><td></td><td style='color:{style.TEXT_DIM}'>{known}, "
                             f"fire {v.fire}</td></tr>")
            html += "</table>"
        self.text.setText(html)
