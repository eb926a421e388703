"""The file dialogs' filters of every room (what kind of file a path names is
``app.file_kinds``').  A leaf: no other module of the app is imported here."""
from __future__ import annotations

POSITION_FILTER = "Starshell scenarios (*.json);;All files (*)"  # a night position
BOARD_FILTER = "Starshell boards (*.json);;All files (*)"
# File > New: a board file, or a VASL board archive (offered to import)
NEW_BOARD_FILTER = ("Boards: Starshell's and VASL's (*.json bd*);;Starshell boards (*.json);;"
                    "VASL boards (bd*);;All files (*)")
IMAGE_FILTER = "Images (*.png *.jpg *.jpeg *.gif *.bmp *.tif *.tiff *.webp);;All files (*)"
VASL_BOARD_FILTER = "VASL boards (bd*);;All files (*)"
VSAV_FILTER = "VASL saved games (*.vsav)"
FIRE_FILTER = "Fire positions (*.json)"
TABLE_FILTER = "Tables (*.json)"
PNG_FILTER = "PNG images (*.png)"
SVG_FILTER = "SVG drawings (*.svg)"
