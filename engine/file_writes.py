"""What every writer of the program checks before it writes (``jsonio.atomic_write_bytes``, the
one way a file is written, and the folders the program makes for itself): no file is written
through a symbolic link and nothing is written into a folder that is a link, so a link planted
beside a save (a cache folder, a board's raster, a backup) cannot send a write elsewhere; and
owner files, which say a live process of ours holds a folder (a lock, which dies with its
process, so no pid taken over by another program holds it).  A leaf: only the errors below it."""
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


# -- owner files: held by a live process, whatever its pid (a lock dies with its process) ------
def _lock(fd: int) -> bool:
    """Lock ``fd`` for this process without waiting; False when another holds it."""
    try:
        if os.name == "nt":
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    try:
        if os.name == "nt":
            import msvcrt
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass


def _open_owner(path: Path, flags: int) -> int:
    """``path`` opened never through a link (refused first, then O_NOFOLLOW where there is
    one); OSError when it cannot be."""
    refuse_link(path)
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0),
                   0o600)


def hold_owner(path: Path, text: str) -> int | None:
    """``path`` (made if need be) locked by this process for as long as it runs, or until
    ``release_owner``: its descriptor, with ``text`` (who holds it) written in it; None when
    another process holds it.  OSError / ScenarioError when it cannot be made."""
    fd = _open_owner(path, os.O_RDWR | os.O_CREAT)
    if not _lock(fd):
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, text.encode("utf-8"))
    return fd


def owner_held(path: Path) -> bool:
    """Whether another process holds ``path`` (``hold_owner``) now: a file whose process
    ended, a file no process locked (whatever pid it names), or none, is not held."""
    try:
        fd = _open_owner(path, os.O_RDWR)
    except (OSError, ValueError, ScenarioError):
        return False
    try:
        if not _lock(fd):
            return True
        _unlock(fd)
        return False
    finally:
        os.close(fd)


def release_owner(fd: int) -> None:
    """Let go of an owner file held by ``hold_owner``."""
    _unlock(fd)
    try:
        os.close(fd)
    except OSError:
        pass
