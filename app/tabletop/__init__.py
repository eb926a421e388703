"""The tabletop room (``format: "starshell-table"``): DBA 3.0 element shooting, see ``window``."""
from engine import api

from .document import Document
from .window import TableWindow, open_recovered, open_window, save_screenshot

FORMAT = api.tabletop.FORMAT

__all__ = ["FORMAT", "Document", "TableWindow", "open_recovered", "open_window", "save_screenshot"]
