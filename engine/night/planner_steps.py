"""The planner's long questions a step at a time (RULES.md 10): each is a generator that yields
its progress, ``(text, share done)``, between two pieces of work, and returns its answer.  The
engine starts no thread: the app's job runner drives the steps (and stops between two when the
player cancels); ``drive`` runs them to the end for everyone else."""
from __future__ import annotations

from collections.abc import Iterator

STEP_UNITS = 64             # viewers (or firers) worked out between two steps


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


__all__ = ["STEP_UNITS", "batches", "drive"]
