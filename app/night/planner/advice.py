"""The best starshell, in the Starshell panel: every legal way the selected unit may fire now,
ranked by the engine (``api.night.advise``, rules.md 10, 11.7): its advice in a sentence (where
to fire, or "Don't fire: no placement helps"), then per row the gain (enemy units newly lit
that a friendly Good Order unit then sees), the engine's sentence on it (the friends it
blinds, E1.101, and what they stop seeing), the enemy units lit and those lit already (E1.9),
the usage dr (E1.921, E1.931); exact over the 36 drift outcomes (E1.922, E1.932).  When the
unit may not fire, the engine's reasons (no E1.91 trigger, its hex's attempt used, a hero, a
BU AFV), as the command line gives them.  A click on a row aims the starshell tool
there: its method, and the drift preview of that hex."""
from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import style
from app.hex_geometry import scene_center

from ..starshell.panel import METHOD_NAMES
from ..tools import Spot
from .job import LIT_ENEMIES

ROWS = 40           # rows listed (the map labels the best few)
WHAT = "enemy units newly lit that your units then see"


def chance_words(chance) -> str:
    """A chance as a row says it: "certain", "none", else the fraction ("5/12")."""
    return "certain" if chance == 1 else "none" if chance == 0 else str(chance)


def option_text(rank: int, option, says: str, whole_side: bool = False) -> str:
    """One row: where and how, what it gains (rules.md 11.7), then ``says`` (the engine's
    sentence: what it lights that your units then see, whom it blinds)."""
    o = option
    by = f" ({o.by})" if whole_side else ""
    text = (f"{rank}. {o.at} by {METHOD_NAMES.get(o.method, o.method)}{by}: "
            f"gain {float(o.gain):.2f}\n    {says}\n    ")
    parts = [f"{float(o.expected_enemy_lit):.2f} enemy lit"]
    if o.enemies_lit_now:
        parts.append(f"{o.enemies_lit_now} lit already (E1.9)")
    if o.target is not None:
        parts.append(f"{o.target} lit {chance_words(o.target_lit)}")
    parts.append("no usage dr" if o.usage_dr_max is None
                 else f"usage dr \u2264 {o.usage_dr_max} ({o.usage_dr_max}/6)")
    return text + " \u00b7 ".join(parts)


def option_tip(option) -> str:
    """The row's tooltip: each unit's chance and the engine's reasons."""
    o = option
    lines = [f"{u}: lit {p}" for u, p in o.enemy_lit.items()]
    lines += [f"{u} (friendly, newly lit: blinded, E1.101): {p}"
              for u, p in o.friends_blinded.items()]
    return "\n".join(lines + o.reasons())


class AdviceList(QWidget):
    """The ranked list; ``target`` narrows the ranking to one hex lit (``target:HEX``)."""

    def __init__(self, document, planner, starshell, parent=None):
        super().__init__(parent)
        self.document, self.planner, self.starshell = document, planner, starshell
        self.title = QLabel("<b>Best starshell now</b> (exact over the 36 drift outcomes)")
        self.target = QLineEdit()
        self.target.setObjectName("advice_target")
        self.target.setPlaceholderText("target hex (blank: the most enemy units newly lit and seen)")
        self.target.editingFinished.connect(self._target_changed)
        self.whole_side = QCheckBox("every qualified unit of its side (one roller a hex, W-21)")
        self.whole_side.setObjectName("advice_side")
        self.whole_side.toggled.connect(planner.set_whole_side)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.stop = QPushButton("Cancel")           # stops the engine's steps (app.jobs)
        self.stop.setObjectName("advice_cancel")
        self.stop.setToolTip("Stop working out the best starshells (a large position takes a "
                             "while); asked again when the position or the question changes")
        self.stop.clicked.connect(lambda: planner.cancel("advice"))
        self.stop.hide()
        self.list = QListWidget()
        self.list.setObjectName("advice")
        self.list.setMinimumHeight(180)
        self.list.setWordWrap(True)
        self.list.itemClicked.connect(self.aim)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        for w in (self.title, self.target, self.whole_side, self.status, self.stop, self.list):
            box.addWidget(w)
        planner.adviceChanged.connect(self.show_advice)
        planner.workingChanged.connect(self.show_advice)
        self.show_advice()

    def _target_changed(self) -> None:
        text = self.target.text().strip()
        self.planner.set_objective(f"target:{text}" if text else LIT_ENEMIES)

    def show_advice(self) -> None:
        p, dim = self.planner, style.TEXT_DIM
        self.list.clear()
        self.stop.setVisible("advice" in p.working)
        if "advice" in p.working:
            self.status.setText(f"<i>Working out the best starshells for {escape(self.document.viewer or '')}"
                                "\u2026</i>")
            return
        if not p.advising:
            self.status.setText(f"<span style='color:{dim}'>Turn on the starshell tool (S): every "
                                "legal placement of the selected unit, ranked.</span>")
            return
        if p.advice_error is not None:
            self.status.setText(f"<span style='color:#ff8080'>{escape(p.advice_error)}</span>")
            return
        a = p.advice
        if a is None:
            self.status.setText(f"<span style='color:{dim}'>Select the unit that fires.</span>")
            return
        if not a.options:            # the engine's reasons, as the command line gives them
            self.status.setText(f"{escape(a.unit or a.side)} may fire no starshell or IR now:"
                                + "".join(f"<br>\u2022 {escape(r, quote=False)}" for r in a.reasons))
            return
        n = len(a.options)
        self.status.setText(f"<b>{escape(a.sentence, quote=False)}</b><br>"
                            f"{n} way{'s' if n != 1 else ''} to fire, best first "
                            f"({WHAT if a.objective == LIT_ENEMIES else escape(a.objective)}"
                            "); only one starshell attempt per hex this phase (E1.92). "
                            "Click one to aim there."
                            + ("".join(f"<br>{escape(r)}" for r in a.reasons) if a.unit is None
                               else ""))
        for rank, o in enumerate(a.options[:ROWS], start=1):
            item = QListWidgetItem(option_text(rank, o, a.says(o), a.unit is None))
            item.setToolTip(option_tip(o))
            item.setData(Qt.ItemDataRole.UserRole, rank - 1)
            self.list.addItem(item)
        if n > ROWS:
            more = QListWidgetItem(f"\u2026 and {n - ROWS} more")
            more.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(more)

    def aim(self, item: QListWidgetItem) -> None:
        """The starshell tool aims where row ``item`` says: its method, its hex's preview."""
        k = item.data(Qt.ItemDataRole.UserRole)
        a = self.planner.advice
        if k is None or a is None or not self.starshell.on:
            return
        o = a.options[k]
        if o.by != self.document.viewer:
            self.document.select(o.by)          # the unit that fires it is the one selected
        m = self.starshell.scene.map
        if not m.has(o.at):
            return
        i = m.index(o.at)
        self.starshell.set_method(o.method)
        centre = scene_center(m, i)
        self.starshell.hover(Spot(i, centre))
        for view in self.starshell.scene.views()[:1]:
            view.ensureVisible(centre.x() - 1, centre.y() - 1, 2, 2, 80, 80)
