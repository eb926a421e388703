"""What Ctrl+Z and Ctrl+Y did, said in the status bar ("Undone: G1: broken (Ctrl+Y: redo)"),
and said again when a passing sentence that covered it goes ("Working out ...": the answers an
undo asks for)."""
from __future__ import annotations

import time

import shiboken6

SAID_MS = 8000


class UndoWords:
    def __init__(self, say, bar, stack):
        self.say, self.bar, self.stack = say, bar, stack
        self.index = stack.index()
        self.lasting: tuple[str, float] | None = None      # (text, until, monotonic seconds)
        stack.indexChanged.connect(self.moved)
        bar.messageChanged.connect(self.message_changed)

    def moved(self, index: int) -> None:
        if not shiboken6.isValid(self.stack) or not shiboken6.isValid(self.bar):
            return                  # the window going: its stack empties as it is deleted
        stack, last, self.index = self.stack, self.index, index
        if index < last and stack.text(index):
            self.say_lasting(f"Undone: {stack.text(index)} (Ctrl+Y: redo)")
        elif last < index <= stack.count() and stack.text(index - 1):
            self.say_lasting(f"Redone: {stack.text(index - 1)}")

    def say_lasting(self, text: str) -> None:
        self.lasting = (text, time.monotonic() + SAID_MS / 1000)
        self.say(text, SAID_MS)

    def message_changed(self, text: str) -> None:
        """The status bar emptied before the sentence's time: it comes back for the rest."""
        lasting = self.lasting
        if text or lasting is None or not shiboken6.isValid(self.bar):
            return
        self.lasting = None
        left = lasting[1] - time.monotonic()
        if left > 0.5:
            self.say(lasting[0], int(left * 1000))
