"""The overlay file format: a VASL overlay (rules.md 11.3) decoded once by the importer
(``importers/overlays.py``) and kept beside the boards, so the night loader can place and paste it
(``overlay_paste``) without reading VASL's archive again.

A numpy ``.npz`` archive (no pickles) of:

- ``name``: uint8, the overlay's VASL name (``x1``, ``3``, ``w2``...), UTF-8;
- ``origins``: uint8, the six origin hexes of orientations a..f joined by ``;`` (VASL's ``data``
  line, e.g. ``b2;b1;c1;d1;d2;c3``; an empty name where the overlay has no such orientation);
- per orientation ``o`` the archive has an image for (``a``..``f``):
  ``o_terrain`` uint8 (h, w) VASL terrain codes, ``o_level`` int8 (h, w) ground levels
  (``KEEP_LEVEL``: the board's level stays), ``o_mask`` bool (h, w) the opaque pixels (the
  others keep the board), ``o_hexside`` bool (h, w) pixels of hexside terrain (pasted only near a
  hexside's centre), ``o_picture`` uint8 the image as drawn (a PNG file's bytes).

Bounds, checked before anything is decompressed: the file at most ``MAX_FILE_BYTES``, only the
members above, every member at most ``MAX_PIXELS`` pixels (``MAX_PICTURE_BYTES`` for a picture).
A malformed or hostile file is refused with one ScenarioError naming the file and the member.
"""
from __future__ import annotations

import io
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import ScenarioError
from .jsonio import atomic_write_bytes
from .zip_members import open_zip, read_member

ORIENTATIONS = "abcdef"
KEEP_TERRAIN = 255              # a pixel whose colour names no terrain: the board's stays
KEEP_LEVEL = -128               # a pixel whose colour names no level: the board's stays
MAX_PIXELS = 4_000_000          # an overlay image (VASL's largest cover a few boards' hexes)
MAX_PICTURE_BYTES = 16 * 1024 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024
OVERLAY_SUFFIX = ".overlay.npz"
_ARRAYS = {"terrain": np.uint8, "level": np.int8, "mask": np.bool_, "hexside": np.bool_}


@dataclass(frozen=True, eq=False)
class OverlayImage:
    """One orientation of an overlay, decoded: what each of its pixels lays on a board."""
    orientation: str
    terrain: np.ndarray         # uint8 (h, w) VASL terrain codes, KEEP_TERRAIN: the board's
    level: np.ndarray           # int8 (h, w) ground levels, KEEP_LEVEL: the board's
    mask: np.ndarray            # bool (h, w): opaque (transparent pixels keep the board)
    hexside: np.ndarray         # bool (h, w): hexside terrain (rules.md 11.3: near a side only)
    picture: bytes = field(default=b"", repr=False)   # the image as drawn (PNG)

    @property
    def shape(self) -> tuple[int, int]:
        return self.terrain.shape


@dataclass(frozen=True, eq=False)
class OverlayFile:
    """A VASL overlay: its name, origin hexes and decoded images by orientation."""
    name: str
    origins: tuple[str, ...]            # six hex names, one per orientation a..f ("" = none)
    images: dict                        # orientation letter -> OverlayImage

    def to_bytes(self) -> bytes:
        members = {"name": np.frombuffer(self.name.encode("utf-8"), np.uint8),
                   "origins": np.frombuffer(";".join(self.origins).encode("utf-8"), np.uint8)}
        for o, im in sorted(self.images.items()):
            for key, dtype in _ARRAYS.items():
                members[f"{o}_{key}"] = np.ascontiguousarray(getattr(im, key), dtype=dtype)
            members[f"{o}_picture"] = np.frombuffer(im.picture, np.uint8)
        out = io.BytesIO()
        np.savez_compressed(out, **members)
        return out.getvalue()


