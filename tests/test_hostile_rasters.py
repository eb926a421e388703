"""Hostile rasters and pictures beside a board (engine.raster_file, engine.boards): a ``.npy``
header is checked against the board's geometry before numpy allocates anything, a raster must
draw its board, links out of the board's folder are not followed, and pictures and rasters are
written through temporary files of names of their own (a failure names the file, leaves none)."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import numpy as np
import pytest

import engine.jsonio
from engine.boards import Board, HexTerrain, board_raster, load_board, save_board, with_raster
from engine.errors import ScenarioError
from engine.raster_file import Raster, load_raster

ROOT = Path(__file__).resolve().parent.parent
SIZE = (9, 5)
GEO = (0.0, 32.25, 56.25, 64.5)
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="links, rlimit: POSIX")


def raster(shape=(323, 450), geometry=GEO, size=SIZE) -> Raster:
    return Raster(np.zeros(shape, np.uint8), np.zeros(shape, np.int8), geometry, size)


def npz(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, raw in members.items():
            z.writestr(name, raw)
    return buf.getvalue()


def npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def members(**changes: bytes) -> dict[str, bytes]:
    r = raster()
    out = {"terrain.npy": npy(r.terrain), "level.npy": npy(r.level),
           "geometry.npy": npy(np.array(GEO)), "size.npy": npy(np.array(SIZE, np.int64)),
           "summary.npy": npy(np.zeros(0, np.uint8))}
    out.update(changes)
    return out


def huge_header(shape: tuple[int, int]) -> bytes:
    """A uint8 ``.npy`` whose header declares ``shape`` and whose data is a few bytes."""
    header = repr({"descr": "|u1", "fortran_order": False, "shape": shape}).encode()
    header += b" " * (63 - (len(header) + 10) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 16


def refused(path: Path, *words: str) -> str:
    with pytest.raises(ScenarioError) as e:
        load_raster(path)
    text = str(e.value)
    assert str(path) in text, text
    for w in words:
        assert w in text, (w, text)
    return text


@posix_only
def test_a_header_declaring_two_billion_pixels_is_refused_before_any_allocation(tmp_path):
    path = tmp_path / "h.raster.npz"
    path.write_bytes(npz(members(**{"terrain.npy": huge_header((1, 1_900_000_000))})))
    limit = 700 * 1024 * 1024               # far less than the 1.9 GB the header asks for
    code = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
        from engine.errors import ScenarioError
        from engine.raster_file import load_raster
        try:
            load_raster(sys.argv[1])
        except ScenarioError as e:
            print(e)
    """)
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60,
                          env=dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1"))
    assert done.returncode == 0, done.stderr[-1500:]
    assert str(path) in done.stdout and "terrain" in done.stdout and "1900000000" in done.stdout


def test_a_malformed_npy_header_is_named_not_an_internal_error(tmp_path):
    path = tmp_path / "m.raster.npz"
    bad = b"\x93NUMPY\x01\x00" + (20).to_bytes(2, "little") + b"{'descr': '|u1', 'sh\n"
    path.write_bytes(npz(members(**{"level.npy": bad})))
    refused(path, "level", "header")


@pytest.mark.parametrize("shape, geometry", [
    ((1, 1), GEO),                                  # one pixel for 45 hexes
    ((1, 10_000_000), GEO),
    ((323, 450), (0.0, 4.0, 8.0, 8.0)),             # 8-pixel hexes: the picture is 13 times too big
    ((323, 450), (0.0, 1e300, 56.25, 64.5)),
])
def test_a_raster_that_does_not_draw_its_board_is_refused(tmp_path, shape, geometry):
    path = tmp_path / "c.raster.npz"
    r = raster(shape, geometry)
    path.write_bytes(npz(members(**{"terrain.npy": npy(r.terrain), "level.npy": npy(r.level),
                                    "geometry.npy": npy(np.array(geometry))})))
    refused(path)
    board = Board("t1", "b", HexTerrain(), {}, size=SIZE)
    data = {**json.loads(json.dumps(engine.boards.board_to_json(board))),
            "raster": {"file": "c.raster.npz"}}            # no digest: the file is not trusted
    (tmp_path / "b.json").write_text(json.dumps(data))
    with pytest.raises(ScenarioError):
        board_raster(load_board(tmp_path / "b.json"))


def test_deluxe_hexes_load_as_the_importer_makes_them(tmp_path):
    deluxe = (0.0, 96.765, 168.72, 193.53)              # VASL's Deluxe boards, pixels a hex
    columns, rows = 11, 4
    shape = (round(2 * deluxe[1] + (rows - 1) * deluxe[3]), round((columns - 1) * deluxe[2]))
    r = raster(shape, deluxe, (columns, rows))
    (tmp_path / "d.raster.npz").write_bytes(r.to_bytes())
    back = load_raster(tmp_path / "d.raster.npz")
    assert back.geometry == deluxe and back.shape == shape


