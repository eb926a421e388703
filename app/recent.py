"""Recently opened scenario files, kept in QSettings (most recent first)."""
from __future__ import annotations

import os

from PySide6.QtCore import QSettings

KEY = "recent_files"
LIMIT = 8


class RecentFiles:
    def __init__(self, settings: QSettings):
        self.settings = settings

    def paths(self) -> list[str]:
        value = self.settings.value(KEY, [])
        if isinstance(value, str):          # QSettings gives a lone string for a one-item list
            value = [value]
        return [str(p) for p in value or []]

    def add(self, path: str) -> None:
        path = os.path.abspath(path)
        paths = [p for p in self.paths() if p != path]
        self.settings.setValue(KEY, [path] + paths[:LIMIT - 1])

    def remove(self, path: str) -> None:
        self.settings.setValue(KEY, [p for p in self.paths() if p != path])

    def clear(self) -> None:
        self.settings.setValue(KEY, [])
