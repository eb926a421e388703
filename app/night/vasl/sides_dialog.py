"""Which two sides play: asked when a VASL save holds more than two nationalities.  Each
nationality goes to the first side, the second or neither; by default each is on its usual
side (the engine's ``api.vasl.default_sides``: Germans and Finns Axis, Russians Allied...).  The
engine names the sides ("axis", "allied", or the nationalities when they split otherwise)."""
from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout

from engine import api

CHOICES = ("first side", "second side", "neither (left out)")


class SidesDialog(QDialog):
    def __init__(self, nations: list[str], parent=None):
        super().__init__(parent)
        self.setWindowTitle("The two sides of the game")
        self.nations = list(nations)
        default = api.vasl.default_sides(self.nations)
        intro = QLabel(f"This saved game holds {len(nations)} nationalities. Which side does "
                       "each play on? (By default each plays on its usual side.)")
        intro.setWordWrap(True)
        form = QFormLayout()
        self.combos: dict[str, QComboBox] = {}
        for n in self.nations:
            combo = QComboBox()
            combo.addItems(CHOICES)
            combo.setCurrentIndex(0 if n in default.first else 1 if n in default.second else 2)
            combo.currentIndexChanged.connect(self._check)
            self.combos[n] = combo
            form.addRow(f"{n}:", combo)
        self.said = QLabel()
        self.said.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addLayout(form)
        box.addWidget(self.said)
        box.addWidget(self.buttons)
        self._check()

    def sides(self):
        """The sides chosen (``api.vasl.Sides``), or None while a side has no nationality."""
        first = tuple(n for n in self.nations if self.combos[n].currentIndex() == 0)
        second = tuple(n for n in self.nations if self.combos[n].currentIndex() == 1)
        return api.vasl.Sides(first, second) if first and second else None

    def _check(self) -> None:
        s = self.sides()
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(s is not None)
        self.said.setText(f"Sides: {s.said()}." if s is not None
                          else "Each side needs at least one nationality.")


def choose_sides(window, path: str) -> tuple[bool, object]:
    """(go on, sides) for opening the save ``path``: (True, None) when it holds two
    nationalities or fewer (each on its usual side) or cannot be read here (the reading
    reports why); (True, Sides) as chosen; (False, None) when the player cancels."""
    try:
        nations = api.vasl.save_nations(path)
    except (api.ScenarioError, OSError):
        return True, None
    if len(nations) <= 2:
        return True, None
    dialog = SidesDialog(nations, window)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.sides() is None:
        return False, None
    return True, dialog.sides()
