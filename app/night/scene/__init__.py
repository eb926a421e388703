"""The map's drawing, shared by every feature: terrain, grid, hexsides, board art, the overlays
and their helpers, the counters and their art, the field's image, and the layers shown by name
(``layers``).  The scene that puts them together with the features' items is
``app.night.map.map_scene``."""
