"""No file is written through a symbolic link, anywhere the program writes (``jsonio``'s one
writer, ``file_writes``): a link planted in the cache beside a save, the cache folder itself a
link, a save named by a link, a dangling link where an overlay or raster goes.  Each write is
refused or goes elsewhere in the save's own folder; the file the link points to is untouched
and no backup appears beside it."""
from __future__ import annotations

import json
import os
import sys

import pytest
from test_vsav_boards import folder, game  # noqa: F401  (the boards folder fixture)

from engine.errors import ScenarioError
from engine.importers import vsav
from engine.importers.vsav_boards import CACHE_FOLDER
from engine.jsonio import atomic_write_bytes, atomic_write_json

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links: POSIX")


def victim(tmp_path):
    """A file elsewhere that no write of the program may reach."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    target = outside / "precious.json"
    target.write_text('{"mine": true}\n')
    return target


def untouched(target) -> None:
    assert json.loads(target.read_text()) == {"mine": True}
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]


def test_a_link_planted_in_the_cache_beside_a_save_is_not_written_through(tmp_path, folder):  # noqa: F811
    target = victim(tmp_path)
    path = game(tmp_path)
    cache = tmp_path / CACHE_FOLDER
    cache.mkdir()
    (cache / "bd05.json").symlink_to(target)
    scenario, _ = vsav.vsav_scenario(path, folder)
    untouched(target)
    assert (cache / "bd05.json").is_symlink()
    assert not (cache / "bd05.json.bak").exists()
    assert scenario.unit("ge1").hex == "5K5"             # the board kept in memory instead
    assert (cache / "bd98.json").is_file()               # the other board cached as before


def test_a_cache_folder_that_is_a_link_gets_no_board(tmp_path, folder):  # noqa: F811
    target = victim(tmp_path)
    path = game(tmp_path)
    (tmp_path / CACHE_FOLDER).symlink_to(target.parent, target_is_directory=True)
    scenario, _ = vsav.vsav_scenario(path, folder)
    untouched(target)
    assert scenario.unit("ru1").hex == "98C5"


def test_a_save_named_by_a_link_is_refused_naming_both(tmp_path):
    target = victim(tmp_path)
    link = tmp_path / "pos.json"
    link.symlink_to(target)
    with pytest.raises(ScenarioError) as e:
        atomic_write_json(link, {"v": 2})
    assert e.value.file == str(link) and "link" in e.value.problem
    assert str(target) in e.value.problem
    untouched(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "pos.json"]


@pytest.mark.parametrize("backup", [True, False])
def test_a_dangling_link_creates_nothing_where_it_points(tmp_path, backup):
    nowhere = tmp_path / "elsewhere" / "made.npz"
    nowhere.parent.mkdir()
    link = tmp_path / "b.raster.npz"
    link.symlink_to(nowhere)
    with pytest.raises(ScenarioError):
        atomic_write_bytes(link, b"raster", backup=backup)
    assert not os.path.lexists(nowhere)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.raster.npz", "elsewhere"]
