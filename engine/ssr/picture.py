"""A board picture recoloured as VASL recolours it for the scenario's SSRs (rules.md 11.2:
``vasl_colour_ssr_rules.csv``, VASL's ``SSRFilter``): one colour map built from the rules in
the table's order, then every pixel mapped once."""
from __future__ import annotations

import csv
import io
from functools import lru_cache
from importlib import resources

import numpy as np

from . import table as T


def _csv(name: str) -> list[dict]:
    text = (resources.files("engine.importers") / "data" / name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@lru_cache(maxsize=1)
def colours() -> dict[str, int]:
    """VASL's colour names -> 0xRRGGBB (the first of a repeated name)."""
    out: dict[str, int] = {}
    for row in _csv("vasl_colors.csv"):
        out.setdefault(row["name"], (int(row["red"]) << 16) | (int(row["green"]) << 8)
                       | int(row["blue"]))
    return out


@lru_cache(maxsize=1)
def _colour_rules() -> list[tuple[str, str, str]]:
    return [(r["name"], r["fromColor"], r["toColor"]) for r in _csv("vasl_colour_ssr_rules.csv")]


@lru_cache(maxsize=64)
def colour_map(names: tuple[str, ...]) -> dict[int, int]:
    """0xRRGGBB -> 0xRRGGBB for the rules ``names`` (VASL's SSRFilter.loadRules): the rules in the
    table's order; the first mapping of a colour stays, and a later one also moves the colours
    already mapped onto its source."""
    used = set(names)
    values = colours()
    out: dict[int, int] = {}
    for rule, a, b in _colour_rules():
        if rule not in used or a not in values or b not in values or values[a] == values[b]:
            continue
        src, dst = values[a], values[b]
        out.setdefault(src, dst)
        for k, v in out.items():
            if v == src:
                out[k] = dst
    return out


def recolour(image, names):
    """The picture (a PIL image) in the colours the rules ``names`` give it; a palettised image
    (VASL's GIFs) changes only its palette.  The given image is not changed."""
    cmap = colour_map(tuple(T.unique(names)))
    if not cmap:
        return image.copy()
    if image.mode == "P":
        pal = np.array(image.getpalette() or [], dtype=np.int64).reshape(-1, 3)
        packed = _mapped((pal[:, 0] << 16) | (pal[:, 1] << 8) | pal[:, 2], cmap)
        out = image.copy()
        rgb = np.stack([(packed >> 16) & 255, (packed >> 8) & 255, packed & 255], axis=1)
        out.putpalette(rgb.astype(np.uint8).ravel().tolist())
        return out
    from PIL import Image
    mode = "RGBA" if image.mode in ("RGBA", "LA", "PA") else "RGB"
    a = np.asarray(image.convert(mode)).copy()
    packed = (a[..., 0].astype(np.int64) << 16) | (a[..., 1].astype(np.int64) << 8) | a[..., 2]
    packed = _mapped(packed, cmap)
    a[..., 0], a[..., 1], a[..., 2] = (packed >> 16) & 255, (packed >> 8) & 255, packed & 255
    return Image.fromarray(a, mode)


def _mapped(packed: np.ndarray, cmap: dict[int, int]) -> np.ndarray:
    keys = np.array(sorted(cmap), dtype=np.int64)
    vals = np.array([cmap[k] for k in keys.tolist()], dtype=np.int64)
    pos = np.clip(np.searchsorted(keys, packed), 0, len(keys) - 1)
    hit = keys[pos] == packed
    return np.where(hit, vals[pos], packed)
