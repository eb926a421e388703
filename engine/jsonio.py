"""Reading and writing JSON files safely (SPEC.md: nothing half-loaded, atomic saves).

Limits on what a file may hold: at most ``MAX_FILE_BYTES`` bytes and ``MAX_DEPTH``
levels of nesting; no NaN or infinite numbers, no key written twice in one object, no lone
surrogates (text that could not be saved again).  Nothing in a file is ever executed.
"""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ScenarioError, shown
from .file_writes import refuse_link

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32
MAX_INT_DIGITS = 100     # a whole number with more digits is no value any file needs


def is_int(value: Any) -> bool:
    """A JSON whole number (``true`` is no number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def type_name(value: Any) -> str:
    """What a JSON value is, for a message: "an object", "a list", "true/false"..."""
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null", int: "a number", float: "a number"}.get(type(value), type(value).__name__)


class _Constant:
    """NaN, Infinity or -Infinity as written in a file: refused later, naming its place."""

    def __init__(self, name: str):
        self.name = name


class _BigInt:
    """A whole number of more than ``MAX_INT_DIGITS`` digits: refused later, naming its place."""

    def __init__(self, digits: int):
        self.digits = digits


def _parse_int(text: str):
    digits = len(text.lstrip("-"))
    return _BigInt(digits) if digits > MAX_INT_DIGITS else int(text)


class _PairsDict(dict):
    """A JSON object that remembers a key written twice (refused later, naming its place)."""

    duplicate: str | None = None


def _pairs(pairs: list) -> dict:
    out = _PairsDict()
    for k, v in pairs:
        if k in out and out.duplicate is None:
            out.duplicate = k
        out[k] = v
    return out


def _depth(obj: Any, limit: int) -> int:
    stack = [(obj, 1)]
    deepest = 0
    while stack:
        o, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(o, dict):
            stack.extend((v, d + 1) for v in o.values())
        elif isinstance(o, list):
            stack.extend((v, d + 1) for v in o)
    return deepest


def _utf16_or_32(raw: bytes) -> str | None:
    """The encoding of text saved as UTF-16 or UTF-32 (by its byte order mark, or the zero
    bytes of ASCII text in it), else None."""
    if raw[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "UTF-32"
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "UTF-16"
    head = raw[:64]
    if len(head) >= 4 and head[:4].count(0) in (2, 3) and (head[0] == 0) != (head[1] == 0):
        return "UTF-32" if head[:4].count(0) == 3 else "UTF-16"
    return None


def parse_json_text(text: str | bytes, file: str) -> Any:
    raw = isinstance(text, bytes)       # decoded from UTF-8 below: no lone surrogate in it
    if raw:
        encoding = _utf16_or_32(text)
        if encoding:
            raise ScenarioError(f"this is {encoding} text: Starshell files are JSON in UTF-8 "
                                "(save it again as UTF-8)", file=file)
        if b"\x00" in text:
            raise ScenarioError("this is a binary file, not JSON", file=file)
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ScenarioError(f"not UTF-8 text (byte {e.start}): Starshell files are JSON in "
                                "UTF-8", file=file) from None
    if not text.strip():
        raise ScenarioError("the file is empty", file=file)
    odd: list = []          # a value the checks below would refuse was met while parsing

    def constant(name: str) -> _Constant:
        odd.append(name)
        return _Constant(name)

    def whole(digits: str):
        v = _parse_int(digits)
        if isinstance(v, _BigInt):
            odd.append(digits)
        return v

    def real(digits: str) -> float:
        v = float(digits)
        if not math.isfinite(v):
            odd.append(digits)
        return v

    def pairs(items: list) -> dict:
        out = dict(items)
        if len(out) != len(items):        # a key written twice
            odd.append(items)
            return _pairs(items)
        return out
    try:
        data = json.loads(text, parse_constant=constant, object_pairs_hook=pairs,
                          parse_int=whole, parse_float=real)
    except RecursionError:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file=file) from None
    except json.JSONDecodeError as e:
        raise ScenarioError(f"invalid JSON: {e.msg}", file=file,
                            place=f"line {e.lineno} column {e.colno}") from None
    except ValueError as e:
        raise ScenarioError(f"invalid JSON: {e}", file=file) from None
    # the walks over every value are needed only when the text could hold what they refuse
    # (for speed: most files hold none of it)
    if _nesting(text) + 1 > MAX_DEPTH and _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file=file)
    if odd or ("\\u" in text and _SURROGATE_ESCAPE.search(text)) \
            or (not raw and _SURROGATE.search(text)):
        data = _check_values(data, file)
    return data


# a lone surrogate comes from a \uD800..\uDFFF escape, or from text given as str
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_BRACKET = np.zeros(256, np.int8)
_BRACKET[[ord("["), ord("{")]] = 1
_BRACKET[[ord("]"), ord("}")]] = -1
_CHUNK = 1 << 20


def _nesting(text: str) -> int:
    """The deepest nesting of lists and objects in JSON text that parsed: brackets outside
    strings (a value's depth, ``_depth``, is at most one more).  Escaped backslashes and
    quotes left out, every quote opens or closes a string."""
    bare = text.replace("\\\\", "").replace('\\"', "").encode("utf-8", "surrogatepass")
    deepest = depth = inside = 0
    for a in range(0, len(bare), _CHUNK):             # in slices: memory stays small
        b = np.frombuffer(bare, np.uint8, count=min(_CHUNK, len(bare) - a), offset=a)
        quotes = np.flatnonzero(b == ord('"'))
        at = np.flatnonzero(_BRACKET[b])
        outside = (np.searchsorted(quotes, at) + inside) % 2 == 0
        run = np.cumsum(_BRACKET[b[at[outside]]], dtype=np.int64) + depth
        if len(run):
            deepest = max(deepest, int(run.max()))
            depth = int(run[-1])
        inside = (inside + len(quotes)) % 2
    return deepest


def _cut(key: str) -> str:
    return key if len(key) <= 40 else key[:40] + "..."


def _join(place: str, key: str) -> str:
    key = _cut(key)
    return f"{place}.{key}" if place else key


def _bad_text(s: str) -> bool:
    """A lone surrogate (JSON's "\\ud800"): no file can be saved with it."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _check_values(obj: Any, file: str) -> Any:
    """Refuse, naming the place (e.g. ``units[3].level``): NaN and infinite numbers, keys written
    twice in one object, and text that is not valid Unicode.  Returns the data with plain dicts."""

    def fail(problem: str, place: str):
        raise ScenarioError(problem, file=file, place=place or None)

    def walk(o: Any, place: str) -> Any:
        if isinstance(o, _Constant):
            fail(f"{o.name} is not a number a file may hold", place)
        if isinstance(o, _BigInt):
            fail(f"holds a whole number of {o.digits} digits (at most {MAX_INT_DIGITS})", place)
        if isinstance(o, float) and not math.isfinite(o):
            fail("holds a number too large to be finite", place)
        if isinstance(o, str):
            if _bad_text(o):
                fail("holds text that is not valid Unicode (a lone surrogate)", place)
            return o
        if isinstance(o, dict):
            if getattr(o, "duplicate", None) is not None:
                fail(f"the key {shown(o.duplicate)} is written twice",
                     _join(place, _cut(o.duplicate)))
            out = {}
            for k, v in o.items():
                if _bad_text(k):
                    fail("holds a key that is not valid Unicode (a lone surrogate)", place)
                out[k] = walk(v, _join(place, k))
            return out
        if isinstance(o, list):
            return [walk(v, f"{place}[{i}]") for i, v in enumerate(o)]
        return o

    return walk(obj, "")


def open_regular(path: Path, file: str | None = None) -> tuple[int, os.stat_result]:
    """Open ``path`` for reading, refusing anything that is not a regular file (a FIFO would
    hang a read, a device such as /dev/zero never ends).  Returns (fd, its stat); the caller
    closes fd.  Every OSError becomes a ScenarioError naming the file."""
    file = file or str(path)
    try:   # O_NONBLOCK: opening a FIFO with no writer must not wait for one
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError) as e:      # ValueError: a NUL in the name
        raise path_error(e, file, "read") from None
    try:
        st = os.fstat(fd)
    except OSError as e:
        os.close(fd)
        raise path_error(e, file, "read") from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise ScenarioError(f"is {_kind(st.st_mode)}, not a file", file=file)
    return fd, st


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def path_error(error: OSError | ValueError, file: str, doing: str = "read") -> ScenarioError:
    """An OSError on a file as one message naming the file (no such file, a name too long...);
    a ValueError: the name holds a NUL, which no file's name can."""
    if not isinstance(error, OSError):
        return ScenarioError("no file has this name (it holds a NUL character)", file=file)
    if isinstance(error, FileNotFoundError):
        return ScenarioError("no such file", file=file)
    if isinstance(error, IsADirectoryError):
        return ScenarioError("is a folder, not a file", file=file)
    return ScenarioError(f"cannot {doing}: {error.strerror or error}", file=file)


def read_limited(path: Path, limit: int, file: str | None = None) -> bytes:
    """At most ``limit`` bytes of a regular file (ScenarioError naming the file when it holds
    more, is not a regular file, or cannot be read)."""
    file = file or str(path)
    fd, st = open_regular(path, file)
    if st.st_size > limit:
        os.close(fd)
        raise ScenarioError(f"too large ({st.st_size} bytes; the limit is {limit})", file=file)
    try:
        with os.fdopen(fd, "rb") as f:
            raw = f.read(limit + 1)      # st_size may lie (a file still growing)
    except OSError as e:
        raise path_error(e, file, "read") from None
    if len(raw) > limit:
        raise ScenarioError(f"too large (more than {limit} bytes; the limit is {limit})",
                            file=file)
    return raw


def read_json(path: Path) -> Any:
    file = str(path)
    return parse_json_text(read_limited(Path(path), MAX_FILE_BYTES, file), file)


STALE_TEMP_SECONDS = 60       # a temporary file older than this is a killed save's leftover


def atomic_write_json(path: Path, data: Any, backup: bool = True) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``.

    A symbolic link is not written through (``file_writes.refuse_link``).  The file keeps its
    permissions (a new file gets the user's default ones, umask).  The previous file, if any, is
    kept as ``NAME.bak``; when that copy cannot be made nothing is saved.  Temporary files of
    the same target that an interrupted (killed) save left are removed.  Any failure leaves the
    old file intact and raises ScenarioError naming the file.
    """
    path = Path(path)
    try:   # what cannot be written (NaN, a lone surrogate...) fails before any file is touched
        raw = (json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
    except (TypeError, ValueError) as e:
        raise ScenarioError(f"could not save: {e}", file=str(path)) from None
    atomic_write_bytes(path, raw, backup)


def atomic_write_bytes(path: Path, raw: bytes, backup: bool = True) -> None:
    """``raw`` written to ``path`` as ``atomic_write_json`` writes (a temporary file of a name of
    its own beside it, renamed over; ``NAME.bak`` kept when ``backup``); ScenarioError naming
    the file on any failure, the old file intact and no temporary file left."""
    path = Path(path)
    file = str(path)
    refuse_link(path, file)
    target = path           # replaced by a rename, which never follows a link put there since
    folder = target.parent if str(target.parent) else Path(".")
    mode = _existing_mode(target, file)
    _remove_stale_temps(folder, target.name)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _default_mode() if mode is None else mode)
        if backup and mode is not None:
            bak = target.with_name(target.name + ".bak")
            try:
                _copy_over(target, bak, mode)
            except (OSError, ScenarioError) as e:
                why = e.problem if isinstance(e, ScenarioError) else (e.strerror or str(e))
                raise ScenarioError(f"not saved: the previous version could not be kept as "
                                    f"{bak.name} ({why}); the file is unchanged",
                                    file=file) from None
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        raise ScenarioError(f"could not save: {e.strerror or e}", file=file) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _existing_mode(target: Path, file: str) -> int | None:
    """The permission bits of the file being replaced, None when there is none yet; anything
    but a regular file (a folder, a FIFO, a device) is refused: it is not replaced by a save."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise path_error(e, file, "save") from None
    if not stat.S_ISREG(st.st_mode):
        raise ScenarioError(f"is {_kind(st.st_mode)}, not a file: not saved there", file=file)
    return stat.S_IMODE(st.st_mode)


def _default_mode() -> int:
    """A new file's permissions: read-write for whom the user's umask allows."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _remove_stale_temps(folder: Path, name: str) -> None:
    """Temporary files of saves of ``name`` (or of its backup) killed half-way: mkstemp's names
    ``.NAME.XXXXXXXX.tmp``, left for longer than a save takes."""
    pattern = re.compile(r"\." + re.escape(name) + r"(\.bak)?\.[a-z0-9_]{8}\.tmp")
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > STALE_TEMP_SECONDS:
                os.unlink(entry.path)
        except OSError:
            pass     # another save's file, or already gone


def _copy_over(src: Path, dst: Path, mode: int) -> None:
    """Copy src to dst atomically (the backup is itself written via a temporary file)."""
    fd_src, _ = open_regular(src)
    with os.fdopen(fd_src, "rb") as source:
        fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                shutil.copyfileobj(source, f)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, dst)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise


# ----------------------------------------------------------- the fields of every file format
def check_format(data: Any, expected_format: str, versions: tuple[int, ...], file: str | None = None,
                 kind: str = "a file", known: dict[str, str] | None = None) -> dict:
    """``data`` when it is a JSON object whose ``format`` is ``expected_format`` and ``version``
    one of ``versions``; else ScenarioError naming ``file`` and the place.  ``kind``: what the
    file is, for a message ("a board file"); ``known``: what to say of another known format."""
    if not isinstance(data, dict):
        raise ScenarioError(f"{kind} must hold a JSON object, not {type_name(data)}", file=file)
    got = data.get("format")
    if got != expected_format:
        problem = (known or {}).get(got) if isinstance(got, str) else None
        raise ScenarioError(problem or f"must be {shown(expected_format)}, not {shown(got)}",
                            file=file, place="format")
    version = data.get("version")
    if not is_int(version) or version not in versions:
        raise ScenarioError(f"unsupported version {shown(version)} (this program reads "
                            f"{' or '.join(map(str, versions))})", file=file, place="version")
    return data


def read_choice(obj: dict, key: str, choices, place: str, default=None, nullable=False):
    """``obj[key]``, one of ``choices`` (``place``: the object's place with its dot, "units[3].")."""
    v = obj.get(key, default)
    if v is None and nullable:
        return None
    if not isinstance(v, str) or v not in choices:
        raise ScenarioError(f"must be one of {', '.join(choices)}, not {shown(v)}",
                            place=f"{place}{key}")
    return v


def read_string(obj: dict, key: str, place: str, default=None, nonempty=False) -> str:
    """``obj[key]``, a string (a non-empty one when ``nonempty``)."""
    v = obj.get(key, default)
    if not isinstance(v, str) or (nonempty and not v.strip()):
        what = "a non-empty string" if nonempty else "a string"
        got = ("missing" if key not in obj else
               "an empty one" if isinstance(v, str) else type_name(v))
        raise ScenarioError(f"must be {what}, not {got}", place=f"{place}{key}")
    return v


def read_bool(obj: dict, key: str, place: str, default=None):
    """``obj[key]``, true or false; ``default`` when it is absent."""
    if key not in obj:
        return default
    v = obj[key]
    if not isinstance(v, bool):
        raise ScenarioError(f"must be true or false, not {shown(v)}", place=f"{place}{key}")
    return v


def read_int(obj: dict, key: str, place: str, default: int, lo: int, hi: int) -> int:
    """``obj[key]``, a whole number from ``lo`` to ``hi``."""
    v = obj.get(key, default)
    if not is_int(v):
        raise ScenarioError(f"must be a whole number, not {shown(v)}", place=f"{place}{key}")
    if not lo <= v <= hi:
        raise ScenarioError(f"must be from {lo} to {hi}, not {v}", place=f"{place}{key}")
    return v


def read_list(obj: dict, key: str, place: str = "") -> list:
    """``obj[key]``, a list (empty when absent)."""
    v = obj.get(key, [])
    if not isinstance(v, list):
        raise ScenarioError(f"must be a list, not {type_name(v)}", place=f"{place}{key}")
    return v
