"""Hostile VASL board archives (tests/vasl_synth.py makes them): every one is refused with one
message naming the file, in bounded memory.  The reader runs in a subprocess under an address-
space limit (resource.setrlimit), so a file that makes it allocate gigabytes fails the test
instead of the machine."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
import vasl_synth as synth

from engine.importers import vasl

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT = 1536 * 1024 * 1024       # bytes of address space for the reading process

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="resource.setrlimit is POSIX")

# Imports every archive it is given, under the memory limit; prints one JSON line per file:
# "ok", the ScenarioError's message, or any other exception's type (a failure of the test).
READER = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from engine.errors import ScenarioError
    from engine.importers.vasl import import_board
    for path in sys.argv[1:]:
        try:
            import_board(path)
            out = {{"file": path, "ok": True}}
        except ScenarioError as e:
            out = {{"file": path, "error": str(e), "named": e.file == path}}
        except BaseException as e:
            out = {{"file": path, "crash": type(e).__name__ + ": " + str(e)[:200]}}
        print(json.dumps(out), flush=True)
""")


def read_under_limit(paths: list[Path]) -> list[dict]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", READER.format(limit=MEMORY_LIMIT)]
                          + [str(p) for p in paths], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def refused(result: dict, *words: str) -> None:
    assert "crash" not in result, result
    assert "error" in result and result["named"], result
    for w in words:
        assert w.lower() in result["error"].lower(), (w, result["error"])


def test_hostile_archives_are_refused_in_bounded_memory(tmp_path):
    """Each of these took gigabytes (or a traceback) before: a 3000-pixel hex over a 40 x 30000
    grid, ten million empty Java blocks, NaN / infinite / zero hex geometry, an encrypted
    entry."""
    cases = {
        "tall_hex": synth.hostile_archive(
            tmp_path / "bd01", los=synth.los_data(synth.blank_payload(33, 10, 40, 30000)),
            metadata=synth.metadata_xml("01", hexHeight="3000", hexWidth="1.2", A1CenterY="1500")),
        "empty_blocks": synth.hostile_archive(tmp_path / "bd02",
                                              los=synth.empty_blocks_los(10_000_000)),
        "nan": synth.hostile_archive(tmp_path / "bd03",
                                     metadata=synth.metadata_xml("03", hexHeight="NaN")),
        "inf": synth.hostile_archive(tmp_path / "bd04",
                                     metadata=synth.metadata_xml("04", hexWidth="Infinity")),
        "zero": synth.hostile_archive(tmp_path / "bd05",
                                      metadata=synth.metadata_xml("05", hexWidth="0")),
        "encrypted": synth.mark_encrypted(synth.hostile_archive(tmp_path / "bd06"), "LOSData"),
    }
    assert all(p.stat().st_size < 64 * 1024 for p in cases.values())   # small files, all
    results = dict(zip(cases, read_under_limit(list(cases.values()))))
    refused(results["tall_hex"], "hexHeight", "pixels")
    refused(results["empty_blocks"], "blocks")
    refused(results["nan"], "hexHeight", "not a finite number")
    refused(results["inf"], "hexWidth", "not a finite number")
    refused(results["zero"], "hexWidth")
    refused(results["encrypted"], "LOSData", "encrypted")


def test_a_plain_blank_board_still_imports(tmp_path):
    board, _ = vasl.import_board(synth.hostile_archive(tmp_path / "bd66"))
    assert board.id == "66" and not board.hexes          # open ground at level 0: all default


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "bd07"
    os.mkfifo(fifo)
    with pytest.raises(vasl.ScenarioError) as e:
        vasl.import_board(fifo)
    assert e.value.file == str(fifo) and "FIFO" in e.value.problem


