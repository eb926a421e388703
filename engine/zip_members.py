"""The one way a ZIP archive is opened and a member read (VASL's board archives and saved
games, rasters, overlays): every failure, whatever zipfile raises (a damaged archive, an entry
that needs a newer ZIP version, an encrypted one, an unknown compression), becomes one
ScenarioError naming the entry as its place; the caller adds the file.  A leaf: only the errors
below it."""
from __future__ import annotations

import io
import zipfile
import zlib

from .errors import ScenarioError

# what reading a ZIP archive may raise: a damaged or hostile one, never a traceback
ZIP_FAILURES = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError,
                NotImplementedError, RuntimeError, ValueError, OverflowError, KeyError,
                IndexError)
READ_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
_CENTRAL = b"PK\x01\x02"
_SCAN_BYTES = 8 * 1024 * 1024          # the tail of an archive searched for its directory


def open_zip(handle, what: str = "a ZIP archive") -> zipfile.ZipFile:
    """``handle`` (a binary file or BytesIO) as an open ZIP file; an entry of a version no
    reader here knows is named."""
    try:
        return zipfile.ZipFile(handle)
    except NotImplementedError:
        name, version = too_new_entry(handle)
        raise ScenarioError(f"needs ZIP version {version / 10:.1f} to be read (at most "
                            f"{zipfile.MAX_EXTRACT_VERSION / 10:.1f} is read here)",
                            place=name) from None
    except ZIP_FAILURES:
        raise ScenarioError(f"not {what} (not a ZIP file, or truncated)") from None


def too_new_entry(handle) -> tuple[str | None, int]:
    """The first entry of the central directory that needs a ZIP version past zipfile's, and
    that version (None, 0 when none is found)."""
    try:
        handle.seek(0, io.SEEK_END)
        size = handle.tell()
        handle.seek(max(0, size - _SCAN_BYTES))
        tail = handle.read(_SCAN_BYTES)
    except (OSError, ValueError):
        return None, 0
    at = tail.find(_CENTRAL)
    while 0 <= at and at + 46 <= len(tail):
        version = int.from_bytes(tail[at + 6:at + 8], "little")
        length = int.from_bytes(tail[at + 28:at + 30], "little")
        if version > zipfile.MAX_EXTRACT_VERSION:
            return tail[at + 46:at + 46 + length].decode("cp437", "replace")[:200], version
        at = tail.find(_CENTRAL, at + 4)
    return None, 0


def member_problem(info: zipfile.ZipInfo) -> str | None:
    """Why entry ``info`` cannot be read here, before a byte of it is: encrypted, a newer
    version or a compression method not read; None when it can be."""
    if info.flag_bits & 0x1:
        return "is encrypted (a password would be needed): not read"
    if info.extract_version > zipfile.MAX_EXTRACT_VERSION:
        return (f"needs ZIP version {info.extract_version / 10:.1f} to be read (at most "
                f"{zipfile.MAX_EXTRACT_VERSION / 10:.1f} is read here)")
    if info.compress_type not in READ_METHODS:
        return (f"is compressed by ZIP method {info.compress_type}: only "
                + " and ".join(READ_METHODS.values()) + " are read")
    return None


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int,
                place: str | None = None) -> bytes:
    """At most ``limit`` + 1 bytes of entry ``info`` (the caller tells a longer one); every
    failure a ScenarioError at ``place`` (the entry's name unless given)."""
    place = place or info.filename
    problem = member_problem(info)
    if problem:
        raise ScenarioError(problem, place=place)
    try:
        with archive.open(info) as f:
            return f.read(limit + 1)
    except ZIP_FAILURES as e:
        raise ScenarioError(f"cannot be read from the archive ({e})", place=place) from None
