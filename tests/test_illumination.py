"""Illumination's `blind` hexes, in the engine and on the command line (E1.9, SPEC.md).

Rulings of an independent rules audit (the seeds, /work/shared/seeds/000_*, 001_*): each test
is one ruling, its docstring the ruling and the source it rests on."""
from support import board, cli, cli_help, marker, position, saved, with_markers

from engine.night.light import illumination


def test_illumination_blind_leaves_out_hexes_another_light_reaches(tmp_path):
    """E1.9, SPEC.md `illumination`: `blind` lists "hexes inside a blaze/flame circle that no
    light reaches".  A Blaze's shadow that a starshell lights is lit, not blind, and the
    command's help says so.

    A Blaze in t1E5 (radius 2) behind woods in t1E6: t1E7 is in its shadow; a starshell in t1E9
    lights t1E7 (2 hexes) but not t1E3 (6 hexes)."""
    b = board("t1", {"E6": {"terrain": "woods"}, "E4": {"terrain": "woods"}})
    s = position(b, markers=(marker("blaze", "t1E5", radius=2),))
    shadow = illumination(s)
    assert {"t1E7", "t1E3"} <= set(shadow.blind_names())
    both = with_markers(s, marker("starshell", "t1E9"))
    doc = cli("illumination", saved(both, tmp_path, b))
    assert "t1E7" in doc["illuminated"] and "t1E7" not in doc["blind"]
    assert "t1E3" in doc["blind"] and "t1E3" not in doc["illuminated"]
    help_text = cli_help("illumination")
    assert "blaze/flame circle that no light reaches" in help_text
    assert "another light reaches is lit, not blind" in help_text
