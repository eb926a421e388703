"""The owner spreads an attack's losses over the units of the hex (rules.md 10: the increments
lost, taken from the units of the defender's side in the hex; not its leaders).  By default all
from the top unit (then the next, as far as it has increments); OK only when they add up."""
from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
)

from engine import api

nap = api.napoleonic


class LossesDialog(QDialog):
    """Who loses the ``lost`` increments of the attack on ``defender``'s hex: a box per unit
    that may; ``spread()`` the owner's choice."""

    def __init__(self, pos, defender: str, result: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Spread the losses")
        self.pos = pos
        takers = nap.loss_takers(pos, defender)
        lost, _ = nap.parse_result(result)
        self.due = min(lost, sum(pos.unit(u).increments for u in takers))
        hex_id = pos.unit(defender).hex
        lay = QVBoxLayout(self)
        head = QLabel(f"{hex_id}: {nap.result_words(result)}. Who loses "
                      f"{'it' if self.due == 1 else 'them'}? The owner chooses (by default the "
                      f"unit on top, {defender}).")
        head.setWordWrap(True)
        lay.addWidget(head)
        form = QFormLayout()
        self.boxes: dict[str, QSpinBox] = {}
        default = self.default = nap.default_spread(pos, defender, lost)
        for uid in takers:
            u = pos.unit(uid)
            box = QSpinBox()
            box.setRange(0, u.increments)
            box.setValue(default.get(uid, 0))
            box.setSuffix(f" of {u.increments}")
            box.valueChanged.connect(self._check)
            name = u.extra.get("name")
            form.addRow(f"{uid}{f' ({name})' if name else ''}, {u.formation.replace('_', ' ')}", box)
            self.boxes[uid] = box
        lay.addLayout(form)
        self.left = QLabel("")
        lay.addWidget(self.left)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        lay.addWidget(self.buttons)
        self._check()

    def spread(self) -> dict[str, int]:
        return {uid: box.value() for uid, box in self.boxes.items() if box.value()}

    def _check(self) -> None:
        named = sum(b.value() for b in self.boxes.values())
        ok = named == self.due
        self.left.setText("they add up" if ok else f"{named} of {self.due} named: "
                          f"{'take some back' if named > self.due else 'name the rest'}")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def reject(self) -> None:          # Esc or the window's close: the default spread stands
        for uid, box in self.boxes.items():
            box.blockSignals(True)
            box.setValue(self.default.get(uid, 0))
        super().reject()
