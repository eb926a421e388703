"""Reading and writing JSON files safely (SPEC.md: nothing half-loaded, atomic saves).

Limits on what a file may hold (issue 8): at most ``MAX_FILE_BYTES`` bytes and ``MAX_DEPTH``
levels of nesting; no NaN or infinite numbers.  Nothing in a file is ever executed.
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


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number a file may hold")


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
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file=file) from None
    except json.JSONDecodeError as e:
        raise ScenarioError(f"invalid JSON: {e.msg}", file=file,
                            place=f"line {e.lineno} column {e.colno}") from None
    except ValueError as e:
        raise ScenarioError(f"invalid JSON: {e}", file=file) from None
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise ScenarioError(f"nested deeper than {MAX_DEPTH} levels", file=file)
    _check_numbers(data, file)
    return data


def _check_numbers(obj: Any, file: str) -> None:
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, float) and not math.isfinite(o):
            raise ScenarioError("holds a number too large to be finite", file=file)
        if isinstance(o, dict):
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)


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
    text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    folder = path.parent if str(path.parent) else Path(".")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
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