def check_overlay(overlay: OverlayFile) -> None:
    """ScenarioError (place: the member) unless every image's arrays agree in shape and size."""
    if len(overlay.origins) != len(ORIENTATIONS):
        raise ScenarioError(f"{len(overlay.origins)} origin hexes: an overlay has one per "
                            "orientation a..f (six)", place="origins")
    if not overlay.images:
        raise ScenarioError("no image: an overlay has at least one orientation", place="images")
    for o, im in overlay.images.items():
        if o not in ORIENTATIONS or o != im.orientation:
            raise ScenarioError(f"orientation {o!r} is not one of a..f", place=o)
        shape = im.terrain.shape
        if len(shape) != 2 or shape[0] * shape[1] > MAX_PIXELS or 0 in shape:
            raise ScenarioError(f"{shape} pixels: an overlay image has 1 to {MAX_PIXELS}",
                                place=f"{o}_terrain")
        for key in _ARRAYS:
            if getattr(im, key).shape != shape:
                raise ScenarioError(f"shape {getattr(im, key).shape} differs from the terrain's "
                                    f"{shape}", place=f"{o}_{key}")


def save_overlay(overlay: OverlayFile, path: str | Path) -> None:
    check_overlay(overlay)
    atomic_write_bytes(Path(path), overlay.to_bytes(), backup=False)


def load_overlay(path: str | Path) -> OverlayFile:
    """Read an overlay file; ScenarioError naming the file (and the member) on any problem."""
    path = Path(path)
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            raise ScenarioError("not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise ScenarioError(f"too large ({st.st_size} bytes; the limit is {MAX_FILE_BYTES})")
        return overlay_from_bytes(path.read_bytes())
    except ScenarioError as e:
        raise e.at(file=str(path)) from None
    except OSError as e:
        raise ScenarioError(f"cannot be read: {e.strerror or e}", file=str(path)) from None


def overlay_from_bytes(data: bytes) -> OverlayFile:
    """An overlay file's contents (ScenarioError without the file on any problem)."""
    with open_zip(io.BytesIO(data), "an overlay file (an npz archive)") as archive:
        arrays = {info.filename[:-4]: _member(archive, info) for info in archive.infolist()}
    for key in ("name", "origins"):
        if key not in arrays:
            raise ScenarioError("missing", place=key)
    name = _text(arrays.pop("name"), "name")
    origins = tuple(_text(arrays.pop("origins"), "origins").split(";"))
    images = {}
    for o in ORIENTATIONS:
        got = {key: arrays.pop(f"{o}_{key}", None) for key in (*_ARRAYS, "picture")}
        if all(v is None for v in got.values()):
            continue
        missing = [k for k, v in got.items() if v is None]
        if missing:
            raise ScenarioError("missing", place=f"{o}_{missing[0]}")
        images[o] = OverlayImage(o, got["terrain"], got["level"], got["mask"], got["hexside"],
                                 got["picture"].tobytes())
    if arrays:
        raise ScenarioError("not a member of an overlay file", place=sorted(arrays)[0])
    overlay = OverlayFile(name, origins, images)
    check_overlay(overlay)
    return overlay


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> np.ndarray:
    key = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
    orient, _, kind = key.partition("_")
    if key in ("name", "origins"):
        dtype, limit = np.uint8, 4096
    elif orient in ORIENTATIONS and kind in _ARRAYS:
        dtype, limit = _ARRAYS[kind], MAX_PIXELS
    elif orient in ORIENTATIONS and kind == "picture":
        dtype, limit = np.uint8, MAX_PICTURE_BYTES
    else:
        raise ScenarioError("not a member of an overlay file", place=info.filename)
    if info.file_size > limit + 256:            # an .npy header is at most a few hundred bytes
        raise ScenarioError(f"too large ({info.file_size} bytes)", place=key)
    raw = read_member(archive, info, limit + 256, place=key)
    try:
        arr = np.load(io.BytesIO(raw), allow_pickle=False)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise ScenarioError(f"cannot be read ({e})", place=key) from None
    if not isinstance(arr, np.ndarray) or arr.dtype != np.dtype(dtype):
        raise ScenarioError(f"holds {getattr(arr, 'dtype', type(arr).__name__)}, not "
                            f"{np.dtype(dtype).name}", place=key)
    if arr.ndim != (2 if kind in _ARRAYS and key not in ("name", "origins") else 1):
        raise ScenarioError(f"has {arr.ndim} dimensions", place=key)
    return arr


def _text(arr: np.ndarray, place: str) -> str:
    try:
        return arr.tobytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError("is not UTF-8 text", place=place) from None


def overlay_file_name(name: str) -> str:
    """The file an overlay is kept in, beside the boards: ``ovr_x1.overlay.npz``."""
    safe = "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in name)
    return f"ovr_{safe}{OVERLAY_SUFFIX}"
