"""Napoleonic fire combat on hex maps (RULES.md section 8): a room of its own over the core."""
