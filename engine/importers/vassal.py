"""VASSAL's encodings of a saved game (``.vsav``): the file, the obfuscated ``savedGame`` entry,
the commands and the traits of a piece.

The file: a ZIP archive whose ``savedGame`` entry starts ``!VCSK``, then the key as two hex
digits, then every byte of the text XOR-ed with the key, as two hex digits (``!VCSZ``: the same
around deflated text).  The text is VASSAL commands separated by ESC (0x1B); a compound command's
own commands are nested the same way.  VASSAL's ``SequenceEncoder`` writes a delimiter that
belongs to a value as a backslash and the delimiter, and quotes a value ending in a backslash
between apostrophes.  A piece's traits are separated by tabs, each inner trait escaped once more.
"""
from __future__ import annotations

import lzma
import os
import re
import zlib
from pathlib import Path

from ..errors import ScenarioError
from ..jsonio import open_regular
from ..zip_members import open_zip, read_member
from .archive import check_directory

SAVED_GAME = "savedGame"
HEADER_XOR, HEADER_XOR_DEFLATED = b"!VCSK", b"!VCSZ"
XZ_MAGIC = b"\xfd7zXZ\x00"
ESC = "\x1b"

MAX_FILE_BYTES = 64 * 1024 * 1024       # the .vsav file
MAX_ENTRY_BYTES = 40 * 1024 * 1024      # the savedGame entry (hex digits: twice the text)
MAX_TEXT_BYTES = 16 * 1024 * 1024       # the decoded (inflated) text (Hill 621: 0.5 MiB)
MAX_NESTING = 16                        # compound commands inside compound commands
MAX_TRAITS = 200                        # traits of one piece (VASL's have about 50)


# ------------------------------------------------------------------- VASSAL's encodings
def split_escaped(text: str, delim: str, limit: int | None = None) -> list[str]:
    """VASSAL's ``SequenceEncoder.Decoder``: split at every ``delim`` not escaped by a backslash;
    an escaped one loses its backslash; a token quoted in apostrophes loses them.  ``limit``:
    only the first tokens (the rest of the text is not looked at)."""
    rx = _SPLITTERS.get(delim)
    if rx is None:
        rx = _SPLITTERS.setdefault(delim, re.compile(r"(?<!\\)" + re.escape(delim)))
    parts = rx.split(text, limit or 0)
    if limit is not None:
        parts = parts[:limit]
    escaped = "\\" + delim
    return [_unquote(p.replace(escaped, delim)) for p in parts]


_SPLITTERS: dict[str, re.Pattern] = {}


def _unquote(t: str) -> str:
    return t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t


def _separator(k: int) -> re.Pattern:
    rx = _SEPARATORS.get(k)
    if rx is None:
        rx = _SEPARATORS.setdefault(k, re.compile(r"(?<!\\)" + r"\\" * k + "\t"))
    return rx


_SEPARATORS: dict[int, re.Pattern] = {}


def trait_chain(text: str) -> list[str]:
    """A piece's traits (types or states), outermost first.  Each trait is written as its own
    encoding, a tab and the rest of the chain with a backslash put before each of its tabs, so
    the tab closing the k-th trait (from 0) follows exactly k backslashes: one pass finds them
    all (linear time however deep the chain)."""
    out: list[str] = []
    start = 0
    while True:
        k = len(out)
        m = _separator(k).search(text, start)
        if m is None:
            out.append(_unquote(text[start:].replace("\\" * (k + 1) + "\t", "\t")))
            return out
        out.append(_unquote(text[start:m.start()].replace("\\" * (k + 1) + "\t", "\t")))
        start = m.end()
        if len(out) >= MAX_TRAITS:
            raise ScenarioError(f"a piece with more than {MAX_TRAITS} traits")


def commands(text: str, depth: int = 0):
    """The simple commands of the saved game, nested compounds flattened, in order."""
    if depth > MAX_NESTING:
        raise ScenarioError(f"commands nested more than {MAX_NESTING} deep")
    for c in split_escaped(text, ESC):
        if ESC in c:
            yield from commands(c, depth + 1)
        elif c:
            yield c


