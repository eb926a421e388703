"""The Napoleonic fire room (``format: "starshell-fire"``): see ``window``."""
from .window import FireWindow, open_window, save_screenshot

__all__ = ["FireWindow", "open_window", "save_screenshot"]
