"""The engine's one cache mechanism: ``functools.lru_cache``.

- A pure function of small hashable arguments is wrapped in ``functools.lru_cache`` directly
  (hex geometry: ``hex_lines.line_crossing`` by the difference of two hexes, unbounded: a map's
  differences are a few tens of thousands; a bundled board by its id; a board's raster file by
  its resolved path, mtime and size, ``boards._raster_file``, the last few).
- A function of a map (``los.los_table``, ``los.ground``'s ground tables, the starshell light's
  terrain exceptions, the app's map outlines) is wrapped in ``per_map(maxsize)``: the same
  ``lru_cache``, keyed by the map's *content* (``Map.content_key``: its boards' terrain and
  placements), so every scenario on the same map shares the work and an edited board is a new
  map.  At most ``maxsize`` maps are kept, the least recently used dropped first.

What one object works out about itself (a LOS table's rows, a night field's reasons: lazy
attributes) lives and dies with that object; it is no cache of this module.
``cache_clear()`` on a cached function forgets everything (benchmarks measure cold starts so);
``cached_values()`` on a ``per_map`` function gives the objects it holds (those that can be
weakly referenced: a value the cache has dropped is gone from the list).
"""
from __future__ import annotations

import functools
import weakref
from typing import Any, Callable


class _ByContent:
    """A map as an ``lru_cache`` key: equal when the contents are."""
    __slots__ = ("map", "key")

    def __init__(self, game_map):
        self.map, self.key = game_map, game_map.content_key

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other) -> bool:
        return isinstance(other, _ByContent) and other.key == self.key


def per_map(maxsize: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``f(game_map, *args)`` remembered per map content (and ``args``), for ``maxsize`` maps."""
    def wrap(f):
        held = weakref.WeakValueDictionary()     # what the lru_cache holds, for cached_values

        @functools.lru_cache(maxsize)
        def cached(key: _ByContent, *args):
            value = f(key.map, *args)
            try:
                held[(key.key, args)] = value
            except TypeError:                    # not weakly referable (a tuple...)
                pass
            return value

        @functools.wraps(f)
        def call(game_map, *args):
            return cached(_ByContent(game_map), *args)

        def cache_clear() -> None:
            cached.cache_clear()
            held.clear()

        call.cache_clear = cache_clear
        call.cache_info = cached.cache_info
        call.cached_values = lambda: list(held.values())
        return call
    return wrap
