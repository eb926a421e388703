"""The starshell panel: whether the selected unit may fire a starshell or IR and why (the engine's
reasons), the placement method, the dice (typed in from the table, or rolled by the computer),
the drift preview of the hex under the mouse, and the last roll."""
from __future__ import annotations

import re
from html import escape

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from app import style
from engine import api

from .preview import fraction_text

METHOD_WORDS = {api.night.AUTO: "the first legal one (1, 2, 3, then IR)",
                **{m.key: f"{'IR' if m.flare == 'ir' else m.key} \u2013 {m.label} ({m.rule})"
                   for m in api.night.METHODS}}
# the method in a sentence ("by method 2", "by IR along a LOS (E1.932)"), never its key
METHOD_NAMES = {m.key: f"IR {m.label} ({m.rule})" if m.flare == "ir" else f"method {m.key}"
                for m in api.night.METHODS}


def parse_dice(text: str) -> list[int] | None:
    """``"3 2 5"`` or ``"3,2,5"`` -> [3, 2, 5]; blank -> None; raises ValueError otherwise."""
    text = text.strip()
    if not text:
        return None
    parts = [p for p in re.split(r"[\s,;/]+", text) if p]
    if not all(p.isdigit() and 1 <= int(p) <= 6 for p in parts):
        raise ValueError(f"dice are numbers 1..6 separated by spaces, not {text!r}")
    return [int(p) for p in parts]


class StarshellPanel(QWidget):
    """The panel of the starshell tool (``starshell.tool.StarshellTool``); its ``tool`` box
    turns the tool on and off (the window ties it to the Tools menu's action)."""

    def __init__(self, document, starshell, parent=None):
        super().__init__(parent)
        self.document, self.starshell = document, starshell
        self.tool = QCheckBox("Place a starshell (S)")
        self.tool.setToolTip("Hover or drag over the map to see where it may drift; release "
                             "to fire")
        self.method = QComboBox()
        self.method.setObjectName("method")
        for key, text in METHOD_WORDS.items():
            self.method.addItem(text, key)
        self.method.setSizeAdjustPolicy(     # a long method's words shown whole in its list
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.method.setMinimumContentsLength(18)
        self.method.activated.connect(lambda _: starshell.set_method(self.method.currentData()))
        self.dice = QLineEdit()
        self.dice.setObjectName("dice")
        self.dice.setPlaceholderText("blank: the computer rolls; or e.g. 3 2 5")
        self.dice.setToolTip("The dice as rolled at the table, in order: the usage dr (when there "
                             "is one), then the drift direction dr and distance dr")
        self.options = QLabel()
        self.preview = QLabel()
        self.result = QLabel()
        for label in (self.options, self.preview, self.result):
            label.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Method", self.method)
        form.addRow("Dice", self.dice)
        box = QVBoxLayout(self)
        box.addWidget(self.tool)
        box.addLayout(form)
        box.addWidget(self.preview)
        box.addWidget(self.result)
        box.addWidget(self.options)
        box.addStretch(1)
        starshell.fired.connect(self.show_result)
        self._fired_step = -1        # the undo step the shown result made
        document.undo_stack.indexChanged.connect(self._undone)
        starshell.previewChanged.connect(self.show_preview)
        for signal in (document.selectionChanged, document.answersChanged, document.dragAnswered):
            signal.connect(self.show_options)
        self.show_options()

    def add_part(self, widget: QWidget) -> None:
        """Another part of the panel (the ranked advice, ``app.night.planner.advice``), over the reasons."""
        box = self.layout()
        box.insertWidget(box.indexOf(self.options), widget)

    def show_method(self, method: str) -> None:
        self.method.setCurrentIndex(self.method.findData(method))

    def typed_dice(self):
        """FixedDice of the typed rolls (then the field is cleared), or None: the Document's."""
        rolls = parse_dice(self.dice.text())
        if rolls is None:
            return None
        self.dice.clear()
        return api.night.FixedDice(rolls)

    def show_options(self) -> None:
        d = self.document
        if d.viewer is None:
            self.options.setText(f"<span style='color:{style.TEXT_DIM}'>Select the unit that "
                                 "fires.</span>")
            return
        if not self.starshell.on:
            self.options.setText(f"<span style='color:{style.TEXT_DIM}'>{escape(d.viewer)}: "
                                 "turn on the starshell tool to see where it may fire.</span>")
            return
        o = self.starshell.options()
        rows = []
        for title, part in (("Starshell", o.starshell), ("IR", o.ir)):
            verdict = (f"may fire, usage dr \u2264 {part.usage_dr_max}"
                       if part.may_fire and part.usage_dr_max is not None
                       else "may fire, no usage dr" if part.may_fire else "may not fire")
            rows.append(f"<p><b>{title}</b>: {verdict}</p><ul style='margin-left:-20px'>"
                        + "".join(f"<li>{escape(r)}</li>" for r in part.reasons) + "</ul>")
        self.options.setText("".join(rows))

    def show_preview(self) -> None:
        drift = self.starshell.scene.drift
        if drift.at is None:
            self.preview.clear()
            return
        m = drift.map
        where = m.names[drift.at]
        legal = "" if drift.legal else " <b style='color:#ff8080'>(not a legal hex)</b>"
        ends = sorted(((p, h) for h, p in drift.distribution.items() if h != "off-map" and p > 0),
                      reverse=True)
        text = ", ".join(f"{h} {fraction_text(round(p * 36))}" for p, h in ends[:8])
        more = "\u2026" if len(ends) > 8 else ""
        off = drift.off_map
        self.preview.setText(
            f"<b>{where}</b> by {METHOD_NAMES.get(drift.method, drift.method)}{legal}: ends in "
            f"{text}{more}"
            + (f"; off the map {fraction_text(round(off * 36))}" if off else "")
            + f". Hexes lit for sure: {int((drift.lit >= 1 - 1e-9).sum())}; "
            f"perhaps: {int(((drift.lit > 0) & (drift.lit < 1 - 1e-9)).sum())}.")

    def show_result(self, fired) -> None:
        what = "IR" if fired.kind == "ir" else "Starshell"
        usage = f"usage dr {fired.usage_dr}: " if fired.usage_dr is not None else ""
        if not fired.success:
            text = f"{what}: {usage}failed. " + " ".join(fired.reasons)
        else:
            text = f"{what}: {usage}fired; {' '.join(fired.reasons)}."      # the drift in words
            if fired.end:
                text = text.replace(f"ends in {fired.end}", f"ends in <b>{fired.end}</b>")
        self.result.setText(text)
        self._fired_step = self.document.undo_stack.index()

    def _undone(self, index: int) -> None:
        """Ctrl+Z took the shown roll back: the result no longer holds (another file too)."""
        if self._fired_step >= 0 and index < self._fired_step:
            self._fired_step = -1
            self.result.clear()
