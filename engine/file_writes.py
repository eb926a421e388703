"""What every writer of the program checks before it writes (``jsonio.atomic_write_bytes``, the
one way a file is written, and the folders the program makes for itself): no file is written
through a symbolic link and nothing is written into a folder that is a link, so a link planted
beside a save (a cache folder, a board's raster, a backup) cannot send a write elsewhere.  A
leaf: only the errors below it."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from .errors import ScenarioError


def refuse_link(path: Path, file: str | None = None) -> None:
    """A ScenarioError naming ``path`` when it is a symbolic link: nothing is written through
    one (the file it points to may be anywhere)."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return                      # nothing there (or no such name): told by the write itself
    if stat.S_ISLNK(st.st_mode):
        try:
            points = f" (to {os.readlink(path)})"
        except OSError:
            points = ""
        raise ScenarioError(f"is a symbolic link{points}: no file is written through a link; "
                            "save to the file itself", file=file or str(path))


def own_folder(folder: Path, parents: bool = False) -> Path:
    """``folder`` made if need be, the program's own: a ScenarioError naming it when it is a
    link or not a folder, so nothing is written into it."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=parents, exist_ok=True)
        st = os.lstat(folder)
    except (OSError, ValueError) as e:
        raise ScenarioError(f"cannot be made ({getattr(e, 'strerror', None) or e})",
                            file=str(folder)) from None
    if stat.S_ISLNK(st.st_mode):
        raise ScenarioError("is a symbolic link: nothing is written into it", file=str(folder))
    if not stat.S_ISDIR(st.st_mode):
        raise ScenarioError("is not a folder: nothing is written into it", file=str(folder))
    return folder
