"""The tabletop room (``format: "starshell-table"``): DBA 3.0 element shooting, see ``window``."""
from .document import Document
from .window import TableWindow, open_recovered, open_window, save_screenshot

FORMAT = "starshell-table"

__all__ = ["FORMAT", "Document", "TableWindow", "open_recovered", "open_window", "save_screenshot"]
