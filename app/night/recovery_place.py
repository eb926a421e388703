"""Where recovery files live (autosave's folder): the shared ``app.recovery``'s.  The board
editor asks it which boards are scratch copies, recovery writes there."""
from __future__ import annotations

from app.recovery import recovery_folder

__all__ = ["recovery_folder"]
