"""Reference images of the bundled examples' ``--screenshot`` (as pyqtgraph's image tests): each
case rendered by ``app.__main__.main`` in this process, at a modest size, and compared with its
PNG under tests/app/images/ within a tolerance.  The references are made (again, after a change
of the picture meant) by ``python tests/app/make_reference_images.py`` from the source folder.

Two pixels differ when one of their red, green or blue values differs by more than
``PIXEL_THRESHOLD``; an image matches when at most ``ALLOWED_FRACTION`` of its pixels differ
(font rendering and antialiasing vary a little between machines)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
IMAGES = Path(__file__).resolve().parent / "images"
SIZE = (640, 400)
PIXEL_THRESHOLD = 48
ALLOWED_FRACTION = 0.02

# name: (the bundled example, the options after it)
CASES = {
    "night-default": ("assets/scenarios/default.json", ()),
    "night-W-10-L1": ("assets/scenarios/W-10.json", ("--select", "L1")),
    "fire-sample": ("assets/fire/sample.json", ()),
    "table-S-01": ("assets/tables/S-01.json", ()),
}


def render(name: str, out: Path) -> Path:
    """``python -m app EXAMPLE --screenshot OUT --size WxH`` in this process; Qt's application
    style, palette and names are put back afterwards (the program sets its own theme)."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.__main__ import main
    example, options = CASES[name]
    app = QApplication.instance()
    before = None if app is None else (app.style().name(), QPalette(app.palette()),
                                       app.organizationName(), app.applicationName())
    try:
        status = main([str(ROOT / example), *options, "--screenshot", str(out),
                       "--size", f"{SIZE[0]}x{SIZE[1]}"])
    finally:
        if before is not None:
            app = QApplication.instance()
            app.setStyle(before[0])
            app.setPalette(before[1])
            app.setOrganizationName(before[2])
            app.setApplicationName(before[3])
    assert status == 0, f"{example}: --screenshot exited with status {status}"
    return out


def pixels(path: Path) -> np.ndarray:
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"), dtype=np.int16)


def compare(actual_path: Path, reference_path: Path, diff_path: Path) -> str | None:
    """None when the images match within the tolerance; else why not, with a diff image saved
    at ``diff_path`` (the reference, the actual picture, and the differing pixels in red)."""
    if not reference_path.exists():
        return (f"no reference image {reference_path}: make it with "
                f"`python tests/app/make_reference_images.py`")
    actual, reference = pixels(actual_path), pixels(reference_path)
    if actual.shape != reference.shape:
        return f"size {actual.shape[1]}x{actual.shape[0]}, the reference " \
               f"{reference.shape[1]}x{reference.shape[0]}"
    differing = np.abs(actual - reference).max(axis=2) > PIXEL_THRESHOLD
    fraction = float(differing.mean())
    if fraction <= ALLOWED_FRACTION:
        return None
    marked = (reference // 3).astype(np.uint8)
    marked[differing] = (255, 0, 0)
    side_by_side = np.concatenate([reference.astype(np.uint8), actual.astype(np.uint8), marked],
                                  axis=1)
    Image.fromarray(side_by_side).save(diff_path)
    return (f"{fraction:.1%} of the pixels differ by more than {PIXEL_THRESHOLD} "
            f"(at most {ALLOWED_FRACTION:.0%} may): reference | actual | differences in "
            f"{diff_path}")
