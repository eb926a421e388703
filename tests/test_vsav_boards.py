"""A saved game's boards from the player's boards folder: VASL archives of either kind (VASL 5:
picture and colours; VASL 6: LOSData and its picture) imported as ``import-vasl`` imports them
(raster, picture, report), cached beside the position; a folder that does not serve says which
boards it lacks and why."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import vasl5_synth
import vsav_synth as vs
from test_vasl6_picture import archive as v6_archive
from test_vasl6_picture import picture

from engine.cli import main
from engine.errors import ScenarioError
from engine.importers import vsav
from engine.importers.vsav_boards import CACHE_FOLDER, MissingBoards
from engine.night.files import load_scenario


def v5_board(folder, name="05"):
    b = vasl5_synth.SynthBoard()
    b.hex_("K5", "woods")
    b.hex_("K6", "open", 1)
    return b.write(folder / f"bd{name}")


def v6_board(folder):
    """A VASL 6 archive of board 98 with its picture."""
    return v6_archive(folder, picture())


def game(tmp_path, boards=((0, 0, "05"), (1, 0, "98"))):
    return vs.write_vsav(tmp_path / "g.vsav", list(boards),
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5", (0, 0))),
                          vs.squad("4-4-7 2sq", vs.hex_pixel("C5", (1, 0)), nation="ru")])


@pytest.fixture()
def folder(tmp_path):
    f = tmp_path / "boards"
    f.mkdir()
    v5_board(f)
    v6_board(f)
    return f


def test_both_kinds_of_archive_open_a_save(tmp_path, folder):
    out = tmp_path / "pos" / "pos.json"
    out.parent.mkdir()
    summary = vsav.import_vsav(game(tmp_path), out, boards_dir=folder)
    assert summary["boards"] == ["5", "98"] and summary["units"] == 2
    assert any("imported from the VASL 5 board archive" in n for n in summary["notes"])
    s = load_scenario(out)
    assert s.unit("ge1").hex == "5K5" and s.map.terrain_name(s.map.index("5K5")) == "woods"
    assert s.unit("ru1").hex == "98C5"
    for name, picture_file in (("bd05", "bd05.gif"), ("bd98", "bd98.png")):
        data = json.loads((out.parent / f"{name}.json").read_text())
        assert data["image"]["file"] == picture_file, name     # the picture kept
        assert (out.parent / picture_file).is_file()
        assert (out.parent / data["raster"]["file"]).is_file()  # the terrain as drawn
        assert data["imported_from"]["sha1"]


def test_second_import_takes_the_cached_boards_until_an_archive_changes(tmp_path, folder):
    out = tmp_path / "pos.json"
    path = game(tmp_path)
    first = vsav.import_vsav(path, out, boards_dir=folder)
    assert len(first["board_files"]) == 2
    again = vsav.import_vsav(path, out, boards_dir=folder)
    assert again["board_files"] == []
    assert sum("(imported before)" in n for n in again["notes"]) == 2
    b = vasl5_synth.SynthBoard()
    b.hex_("K5", "open", 2)
    b.write(folder / "bd05")                                 # the player's new version
    third = vsav.import_vsav(path, out, boards_dir=folder)
    assert third["board_files"] == [str(tmp_path / "bd05.json")]
    assert load_scenario(out).map.terrain_name(load_scenario(out).map.index("5K5")) == "open"


def test_window_open_caches_beside_the_save(tmp_path, folder):
    path = game(tmp_path)
    s, summary = vsav.vsav_scenario(path, folder)
    cache = tmp_path / CACHE_FOLDER
    assert sorted(p.name for p in cache.glob("*.json")) == ["bd05.json", "bd98.json"]
    boards = [p.board for p in s.map.placements]
    assert all(Path(b.path).parent == cache.resolve() for b in boards)   # pictures on disk
    s2, summary2 = vsav.vsav_scenario(path, folder)
    assert sum("(imported before)" in n for n in summary2["notes"]) == 2
    assert s2.units == s.units


def test_folder_that_does_not_serve_says_which_boards_and_why(tmp_path, folder):
    (folder / "bd98").write_bytes(b"not a zip")
    path = game(tmp_path, ((0, 0, "05"), (1, 0, "98"), (2, 0, "77")))
    with pytest.raises(MissingBoards) as e:
        vsav.read_vsav(path, folder)
    assert e.value.boards == ["98", "77"]
    assert e.value.reasons["98"].startswith("its archive cannot be imported (")
    assert "not a VASL board archive" in e.value.reasons["98"]
    assert e.value.reasons["77"] == f"no bd77 archive or board file in {folder}"
    message = str(e.value)
    assert message.startswith(f"{path}: missing board(s) 98, 77:") and "\n" not in message
    assert "98: its archive cannot be imported" in message and "--blank-missing" in message
    r = vsav.read_vsav(path, folder, blank_missing=True)
    assert r.boards == ["5", "98", "77"]
    assert any(n.startswith("board 98: missing (its archive cannot be imported") for n in r.notes)


def test_cli_names_the_boards_the_folder_lacks(tmp_path, folder, capsys):
    path = game(tmp_path, ((0, 0, "05"), (1, 0, "77")))
    out = tmp_path / "pos.json"
    assert main(["import-vsav", str(path), "-o", str(out), "--boards", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"77: no bd77 archive or board file in {folder}" in err
    assert not out.exists()


def test_hostile_board_names_never_leave_the_folder(tmp_path, folder):
    (tmp_path / "bdx.json").write_text("{}")
    path = game(tmp_path, ((0, 0, "05"), (1, 0, "../x")))
    with pytest.raises(ScenarioError) as e:          # refused by name, before any file is looked for
        vsav.read_vsav(path, folder)
    assert str(path) in str(e.value) and '"../x"' in str(e.value)



def test_every_board_name_the_reader_takes_is_looked_for_and_cached_by_that_name(tmp_path, folder):
    """One rule for a board's name (letters, digits, - and _, at most 40): a name the save's
    reader accepts is the archive's name looked for in the folder and the cached file's."""
    name = "Custom_Board-" + "7" * 27                 # 40 characters
    v5_board(folder, name)
    s, _ = vsav.vsav_scenario(game(tmp_path, ((0, 0, name),)), folder)
    cache = tmp_path / CACHE_FOLDER
    assert [p.name for p in cache.glob("*.json")] == [f"bd{name}.json"]
    assert s.map.placements[0].board.path == str((cache / f"bd{name}.json").resolve())
