"""How the pixel frames (``frame``) being built on a thread are built: ``building`` says whom
they report their steps to (the window's job, whose Cancel stops the build there) and how many
pixel classes they may make (the command line's bound, ``MAX_PIXEL_CLASSES``)."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable

# The command line's bound on a drawn map's pixel classes (docs/formats.md, *Loading*): noisy
# drawing (every pixel its own run) makes millions; the frame's memory and time grow with
# them (bench/raster_build.py on 32 boards: 3.75 M classes 8.4 s and 1.1 GB, 8.9 M 14 s and
# 1.9 GB of processor time and memory on the 2-core test machine).  Real boards make tens of
# thousands.  The window builds past it, with progress, stopped between steps on Cancel.
MAX_PIXEL_CLASSES = 6_000_000


class PixelClassesPastBound(Exception):
    """A drawn map whose pixel classes pass the bound of its build (``building``)."""

    def __init__(self, classes: int, bound: int, boards: list[str]):
        self.classes, self.bound, self.boards = classes, bound, boards
        super().__init__(
            f"the terrain drawn on boards {', '.join(boards)} makes {classes:,} pixel classes, "
            f"past the bound of {bound:,} (docs/formats.md, Loading): building its LOS table "
            "would take minutes and gigabytes")


@dataclass(frozen=True)
class Build:
    """How the frames built meanwhile are built: ``progress(fraction)`` called between steps
    (it may raise to stop the build: nothing is kept), and the bound on pixel classes (None:
    none)."""
    progress: Callable[[float], None] | None = None
    max_classes: int | None = None


_BUILD: ContextVar[Build] = ContextVar("frame_build", default=Build())


@contextmanager
def building(progress: Callable[[float], None] | None = None, max_classes: int | None = None):
    """Within: the frames this thread builds report to ``progress`` and refuse more than
    ``max_classes`` pixel classes (``PixelClassesPastBound``)."""
    token = _BUILD.set(Build(progress, max_classes))
    try:
        yield
    finally:
        _BUILD.reset(token)


def report(fraction: float) -> None:
    """The share of a frame built so far, to whoever ``building`` named (it may raise)."""
    progress = _BUILD.get().progress
    if progress is not None:
        progress(fraction)


def bound() -> int | None:
    """The most pixel classes a frame built now may make (None: no bound)."""
    return _BUILD.get().max_classes
