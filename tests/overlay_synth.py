"""Synthetic VASL overlay archives, written the way VASL's are (we never ship VASL's overlays).

An overlay archive (VASL's ``Overlay``, rules.md 11.3) is a ZIP without extension named
``ovr<NAME>`` holding ``ovr<name><o>.gif`` images (GIFs whose transparent colour leaves the board
showing), a ``data`` file of ``<name> oa;ob;oc;od;oe;of`` lines (the origin hex of each
orientation) and ``version``, and sometimes a ``colors`` file of ``Name R,G,B`` lines.

``draw`` paints colour names into an image grid (``""``: transparent); ``gif`` encodes the grid
as a paletted GIF with a transparent index; ``archive`` writes the ZIP.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image

from engine.importers.vasl5_image import colour_table

TRANSPARENT_RGB = (1, 2, 3)     # the palette entry marked transparent (any unused colour)


def rgb_of(name: str) -> tuple[int, int, int]:
    return colour_table()[name].rgb


def gif(names: np.ndarray, rgb: dict | None = None) -> bytes:
    """A GIF of the (h, w) grid of colour names: index 0 transparent, one palette entry per
    name (``rgb`` overrides a name's colour, for names the archive's own colors file gives)."""
    distinct = sorted({str(n) for n in names.ravel()} - {""})
    assert len(distinct) < 256, "a GIF holds at most 255 colours besides the transparent one"
    palette = [TRANSPARENT_RGB] + [(rgb or {}).get(n) or rgb_of(n) for n in distinct]
    index = {n: i + 1 for i, n in enumerate(distinct)}
    index[""] = 0
    idx = np.vectorize(index.__getitem__, otypes=[np.uint8])(names)
    im = Image.fromarray(idx, mode="P")
    flat = [v for c in palette for v in c]
    im.putpalette(flat + [0] * (768 - len(flat)))
    out = io.BytesIO()
    im.save(out, format="GIF", transparency=0)
    return out.getvalue()


def data_file(lines: dict[str, str], version: str = "2.0") -> str:
    """VASL's data file: ``name origins`` lines, a blank line after each, then the version."""
    return "".join(f"{name} {origins}\n\n" for name, origins in lines.items()) + \
        f"version {version}\nsynthetic\n"


def archive(path: str | Path, images: dict[str, bytes], data: str | None,
            colors: str | None = None, extra: dict[str, bytes] | None = None) -> Path:
    """Write an overlay archive: ``images`` by entry name (``ovrx1a.gif``), the data file, the
    optional colors file and any other entries."""
    path = Path(path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        if data is not None:
            z.writestr("data", data.encode("latin-1"))
        if colors is not None:
            z.writestr("colors", colors.encode("latin-1"))
        for name, raw in {**images, **(extra or {})}.items():
            z.writestr(name, raw)
    return path


def hexagon_mask(shape: tuple[int, int], centre: tuple[float, float], hex_w: float = 56.25,
                 hex_h: float = 64.5, scale: float = 1.0) -> np.ndarray:
    """bool (h, w): the pixels of VASL's hexagon around ``centre`` (corners at +-2/3 of the
    column spacing, flat top and bottom at +-half the height), ``scale`` times its size."""
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w]
    dx = np.abs(xs - centre[0]) / (hex_w * 2 / 3 * scale)
    dy = np.abs(ys - centre[1]) / (hex_h / 2 * scale)
    return (dy <= 1) & (dx + dy / 2 <= 1)


def filled(shape: tuple[int, int], name: str, mask: np.ndarray | None = None) -> np.ndarray:
    """A grid of colour names: ``name`` where ``mask`` (everywhere if None), transparent
    elsewhere."""
    out = np.full(shape, "", dtype=object)
    out[np.ones(shape, bool) if mask is None else mask] = name
    return out
