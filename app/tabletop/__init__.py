"""The tabletop room (``format: "starshell-table"``): DBA 3.0 element shooting, see ``window``."""
from .window import TableWindow, open_window, save_screenshot

__all__ = ["TableWindow", "open_window", "save_screenshot"]
