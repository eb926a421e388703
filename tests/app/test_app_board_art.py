"""Board art: an imported VASL 5 board is drawn from its own picture, every hex centre of the
picture on the scene's hex centre (alone, turned half round, joined east and south, another
size), under the overlays; View > Board art switches back to our terrain art; exports follow."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import vasl5_synth as synth
from app_testing import look_at, scene_point
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor

from app.night.scene.board_art import image_transform
from app.style import SCALE
from engine import api
from engine.boards import save_board
from engine.hexes import board_hexes, column_name
from engine.importers import vasl
from engine.maps import Map, Placement

WOODS = QColor(*synth.COLOURS["WoodsGreen"])


def imported(folder: Path, board_id: str, size=(33, 10), pixels=None) -> Path:
    """A painted VASL 5 archive imported and saved as ``bd<id>.json`` with its picture."""
    b = synth.SynthBoard(size=size, pixels=pixels)
    b.hex_("C4", "woods", 1)
    b.hex_("H6", "woods", 0)
    b.side("E5", 2, "wall")
    archive = b.write(folder / f"bd{board_id}")
    board, _ = vasl.import_board(archive)
    out = folder / f"bd{board_id}.json"
    save_board(board, out)
    return out


@pytest.fixture(scope="module")
def boards(tmp_path_factory):
    folder = tmp_path_factory.mktemp("art")
    return {bid: imported(folder, bid) for bid in ("81", "82", "83")} | {
        "84": imported(folder, "84", size=(43, 15), pixels=(2363, 971))}


CASES = {
    "alone": [("81", (0, 0), False)],
    "turned": [("81", (0, 0), True)],
    "joined east, the second turned": [("81", (0, 0), False), ("82", (1, 0), True)],
    "joined south": [("81", (0, 0), False), ("82", (0, 1), False), ("83", (1, 1), True)],
    "another size beside a geomorphic board": [("84", (0, 0), False), ("81", (1, 0), False)],
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_hex_centre_of_the_picture_lies_on_its_hex(case, boards):
    from engine.boards import load_board
    m = Map([Placement(load_board(boards[bid]), at, rotated) for bid, at, rotated in CASES[case]])
    for pi, p in enumerate(m.placements):
        where = api.vasl.board_image_placement(m, pi)
        assert where is not None and Path(where["path"]).is_file()
        t = image_transform(where["affine"])
        for col, row in board_hexes(p.board.size):
            u, v = synth.centre(col, row)
            got = t.map(QPointF(u, v))
            want = scene_point(m, f"{p.board.id}{column_name(col)}{row}")
            # a joined column belongs to one board: its centre is the same on both
            assert abs(got.x() - want.x()) < 1e-6 * SCALE and abs(got.y() - want.y()) < 1e-6 * SCALE


def test_board_without_picture_file_has_none(boards, tmp_path):
    from engine.boards import load_board
    data = json.loads(boards["81"].read_text())
    data["image"]["file"] = "missing.gif"
    del data["raster"]             # copied without its drawing: refused (test_import_path.py)
    other = tmp_path / "b.json"
    other.write_text(json.dumps(data))
    m = Map([Placement(load_board(other), (0, 0), False)])
    assert api.vasl.board_image_placement(m, 0) is None


def scenario(folder: Path, boards: dict, layout) -> Path:
    s = {"format": "starshell-scenario", "version": 1, "title": "art",
         "map": [{"board": str(boards[bid]), "at": list(at), "rotated": rotated}
                 for bid, at, rotated in layout],
         "nvr": 3, "phase": "PFPh", "attacker": "allied", "starshells_used": "never",
         "units": [{"id": "A", "side": "allied", "type": "squad", "hex": "81A5"}],
         "markers": [{"type": "starshell", "hex": "81M5"}]}
    path = folder / "art.json"
    path.write_text(json.dumps(s))
    return path


def colour_at(w, hex_id: str, dx: float, dy: float) -> QColor:
    look_at(w.view, hex_id)
    p = w.view.mapFromScene(scene_point(w.scene.map, hex_id, dx, dy))
    return w.view.grab().toImage().pixelColor(p)


def near(a: QColor, b: QColor, tolerance: int = 6) -> bool:
    return max(abs(a.red() - b.red()), abs(a.green() - b.green()),
               abs(a.blue() - b.blue())) <= tolerance


def test_window_draws_the_pictures_and_the_view_menu_switches_to_our_art(
        window_on, boards, tmp_path):
    w = window_on(scenario(tmp_path, boards, CASES["joined east, the second turned"]))
    assert len(w.scene.board_art) == 2
    assert all(w.scene.terrain.zValue() < item.zValue() < w.scene.lit.zValue()
               for item in w.scene.board_art)
    # the painted woods of both boards, the second one turned half round
    for hex_id in ("81C4", "81H6", "82C4", "82H6"):
        assert near(colour_at(w, hex_id, 0.25, 0.1), WOODS), hex_id
    assert not near(colour_at(w, "81D4", 0.25, 0.1), WOODS)
    action = w.layer_actions["board_art"]
    assert action.isChecked() and action in w.view_menu.actions()
    action.setChecked(False)
    assert not any(item.isVisible() for item in w.scene.board_art)
    assert not near(colour_at(w, "81C4", 0.25, 0.1), WOODS)      # our woods art instead
    action.setChecked(True)
    assert near(colour_at(w, "81C4", 0.25, 0.1), WOODS)


def test_png_export_draws_the_picture(window_on, boards, tmp_path):
    from PySide6.QtGui import QImage

    from app.export import export_png
    w = window_on(scenario(tmp_path, boards, CASES["alone"]))
    look_at(w.view, "81C4")
    out = tmp_path / "x.png"
    export_png(w.view, str(out))
    image = QImage(str(out))
    at = w.view.export_rect().topLeft()        # the PNG: the map's part of the view
    p = w.view.mapFromScene(scene_point(w.scene.map, "81C4", 0.25, 0.1)) - at
    assert near(image.pixelColor(p.x(), p.y()), WOODS)


def test_file_import_vasl_board_of_the_older_kind_puts_its_picture_on_the_map(
        window_on, qtbot, monkeypatch, tmp_path):
    """File > Import VASL board with a VASL 5 archive: the board file and its picture are saved
    side by side, and the board added to the map is drawn from the picture at once."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from engine.boards import assets_dir
    b = synth.SynthBoard()
    b.hex_("C4", "woods", 1)
    (tmp_path / "src").mkdir()
    source = b.write(tmp_path / "src" / "bd66")
    pos = tmp_path / "games" / "w12.json"
    pos.parent.mkdir()
    pos.write_text((assets_dir() / "scenarios" / "W-12.json").read_text())
    w = window_on(pos)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(source), "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda parent, caption, start="", *a, **k: (start, "")))
    asked = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda parent, title, text, *a, **k: asked.append(text) or QMessageBox.StandardButton.Yes))
    w.import_vasl_action.trigger()
    assert (pos.parent / "bd66.json").is_file() and (pos.parent / "bd66.gif").is_file()
    assert "terrain: open 345, woods 1" in asked[0]
    assert w.document.scenario.map.board_ids == ["2", "66"]
    assert [item.pi for item in w.scene.board_art] == [1]
    assert near(colour_at(w, "66C4", 0.25, 0.1), WOODS)


@pytest.mark.parametrize("image", [
    {"file": "../bd81.gif"}, {"file": 7}, "bd81.gif",
    {"file": "bd81.gif", "a1": [0]}, {"file": "bd81.gif", "hex_width": 0},
    {"file": "bd81.gif", "hex_height": -3}])
def test_a_bad_image_key_draws_our_art_instead(boards, tmp_path, image):
    from engine.boards import load_board
    data = json.loads(boards["81"].read_text())
    data["image"] = image
    other = boards["81"].parent / "bad.json"
    other.write_text(json.dumps(data))
    m = Map([Placement(load_board(other), (0, 0), False)])
    assert api.vasl.board_image_placement(m, 0) is None
