"""Reading VASL's ZIP archives (board archives of both kinds, saved games' boards): one entry
at a time, each within a size cap, from a file on disk or from bytes already in memory.

Every problem is one ScenarioError without the file (the caller adds it) and with the entry's
name as its place.
"""
from __future__ import annotations

import io
import os
import zipfile
from contextlib import contextmanager
from pathlib import Path

from ..errors import ScenarioError
from ..jsonio import open_regular
from ..zip_members import open_zip, read_member

MAX_ARCHIVE_BYTES = 256 * 1024 * 1024       # the whole archive (board images included)
MAX_ENTRIES = 10_000                        # VASL's boards hold a few dozen
MAX_DIRECTORY_BYTES = 4 * 1024 * 1024       # the central directory listing them
_END, _END64, _LOCATOR64 = b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07"


@contextmanager
def open_archive(source: Path | bytes):
    """The board archive ``source`` as an open ZIP file, both kinds alike: a regular file (no
    FIFO or device: a read would never end) or the bytes of one, of at most
    ``MAX_ARCHIVE_BYTES``."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        if len(source) > MAX_ARCHIVE_BYTES:
            raise ScenarioError(f"too large for a VASL board ({len(source)} bytes; the limit is "
                                f"{MAX_ARCHIVE_BYTES})")
        with _zip(io.BytesIO(source)) as archive:
            yield archive
        return
    fd, st = open_regular(source, "")
    if st.st_size > MAX_ARCHIVE_BYTES:
        os.close(fd)
        raise ScenarioError(f"too large for a VASL board ({st.st_size} bytes; the limit is "
                            f"{MAX_ARCHIVE_BYTES})")
    with os.fdopen(fd, "rb") as handle, _zip(handle) as archive:
        yield archive


def check_directory(handle) -> None:
    """Refuse an archive whose central directory lists more than ``MAX_ENTRIES`` entries or
    takes more than ``MAX_DIRECTORY_BYTES``, from its end record, before zipfile reads it (every
    entry costs a Python object).  An archive without an end record is left to zipfile."""
    le = lambda raw: int.from_bytes(raw, "little")  # noqa: E731
    handle.seek(0, io.SEEK_END)
    size = handle.tell()
    start = max(0, size - (65536 + 22))     # the end record and its comment, at most
    handle.seek(start)
    tail = handle.read(size - start)
    at = tail.rfind(_END)
    if at < 0 or len(tail) < at + 22:
        return
    entries, directory = le(tail[at + 10:at + 12]), le(tail[at + 12:at + 16])
    if (entries == 0xFFFF or directory == 0xFFFFFFFF) and at >= 20 \
            and tail[at - 20:at - 16] == _LOCATOR64:
        handle.seek(le(tail[at - 12:at - 4]))
        record = handle.read(56)
        if record[:4] == _END64 and len(record) == 56:
            entries, directory = le(record[32:40]), le(record[40:48])
    if entries > MAX_ENTRIES or directory > MAX_DIRECTORY_BYTES:
        raise ScenarioError(f"its directory lists {entries} entries in {directory} bytes: a "
                            f"VASL archive has at most {MAX_ENTRIES} entries in "
                            f"{MAX_DIRECTORY_BYTES} bytes")
    handle.seek(0)


@contextmanager
def _zip(handle):
    try:
        check_directory(handle)
    except OSError as e:
        raise ScenarioError(f"cannot read: {e.strerror or e}") from None
    archive = open_zip(handle, "a VASL board archive")
    with archive:
        yield archive


def find_entry(archive: zipfile.ZipFile, name: str) -> zipfile.ZipInfo | None:
    """The entry ``name``, at the top of the archive or in a folder around its files; None
    when there is none."""
    infos = archive.infolist()
    for info in infos:
        if info.filename == name:
            return info
    for info in infos:      # an archive zipped with a folder around its files
        if info.filename.rsplit("/", 1)[-1] == name and not info.is_dir():
            return info
    return None


def read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """The bytes of entry ``info``, at most ``limit`` of them (a larger, encrypted or otherwise
    unreadable entry is refused: ``zip_members.read_member``)."""
    if info.file_size > limit:
        raise ScenarioError(f"too large ({info.file_size} bytes; the limit is {limit})",
                            place=info.filename)
    data = read_member(archive, info, limit)
    if len(data) > limit:
        raise ScenarioError(f"too large (more than {limit} bytes)", place=info.filename)
    return data