@posix_only
def test_a_raster_linked_out_of_its_folder_is_not_read(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "r.raster.npz").write_bytes(raster().to_bytes())
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / "b.raster.npz").symlink_to(outside / "r.raster.npz")
    refused(folder / "b.raster.npz", "outside its folder")


def test_a_nul_in_a_raster_name_is_a_message_naming_the_board(tmp_path):
    board = Board("t1", "b", HexTerrain(), {}, size=SIZE)
    data = {**engine.boards.board_to_json(board), "raster": {"file": "a\u0000.raster.npz"}}
    (tmp_path / "b.json").write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as e:
        board_raster(load_board(tmp_path / "b.json"))
    assert "NUL" in str(e.value) and "\0" not in str(e.value)


def picture_board(folder: Path, picture: bytes | None = b"GIF89a-picture") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    board = Board("77", "b", HexTerrain(), {}, size=SIZE)
    data = {**engine.boards.board_to_json(board), "image": {"file": "bd77.gif"}}
    (folder / "bd77.json").write_text(json.dumps(data))
    if picture is not None:
        (folder / "bd77.gif").write_bytes(picture)
    return folder / "bd77.json"


@posix_only
def test_save_board_as_copies_no_picture_linked_out_of_the_folder(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0")
    path = picture_board(tmp_path / "boards", None)
    (tmp_path / "boards" / "bd77.gif").symlink_to(secret)
    with pytest.raises(ScenarioError) as e:
        save_board(load_board(path), tmp_path / "copy" / "bd77.json")
    assert str(tmp_path / "boards" / "bd77.gif") in str(e.value)
    assert not (tmp_path / "copy").exists() or not list((tmp_path / "copy").iterdir())


def test_save_board_as_keeps_the_players_file_of_the_pictures_name(tmp_path):
    path = picture_board(tmp_path / "boards")
    mine = picture_board(tmp_path / "mine", b"the player's own picture")
    save_board(load_board(path), mine)
    assert (tmp_path / "mine" / "bd77.gif").read_bytes() == b"GIF89a-picture"
    assert (tmp_path / "mine" / "bd77.gif.bak").read_bytes() == b"the player's own picture"


def test_pictures_and_rasters_use_temporary_names_of_their_own(tmp_path):
    path = picture_board(tmp_path / "boards")
    board = with_raster(load_board(path), raster())
    target = tmp_path / "copy"
    for fixed in ("bd77.gif.tmp", "bd77.raster.npz.tmp"):       # another save's, in the way
        (target / fixed).mkdir(parents=True)
    save_board(board, target / "bd77.json")
    assert (target / "bd77.gif").read_bytes() == b"GIF89a-picture"
    assert board_raster(load_board(target / "bd77.json")) is not None


def test_a_full_disk_names_the_picture_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    path = picture_board(tmp_path / "boards")
    target = tmp_path / "copy"
    target.mkdir()

    def full(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(engine.jsonio.os, "replace", full)
    with pytest.raises(ScenarioError) as e:
        save_board(load_board(path), target / "bd77.json")
    assert str(target / "bd77.gif") in str(e.value) and "No space" in str(e.value)
    assert list(target.iterdir()) == []


def test_a_second_board_of_the_same_id_in_the_folder_keeps_the_first_ones_files(tmp_path):
    """import-vasl of another bd77 into the same folder replaced the first board's picture and
    raster: the first then drew the other board, and fell back to the hex model."""
    import vasl5_synth

    from engine.importers.vasl import import_board

    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    first_archive = vasl5_synth.random_board(1).write(tmp_path / "a" / "bd77", kind="png")
    second_archive = vasl5_synth.random_board(2).write(tmp_path / "b" / "bd77", kind="png")
    out = tmp_path / "boards"
    out.mkdir()
    first, _ = import_board(first_archive)
    save_board(first, out / "first.json")
    picture = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix == ".png"}
    first_raster = board_raster(load_board(out / "first.json")).digest
    second, _ = import_board(second_archive)
    save_board(second, out / "second.json")
    again = load_board(out / "first.json")
    assert {n: (out / n).read_bytes() for n in picture} == picture      # untouched
    assert board_raster(again) is not None and board_raster(again).digest == first_raster
    other = load_board(out / "second.json")
    assert other.extra["image"]["file"] not in picture
    assert board_raster(other).digest != first_raster
