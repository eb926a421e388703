"""The Napoleonic fire room (``format: "starshell-fire"``): see ``window``."""
from engine import api

from .document import Document
from .window import FireWindow, open_recovered, open_window, save_screenshot

FORMAT = api.napoleonic.FIRE_FORMAT

__all__ = ["FORMAT", "Document", "FireWindow", "open_recovered", "open_window", "save_screenshot"]
