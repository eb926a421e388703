"""The import path, one way: importers return objects and write nothing until asked; a board
carries its terrain as drawn in one field; a drawing that no longer matches its board is refused
or imported again with a message naming the file, never judged on the hex model quietly; a
board edited by hand drops its drawing and the player is told."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import vasl5_synth
import vasl_synth
import vsav_synth as vs

from engine.boards import (
    Board,
    HexTerrain,
    board_raster,
    board_to_json,
    load_board,
    save_board,
    with_raster,
    without_raster,
)
from engine.errors import ScenarioError
from engine.importers import vsav
from engine.importers.vasl import import_board
from engine.importers.vsav_boards import CACHE_FOLDER
from engine.maps import Map, Placement
from engine.night.layout import with_board
from engine.night.scenario import MapEntry, Scenario
from engine.raster_file import Raster

SIZE = (9, 5)
GEO = (0.0, 32.25, 56.25, 64.5)


def drawing(seed: int = 1) -> Raster:
    rng = np.random.default_rng(seed)
    terrain = rng.choice(np.array([0, 24, 60], dtype=np.uint8), size=(323, 450))
    return Raster(terrain, rng.integers(0, 2, size=(323, 450)).astype(np.int8), GEO, SIZE)


def board() -> Board:
    return Board("t1", "drawn", HexTerrain(), {(4, 3): HexTerrain("woods", 1)}, size=SIZE)


def files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_importing_a_board_returns_it_with_its_drawing_and_writes_nothing(tmp_path):
    archive = vasl_synth.standard_board("99").write(tmp_path / "bd99")
    before = files(tmp_path)
    imported, report = import_board(archive)
    assert files(tmp_path) == before                    # nothing written until asked
    assert isinstance(imported, Board) and isinstance(report, list)
    assert imported.raster is not None and board_raster(imported) is imported.raster
    assert "raster" not in imported.extra               # one place: the field
    (tmp_path / "out").mkdir()
    saved = save_board(imported, tmp_path / "out" / "bd99.json")      # the caller's step
    assert saved.path == str(tmp_path / "out" / "bd99.json")
    assert "bd99.raster.npz" in files(tmp_path / "out")
    assert load_board(saved.path).raster.digest == imported.raster.digest


def test_reading_a_save_builds_the_position_and_writes_nothing(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    b = vasl5_synth.SynthBoard()
    b.hex_("K5", "woods")
    b.write(folder / "bd05")
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "05")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    before = files(tmp_path)
    result = vsav.read_vsav(path, folder, cache_dir=tmp_path / CACHE_FOLDER)
    s = result.scenario(tmp_path)
    assert files(tmp_path) == before                    # no cache, no board file written
    assert isinstance(s, Scenario) and s.units[0].hex == "5K5"
    drawn = s.map.placements[0].board
    assert drawn.raster is not None and drawn.path is None      # in memory, not read back
    (tmp_path / "out").mkdir()
    written = vsav.save_boards(result, tmp_path / "out")              # the caller's step
    assert written == [str(tmp_path / "out" / "bd05.json")]
    assert result.scenario(tmp_path).map.placements[0].board.path == written[0]


def test_a_board_file_edited_since_its_drawing_is_refused_naming_the_raster(tmp_path):
    save_board(with_raster(board(), drawing()), tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text())
    data["hexes"]["A1"] = {"terrain": "woods"}          # edited outside the program
    (tmp_path / "b.json").write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as e:
        load_board(tmp_path / "b.json")
    assert str(tmp_path / "b.raster.npz") in str(e.value) and "edited since" in str(e.value)


def test_a_drawing_for_other_hexes_is_refused_not_judged_on_the_hex_model():
    from dataclasses import replace
    drawn = with_raster(board(), drawing())
    changed = replace(drawn, hexes={})                  # hexes changed, the drawing kept
    with pytest.raises(ScenarioError, match="board t1's terrain as drawn was made for other"):
        board_raster(changed)
    assert board_raster(without_raster(changed)) is None        # dropped explicitly: hexes


def test_a_drawing_of_another_size_is_refused():
    small = Board("t2", "", HexTerrain(), {}, size=(5, 5))
    with pytest.raises(ScenarioError, match="cannot be board t2's"):
        with_raster(small, drawing())


def test_a_hand_edit_drops_the_drawing_only_when_it_changes_the_board():
    drawn = with_raster(board(), drawing())
    assert drawn.with_hex(4, 3, HexTerrain("woods", 1)) is drawn       # the same hex: kept
    assert drawn.with_hexside(4, 3, 1, None) is drawn
    assert drawn.with_hex(1, 1, HexTerrain("woods", 0)).raster is None
    assert drawn.with_hexside(1, 1, 1, "wall").raster is None


def test_the_player_is_told_when_an_edit_drops_a_boards_drawing():
    drawn = with_raster(board(), drawing())
    s = Scenario((MapEntry("t1.json", (0, 0)),), Map.build([Placement(drawn, (0, 0))]))
    edited = drawn.with_hex(1, 1, HexTerrain("woods", 0))
    result = with_board(s, edited)
    assert any("t1's terrain as drawn" in line and "dropped" in line for line in result.report)
    assert result.scenario.map.placements[0].board.raster is None
    again = with_board(s, drawn.with_hex(4, 3, HexTerrain("woods", 1)))
    assert not any("dropped" in line for line in again.report)


def test_a_damaged_cached_board_is_imported_again_with_a_message(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    b = vasl5_synth.SynthBoard()
    b.hex_("K5", "woods")
    b.write(folder / "bd05")
    path = vs.write_vsav(tmp_path / "g.vsav", [(0, 0, "05")],
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"))])
    s, _ = vsav.vsav_scenario(path, folder)
    cache = tmp_path / CACHE_FOLDER
    raster_file = cache / json.loads((cache / "bd05.json").read_text())["raster"]["file"]
    raster_file.write_bytes(b"damaged")
    s2, summary = vsav.vsav_scenario(path, folder)
    note = next(n for n in summary["notes"] if "imported again" in n)
    assert str(raster_file) in note
    assert s2.map.placements[0].board.raster.digest == s.map.placements[0].board.raster.digest
    assert load_board(cache / "bd05.json").raster is not None  # the cache mended


def test_a_board_file_keeps_its_file_form(tmp_path):
    """The raster key stays the file's (SPEC.md: "raster": {"file", "digest"}), not memory's."""
    drawn = with_raster(board(), drawing())
    assert "raster" not in board_to_json(drawn)
    save_board(drawn, tmp_path / "b.json")
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["raster"] == {"file": "b.raster.npz", "digest": drawing().digest}
