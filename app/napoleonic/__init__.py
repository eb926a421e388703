"""The Napoleonic fire room (``format: "starshell-fire"``): see ``window``."""
from .document import Document
from .window import FireWindow, open_recovered, open_window, save_screenshot

FORMAT = "starshell-fire"

__all__ = ["FORMAT", "Document", "FireWindow", "open_recovered", "open_window", "save_screenshot"]
