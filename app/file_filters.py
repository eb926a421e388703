"""The file dialogs' filters of every room, and what kind of file a path names.  A leaf: no
other module of the app is imported here."""
from __future__ import annotations

OPEN_FILTER = "Starshell files (*.json);;All files (*)"          # File > Open of any room
POSITION_FILTER = "Starshell scenarios (*.json);;All files (*)"  # a night position
BOARD_FILTER = "Starshell boards (*.json);;All files (*)"
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.gif *.bmp *.tif *.tiff *.webp);;All files (*)"
VASL_BOARD_FILTER = "VASL boards (bd*);;All files (*)"
VSAV_FILTER = "VASL saved games (*.vsav)"
FIRE_FILTER = "Fire positions (*.json)"
TABLE_FILTER = "Tables (*.json)"
PNG_FILTER = "PNG images (*.png)"


def is_vsav(path) -> bool:
    """A VASL saved game (the night room imports it as a new position)."""
    return str(path).lower().endswith(".vsav")


def open_filter(base: str) -> str:
    """The Open dialog's filter: positions and saved games together first, then ``base``."""
    return f"Positions and VASL saved games (*.json *.vsav);;{VSAV_FILTER};;{base}"
