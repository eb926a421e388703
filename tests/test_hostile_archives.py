"""Hostile board archives and the files beside them, turn four: metadata in another encoding
carrying declarations, ZIP entries no reader can open, pictures whose header claims billions of
pixels.  Each file is made here; each ends in one message naming the file and the place, or in
the board imported as the docs promise, in bounded memory (a subprocess under an address-space
limit) and seconds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pytest
import vasl5_synth
import vasl_synth as synth
import vsav_synth as vs
from test_vasl6_picture import archive as picture_archive

from engine.errors import ScenarioError
from engine.hexes import parse_local
from engine.importers import vasl, vsav
from engine.overlay_file import OverlayFile, OverlayImage, load_overlay
from engine.overlay_paste import PlacedOverlay, overlay_picture
from engine.raster_file import Raster, load_raster
from engine.ssr import api as ssr

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT = 1024 * 1024 * 1024       # bytes of address space for the importing process

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="resource.setrlimit is POSIX")

# Imports each (archive, metadata file or null) given as JSON, under the memory limit; prints
# one JSON line each: "ok", the ScenarioError, or any other exception (a failure of the test).
IMPORTER = textwrap.dedent("""
    import json, resource, sys, time
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    from engine.errors import ScenarioError
    from engine.importers.vasl import import_board
    for path, meta in json.loads(sys.argv[1]):
        started = time.monotonic()
        try:
            board, report = import_board(path, metadata=meta)
            out = {{"ok": True, "report": report}}
        except ScenarioError as e:
            out = {{"error": str(e), "file": e.file, "place": e.place}}
        except BaseException as e:
            out = {{"crash": type(e).__name__ + ": " + str(e)[:200]}}
        out["seconds"] = time.monotonic() - started
        print(json.dumps(out), flush=True)
