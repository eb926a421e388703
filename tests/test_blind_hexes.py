"""A6.4 blind hexes behind an obstacle and behind a bare crest, at ranges 4, 5, 9 and 10.

A level-2 viewer looks along a straight hex row (direction NE) over one intervening hex; the
hexes behind it are blind while D <= max(2(G+h) + R//5 - S - T + 1, 1) for an obstacle, or
D <= max(2G + R//5 - S - T, 0) for a bare crest (rules.md 2).  Here S = 2, T = 0.
"""
import pytest
from support import board, position, unit

from engine.hexes import COLUMN_NAMES, step
from engine.night.verdicts import visibility_from

VIEWER = (0, 10)          # t1A10, then straight NE along the board


def _hex(n: int) -> str:
    c, r = step(VIEWER, 2, n)
    return f"{COLUMN_NAMES[c]}{r}"


def _scene(R: int, obstacle: dict):
    b = board("t1", {_hex(0): {"level": 2}, _hex(R): obstacle})
    return position(b, units=[unit("V", "t1" + _hex(0))])


def _blind_depths(R: int, obstacle: dict) -> list[int]:
    s = _scene(R, obstacle)
    f = visibility_from(s.replace(nvr=40), "V")
    out = []
    for D in range(1, 18 - R + 1):            # NE from A10 stays on the board up to 18 hexes
        verdict = f["t1" + _hex(R + D)]
        if verdict.sight == "none":
            out.append(D)
            assert any("A6.4" in r for r in verdict.reasons), verdict.reasons
    return out


@pytest.mark.parametrize("R, blind", [(4, [1]), (5, [1, 2]), (9, [1, 2]), (10, [1, 2, 3])])
def test_blind_hexes_behind_a_woods_obstacle(R, blind):
    # woods at level 0: top 1, strictly between 0 and 2; limit = 1 + R // 5
    assert _blind_depths(R, {"terrain": "woods"}) == blind


@pytest.mark.parametrize("R, blind", [(4, []), (5, [1]), (9, [1]), (10, [1, 2])])
def test_blind_hexes_behind_a_bare_crest(R, blind):
    # a level-1 hill hex: limit = R // 5
    assert _blind_depths(R, {"level": 1}) == blind


def test_blind_hexes_are_reported_in_the_field():
    s = _scene(5, {"terrain": "woods"})
    f = visibility_from(s.replace(nvr=40), "V")
    blind = {s.map.names[i] for i in range(s.map.size) if f.blind[i]}
    assert {"t1" + _hex(6), "t1" + _hex(7)} <= blind
    assert "t1" + _hex(8) not in blind


def test_a_level_2_viewer_sees_over_a_level_1_obstacle_far_enough():
    s = _scene(4, {"terrain": "woods"})
    f = visibility_from(s.replace(nvr=40), "V")
    assert f["t1" + _hex(6)].sight == "nvr"
    assert f["t1" + _hex(5)].sight == "none"


def test_at_night_only_the_blind_hexes_that_can_change_a_verdict_count():
    """A6.4 at night: a blind hex beyond the viewer's NVR, unlit and with no Gunflash gives
    "none" blind or not (E1.1); within NVR, lit (E1.101) or with a Gunflash (E1.8) it matters.
    Woods at range 10, NVR 11: of the blind hexes 11, 12 and 13 hexes away the first counts,
    the others not, until a Gunflash marks one or a starshell lights it."""
    from engine.night.scenario import Marker
    s = _scene(10, {"terrain": "woods"}).replace(nvr=11)
    f = visibility_from(s, "V")
    m = s.map
    near, far, farther = (m.index("t1" + _hex(n)) for n in (11, 12, 13))
    assert f.blind[near] and f.blind[far] and f.blind[farther]
    assert f.blind_at_night[near]
    assert not f.blind_at_night[far] and not f.blind_at_night[farther]
    flash = visibility_from(s.replace(markers=(Marker("gunflash", "t1" + _hex(13),
                                                      side="axis"),)), "V")
    assert flash.blind_at_night[farther] and not flash.blind_at_night[far]    # E1.8
    lit = visibility_from(s.replace(markers=(Marker("starshell", "t1" + _hex(12)),)), "V")
    assert lit.light.lit[far] and lit.blind_at_night[far]                      # E1.101
