"""The Napoleonic fire room's window: the map, the computation panel, rolls, undo, save, PNG.

Click a hex holding units: it becomes the target.  Firers with LOS are outlined (yellow: they
fire; grey dashes: left out), the others dimmed with the reason on hover; click a firer to
leave it out or add it.  The panel shows the computation step by step and the chance of every
result; a roll (the computer's or the dice typed in) records the attack, undoably."""
from __future__ import annotations

import html
import random
import weakref
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QColor, QImage, QKeySequence, QPainter, QPen, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import hex_geometry as geometry
from engine import api

from .. import style
from ..file_filters import FIRE_FILTER
from ..room_window import close_event, edit_menu, open_elsewhere
from .scene import COUNTED, FireScene

nap = api.napoleonic


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


class PositionCommand(QUndoCommand):
    """One change of the position (a recorded attack, a new segment): undo puts the old back.
    It holds the window weakly (``weakref.proxy``): the window's undo stack owns it, and a strong
    reference back would be a cycle through Qt's ownership (see app.night.document)."""

    def __init__(self, window: "FireWindow", before, after, text: str, note: str = ""):
        super().__init__(text)
        self.window, self.before, self.after, self.note = window, before, after, note

    def redo(self) -> None:
        self.window.set_position(self.after, self.note)

    def undo(self) -> None:
        self.window.set_position(self.before, "")


class MapView(QGraphicsView):
    clicked = Signal(QPointF)

    def __init__(self, scene):
        super().__init__(scene)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        super().mousePressEvent(event)

    def wheelEvent(self, event) -> None:
        f = 1.15 if event.angleDelta().y() > 0 else 1 / 1.15
        self.scale(f, f)

    def fit(self) -> None:
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit()


