"""The fire room's legend (terrain as the map draws it, the counters' outlines) and its File >
Open worked example menu (the positions bundled with the program)."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from engine import api

from .. import style
from ..room_window import bundled_examples
from .scene import COUNTED, OUT, TARGET, TERRAIN_COLOUR

nap = api.napoleonic


def legend_html(pos) -> str:
    """The terrain on this map (with what it does to fire) and the counters' outlines."""
    names = list(dict.fromkeys(pos.terrain_at(i) for i in range(pos.map.size)))
    rows = []
    for name in names:
        colour = TERRAIN_COLOUR.get(name, style.GROUND[0])
        swatch = colour.name()
        rows.append(f"<tr><td style='background:{swatch}'>&nbsp;&nbsp;&nbsp;</td><td>"
                    f"{name.replace('_', ' ')}: {nap.terrain_effect(pos, name)}</td></tr>")
    if pos.map.level.max() > pos.map.level.min():
        rows.append("<tr><td style='background:#9c8f5c'>&nbsp;&nbsp;&nbsp;</td><td>darker ground: "
                    "higher ground (a ridge, a slope)</td></tr>")
    marks = [(TARGET.name(), "the target hex and its units"), (COUNTED.name(), "fires"),
             (OUT.name(), "could fire, left out (click to add)"),
             ("#555b66", "dimmed: cannot fire (hover for why)")]
    rows += [f"<tr><td style='background:{c}'>&nbsp;&nbsp;&nbsp;</td><td>{t}</td></tr>"
             for c, t in marks]
    rows.append("<tr><td><b>1</b></td><td>first fire spent (the information marker)</td></tr>")
    return "<b>Legend</b><table cellspacing=2>" + "".join(rows) + "</table>"


def legend_label(pos) -> QLabel:
    label = QLabel(legend_html(pos))
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignTop)
    return label


def worked_examples() -> list[tuple[str, Path]]:
    """(title, path) of every bundled fire position, the sample first then N-01..N-10."""
    return bundled_examples(nap.bundled_positions_dir(), first="sample")
