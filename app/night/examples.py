"""The bundled positions (the default one and the worked examples W-01..W-21) are read-only:
File > Open worked example opens one, Save then asks for a new name, and no dialog starts in
the bundled folder (the player's documents folder instead)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QStandardPaths

from engine import api

MAX_TITLE_BYTES = 64 * 1024          # only the start of a bundled file is read for its title


def bundled_folder() -> Path:
    return (api.assets_dir() / "scenarios").resolve()


def is_bundled(path) -> bool:
    """True for a file of the bundled assets (saving over it would change the program)."""
    if path is None:
        return False
    try:
        return Path(path).resolve().is_relative_to(api.assets_dir().resolve())
    except (OSError, ValueError):
        return False


def documents_folder() -> str:
    """The user's documents folder, or the home folder when it does not exist (a file dialog
    started in a missing folder opens in the current one instead, often the program's own)."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return docs if docs and os.path.isdir(docs) else os.path.expanduser("~")


def save_as_start(path) -> str:
    """Where Save As starts: beside the position's own file, or for a bundled example (or a
    position never saved) in the documents folder."""
    if path is None:
        return os.path.join(documents_folder(), "position.json")
    if is_bundled(path):
        return os.path.join(documents_folder(), os.path.basename(path))
    return str(path)


# the other rooms' bundled examples, each in a submenu of its own (they open in their room)
OTHER_ROOMS = (("&Napoleonic fire room", "fire"), ("&DBA 3.0 tabletop room", "tables"))


def worked_examples(folder: Path | None = None) -> list[tuple[str, Path]]:
    """(menu text, path) of each bundled position of ``folder`` (the night room's by default):
    the default one first, then W-01.. in order."""
    folder = bundled_folder() if folder is None else folder
    files = sorted(folder.glob("*.json"), key=lambda p: (p.stem != "default", p.stem))
    out = []
    for p in files:
        title = p.stem
        try:
            with open(p, "rb") as f:
                head = f.read(MAX_TITLE_BYTES)
            title = json.loads(head).get("title") or p.stem
        except (OSError, ValueError, AttributeError):
            pass                # a title is a nicety: the file name will do
        out.append((title, p))
    return out


def fill_menu(menu, open_path) -> None:
    """``menu``: one entry per bundled position, calling ``open_path(str path)``; the other
    rooms' examples in a submenu each."""
    menu.clear()

    def fill(into, examples):
        for title, path in examples:
            a = into.addAction(title.replace("&", "&&"))
            a.triggered.connect(lambda _=False, p=str(path): open_path(p))
    fill(menu, worked_examples())
    menu.addSeparator()
    for text, folder in OTHER_ROOMS:
        found = worked_examples((api.assets_dir() / folder).resolve())
        if found:
            fill(menu.addMenu(text), found)
