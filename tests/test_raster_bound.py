"""A drawn map of noisy terrain (every pixel its own run, millions of pixel classes) in time and
memory: the largest legal one's LOS table within 15 s of processor time and 2 GB, and past the
command line's bound of pixel classes (docs/formats.md, *Loading*) a refusal naming the file
and the figures, unless --no-limit; the build's steps reported, and stopped by whoever reports
them (the window's Cancel)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import engine.cli
from engine.boards import Board, HexTerrain, save_board, with_raster
from engine.cli import main
from engine.los import MAX_PIXEL_CLASSES, PixelClassesPastBound, building, los_table
from engine.los.raster.frame import build_frame, map_rasters
from engine.maps import Map, Placement
from engine.raster_file import Raster

ROOT = Path(__file__).resolve().parent.parent
SIZE, GEO = (33, 10), (0.0, 32.25, 56.25, 64.5)
W, H = 1801, 645
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="resource.setrlimit is POSIX")


def noisy_board(board_id: str, seed: int = 5) -> Board:
    """A geomorphic board whose every pixel is drawn at random: terrain and level."""
    rng = np.random.default_rng(seed)
    codes = np.array([0, 63, 24, 60, 8, 90], np.uint8)
    raster = Raster(codes[rng.integers(0, len(codes), (H, W))],
                    rng.integers(0, 4, (H, W)).astype(np.int8), GEO, SIZE)
    return with_raster(Board(board_id, "noisy", HexTerrain(), {}, size=SIZE), raster)


@pytest.fixture(scope="module")
def noisy_position(tmp_path_factory):
    """A position file on one noisy drawn board (its raster beside it), and its class count."""
    folder = tmp_path_factory.mktemp("noisy")
    board = noisy_board("n1")
    save_board(board, folder / "n1.json")
    doc = {"format": "starshell-scenario", "version": 1, "title": "noise",
           "map": [{"board": "n1.json", "at": [0, 0]}], "nvr": 3, "phase": "PFPh",
           "attacker": "allied", "starshells_used": "earlier",
           "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "n1E5"},
                     {"id": "G", "side": "axis", "type": "squad", "hex": "n1K3"}]}
    path = folder / "noise.json"
    path.write_text(json.dumps(doc))
    m = Map([Placement(board, (0, 0))])
    return path, len(build_frame(m, map_rasters(m)).cls_level)


def test_past_the_bound_the_command_line_refuses_naming_the_file_and_the_figures(
        noisy_position, monkeypatch, capsys):
    path, classes = noisy_position
    bound = classes // 2
    monkeypatch.setattr(engine.cli, "MAX_PIXEL_CLASSES", bound)
    for command in (["visibility", str(path), "--from", "A"], ["reveal", str(path), "--unit", "A"],
                    ["threat", str(path), "--side", "allied"]):
        assert main([*command, "--json"]) == 2, command
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}") and "Traceback" not in err, err
        assert f"{classes:,} pixel classes" in err and f"{bound:,}" in err, err
        assert "--no-limit" in err and "n1" in err, err
    assert main(["visibility", str(path), "--from", "A", "--json", "--no-limit"]) == 0
    field = json.loads(capsys.readouterr().out)
    assert field["viewer"] == "A" and field["hexes"]
    monkeypatch.setattr(engine.cli, "MAX_PIXEL_CLASSES", classes)   # at the bound: answered
    assert main(["visibility", str(path), "--from", "A", "--to", "G", "--json"]) == 0


def test_the_bound_is_the_documented_one():
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert f"{MAX_PIXEL_CLASSES:,} pixel classes" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"{MAX_PIXEL_CLASSES:,}" in readme and "--no-limit" in readme


def test_the_build_reports_its_steps_and_stops_where_its_progress_says():
    """The frame's steps reported in order up to 1; a progress that raises (the window's
    Cancel: ``app.jobs.Progress``) stops the build there, and no table is kept."""
    m = Map([Placement(noisy_board("s1", seed=9), (0, 0))])
    seen = []
    with building(progress=seen.append):
        whole = build_frame(m, map_rasters(m))
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen) and len(seen) > 4

    class Stop(Exception):
        pass

    def stop_at_half(fraction):
        if fraction >= 0.5:
            raise Stop()
    with building(progress=stop_at_half), pytest.raises(Stop):
        los_table(m)
    with building(max_classes=len(whole.cls_level) - 1), pytest.raises(PixelClassesPastBound):
        los_table(m)
    table = los_table(m)                              # built whole now: nothing was kept
    assert np.array_equal(table.frame.pix_cls, whole.pix_cls)


# Builds the LOS table of the largest legal map of noisy drawing (32 boards, 8 x 4, every pixel
# drawn at random: about 3.75 million pixel classes) under the memory limit, the compiled walk
# loaded first (compiled once per install); prints the processor seconds of the build and its
# class count.
LARGEST = textwrap.dedent("""
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    sys.path.insert(0, {bench!r})
    from raster_build import noisy_map
    from engine.los import los_table
    codes = [0, 63, 24, 60, 8, 90]
    los_table(noisy_map(1, 1, codes, 0, 3))       # the compiled walk's 32-bit version loaded
    m = noisy_map(8, 4, codes, 0, 3)
    started = time.process_time()
    table = los_table(m)
    print(json.dumps({{"seconds": time.process_time() - started,
                      "classes": len(table.frame.cls_level)}}))
""")


@posix_only
def test_the_largest_noisy_map_builds_within_15_s_and_2_gb():
    """Was 25 s of processor time and 1.6 GB (numpy's hashed unique over millions of keys;
    every temporary of the classes at once)."""
    limit = 2 * 1024 ** 3                          # bytes of address space: 2 GiB
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-c", LARGEST.format(limit=limit, bench=str(ROOT / "bench"))],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["classes"] > 3_000_000 and got["classes"] <= MAX_PIXEL_CLASSES
    assert got["seconds"] < 15, got
