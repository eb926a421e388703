"""The Napoleonic fire room (``format: "starshell-fire"``): see ``window``."""
from .window import FireWindow, open_window, save_screenshot

FORMAT = "starshell-fire"

__all__ = ["FORMAT", "FireWindow", "open_window", "save_screenshot"]