class FireWindow(QMainWindow):
    def __init__(self, pos, path: str | None = None, dice=None, *, open_other=None):
        super().__init__()
        self.open_other = open_other        # the door to every room (``app.rooms``)
        self.pos = pos
        self.path = path
        self.target: str | None = None
        self.choice: dict[str, bool] = {}          # firers toggled in (True) or out (False)
        self.assessment = None
        self.note = ""
        self.dice = dice or (lambda: (random.randint(1, 6), random.randint(1, 6)))
        self.undo = QUndoStack(self)
        self.undo.cleanChanged.connect(self._clean_changed)
        self.scene = FireScene(pos)
        self.view = MapView(self.scene)
        self.view.clicked.connect(self.click)
        self.text = QTextBrowser()
        self.chart = OutcomeChart()
        self.kind = QComboBox()
        self.kind.addItems(list(nap.KINDS))
        self.kind.setToolTip("intentional fire, or bouncing roundshot (18.9) / howitzer scatter "
                             "(18.15), which may hit an attacked hex again")
        self.kind.currentTextChanged.connect(lambda _: self.refresh())
        self.segment = QComboBox()
        self.segment.addItems(list(nap.SEGMENTS))
        self.segment.setCurrentText(pos.segment)
        self.segment.currentTextChanged.connect(self.set_segment)
        self.tens, self.units = QSpinBox(), QSpinBox()
        for sb in (self.tens, self.units):
            sb.setRange(1, 6)
        self.roll_typed = QPushButton("Roll these dice")
        self.roll_typed.clicked.connect(lambda: self.roll((self.tens.value(), self.units.value())))
        self.roll_computer = QPushButton("Computer rolls")
        self.roll_computer.clicked.connect(lambda: self.roll(None))
        self.result = QLabel("")
        self.result.setWordWrap(True)
        side = QWidget()
        lay = QVBoxLayout(side)
        row = QHBoxLayout()
        row.addWidget(QLabel("Segment"))
        row.addWidget(self.segment)
        row.addWidget(QLabel("Fire"))
        row.addWidget(self.kind)
        lay.addLayout(row)
        lay.addWidget(self.text, 3)
        lay.addWidget(QLabel("Results of the column (chance in 36ths)"))
        lay.addWidget(self.chart, 1)
        dice = QHBoxLayout()
        dice.addWidget(QLabel("Dice (tens, units)"))
        dice.addWidget(self.tens)
        dice.addWidget(self.units)
        dice.addWidget(self.roll_typed)
        dice.addWidget(self.roll_computer)
        lay.addLayout(dice)
        lay.addWidget(self.result)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.setCentralWidget(split)
        self._menus()
        self.resize(1400, 820)
        self._title()
        self.refresh()

    # ------------------------------------------------------------------ menus and files
    def _menus(self) -> None:
        def act(menu, text, slot, key=None):
            a = QAction(text, self)
            if key is not None:
                a.setShortcut(key)
            a.triggered.connect(slot)
            menu.addAction(a)
            return a
        f = self.menuBar().addMenu("&File")
        act(f, "&Open...", self.open_file, QKeySequence.StandardKey.Open)
        act(f, "&Save", self.save, QKeySequence.StandardKey.Save)
        act(f, "Save &as...", self.save_as, QKeySequence.StandardKey.SaveAs)
        act(f, "&Export PNG...", self.export_dialog, QKeySequence("Ctrl+E"))
        act(f, "&Close", self.close, QKeySequence.StandardKey.Close)
        edit_menu(self, self.undo)
        t = self.menuBar().addMenu("F&ire")
        act(t, "Computer &rolls", lambda: self.roll(None), QKeySequence("R"))
        act(t, "Clear the &target", lambda: self.set_target(None), QKeySequence("Esc"))

    def _clean_changed(self, _clean: bool) -> None:
        self._title()

    def _title(self) -> None:
        name = Path(self.path).name if self.path else "untitled"
        star = "" if self.undo.isClean() else " *"
        self.setWindowTitle(f"{name}{star} - {self.pos.title} - Starshell fire")

    def open_file(self) -> None:
        open_elsewhere(self, str(Path(self.path or ".").parent))

    def save(self) -> bool:
        if not self.path:
            return self.save_as()
        return self._write(self.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save the position", self.path or "fire.json",
                                              FIRE_FILTER)
        return bool(path) and self._write(path)

    def _write(self, path: str) -> bool:
        try:
            nap.save_position(self.pos, path)
        except (api.ScenarioError, OSError) as e:
            QMessageBox.critical(self, "Save", str(e))
            return False
        self.path = path
        self.undo.setClean()
        self._title()
        return True

    def export_dialog(self) -> None:
        start = str(Path(self.path).with_suffix(".png")) if self.path else "fire.png"  # beside it
        path, _ = QFileDialog.getSaveFileName(self, "Export PNG", start, "PNG (*.png)")
        if path:
            self.export_png(path)

    def export_png(self, path: str, width: int = 1600) -> bool:
        """The whole map as the view shows it (target, firers, lines), width pixels wide."""
        rect = self.scene.sceneRect()
        height = max(1, round(width * rect.height() / rect.width()))
        img = QImage(width, height, QImage.Format.Format_ARGB32)
        img.fill(style.BACKGROUND)
        p = QPainter(img)
        self.scene.render(p, QRectF(0, 0, width, height), rect)
        p.end()
        return img.save(path)

    def closeEvent(self, event) -> None:
        close_event(self, event, self.undo.isClean(), "Unsaved attacks",
                    "Save the position before closing?", self.save)

    # ------------------------------------------------------------------ the attack
    def click(self, point: QPointF) -> None:
        if self.target is not None:
            candidates = {f.id for f in self._candidates().firers}
            for item in self.scene.items(point):
                uid = getattr(getattr(item, "unit", None), "id", None)
                if uid in candidates:
                    self.toggle(uid)
                    return
        i = geometry.hex_at(self.pos.map, point)
        hex_id = self.pos.map.names[i] if i >= 0 else None
        self.set_target(hex_id if hex_id and self.pos.units_in(hex_id) else None)

    def set_target(self, hex_id: str | None) -> None:
        if hex_id != self.target:
            self.choice = {}
        self.target = hex_id
        self.refresh()

    def toggle(self, uid: str) -> None:
        """A firer in or out of the attack; a unit without LOS stays out (RULES.md 8)."""
        f = next(f for f in self._candidates().firers if f.id == uid)
        if not (f.can_fire and f.los):
            self.result.setText(f"{uid} cannot fire at {self.target}: {'; '.join(f.reasons)}")
            return
        self.choice[uid] = not self.choice.get(uid, f.counted)
        self.refresh()

    def _candidates(self):
        return nap.assess(self.pos, self.target, kind=self.kind.currentText())

    def firers(self) -> list[str]:
        """The units that fire: the engine's choice, with the player's toggles."""
        base = self._candidates()
        return [f.id for f in base.firers if f.can_fire and f.los and self.choice.get(f.id, f.counted)]

    def compute(self, dice=None):
        if self.target is None:
            return None
        chosen = self.firers()
        if not chosen:
            a = self._candidates()
            for f in a.firers:
                f.counted = False
            a.fire = 0
            a.allowed = False
            a.column, a.outcomes, a.ratio = None, {}, None
            a.reasons = ["no firer chosen: click a unit outlined in grey to add it"]
            return a
        return nap.assess(self.pos, self.target, chosen, dice, self.kind.currentText())

    def refresh(self) -> None:
        try:
            a = self.assessment = self.compute()
            base = self._candidates() if a is not None else None
        except api.ScenarioError as e:        # a chart pack without a row for this hex
            self.assessment = None
            self.scene.show_assessment(None, None, self.choice)
            self.text.setHtml(f"<p style='color:#ff7a6a'>{html.escape(str(e))}</p>")
            self.chart.set_outcomes({})
            self.roll_typed.setEnabled(False)
            self.roll_computer.setEnabled(False)
            return
        view_a = a
        if a is not None and base is not None:
            # every candidate is shown (dimmed when it cannot fire), even those left out
            counted = {f.id for f in a.firers if f.counted}
            for f in base.firers:
                f.counted = f.id in counted
            view_a = base
        self.scene.show_assessment(self.target, view_a, self.choice)
        self.text.setHtml(self._html(a, view_a))
        self.chart.set_outcomes(a.outcomes if a is not None else {}, None)
        able = a is not None and a.allowed
        self.roll_typed.setEnabled(able)
        self.roll_computer.setEnabled(able)
        self.result.setText(self.note)

    def roll(self, dice) -> None:
        if self.target is None:
            return
        dice = dice or self.dice()
        a = self.compute(dice)
        if a is None or not a.allowed:
            self.result.setText("refused: " + "; ".join(a.reasons if a else []))
            return
        before, shown = self.pos, self._candidates()
        counted = {f.id for f in a.firers if f.counted}
        for f in shown.firers:
            f.counted = f.id in counted
        after = nap.record_attack(self.pos, a)
        res = a.result if a.result else "no effect"
        note = (f"{a.target}: {', '.join(f.id for f in a.counted())} fire {nap.fmt(a.fire)} at "
                f"{a.column}; dice {a.roll}, {'+' if a.drm >= 0 else ''}{a.drm} -> {a.modified}: {res}")
        self.undo.push(PositionCommand(weakref.proxy(self), self.pos, after,
                                       f"fire at {a.target}", note))
        # the panel shows the attack just rolled, as the bars do (not the next one, refused)
        nxt = self.assessment               # the next attack on it, as refresh found it
        self.text.setHtml(self._html(a, shown, before, rolled=note,
                                     now=None if nxt is None or nxt.allowed else nxt.reasons))
        self.chart.set_outcomes(a.outcomes, a.result)

    def set_segment(self, segment: str) -> None:
        if segment == self.pos.segment:
            return
        from dataclasses import replace
        # a new segment: no hex has been attacked in it yet
        after = replace(self.pos, segment=segment, attacked=())
        self.undo.push(PositionCommand(weakref.proxy(self), self.pos, after, f"{segment} segment"))

    def set_position(self, pos, note: str) -> None:
        self.pos = pos
        self.note = note
        self.scene.set_position(pos)
        if self.segment.currentText() != pos.segment:
            self.segment.blockSignals(True)
            self.segment.setCurrentText(pos.segment)
            self.segment.blockSignals(False)
        self.refresh()
        self._title()

    # ------------------------------------------------------------------ the panel
    def _html(self, a, shown, pos=None, rolled: str | None = None, now=None) -> str:
        """The panel: attack ``a`` on ``pos`` (the window's own by default); ``rolled``: the
        roll just made with it, said instead of whether it may be made; ``now``: why another
        attack is refused after it."""
        e = html.escape
        pos = pos or self.pos
        head = (f"<b>{e(pos.title)}</b><br>charts: {e(pos.charts.title)}<br>segment: {e(pos.segment)}"
                f"{', first fire rule on' if pos.first_fire else ''}; attacked this segment: "
                f"{e(', '.join(pos.attacked) or 'none')}")
        if a is None:
            return head + "<p>Click a hex holding units to make it the target.</p>"
        m = pos.map
        out = [head, f"<h3>1. Target {e(a.target)} ({e(m.terrain_name(m.index(a.target)))}, level "
               f"{int(m.level[m.index(a.target)])})</h3>"]
        out.append("<h3>2. Firers</h3><table cellspacing=4>")
        for f in shown.firers:
            mark = "fires" if f.counted else ("cannot combine" if f.can_fire and f.los and not f.combines
                                              else "left out" if f.can_fire and f.los else "cannot")
            colour = "#ffd84a" if f.counted else ("#c0c6d0" if f.can_fire and f.los else "#7d8594")
            value = nap.fmt(f.value) if f.can_fire else "-"
            out.append(f"<tr><td style='color:{colour}'><b>{e(f.id)}</b> {mark}</td><td>{e(value)}</td>"
                       f"<td>{e(f.how)}</td><td>LOS {'yes' if f.los else 'no'}</td></tr>")
            details = f.steps + f.reasons
            lines = "<br>".join(e(s) for s in details)
            out.append(f"<tr><td></td><td colspan=3 style='color:#9aa3b5'>{lines}</td></tr>")
        out.append("</table>")
        out.append(f"<h3>3. Total fire {e(nap.fmt(a.fire))}</h3>")
        if a.defence is not None:
            out.append(f"<h3>4. Defence {e(nap.fmt(a.defence))}</h3><p>{e(a.defence_how)}</p>")
        if a.ratio is not None:
            out.append(f"<h3>5. Odds {e(nap.fmt(a.fire))} : {e(nap.fmt(a.defence))} = "
                       f"{float(a.ratio):.3f} : 1 -> column {e(a.column or 'none')}</h3>")
        if a.column:
            drms = "".join(f"<li>{e(w)}: {d:+d}</li>" for w, d in a.drms) or "<li>none</li>"
            out.append(f"<h3>6. Dice modifiers {a.drm:+d}</h3><ul>{drms}</ul>")
            rows = "".join(f"<li>{e(r or 'no effect')}: {int(p * 36)}/36</li>" for r, p in a.outcomes.items())
            out.append(f"<h3>7. Results</h3><ul>{rows}</ul>")
        reasons = "<br>".join(e(r) for r in a.reasons)
        verdict = ("<p style='color:#9be28a'><b>The attack may be made.</b></p>" if a.allowed else
                   f"<p style='color:#ff7a6a'><b>Refused:</b> {reasons}</p>")
        if a.allowed and a.reasons:
            verdict += f"<p>{reasons}</p>"
        if rolled is not None:
            verdict = f"<p style='color:#ffd84a'><b>Rolled:</b> {e(rolled)} (Ctrl+Z takes it back)</p>"
            if now:
                verdict += (f"<p style='color:#ff7a6a'><b>Another attack now refused:</b> "
                            f"{'<br>'.join(e(r) for r in now)}</p>")
        out.append(verdict)
        return "".join(out)


def open_window(path: str, *, select: str | None = None, recover: bool = False,
                open_other=None) -> FireWindow:
    """A window on the fire position ``path`` (raises api.ScenarioError naming file and place);
    ``open_other``: how File > Open reaches the other rooms.  ``select`` and ``recover`` are
    the door's: this room opens on no target and keeps no autosave."""
    pos = nap.load_position(path)
    return FireWindow(pos, path, open_other=open_other)


def save_screenshot(path: str, out: str, width: int, height: int,
                    select: str | None = None) -> None:
    """The window on ``path`` rendered headless to exactly width x height pixels; ``select``: a
    target hex (or a unit, whose hex is the target)."""
    w = open_window(path)
    if select:
        pos = w.pos
        try:
            hex_id = pos.map.canonical(select)
        except api.HexIdError:
            hex_id = pos.unit(select).hex
        w.set_target(hex_id)
    w.resize(width, height)
    w.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    w.show()
    w.view.fit()
    img = w.grab().toImage()
    if img.width() != width or img.height() != height:
        img = img.scaled(width, height, Qt.AspectRatioMode.IgnoreAspectRatio,
                         Qt.TransformationMode.SmoothTransformation)
    w.close()
    if not img.save(out):
        raise OSError(f"cannot write {out}")
