"""Make the reference images of tests/app/test_app_reference_images.py again, after a change of
the picture that is meant:

    QT_QPA_PLATFORM=offscreen python tests/app/make_reference_images.py [NAME ...]

from the source folder (every case, or the ones named; see ``image_testing.CASES``).  Look at
each PNG written under tests/app/images/ before committing it."""
from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import image_testing  # noqa: E402


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(image_testing.CASES))
    if unknown:
        print(f"error: no such case: {', '.join(unknown)} "
              f"(cases: {', '.join(image_testing.CASES)})", file=sys.stderr)
        return 2
    image_testing.IMAGES.mkdir(exist_ok=True)
    for name in names or image_testing.CASES:
        out = image_testing.render(name, image_testing.IMAGES / f"{name}.png")
        print(f"{out.relative_to(image_testing.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
