"""The planner's long questions a step at a time (rules.md 10): each is a generator that yields
its progress, ``(text, share done)``, between two pieces of work, and returns its answer.  The
engine starts no thread: the app's job runner drives the steps (and stops between two when the
player cancels); ``drive`` runs them to the end for everyone else.

A step works out the sight of as many units as make ``STEP_WORK`` unit-hexes (each unit's
verdict on every hex of the map is a LOS row): 64 units on a map of 1,000 hexes, 6 on 32
boards, so that a step lasts about a second at most and Cancel is felt at once.
"""
from __future__ import annotations

from collections.abc import Iterator

STEP_UNITS = 64             # at most, units worked out between two steps
STEP_WORK = 64_000          # unit-hexes a step


def step_units(map_size: int) -> int:
    """Units a step on a map of ``map_size`` hexes."""
    return max(1, min(STEP_UNITS, STEP_WORK // max(map_size, 1)))


def drive(steps):
    """Run a planner's steps to the end: their answer."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def batches(items: list, size: int = STEP_UNITS) -> Iterator[list]:
    for k in range(0, len(items), size):
        yield items[k:k + size]


__all__ = ["STEP_UNITS", "STEP_WORK", "batches", "drive", "step_units"]
