"""A VASL save of more than two nationalities asks which two sides play (File > Open and
following a game); two nationalities or fewer open at once on their usual sides."""
from __future__ import annotations

import os

import pytest
import vsav_synth as vs
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QMessageBox

import app.night.vasl.vsav_open as vsav_open
from app.night.vasl.follow import start_following
from app.night.vasl.sides_dialog import SidesDialog

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def save(tmp_path, nations=("ge", "fi", "ru"), name="g.vsav", stamp=10**18):
    names = {"ge": "4-6-7 1sq", "fi": "6-4-8 1sq", "ru": "4-4-7 1sq"}
    path = vs.write_vsav(tmp_path / name, BOARDS, [
        vs.squad(names[n], vs.hex_pixel(f"K{k + 3}"), nation=n, pid=20 + k)
        for k, n in enumerate(nations)])
    os.utime(path, ns=(stamp, stamp))
    return path


@pytest.fixture
def quiet(monkeypatch):
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: None))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)


def answer(monkeypatch, choices: dict[str, int] | None, asked: list):
    """The dialog answered: each nationality's choice (0 first side, 1 second, 2 neither);
    None: Cancel."""
    def exec_(dialog):
        asked.append(dict(zip(dialog.nations, (c.currentIndex() for c in dialog.combos.values()))))
        if choices is None:
            return QDialog.DialogCode.Rejected
        for n, k in choices.items():
            dialog.combos[n].setCurrentIndex(k)
        return QDialog.DialogCode.Accepted
    monkeypatch.setattr(SidesDialog, "exec", exec_)


def test_three_nationalities_asked_and_split_as_chosen(window, tmp_path, quiet, monkeypatch):
    asked: list = []
    answer(monkeypatch, {"fi": 0, "ge": 1, "ru": 2}, asked)
    assert window.open_path(str(save(tmp_path)), confirmed=True)
    assert asked == [{"ge": 0, "fi": 0, "ru": 1}]          # the usual sides offered first
    s = window.document.scenario
    assert sorted(s.sides) == ["fi", "ge"] and len(s.units) == 2


def test_cancel_opens_nothing(window, tmp_path, quiet, monkeypatch):
    before = window.document.scenario
    answer(monkeypatch, None, [])
    assert not window.open_path(str(save(tmp_path)), confirmed=True)
    assert window.document.scenario is before


def test_two_nationalities_are_not_asked(window, tmp_path, quiet, monkeypatch):
    asked: list = []
    answer(monkeypatch, {}, asked)
    assert window.open_path(str(save(tmp_path, ("ge", "ru"))), confirmed=True)
    assert asked == [] and sorted(window.document.scenario.sides) == ["allied", "axis"]


def test_the_dialog_needs_a_nationality_on_each_side(qtbot):
    dialog = SidesDialog(["ge", "fi", "ru"])
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled() and dialog.sides().names == ("axis", "allied")
    assert "ge+fi (axis) against ru (allied)" in dialog.said.text()
    dialog.combos["ru"].setCurrentIndex(0)
    assert not ok.isEnabled() and dialog.sides() is None
    dialog.combos["fi"].setCurrentIndex(1)
    assert ok.isEnabled() and dialog.sides().names == ("ge+ru", "fi")


def test_following_asks_once_and_keeps_the_sides(window, tmp_path, quiet, monkeypatch):
    asked: list = []
    answer(monkeypatch, {"fi": 0, "ge": 1, "ru": 1}, asked)
    path = save(tmp_path)
    follower = start_following(window, str(path))
    assert sorted(window.document.scenario.sides) == ["fi", "ge+ru"]
    save(tmp_path, ("ge", "fi", "ru", "ru"), stamp=2 * 10**18)       # VASL writes it again
    assert follower.check()
    assert len(asked) == 1 and sorted(window.document.scenario.sides) == ["fi", "ge+ru"]
    answer(monkeypatch, None, asked)
    assert start_following(window, str(path)) is None
