"""The position's terrain SSRs in the Map panel (rules.md 11.2): for the whole map or one board,
in a player's words (``engine.api.ssr``), with VASL's season presets.  Each change is one undo
step of the Document (``api.night.with_ssr``); LOS and the boards' pictures follow at once.  A
rule Starshell does not apply is named here and in the status bar, never dropped."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine import api

WHOLE_MAP = -1                  # the scope combo's data for the scenario's own rules


def rules_of(scenario: api.night.Scenario, index: int) -> tuple[str, ...]:
    """The rule names of a scope: the whole map's (``WHOLE_MAP``) or map slot ``index``'s."""
    return tuple(scenario.ssr) if index == WHOLE_MAP else tuple(scenario.map_entries[index].ssr)


def rules_words(names) -> str:
    """"Orchards out of season, No grain (grain is open ground)"; "" for none."""
    return ", ".join(api.ssr.in_words(n) for n in names)


def not_applied_words(scenario: api.night.Scenario) -> str:
    """"SSR not applied: Foo, Bar" for every rule of the position Starshell does not apply
    (the whole map's and each board's), or ""."""
    names = list(scenario.ssr) + [n for e in scenario.map_entries for n in e.ssr]
    missing = api.ssr.not_applied(names)
    return f"SSR not applied: {', '.join(missing)}" if missing else ""


def set_rules(editor, names, index: int = WHOLE_MAP) -> bool:
    """The scope's rules made ``names``: one undo step; a refusal is told to the player."""
    d = editor.document
    s = d.scenario
    names = tuple(names)
    if names == rules_of(s, index):
        return True
    where = "the map" if index == WHOLE_MAP else f"board {s.map.placements[index].board.id}"
    try:
        result = d.call(api.night.with_ssr, s, names, None if index == WHOLE_MAP else index)
    except api.ScenarioError as e:
        editor.failed.emit("Cannot set the SSRs", str(e))
        return False
    text = f"SSRs of {where}: {rules_words(names) or 'none'}"
    d.edit(result.scenario, text)
    missing = not_applied_words(d.scenario)
    editor.tell(text + " (Ctrl+Z: undo)" + (f" \u2013 {missing}" if missing else ""))
    editor.report("SSRs set", result.report)
    return True


class SsrPanel(QWidget):
    """Scope (whole map or a board), its rules in words, add / remove, season presets."""

    def __init__(self, editor, parent=None):
        super().__init__(parent)
        self.editor = editor
        self.scope = QComboBox()
        self.scope.setObjectName("ssr_scope")
        self.scope.currentIndexChanged.connect(lambda _k: self._show_rules())
        self.rules = QListWidget()
        self.rules.setObjectName("ssr_rules")
        self.rules.setMaximumHeight(80)
        self.choice = QComboBox()
        self.choice.setObjectName("ssr_choice")
        for name, words in api.ssr.choices():
            self.choice.addItem(words, name)
            self.choice.setItemData(self.choice.count() - 1, api.ssr.describe(name),
                                    Qt.ItemDataRole.ToolTipRole)
        add = QPushButton("Add rule")
        add.clicked.connect(lambda: self.add(self.choice.currentData()))
        remove = QPushButton("Remove rule")
        remove.clicked.connect(self.remove_current)
        self.month = QComboBox()
        self.month.setObjectName("ssr_month")
        for k, month in enumerate(api.ssr.MONTHS, start=1):
            self.month.addItem(month, k)
        self.ground = QComboBox()
        self.ground.setObjectName("ssr_ground")
        for ground in api.ssr.GROUND:
            self.ground.addItem(ground or "no snow", ground)
        preset = QPushButton("Season preset")
        preset.setToolTip("VASL's rules for the month and ground: November to March orchards "
                          "out of season, October to March no grain, April and May plowed "
                          "fields; snow: no grain, marsh is open ground; deep snow: brush too")
        preset.clicked.connect(lambda: self.apply_preset(self.month.currentData(),
                                                         self.ground.currentData()))
        self.missing = QLabel()
        self.missing.setObjectName("ssr_not_applied")
        self.missing.setWordWrap(True)
        self.missing.setStyleSheet("color: #b00020")
        grid = QGridLayout()
        grid.addWidget(self.choice, 0, 0, 1, 2)
        grid.addWidget(add, 1, 0)
        grid.addWidget(remove, 1, 1)
        grid.addWidget(self.month, 2, 0)
        grid.addWidget(self.ground, 2, 1)
        grid.addWidget(preset, 3, 0, 1, 2)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(QLabel("<b>Terrain SSRs</b> (VASL's rules, applied to LOS and the picture)"))
        box.addWidget(self.scope)
        box.addWidget(self.rules)
        box.addLayout(grid)
        box.addWidget(self.missing)
        self._told = ""                 # the not-applied sentence last told the status bar
        editor.document.changed.connect(self.refresh)
        editor.document.fileChanged.connect(self._scope_with_rules)
        self.refresh(tell=False)
        self._scope_with_rules()
        QTimer.singleShot(0, self, self.refresh)   # once the window listens (if still there)

    @property
    def index(self) -> int:
        k = self.scope.currentData()
        return WHOLE_MAP if k is None else int(k)

    def refresh(self, tell: bool = True) -> None:
        s = self.editor.document.scenario
        keep = self.index
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItem("Whole map", WHOLE_MAP)
        for k, p in enumerate(s.map.placements):
            self.scope.addItem(f"Board {p.board.id} only", k)
        found = self.scope.findData(keep)
        self.scope.setCurrentIndex(max(found, 0))
        self.scope.blockSignals(False)
        self._show_rules()
        text = not_applied_words(s)
        self.missing.setText(text)
        self.missing.setVisible(bool(text))
        if tell:
            if text and text != self._told:
                self.editor.tell(text)
            self._told = text

    def _scope_with_rules(self) -> None:
        """Another file: the scope that has rules (a VASL save's are each board's)."""
        s = self.editor.document.scenario
        if self.index < len(s.map_entries) and rules_of(s, self.index):
            return                      # the scope shown has rules: it stays
        if not s.ssr:
            k = next((k for k, e in enumerate(s.map_entries) if e.ssr), None)
            if k is not None:
                self.scope.setCurrentIndex(max(self.scope.findData(k), 0))
                return
        self.scope.setCurrentIndex(0)

    def _show_rules(self) -> None:
        names = rules_of(self.editor.document.scenario, self.index)
        unknown = set(api.ssr.not_applied(names))
        self.rules.clear()
        for n in names:
            words = api.ssr.in_words(n) + (" \u2013 not applied" if n in unknown else "")
            item = QListWidgetItem(words)
            item.setData(Qt.ItemDataRole.UserRole, n)
            item.setToolTip(api.ssr.describe(n))
            self.rules.addItem(item)

    def add(self, name: str) -> bool:
        names = rules_of(self.editor.document.scenario, self.index)
        if name in names:
            return True
        return set_rules(self.editor, names + (name,), self.index)

    def remove_current(self) -> bool:
        item = self.rules.currentItem()
        if item is None:
            return False
        name = item.data(Qt.ItemDataRole.UserRole)
        names = rules_of(self.editor.document.scenario, self.index)
        return set_rules(self.editor, tuple(n for n in names if n != name), self.index)

    def apply_preset(self, month: int, ground: str = "") -> bool:
        """VASL's season rules added to the scope's (rules.md 11.2), the others kept."""
        names = rules_of(self.editor.document.scenario, self.index)
        more = tuple(n for n in api.ssr.preset(month, ground) if n not in names)
        return set_rules(self.editor, names + more, self.index)