""")


def import_limited(cases: list[tuple[Path, Path | None]]) -> list[dict]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    args = json.dumps([[str(a), str(m) if m else None] for a, m in cases])
    done = subprocess.run([sys.executable, "-c", IMPORTER.format(limit=MEMORY_LIMIT), args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert all("crash" not in r and r["seconds"] < 15 for r in results), results
    return results


def laughs(encoding: str, root: str = "boardMetadata") -> bytes:
    """A metadata file whose entities grow to gigabytes, in ``encoding`` with its declaration."""
    entities = '<!ENTITY a0 "' + "lol" * 10 + '">' + "".join(
        f'<!ENTITY a{k} "' + f"&a{k - 1};" * 10 + '">' for k in range(1, 10))
    text = (f'<?xml version="1.0" encoding="{encoding.upper()}"?>\n'
            f'<!DOCTYPE {root} [{entities}]>\n'
            f'<{root} name="&a9;" hasHills="TRUE" width="33" height="10"/>\n')
    return text.encode(encoding)


@posix_only
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_metadata_in_another_encoding_with_declarations_is_refused(tmp_path, encoding):
    """In an archive (VASL 6 and VASL 5) and as the file named by ``--metadata``."""
    meta = tmp_path / "BoardMetadata.xml"
    meta.write_bytes(laughs(encoding))
    six = synth.hostile_archive(tmp_path / "bd01", metadata=meta.read_bytes())
    five = vasl5_synth.SynthBoard().write(tmp_path / "bd02", metadata=meta.read_bytes())
    plain = vasl5_synth.SynthBoard().write(tmp_path / "bd03")
    got = import_limited([(six, None), (five, None), (plain, meta)])
    for result, file in zip(got, (six, five, meta)):
        assert result.get("file") == str(file), result
        assert ("document type declarations" in result["error"]
                or "encoding" in result["error"]), result


def test_metadata_in_utf16_without_declarations_is_read(tmp_path):
    """The encoding is no fault: the same metadata in UTF-16 gives its building types."""
    board = vasl5_synth.SynthBoard()
    board.hex_("H3", "building", 0)
    meta = vasl5_synth.board_metadata([("H3", "Wooden Building, 2 Level")]).decode()
    meta = meta.replace('"1.0"?>', '"1.0" encoding="UTF-16"?>').encode("utf-16")
    imported, _ = vasl.import_board(board.write(tmp_path / "bd04", metadata=meta))
    assert imported.at(*parse_local("H3")).upper_levels == 2


def zip_entry_marked(path: Path, name: str, version: int | None = None,
                     encrypted: bool = False) -> Path:
    """Entry ``name`` of the ZIP at ``path`` marked as needing ZIP ``version`` (64: 6.4) or
    encrypted, in its local and central headers; its data left as it is."""
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        local = z.getinfo(name).header_offset
    heads = [local]
    at = raw.find(b"PK\x01\x02")
    while at >= 0:
        length = int.from_bytes(raw[at + 28:at + 30], "little")
        if raw[at + 46:at + 46 + length].decode() == name:
            heads.append(at + 2)                # (the central header has "version made by")
        at = raw.find(b"PK\x01\x02", at + 4)
    for head in heads:
        if version is not None:
            raw[head + 4:head + 6] = version.to_bytes(2, "little")
        if encrypted:
            raw[head + 6] |= 1
    path.write_bytes(raw)
    return path


MARKS = {"version 6.4": {"version": 64}, "encrypted": {"encrypted": True}}


def said(error: ScenarioError, file: Path, entry: str, mark: str) -> None:
    assert error.file == str(file) and error.place == entry, str(error)
    assert ("6.4" if mark == "version 6.4" else "encrypted") in error.problem


@pytest.mark.parametrize("mark", MARKS)
def test_a_saved_game_entry_no_reader_opens_is_named(tmp_path, mark):
    path = zip_entry_marked(vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "02")], []),
                            "savedGame", **MARKS[mark])
    with pytest.raises(ScenarioError) as e:
        vsav.read_vsav(path)
    said(e.value, path, "savedGame", mark)


@pytest.mark.parametrize("mark", MARKS)
def test_board_archive_entries_no_reader_opens_are_named(tmp_path, mark):
    six = zip_entry_marked(synth.hostile_archive(tmp_path / "bd01"), "LOSData", **MARKS[mark])
    five = vasl5_synth.SynthBoard().write(tmp_path / "bd02")
    zip_entry_marked(five, "bd02.gif", **MARKS[mark])
    for path, entry in ((six, "LOSData"), (five, "bd02.gif")):
        with pytest.raises(ScenarioError) as e:
            vasl.import_board(path)
        said(e.value, path, entry, mark)


@pytest.mark.parametrize("mark", MARKS)
def test_raster_and_overlay_members_no_reader_opens_are_named(tmp_path, mark):
    raster = tmp_path / "b1.raster.npz"
    raster.write_bytes(Raster(np.zeros((40, 60), np.uint8), np.zeros((40, 60), np.int8),
                              (0.0, 32.25, 56.25, 64.5), (2, 1)).to_bytes())
    zip_entry_marked(raster, "terrain.npy", **MARKS[mark])
    with pytest.raises(ScenarioError) as e:
        load_raster(raster)
    assert e.value.file == str(raster) and e.value.place in ("terrain", "terrain.npy"), str(e.value)
    overlay = tmp_path / "x1.overlay.npz"
    overlay.write_bytes(OverlayFile("x1", ("A1",), {}).to_bytes())
    zip_entry_marked(overlay, "name.npy", **MARKS[mark])
    with pytest.raises(ScenarioError) as e:
        load_overlay(overlay)
    assert e.value.file == str(overlay) and e.value.place in ("name", "name.npy"), str(e.value)


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` pixels, with one tiny data chunk."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (len(body).to_bytes(4, "big") + kind + body
                + zlib.crc32(kind + body).to_bytes(4, "big"))
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


def test_a_vasl6_picture_claiming_65535_squared_pixels_imports_the_terrain(tmp_path):
    """The docs' promise: the terrain imports, the picture is left out and the report says so."""
    path = picture_archive(tmp_path, png_claiming(65_535, 65_535))
    board, report = vasl.import_board(path)
    assert "image" not in board.extra and board.image_data is None
    assert any(line.startswith("bd98.png: ") and "terrain art" in line for line in report), report


def test_pictures_claiming_billions_of_pixels_are_told_not_raised(tmp_path):
    """The same header as a board picture on disk recoloured by an SSR (drawn as it is) and as
    an overlay's picture (a message naming the overlay)."""
    bomb = png_claiming(65_535, 65_535)
    on_disk = tmp_path / "bd98.png"
    on_disk.write_bytes(bomb)
    assert ssr.picture_rgba(on_disk, ["Winter"]) is None
    image = OverlayImage("a", *(np.zeros((2, 2), t) for t in (np.uint8, np.int8, bool, bool)),
                         picture=bomb)
    placed = PlacedOverlay(OverlayFile("x1", ("A1",), {"a": image}), image, "a", 0, 0, "A1", "A2")
    with pytest.raises(ScenarioError) as e:
        overlay_picture(placed)
    assert e.value.place == "overlay x1" and "decompression bomb" in e.value.problem.lower()
