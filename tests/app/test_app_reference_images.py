"""The bundled examples' ``--screenshot`` compared with reference images (tests/app/images/,
made by ``python tests/app/make_reference_images.py``) within a tolerance: a night position
(with and without a unit's field), the fire room's sample, a tabletop table.  A mismatch fails
naming the share of differing pixels and saves reference | actual | differences in tmp_path."""
from __future__ import annotations

import image_testing
import pytest


@pytest.mark.parametrize("name", sorted(image_testing.CASES))
def test_screenshot_matches_its_reference_image(name, qapp, tmp_path):
    actual = image_testing.render(name, tmp_path / f"{name}.png")
    problem = image_testing.compare(actual, image_testing.IMAGES / f"{name}.png",
                                    tmp_path / f"{name}-diff.png")
    assert problem is None, f"{name}: {problem}"


def test_the_comparison_fails_on_a_changed_picture_and_saves_the_difference(tmp_path):
    """A reference with a block painted over a tenth of it: more pixels differ than allowed,
    and the diff image is saved; a few stray pixels stay within the tolerance."""
    from PIL import Image
    reference = image_testing.IMAGES / "night-default.png"
    with Image.open(reference) as image:
        changed = image.convert("RGB")
    width, height = changed.size
    changed.paste((255, 255, 255), (0, 0, width // 3, height // 3))
    changed.save(tmp_path / "changed.png")
    problem = image_testing.compare(tmp_path / "changed.png", reference, tmp_path / "diff.png")
    assert problem is not None and "of the pixels differ" in problem
    assert (tmp_path / "diff.png").exists()
    with Image.open(reference) as image:
        few = image.convert("RGB")
    for x in range(5):
        few.putpixel((x, 0), (255, 0, 255))
    few.save(tmp_path / "few.png")
    assert image_testing.compare(tmp_path / "few.png", reference, tmp_path / "few-diff.png") is None
