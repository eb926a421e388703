"""Errors that name the file, the place in it and the problem (SPEC.md)."""
from __future__ import annotations

import json
from typing import Any

SHOWN_CHARS = 60       # a value quoted in a message is cut to about this many characters


def shown(value: Any, limit: int = SHOWN_CHARS) -> str:
    """A value as a file writes it (JSON: ``true``, ``["T"]``, ``null``), cut to about ``limit``
    characters, for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text)} characters)"
    return text


def _printable(text) -> str:
    """A file name or place as one printable line: a NUL or a line break in a name cannot
    forge another line of the message (``\\n``, ``\\x00`` instead)."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class ScenarioError(ValueError):
    """Bad input: a malformed board or scenario file, an unknown hex or unit, an impossible state.

    ``str(err)`` reads ``FILE: PLACE: PROBLEM`` (the parts that are known).
    """

    def __init__(self, problem: str, file: str | None = None, place: str | None = None):
        self.problem = problem
        self.file = file
        self.place = place
        super().__init__(self.message)

    @property
    def message(self) -> str:
        parts = [_printable(p) for p in (self.file, self.place) if p]
        return ": ".join(parts + [self.problem])

    def __str__(self) -> str:  # keep in sync when file/place are filled in later
        return self.message

    def at(self, file: str | None = None, place: str | None = None) -> "ScenarioError":
        """A copy with the file and/or an outer place filled in."""
        new_place = self.place
        if place:
            new_place = place + ("." + self.place if self.place and not self.place.startswith("[")
                                 else (self.place or ""))
        return ScenarioError(self.problem, file or self.file, new_place)
