"""The terrain SSRs' door (``engine.api.ssr``): VASL's rule names in a player's words, the season
presets, the names not applied, and a board picture in the colours the rules give it
(rules.md 11.2)."""
from __future__ import annotations

import os
from functools import lru_cache

from .picture import colour_map, recolour
from .table import MAX_RULES, not_known, unique
from .words import GROUND, MONTHS, WORDS, choices, describe, in_words, preset

MAX_PICTURES = 8              # board pictures kept recoloured (a map of a few boards)


def not_applied(names) -> list[str]:
    """The rule names Starshell does not apply (not VASL LOS rules, or a level VASL cannot
    read): the window and the command line name them, never drop them."""
    return not_known(names)


def picture_rgba(path, names) -> tuple[int, int, bytes] | None:
    """The board picture at ``path`` in the colours of the rules ``names`` (VASL's colour rules):
    (width, height, RGBA bytes), kept per (file, rules); None when the rules change no colour
    (draw the picture as it is) or the file cannot be read."""
    names = tuple(unique(names))
    if not colour_map(names):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _picture(str(path), st.st_mtime_ns, st.st_size, names)


@lru_cache(maxsize=MAX_PICTURES)
def _picture(path: str, mtime: int, size: int, names: tuple[str, ...]):
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(path) as image:
            out = recolour(image, names).convert("RGBA")
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError):
        return None
    return out.width, out.height, out.tobytes()


__all__ = ["GROUND", "MAX_RULES", "MONTHS", "WORDS", "choices", "colour_map", "describe",
           "in_words", "not_applied", "picture_rgba", "preset", "recolour"]
