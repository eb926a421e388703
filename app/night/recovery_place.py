"""Where recovery files live (autosave's folder).  A leaf: the board editor asks it which
boards are scratch copies, recovery writes there."""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths


def recovery_folder() -> Path:
    """Where recovery files live: ``STARSHELL_RECOVERY_DIR`` or the user's app data folder."""
    env = os.environ.get("STARSHELL_RECOVERY_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".starshell") / "recovery"
