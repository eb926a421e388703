"""The files a board file names beside it (its picture, SPEC.md "image"; its terrain as drawn,
``engine.raster_file``): free names for them, and the picture copied and written safely.
``engine.boards.save_board`` writes through these."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import ScenarioError
from .jsonio import atomic_write_bytes, read_json, read_limited

MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024


def free_name(board_path: Path, wanted: str, key: str, data: bytes) -> str:
    """``wanted``, unless a file of that name beside ``board_path`` holds other bytes and the
    board file there now does not name it under ``key`` (it is another board's): then the board
    file's own stem with ``wanted``'s suffix, numbered until free."""
    folder, suffix = board_path.parent, wanted[len(wanted.split(".")[0]):]
    try:
        named = read_json(board_path).get(key, {}).get("file") if board_path.is_file() else None
    except (ScenarioError, AttributeError):
        named = None
    for n in range(0, 1000):
        name = wanted if n == 0 else f"{board_path.stem}{'' if n == 1 else f'-{n}'}{suffix}"
        there = folder / name
        try:
            if not os.path.lexists(there) or name == named or (
                    there.is_file() and there.stat().st_size == len(data)
                    and read_limited(there, len(data)) == data):
                return name
        except (OSError, ScenarioError):
            continue
    raise ScenarioError(f"no free name for {wanted} beside the board file", file=str(board_path))


def own_picture(source: Path, image: Path) -> bytes | None:
    """The bytes of the board's picture ``source`` to copy to ``image``: None when it is the
    same file, gone or too large; refused when it links out of the board's folder."""
    try:
        if not source.is_file() or source.resolve() == image.resolve():
            return None
        if source.resolve().parent != source.parent.resolve():
            raise ScenarioError("links outside the board's folder: not copied", file=str(source))
        if source.stat().st_size > MAX_IMAGE_FILE_BYTES:
            return None
        return read_limited(source, MAX_IMAGE_FILE_BYTES)
    except (OSError, ValueError, RuntimeError) as e:
        if isinstance(e, ScenarioError):
            raise
        return None


def write_picture(image: Path, data: bytes) -> None:
    """``data`` at ``image``, atomically; another file already there is kept as ``NAME.bak``,
    and a link there is not written through."""
    try:
        if image.is_symlink():
            raise ScenarioError("is a link: the board's picture is not written through it",
                                file=str(image))
        same = image.is_file() and image.stat().st_size == len(data) \
            and read_limited(image, MAX_IMAGE_FILE_BYTES) == data
        other = image.exists() and not same
    except (OSError, ValueError) as e:
        if isinstance(e, ScenarioError):
            raise
        raise ScenarioError(f"cannot be written ({e})", file=str(image)) from None
    if not same:
        atomic_write_bytes(image, data, backup=other)