# ------------------------------------------------------------------------- the archive
def _inflate(data: bytes, place: str) -> bytes:
    if data[:6] == XZ_MAGIC:
        d = lzma.LZMADecompressor()
        try:
            out = d.decompress(data, MAX_TEXT_BYTES + 1)
        except lzma.LZMAError as e:
            raise ScenarioError(f"damaged compressed text ({e})", place=place) from None
    else:
        zlib_header = len(data) > 1 and data[0] & 0x0F == 8 and (data[0] * 256 + data[1]) % 31 == 0
        wbits = 15 if zlib_header else (31 if data[:2] == b"\x1f\x8b" else -15)
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(data, MAX_TEXT_BYTES + 1)
        except zlib.error as e:
            raise ScenarioError(f"damaged deflated text ({e})", place=place) from None
        if len(out) <= MAX_TEXT_BYTES and not d.eof:
            raise ScenarioError("the deflated text is truncated", place=place)
    if len(out) > MAX_TEXT_BYTES:
        raise ScenarioError(f"the text inflates to more than {MAX_TEXT_BYTES} bytes "
                            "(the limit)", place=place)
    return out


def decode_saved_game(raw: bytes, place: str = SAVED_GAME) -> str:
    """The text of a ``savedGame`` entry (``!VCSK``/``!VCSZ``, XZ, or plain text)."""
    header = raw[:5]
    if header in (HEADER_XOR, HEADER_XOR_DEFLATED):
        body = raw[5:].strip()
        if len(body) < 2:
            raise ScenarioError("truncated: no key after the header", place=place)
        try:
            key = int(body[:2].decode("ascii"), 16)
            data = bytes.fromhex(body[2:].decode("ascii"))
        except (ValueError, UnicodeDecodeError):
            raise ScenarioError("damaged: the key and the text must be hex digits, two a byte "
                                "(truncated or not a VASSAL saved game)", place=place) from None
        data = data.translate(bytes(b ^ key for b in range(256)))
        if header == HEADER_XOR_DEFLATED:
            data = _inflate(data, place)
    elif raw[:6] == XZ_MAGIC:
        data = _inflate(raw, place)
    elif raw.lstrip()[:10] == b"begin_save":
        data = raw
    else:
        raise ScenarioError(f"starts {raw[:5]!r}, not !VCSK or !VCSZ: not a VASSAL saved game",
                            place=place)
    if len(data) > MAX_TEXT_BYTES:
        raise ScenarioError(f"the text is larger than {MAX_TEXT_BYTES} bytes (the limit)",
                            place=place)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_saved_game(path: str | Path) -> str:
    """The command text of a .vsav file; ScenarioError (naming the file) on any problem."""
    path = Path(path)
    try:
        if path.is_dir():
            raise ScenarioError("is a folder, not a VASL saved game")
        if not path.exists():
            raise ScenarioError("no such file")
        fd, st = open_regular(path, str(path))     # no FIFO, device, /dev/zero: never hangs
        handle = os.fdopen(fd, "rb")
        if st.st_size > MAX_FILE_BYTES:
            handle.close()
            raise ScenarioError(f"too large for a saved game ({st.st_size} bytes; the "
                                f"limit is {MAX_FILE_BYTES})")
        try:
            check_directory(handle)
            archive = open_zip(handle, "a VASL saved game")
        except BaseException:
            handle.close()
            raise
        with handle, archive:
            info = next((i for i in archive.infolist() if i.filename == SAVED_GAME), None)
            if info is None:
                raise ScenarioError(f"the archive has no {SAVED_GAME} entry: not a VASSAL "
                                    "saved game")
            if info.file_size > MAX_ENTRY_BYTES:
                raise ScenarioError(f"too large ({info.file_size} bytes; the limit is "
                                    f"{MAX_ENTRY_BYTES})", place=SAVED_GAME)
            raw = read_member(archive, info, MAX_ENTRY_BYTES)
            if len(raw) > MAX_ENTRY_BYTES:
                raise ScenarioError(f"inflates to more than {MAX_ENTRY_BYTES} bytes (the limit)",
                                    place=SAVED_GAME)
        return decode_saved_game(raw)
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
    except OSError as e:
        raise ScenarioError(f"cannot read: {e.strerror or e}", file=str(path)) from None
