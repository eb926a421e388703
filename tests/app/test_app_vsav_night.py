"""A VASL save opened with File > Open brings its night (rules.md 11.5): the NVR its scenario
record gives, said in the summary; a Starshell and an IR on the map mean starshells have been
fired (E1.92), shown so in the Position panel, never "none fired yet"."""
from __future__ import annotations

import vsav_synth as vs
from PySide6.QtWidgets import QMessageBox

import app.night.vasl.vsav_open as vsav_open

BOARDS = [(0, 0, "02"), (1, 0, "34")]


def test_a_night_save_opens_with_its_nvr_and_starshells_fired(window, tmp_path, monkeypatch):
    told = []
    monkeypatch.setattr(QMessageBox, "information",
                        staticmethod(lambda parent, title, text, *a: told.append(text)))
    monkeypatch.setattr(vsav_open, "boards_folder", lambda settings: None)
    path = vs.write_vsav(tmp_path / "night.vsav", BOARDS,
                         [vs.squad("4-6-7 1sq", vs.hex_pixel("K5")),
                          vs.squad("4-4-7 1sq", vs.hex_pixel("C3", (1, 0)), nation="ru"),
                          vs.light_marker("Starshell", vs.hex_pixel("T6")),
                          vs.light_marker("IR", vs.hex_pixel("P7", (1, 0)))],
                         info=vs.info_record("weather", nvr=2))
    assert window.open_path(str(path))
    s = window.document.scenario
    assert (s.nvr, s.starshells_used) == (2, "this_turn")
    panel = window.scenario_panel
    assert panel.nvr.value() == 2
    assert panel.starshells.currentData() == "this_turn"
    assert "NVR 2 from the save" in told[0]
    assert "a Starshell and an IR on the map: starshells fired this player turn" in told[0]
