"""Napoleonic fire combat on hex maps (rules.md 8): a room of its own over the core."""
