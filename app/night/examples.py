"""The bundled positions (the default one and the worked examples W-01..W-21): File > Open worked
example opens one; they are read-only as every room's bundled files (``app.room_window.is_bundled``:
Save then asks for a new name, and no dialog starts in the bundled folder)."""
from __future__ import annotations

from pathlib import Path

from app.room_window import bundled_examples
from engine import api


def bundled_folder() -> Path:
    return (api.assets_dir() / "scenarios").resolve()


# the other rooms' bundled examples, each in a submenu of its own (they open in their room)
OTHER_ROOMS = (("&Napoleonic fire room", "fire"), ("&DBA 3.0 tabletop room", "tables"))


def worked_examples(folder: Path | None = None) -> list[tuple[str, Path]]:
    """(menu text, path) of each bundled position of ``folder`` (the night room's by default):
    the default one first, then W-01.. in order."""
    return bundled_examples(bundled_folder() if folder is None else folder, first="default")


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
