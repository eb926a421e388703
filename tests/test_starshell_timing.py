"""When a starshell or an IR may be fired (E1.92, E1.921; ASOP 3.12D / 4.11D for the defender):
a table of phase x attacker/defender x unit type x first/later, with the answer for each."""
import pytest
from support import position, unit

from engine.boards import bundled_board
from engine.night.starshells import starshell_options


def scene(phase, attacking, used, start, enemy_visible=True):
    units = [unit("A", "2M5"), unit("L", "2M3", type="leader"),
             unit("M", "2M7", type="mortar", ir=True),
             unit("E", "2P5" if enemy_visible else "2A1", side="axis")]
    s = position(bundled_board("2"), units=units, phase=phase,
                 attacker="allied" if attacking else "axis", starshells_used=used)
    return s.replace(extra={"phase_start": start})


ATT, DEF = True, False
#   phase   side  unit  used         start  starshell  IR (mortar only)
TABLE = [
    ("PFPh", ATT, "A", "never", True, True, None),
    ("PFPh", ATT, "A", "never", False, True, None),
    ("MPh", ATT, "A", "never", False, False, None),
    ("DFPh", ATT, "A", "never", False, False, None),
    ("PFPh", DEF, "A", "never", False, False, None),
    ("MPh", DEF, "A", "never", False, True, None),
    ("DFPh", DEF, "A", "never", False, True, None),
    ("RPh", ATT, "A", "never", True, False, None),
    ("AFPh", DEF, "A", "never", True, False, None),
    ("CCPh", ATT, "A", "this_turn", True, False, None),
    ("PFPh", ATT, "A", "this_turn", False, True, None),
    ("DFPh", DEF, "A", "this_turn", False, True, None),
    ("PFPh", ATT, "A", "earlier", True, True, None),
    ("PFPh", ATT, "A", "earlier", False, False, None),
    ("PFPh", ATT, "L", "earlier", False, True, None),
    ("MPh", DEF, "A", "earlier", True, True, None),
    ("MPh", DEF, "A", "earlier", False, False, None),
    ("DFPh", DEF, "A", "earlier", True, False, None),
    ("DFPh", DEF, "L", "earlier", False, True, None),
    ("MPh", DEF, "L", "earlier", False, True, None),
    ("MPh", ATT, "L", "earlier", True, False, None),
    ("AFPh", ATT, "L", "earlier", True, False, None),
    ("PFPh", ATT, "M", "earlier", True, True, True),
    ("PFPh", ATT, "M", "earlier", False, False, False),
    ("DFPh", DEF, "M", "earlier", True, False, True),
    ("DFPh", DEF, "M", "earlier", False, False, False),
    ("MPh", DEF, "M", "earlier", True, True, True),
    ("MPh", ATT, "M", "never", True, False, False),
    ("PFPh", ATT, "M", "never", False, True, True),
    ("DFPh", DEF, "M", "this_turn", False, True, True),
    ("RtPh", DEF, "M", "earlier", True, False, False),
]


@pytest.mark.parametrize("phase, attacking, uid, used, start, star, ir", TABLE)
def test_starshell_timing_table(phase, attacking, uid, used, start, star, ir):
    opts = starshell_options(scene(phase, attacking, used, start), uid).as_json()
    assert opts["may_fire"] is star, opts["reasons"]
    if ir is not None:
        assert opts["ir"]["may_fire"] is ir, opts["ir"]["reasons"]
    if not star:
        assert opts["usage_dr_max"] is None
        assert all(v == [] for v in opts["methods"].values())
        assert any("E1.92" in r for r in opts["reasons"])


def test_the_first_starshell_needs_a_trigger_later_ones_do_not():
    dark = scene("PFPh", ATT, "never", True, enemy_visible=False)
    opts = starshell_options(dark, "A").as_json()
    assert not opts["may_fire"] and "E1.91" in opts["reasons"][-1]
    assert starshell_options(dark.replace(starshells_used="earlier"), "A").as_json()["may_fire"]
    assert starshell_options(dark.replace(starshells_used="this_turn"), "A").as_json()["may_fire"]


@pytest.mark.parametrize("type_, extra, limit", [
    ("squad", {}, 2), ("half_squad", {}, 2), ("crew", {}, 2), ("leader", {}, 4),
    ("armor_leader", {"ce": True}, 4), ("armor_leader", {"bu": True}, None),
    ("afv", {}, 2), ("afv", {"bu": True}, None), ("hero", {}, None),
    ("squad", {"broken": True}, None), ("vehicle", {}, None), ("observer", {}, 2),
])
def test_who_may_fire_a_starshell_and_the_usage_dr(type_, extra, limit):
    s = scene("PFPh", ATT, "earlier", True)
    s = s.with_unit(unit("X", "2H5", type=type_, **extra))
    assert starshell_options(s, "X").as_json()["usage_dr_max"] == limit


@pytest.mark.parametrize("type_, extra, may, limit", [
    ("mortar", {"ir": True}, True, 4), ("mortar", {}, False, None),
    ("observer", {}, True, None), ("squad", {}, False, None),
])
def test_who_may_fire_an_IR(type_, extra, may, limit):
    s = scene("PFPh", ATT, "earlier", True)
    s = s.with_unit(unit("X", "2H5", type=type_, **extra))
    ir = starshell_options(s, "X").as_json()["ir"]
    assert (ir["may_fire"], ir["usage_dr_max"]) == (may, limit)
