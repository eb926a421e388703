"""The map's LOS table in the window: built in the background from the first field on, its
progress in the status bar, never waited for (a real-size drawn board: tests/vasl_synth.py)."""
from __future__ import annotations

import numpy as np
import pytest
from app_testing import settle
from support import position, unit

from engine import api
from engine.night.verdicts import visibility_from


@pytest.fixture
def drawn_position(tmp_path):
    """A position on the synthetic VASL board, imported with its raster (as a player's)."""
    import vasl_synth

    from engine.importers.vasl import import_board
    board, _ = import_board(vasl_synth.standard_board("2").write(tmp_path / "bd2"))
    api.save_board(board, tmp_path / "bd2.json")
    board = api.load_board(tmp_path / "bd2.json")
    return position(board, units=[unit("A", "2E5"), unit("B", "2K3"), unit("C", "2W7"),
                                  unit("G", "2P5", side="axis")], nvr=4)


def test_the_first_field_never_waits_for_the_table_and_its_progress_is_shown(
        window_on, qtbot, drawn_position):
    """Selecting a unit on a drawn map shows its field as soon as the field is worked out,
    while the map's table is still being built; the status bar then shows the table's share
    ("LOS table 40 %") until it is done, and the fields are the direct computation's."""
    w = window_on(drawn_position)
    doc = w.document
    direct = {u: visibility_from(drawn_position, u).codes for u in ("A", "B")}
    assert api.table_progress(drawn_position) is None         # nothing asked yet
    doc.select("A")
    settle(qtbot, doc)
    progress = api.table_progress(drawn_position)
    assert progress is not None and progress["done"] < 1.0   # the field did not wait for it
    assert np.array_equal(doc.answers.field.codes, direct["A"])
    qtbot.waitUntil(lambda: doc.table_text.startswith("LOS table "), timeout=5000)
    assert w.table_label.isVisible() and w.table_label.text() == doc.table_text
    assert doc.table_text.endswith(" %")
    doc.select("B")                                           # a lazy row meanwhile
    settle(qtbot, doc)
    assert np.array_equal(doc.answers.field.codes, direct["B"])
    seen = {doc.table_text}
    doc.tableChanged.connect(seen.add)
    qtbot.waitUntil(lambda: doc.table_text == "", timeout=60000)
    assert not w.table_label.isVisible()
    assert api.table_progress(drawn_position)["done"] == 1.0
    shares = sorted(int(t.split()[2]) for t in seen if t)
    assert shares and 0 <= shares[0] < 100 and shares[-1] < 100


def test_what_the_first_field_needs_is_made_in_the_background_as_the_window_opens(
        window_on, qtbot, drawn_position, monkeypatch):
    """Opening a window on drawn boards starts, through the job runner and before any unit is
    selected, what the map's first field needs (its LOS table: the pixel frame, the compiled
    walk loaded, a line walked), off the GUI thread."""
    import threading

    from engine.los import ground as los_ground
    warmed = []
    real = los_ground.warm_up

    def warm_up(game_map):
        real(game_map)
        warmed.append((game_map.content_key, threading.current_thread()))
    monkeypatch.setattr(los_ground, "warm_up", warm_up)
    w = window_on(drawn_position)
    assert w.document.viewer is None
    qtbot.waitUntil(lambda: bool(warmed), timeout=60000)
    key, thread = warmed[0]
    assert key == drawn_position.map.content_key and thread is not threading.main_thread()


def test_a_drawn_maps_frame_reports_its_steps_and_stops_when_the_window_closes(
        qtbot, monkeypatch):
    """The frame of a drawn map (noise: every pixel drawn at random) is built by the Document's
    first job through the job runner, its share said in the runner's busy text (the window's
    status bar); closing the Document (the window) cancels it between two steps: its pixel
    classes are never made."""
    import threading

    from app.jobs import runner
    from app.night.document import Document
    from engine.boards import Board, HexTerrain, with_raster
    from engine.los import ground as los_ground
    from engine.los.raster import frame as frame_module
    from engine.raster_file import Raster
    rng = np.random.default_rng(3)
    codes = np.array([0, 63, 24, 60], np.uint8)
    raster = Raster(codes[rng.integers(0, 4, (645, 1801))],
                    rng.integers(0, 3, (645, 1801)).astype(np.int8),
                    (0.0, 32.25, 56.25, 64.5), (33, 10))
    board = with_raster(Board("n7", "noisy", HexTerrain(), {}, size=(33, 10)), raster)
    s = position(board, units=[unit("A", "n7E5")])
    entered, go = threading.Event(), threading.Event()
    real_hexes, real_unique = frame_module.pixel_hexes, frame_module.sorted_unique
    classified, outcome = [], []

    def held(*args):
        entered.set()
        go.wait(60)                            # the build goes on once the test says so
        return real_hexes(*args)

    def unique(keys):
        classified.append(len(keys))
        return real_unique(keys)
    real_warm = los_ground.warm_up

    def warm_up(game_map):
        try:
            real_warm(game_map)
        except BaseException as e:
            outcome.append(type(e).__name__)
            raise
        outcome.append("built")
    monkeypatch.setattr(frame_module, "pixel_hexes", held)
    monkeypatch.setattr(frame_module, "sorted_unique", unique)
    monkeypatch.setattr(los_ground, "warm_up", warm_up)
    doc = Document(s)
    qtbot.waitUntil(entered.is_set, timeout=20000)
    qtbot.waitUntil(lambda: runner().busy_text == "Building the map's LOS table 0 %",
                    timeout=5000)
    doc.close()
    go.set()
    qtbot.waitUntil(lambda: bool(outcome), timeout=20000)
    assert outcome == ["Cancelled"] and classified == []
    qtbot.waitUntil(lambda: runner().busy_text == "", timeout=5000)
    doc.deleteLater()