def _mutants(good: bytes, los: bytes, rng: random.Random, count: int):
    """Archives with random damage: bytes of the ZIP flipped, the LOSData's gzip or its payload
    header overwritten, entries cut short."""
    payload_heads = [(33, 10, 1800, 645), (33, 10, 100_000, 100_000), (33, 10, -1, 5),
                     (2**31 - 1, 10, 1800, 645), (33, 10, 1, 10_000_000), (33, 10, 0, 0)]
    for k in range(count):
        kind = k % 4
        if kind == 0:                                   # flip bytes anywhere in the archive
            raw = bytearray(good)
            for _ in range(rng.randint(1, 8)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            yield bytes(raw), None
        elif kind == 1:                                 # damage the gzip stream
            raw = bytearray(los)
            for _ in range(rng.randint(1, 4)):
                raw[rng.randrange(len(raw))] = rng.randrange(256)
            yield None, bytes(raw[:rng.randrange(len(raw) + 1)] if rng.random() < 0.3 else raw)
        elif kind == 2:                                 # a lying header
            w, h, gw, gh = rng.choice(payload_heads)
            body = synth.struct.pack(">iiii", w, h, gw, gh) + bytes(rng.randrange(4096))
            yield None, synth.los_data(body, block=rng.choice([1, 7, 255, 1024]))
        else:                                           # a stream of odd records
            records = bytes(rng.choice([0x77, 0x7A, 0x70, 0x73]) for _ in range(64))
            yield None, synth.gzip.compress(synth.JAVA_MAGIC + records + bytes(64))


def test_fuzzed_archives_never_crash_the_reader_or_exhaust_memory(tmp_path):
    """A bounded fuzz (fixed seed, 48 archives): every archive is imported or refused with a
    message naming it, under the memory limit."""
    rng = random.Random(20261130)
    good_path = synth.hostile_archive(tmp_path / "good")
    good = good_path.read_bytes()
    with zipfile.ZipFile(good_path) as z:
        los = z.read("LOSData")
    paths = []
    for k, (archive, los_bytes) in enumerate(_mutants(good, los, rng, 48)):
        path = tmp_path / f"bd{k + 10}"
        if archive is not None:
            path.write_bytes(archive)
        else:
            synth.hostile_archive(path, los=los_bytes)
        paths.append(path)
    results = read_under_limit(paths)
    assert len(results) == len(paths)
    for r in results:
        assert "crash" not in r, r
        assert r.get("ok") or r["named"], r
    assert sum(1 for r in results if "error" in r) >= len(paths) // 2   # most are damaged


def vasl5_archive(path: Path, image, data: str = "version 5.4\n", entries: int = 0) -> Path:
    """A VASL 5 archive of ``image`` (PNG), its data file and ``entries`` extra 1-byte entries."""
    import io

    buf = io.BytesIO()
    image.save(buf, "PNG")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(f"{path.name}.png", buf.getvalue())
        z.writestr("data", data)
        for k in range(entries):
            z.writestr(f"x{k}", b"x")
    return path


def test_hostile_vasl5_archives_end_in_seconds_and_bounded_memory(tmp_path):
    """Each of these took a minute, gigabytes or a traceback before: a 3162 x 3162 picture of
    one colour and one level pixel (the level fill), a picture of a million distinct colours,
    twenty thousand entries, A1's centre at x 1e308."""
    import time

    import numpy as np
    from PIL import Image

    woods, level2 = (85, 95, 45), (147, 111, 31)        # VASL's WoodsGreen, Level2
    one = np.zeros((3162, 3162, 3), np.uint8) + np.array(woods, np.uint8)
    one[1581, 1581] = level2
    distinct = np.arange(1000 * 1000, dtype=np.uint32).reshape(1000, 1000)
    rgb = np.stack([distinct >> 16, (distinct >> 8) & 255, distinct & 255], -1).astype(np.uint8)
    small = Image.fromarray(np.zeros((645, 1800, 3), np.uint8) + np.array(woods, np.uint8))
    cases = {
        "fill": vasl5_archive(tmp_path / "bd90", Image.fromarray(one)),
        "colours": vasl5_archive(tmp_path / "bd91", Image.fromarray(rgb)),
        "entries": vasl5_archive(tmp_path / "bd92", small, entries=20_000),
        "x0": vasl5_archive(tmp_path / "bd93", small, data="version 5.4\nx0 1e308\n"),
    }
    started = time.monotonic()
    results = dict(zip(cases, read_under_limit(list(cases.values()))))
    assert time.monotonic() - started < 15 * len(cases)
    assert results["fill"].get("ok") or results["fill"].get("named"), results["fill"]
    assert "crash" not in results["fill"], results["fill"]
    refused(results["colours"], "distinct colours", "bd91.png")
    refused(results["entries"], "entries")
    refused(results["x0"], "data", "x0")


def test_cancel_stops_the_level_fill_within_a_step():
    """Cancel was checked only before and after the level fill (30 s on a big picture): the
    nearest-level fill (VASL's ring search) now asks at each of its column passes."""
    import numpy as np

    from engine.importers.vasl import ImportCancelled
    from engine.importers.vasl5_grid import nearest_fill

    level = np.full((300, 300), -128, np.int8)
    level[150, 150] = 2
    seen = []

    def progress(fraction):
        seen.append(fraction)
        if len(seen) == 3:
            raise ImportCancelled()
    with pytest.raises(ImportCancelled):
        nearest_fill(level, level != -128, np.ones(level.shape, dtype=bool), 50, 0, progress)
    assert seen == [0.0, 1 / 101, 2 / 101]
