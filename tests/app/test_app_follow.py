"""Following a VASL game: the save rewritten in place, replaced by a rename, or caught half
written; what the player looks at stays (zoom, selected counter, side view, tool) and the status
bar names what changed."""
from __future__ import annotations

import os

import pytest
import vsav_synth as vs
from PySide6.QtWidgets import QMessageBox

import app.night.vasl.vsav_open as vsav_open
from app.__main__ import main
from app.night.vasl.follow import newest_save, start_following

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def pieces(squad_at="K5", leader_at="K6", extra=()):
    return [vs.squad("4-6-7 1sq", vs.hex_pixel(squad_at), pid=11),
            vs.leader("9-2", vs.hex_pixel(leader_at), pid=12),
            vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru", pid=13), *extra]


def write(path, items, stamp: int):
    vs.write_vsav(path, BOARDS, items)
    os.utime(path, ns=(stamp, stamp))       # a new modification time, as a new write has
    return path


@pytest.fixture
def followed(window, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = write(tmp_path / "game.vsav", pieces(), 10**18)
    follower = start_following(window, str(path))
    assert "following this save (3 unit(s)" in window.statusBar().currentMessage()
    return window, follower, path


def the_squad(s):
    return next(u for u in s.units if u.extra["name"] == "4-6-7")


def test_rewritten_in_place_keeps_what_the_player_looks_at(followed, tmp_path):
    window, follower, path = followed
    d = window.document
    d.select(the_squad(d.scenario).id)
    d.set_view_side("axis")
    window.hand.set_tool("thread")
    window.view.zoom_by(2.0)
    zoom = window.view.transform().m11()
    write(path, [vs.squad("8-3-8 Esq", vs.hex_pixel("M5"), pid=10)]
          + pieces("K7", "L6", [vs.light_marker("Starshell", vs.hex_pixel("Y4"))]), 2 * 10**18)
    assert follower.check()
    assert window.statusBar().currentMessage() == (
        "game.vsav: 4-6-7 (ge2) moved to 2K7, 9-2 (ge3) moved to 2L6, 1 unit placed, "
        "Starshell in 2Y4, starshells: first fired this player turn (E1.92)")
    s = d.scenario
    assert d.viewer == the_squad(s).id and the_squad(s).hex == "2K7"   # the same counter
    assert d.view_side == "axis" and window.hand.tool == "thread"
    assert window.view.transform().m11() == pytest.approx(zoom)
    assert not follower.check()                 # nothing new written: nothing read


def test_replaced_by_a_rename(followed, tmp_path):
    window, follower, path = followed
    fresh = write(tmp_path / "game.vsav.tmp", pieces("K8"), 3 * 10**18)
    os.replace(fresh, path)
    assert follower.check()
    assert window.statusBar().currentMessage() == "game.vsav: 4-6-7 (ge1) moved to 2K8"
    assert the_squad(window.document.scenario).hex == "2K8"


def test_a_half_written_save_is_tried_again_never_shown(followed, tmp_path):
    window, follower, path = followed
    shown = window.document.scenario
    whole = write(tmp_path / "whole.vsav", pieces("K9"), 4 * 10**18).read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    os.utime(path, ns=(5 * 10**18, 5 * 10**18))
    assert not follower.check()
    assert window.document.scenario is shown and follower.timer.isActive()
    assert "is being written" in window.statusBar().currentMessage()
    path.write_bytes(whole)
    os.utime(path, ns=(6 * 10**18, 6 * 10**18))
    assert follower.check()
    assert the_squad(window.document.scenario).hex == "2K9"


def test_the_watcher_reloads_when_vasl_writes(followed, qtbot, tmp_path):
    window, follower, path = followed
    with qtbot.waitSignal(follower.reloaded, timeout=10000) as got:
        write(path, pieces("K4"), 7 * 10**18)
    assert got.args == ["game.vsav: 4-6-7 (ge1) moved to 2K4"]


def test_the_newest_save_of_a_folder(window, tmp_path, monkeypatch):
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    write(tmp_path / "a.vsav", pieces("K4"), 10**18)
    write(tmp_path / "b.vsav", pieces("K3"), 2 * 10**18)
    assert newest_save(str(tmp_path)) == str(tmp_path / "b.vsav")
    follower = start_following(window, str(tmp_path))
    assert the_squad(window.document.scenario).hex == "2K3"
    write(tmp_path / "c.vsav", pieces("K2"), 3 * 10**18)
    assert follower.check()
    assert window.statusBar().currentMessage() == "c.vsav: 4-6-7 (ge1) moved to 2K2"


def test_command_line_refuses_what_it_cannot_follow(tmp_path, capsys):
    assert main(["--follow", str(tmp_path / "nothing.vsav")]) == 2
    assert "not a VASL saved game (.vsav) or a folder (--follow)" in capsys.readouterr().err
