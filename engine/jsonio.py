"""Reading and writing JSON files safely (SPEC.md: nothing half-loaded, atomic saves).

Limits on what a file may hold (issue 8): at most ``MAX_FILE_BYTES`` bytes and ``MAX_DEPTH``
levels of nesting; no NaN or infinite numbers, no key written twice in one object, no lone
surrogates (text that could not be saved again).  Nothing in a file is ever executed.
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import ScenarioError

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32


class _Constant:
    """NaN, Infinity or -Infinity as written in a file: refused later, naming its place."""

    def __init__(self, name: str):
        self.name = name


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


def parse_json_text(text: str | bytes, file: str) -> Any:
    if isinstance(text, bytes):
        if b"\x00" in text:
            raise ScenarioError("this is a binary file, not JSON", file=file)
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise ScenarioError(f"not UTF-8 text (byte {e.start})", file=file) from None
    if not text.strip():
        raise ScenarioError("the file is empty", file=file)
    try:
        data = json.loads(text, parse_constant=_Constant, object_pairs_hook=_pairs)
    except RecursionError:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file=file) from None
    except json.JSONDecodeError as e:
        raise ScenarioError(f"invalid JSON: {e.msg}", file=file,
                            place=f"line {e.lineno} column {e.colno}") from None
    except ValueError as e:
        raise ScenarioError(f"invalid JSON: {e}", file=file) from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file=file)
    data = _check_values(data, file)
    return data


def _join(place: str, key: str) -> str:
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
        if isinstance(o, float) and not math.isfinite(o):
            fail("holds a number too large to be finite", place)
        if isinstance(o, str):
            if _bad_text(o):
                fail("holds text that is not valid Unicode (a lone surrogate)", place)
            return o
        if isinstance(o, dict):
            if getattr(o, "duplicate", None) is not None:
                fail(f"the key {o.duplicate!r} is written twice", _join(place, o.duplicate))
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


def read_json(path: Path) -> Any:
    file = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise ScenarioError("no such file", file=file) from None
    except OSError as e:
        raise ScenarioError(f"cannot read: {e.strerror}", file=file) from None
    if path.is_dir():
        raise ScenarioError("is a folder, not a file", file=file)
    if size > MAX_FILE_BYTES:
        raise ScenarioError(f"too large ({size} bytes; the limit is {MAX_FILE_BYTES})", file=file)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise ScenarioError(f"cannot read: {e.strerror}", file=file) from None
    return parse_json_text(raw, file)


def atomic_write_json(path: Path, data: Any, backup: bool = True) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``.

    The previous file, if any, is kept as ``NAME.bak``.  Any failure leaves the old file intact
    and raises ScenarioError naming the file.
    """
    path = Path(path)
    try:   # what cannot be written (NaN, a lone surrogate...) fails before any file is touched
        raw = (json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")
    except (TypeError, ValueError) as e:
        raise ScenarioError(f"could not save: {e}", file=str(path)) from None
    folder = path.parent if str(path.parent) else Path(".")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if backup and path.exists():
            bak = path.with_name(path.name + ".bak")
            try:
                _copy_over(path, bak)
            except OSError:
                pass  # a backup that cannot be written does not stop the save
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise ScenarioError(f"could not save: {e.strerror or e}", file=str(path)) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _copy_over(src: Path, dst: Path) -> None:
    """Copy src to dst atomically (the backup is itself written via a temporary file)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{dst.name}.", suffix=".tmp", dir=dst.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(src.read_bytes())
        os.replace(tmp, dst)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
