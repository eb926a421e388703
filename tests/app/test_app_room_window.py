"""Every room's window asks before unsaved work is dropped, the same way: Save writes first (a
failed save keeps the window open), Discard drops, Cancel (and Enter) keep the window open."""
from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from app.napoleonic.window import open_window as open_fire
from app.tabletop.document import Document
from app.tabletop.window import TableWindow

ASSETS = Path(__file__).resolve().parents[2] / "assets"
Button = QMessageBox.StandardButton


def answering(monkeypatch, answer):
    asked = []

    def question(parent, title, text, buttons, default):
        asked.append((title, default))
        return answer
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def table_window(qtbot):
    w = TableWindow(Document.open_file(str(ASSETS / "tables" / "S-01.json")))
    qtbot.addWidget(w)
    w.show()
    w.document.undo_stack.resetClean()            # unsaved work
    return w, "Unsaved table"


def fire_window(qtbot):
    w = open_fire(str(ASSETS / "fire" / "sample.json"))
    qtbot.addWidget(w)
    w.show()
    w.document.undo_stack.resetClean()
    return w, "Unsaved attacks"


@pytest.mark.parametrize("make", [table_window, fire_window], ids=["tabletop", "fire"])
def test_closing_with_unsaved_work_asks_and_keeps_the_window_unless_saved_or_dropped(
        qtbot, monkeypatch, make):
    w, title = make(qtbot)
    saves = []
    monkeypatch.setattr(w, "save", lambda: saves.append(1) or False)   # the save fails
    asked = answering(monkeypatch, Button.Cancel)
    assert not w.close() and w.isVisible()
    assert asked == [(title, Button.Cancel)]                # Enter neither writes nor drops
    answering(monkeypatch, Button.Save)
    assert not w.close() and w.isVisible() and saves == [1]
    monkeypatch.setattr(w, "save", lambda: saves.append(2) or True)
    assert w.close() and saves == [1, 2]


def test_discard_closes_and_a_saved_window_closes_without_asking(qtbot, monkeypatch):
    w, _ = table_window(qtbot)
    answering(monkeypatch, Button.Discard)
    assert w.close()
    w, _ = fire_window(qtbot)
    w.document.undo_stack.setClean()
    asked = answering(monkeypatch, Button.Cancel)
    assert w.close() and asked == []
