"""A VASL save's terrain SSRs in the window (rules.md 11.1-11.2): File > Open of a save whose
board record names rules opens with them applied to LOS, the board's picture in their colours,
listed in the Map panel, an unknown one named; following the save keeps them."""
from __future__ import annotations

import os

import pytest
import vasl5_synth as synth
import vsav_synth as vs
from app_testing import settle
from PySide6.QtWidgets import QMessageBox

import app.night.vasl.vsav_open as vsav_open
from app.night.vasl.follow import start_following

RULES = ["OrchardOutOfSeason", "NoGrain", "FooBar"]


@pytest.fixture
def boards(tmp_path, monkeypatch):
    """A VASL boards folder holding board 81 (grain in C4), as the window's folder."""
    folder = tmp_path / "vasl boards"
    folder.mkdir()
    b = synth.SynthBoard(size=(33, 10))
    b.hex_("C4", "grain")
    b.write(folder / "bd81")
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: str(folder))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    return folder


def save(path, rules, stamp=None):
    pieces = [vs.squad("4-6-7 1sq", vs.hex_pixel("K5"), pid=11)]
    vs.write_vsav(path, [(0, 0, "81", "6.1", None, {"ssr": rules})], pieces)
    if stamp is not None:
        os.utime(path, ns=(stamp, stamp))
    return path


def grain_colour(window):
    (item,) = window.scene.board_art
    x, y = (int(v) + 12 for v in synth.centre(2, 4))       # in C4, off its dot
    c = item.image.pixelColor(x, y)
    return c.red(), c.green(), c.blue()


def shows_rules(window, rules) -> None:
    s = window.document.scenario
    assert s.map_entries[0].ssr == tuple(rules)
    m = s.map
    assert m.terrain_name(m.index("81C4")) == ("open" if "NoGrain" in rules else "grain")
    assert grain_colour(window) == synth.COLOURS["Level0" if "NoGrain" in rules else "GrainL0"]
    panel = window.layout_panel.ssr
    assert panel.index == 0             # the save's rules are its board's: that scope shown
    listed = [panel.rules.item(i).text() for i in range(panel.rules.count())]
    assert listed == [{"OrchardOutOfSeason": "Orchards out of season",
                       "NoGrain": "No grain (grain is open ground)",
                       "FooBar": "FooBar \u2013 not applied"}[n] for n in rules]
    assert panel.missing.text() == ("SSR not applied: FooBar" if "FooBar" in rules else "")


def test_a_save_opens_with_its_rules_applied_drawn_and_listed(window, boards, tmp_path, qtbot):
    path = save(tmp_path / "game.vsav", RULES)
    assert window.open_path(str(path), confirmed=True)
    settle(qtbot, window.document)
    shows_rules(window, RULES)


def test_following_a_save_follows_its_rules(window, boards, tmp_path, qtbot):
    path = save(tmp_path / "game.vsav", RULES, 10**18)
    follower = start_following(window, str(path), str(boards))
    settle(qtbot, window.document)
    shows_rules(window, RULES)
    save(path, ["OrchardOutOfSeason"], 2 * 10**18)
    assert follower.check()
    settle(qtbot, window.document)
    shows_rules(window, ["OrchardOutOfSeason"])
