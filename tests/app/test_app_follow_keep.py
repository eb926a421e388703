"""Following a VASL game with the night the save says (rules.md 11.5) and what the player set
by hand: a save rewritten in place keeps the player's NVR when it gives none, the starshell state
(E1.92), counters moved by hand (asked when the save moved them too); each change is said in
the status bar and kept in the follower's log; File > Stop following ends it."""
from __future__ import annotations

import os

import pytest
import vsav_synth as vs
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

import app.night.vasl.follow as follow
import app.night.vasl.vsav_open as vsav_open
from app.night.vasl.follow import newest_save, start_following
from engine.night.files import load_scenario

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def pieces(squad_at="K5", leader_at="K6", extra=()):
    return [vs.squad("4-6-7 1sq", vs.hex_pixel(squad_at), pid=11),
            vs.leader("9-2", vs.hex_pixel(leader_at), pid=12),
            vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru", pid=13), *extra]


def lights():
    """A night game's save: a Starshell in 2T6 and an IR in 34P7."""
    return [vs.light_marker("Starshell", vs.hex_pixel("T6")),
            vs.light_marker("IR", vs.hex_pixel("P7", (1, 0)), colour=2)]


def write(path, items, stamp: int, info=None):
    vs.write_vsav(path, BOARDS, items, info=info)
    os.utime(path, ns=(stamp, stamp))       # a new modification time, as a new write has
    return path


def named(s, name):
    return next(u for u in s.units if u.extra["name"] == name)


@pytest.fixture
def night_game(window, tmp_path, monkeypatch):
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = write(tmp_path / "night.vsav", pieces(extra=lights()), 10**18,
                 vs.info_record("weather", nvr=2))
    follower = start_following(window, str(path))
    return window, follower, path


def test_the_night_comes_from_the_save(night_game):
    window, follower, _ = night_game
    s = window.document.scenario
    assert (s.nvr, s.starshells_used) == (2, "this_turn")    # never "none fired yet" (E1.92)
    said = window.statusBar().currentMessage()
    assert said.startswith("night.vsav: following this save (3 unit(s), 2 marker(s))")
    assert "NVR 2 from the save" in said and "starshells fired this player turn" in said
    assert follower.log == [said]
    label = window.findChild(QLabel, "following")            # the status bar says so
    assert label.text() == "Following night.vsav" and label.toolTip() == said


def test_the_players_settings_survive_a_rewrite_without_them(window, tmp_path, monkeypatch):
    """An older save (no NVR): the NVR and starshell state the player set stay; the unit VASL
    moved is named."""
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = write(tmp_path / "game.vsav", pieces(), 10**18)
    follower = start_following(window, str(path))
    d = window.document
    assert "NVR 3 (the save gives none)" in window.statusBar().currentMessage()
    d.edit(d.scenario.replace(nvr=2, starshells_used="earlier"), "NVR and starshells")
    d.set_view_side("allied")
    write(path, pieces("K7", extra=lights()[:1]), 2 * 10**18)
    assert follower.check()
    s = d.scenario
    assert (s.nvr, s.starshells_used, d.view_side) == (2, "earlier", "allied")
    assert window.statusBar().currentMessage() == (
        "game.vsav: 4-6-7 (ge1) moved to 2K7, Starshell in 2T6")
    # now the save says its NVR: it wins, and is said
    write(path, pieces("K7", extra=lights()[:1]), 3 * 10**18, vs.info_record("weather", nvr=4))
    assert follower.check()
    assert d.scenario.nvr == 4
    assert window.statusBar().currentMessage() == "game.vsav: NVR 4 from the save"
    assert follower.log[-1] == "game.vsav: NVR 4 from the save" and len(follower.log) == 3
    assert window.findChild(QLabel, "following").toolTip().split("\n") == follower.log


def test_a_unit_moved_by_hand_stays_while_vasl_moves_others(night_game):
    window, follower, path = night_game
    d = window.document
    d.edit(d.scenario.moved(named(d.scenario, "4-4-7").id, "34C5"), "move")
    write(path, pieces(leader_at="L6", extra=lights()), 2 * 10**18,
          vs.info_record("weather", nvr=2))
    assert follower.check()
    assert named(d.scenario, "4-4-7").hex == "34C5"           # the player's move kept
    assert named(d.scenario, "9-2").hex == "2L6"
    assert window.statusBar().currentMessage() == "night.vsav: 9-2 (ge2) moved to 2L6"


@pytest.mark.parametrize("keep", [True, False])
def test_a_unit_both_moved_is_asked(night_game, monkeypatch, keep):
    window, follower, path = night_game
    d = window.document
    asked = []
    monkeypatch.setattr(follow, "ask_keep", lambda w, words: asked.append(words) or keep)
    d.edit(d.scenario.moved(named(d.scenario, "4-6-7").id, "2M3"), "move")
    write(path, pieces("K7", extra=lights()), 2 * 10**18, vs.info_record("weather", nvr=2))
    assert follower.check()
    assert asked == [["4-6-7 (ge1): you left it in 2M3, the save has it in 2K7"]]
    assert named(d.scenario, "4-6-7").hex == ("2M3" if keep else "2K7")
    said = window.statusBar().currentMessage()
    if keep:
        assert said == "night.vsav: nothing changed; kept yours: " + asked[0][0]
    else:
        assert said == ("night.vsav: 4-6-7 (ge1) moved to 2K7; the save's taken: "
                        + asked[0][0])


@pytest.mark.parametrize("button, kept", [("Keep mine", True), ("Take the save's", False)])
def test_the_question_keeps_or_drops(window, qtbot, button, kept):
    def click():
        box = QApplication.activeModalWidget()
        next(b for b in box.buttons() if b.text() == button).click()
    QTimer.singleShot(0, click)
    assert follow.ask_keep(window, ["4-6-7 (ge1): you left it in 2M3"]) is kept


def test_stop_following(night_game, qtbot):
    window, follower, path = night_game
    stop = window.findChild(QAction, "stop_following")
    assert stop is not None and stop.isEnabled()
    assert stop in window.file_menu.actions()
    shown = window.document.scenario
    stop.trigger()
    assert window.follower is None and not stop.isEnabled()
    assert follower.watcher.files() == [] and follower.watcher.directories() == []
    assert not follower.timer.isActive()
    assert window.statusBar().currentMessage() == (
        "Stopped following night.vsav: the position shown stays")
    qtbot.waitUntil(lambda: window.findChild(QLabel, "following") is None)
    write(path, pieces("K9", extra=lights()), 2 * 10**18)
    assert not follower.check()                               # no longer read
    assert window.document.scenario is shown


def test_a_save_gone_while_the_folder_is_listed_is_passed_over(tmp_path, monkeypatch):
    write(tmp_path / "a.vsav", pieces(), 10**18)
    write(tmp_path / "b.vsav", pieces(), 2 * 10**18)
    real = os.scandir

    class Gone:
        name, path = "c.vsav", str(tmp_path / "c.vsav")

        def is_file(self):
            return True

        def stat(self):
            raise FileNotFoundError(self.path)

    class Listing:
        def __enter__(self):
            self.inner = real(tmp_path)
            return iter([Gone(), *self.inner])

        def __exit__(self, *exc):
            self.inner.close()

    monkeypatch.setattr(follow.os, "scandir", lambda folder: Listing())
    assert newest_save(str(tmp_path)) == str(tmp_path / "b.vsav")


def test_a_damaged_zip_is_said_never_raised(night_game):
    window, follower, path = night_game
    shown = window.document.scenario
    path.write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    os.utime(path, ns=(2 * 10**18, 2 * 10**18))
    follower.retries = follow.MAX_RETRIES          # the last try: the failure is said
    assert not follower.check()
    assert window.document.scenario is shown
    assert window.statusBar().currentMessage().startswith(f"Cannot follow {path}")


def test_opening_another_file_stops_following(night_game, tmp_path):
    window, follower, path = night_game
    other = write(tmp_path / "other.vsav", pieces("K2"), 10**18)
    window.open_path(str(other))                   # the unsaved reading: discarded (conftest)
    assert window.follower is None and follower.stopped
    assert window.statusBar().currentMessage().startswith("Opened the VASL saved game")
    assert follower.log[-1] == "stopped following night.vsav"
    write(path, pieces("K9", extra=lights()), 2 * 10**18)
    assert not follower.check()


def test_a_saved_followed_game_goes_on_and_keeps_its_file(night_game, tmp_path):
    """Saved as a position with the player's move: following goes on, Save keeps that file."""
    window, follower, path = night_game
    d = window.document
    d.edit(d.scenario.moved(named(d.scenario, "4-4-7").id, "34C5"), "move")
    target = tmp_path / "kept.json"
    d.save(str(target))
    assert window.follower is follower and d.path == str(target)
    write(path, pieces("K7", extra=lights()), 2 * 10**18, vs.info_record("weather", nvr=2))
    assert follower.check()
    assert d.path == str(target) and named(d.scenario, "4-4-7").hex == "34C5"
    d.save()                                    # the followed game into the same file
    assert named(load_scenario(target), "4-6-7").hex == "2K7"
