"""``python -m app SCENARIO --screenshot OUT.png``: a PNG of exactly the requested size; bad
input exits with status 2 and a message on stderr."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from app.night.document import default_scenario_path

ROOT = Path(__file__).resolve().parents[2]


def run(*args):
    return subprocess.run([sys.executable, "-m", "app", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_screenshot_has_the_requested_size(tmp_path):
    out = tmp_path / "shot.png"
    r = run(default_scenario_path(), "--screenshot", out, "--select", "L1", "--size", "640x360")
    assert r.returncode == 0, r.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (640, 360)


def test_screenshot_default_size_and_default_scenario(tmp_path):
    out = tmp_path / "shot.png"
    r = run("--screenshot", out)
    assert r.returncode == 0, r.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 900)


@pytest.mark.parametrize("args, words", [
    (["--select", "NOBODY"], "no unit 'NOBODY'"),
    (["--size", "12by7"], "not a size"),
    (["--size", "0x100"], "not a size"),
])
def test_screenshot_bad_input_exits_2(tmp_path, args, words):
    r = run(default_scenario_path(), "--screenshot", tmp_path / "x.png", *args)
    assert r.returncode == 2
    assert words in r.stderr
    assert not (tmp_path / "x.png").exists()


def test_screenshot_of_a_bad_file_exits_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"format\": \"starshell-scenario\", \"version\": 1}")
    r = run(bad, "--screenshot", tmp_path / "x.png")
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and str(bad) in r.stderr


def test_screenshot_into_a_missing_folder_exits_2(tmp_path):
    r = run(default_scenario_path(), "--screenshot", tmp_path / "no" / "such" / "x.png")
    assert r.returncode == 2
    assert "cannot write" in r.stderr
