"""The app's own writers go through the engine's one writer: an exported picture and a
recovery slot's owner file are never written through a link planted where they go."""
from __future__ import annotations

import sys

import pytest
from PySide6.QtGui import QImage

from app import recovery
from app.render import write_png
from engine.api import ScenarioError

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links: POSIX")


def test_an_exported_picture_is_not_written_through_a_link(tmp_path):
    target = tmp_path / "elsewhere.txt"
    target.write_text("mine")
    link = tmp_path / "map.png"
    link.symlink_to(target)
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    image.fill(0)
    with pytest.raises(OSError) as e:
        write_png(image, str(link))
    assert str(link) in str(e.value) and "link" in str(e.value)
    assert target.read_text() == "mine" and link.is_symlink()
    write_png(image, str(tmp_path / "plain.png"))
    assert (tmp_path / "plain.png").read_bytes().startswith(b"\x89PNG")


def test_a_recovery_slot_that_is_a_link_is_not_claimed(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    slot = tmp_path / "recovery" / "123-1"
    slot.parent.mkdir()
    slot.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ScenarioError):
        recovery.claim(slot)
    assert list(elsewhere.iterdir()) == []
