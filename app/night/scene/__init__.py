"""The map scene: terrain, grid, overlays and counters (QGraphicsItems)."""
