"""The words of the night verdicts' reasons: underground units (E1.923), one hex, not one hexes (E1.1, E1.14).

Rulings of an independent rules audit (the seeds, /work/shared/seeds/000_*, 001_*): each test
is one ruling, its docstring the ruling and the source it rests on."""
from support import board, changed, marker, position, sees, unit, with_markers

from engine.night.light import illumination


def test_underground_unit_in_a_lit_hex_is_told_its_location_is_not_lit():
    """E1.923: underground locations are not lit by starshells or IR.  A unit underground in a
    lit hex is not told the hex is "not illuminated (E1.101)": its location is not.

    NVR 1.  A starshell in t1E10 lights t1E8; an axis unit at level -1 there; an allied viewer
    on a level 2 hill in t1E6 (unlit, 4 hexes from the starshell) looks down on it, 2 hexes
    away, beyond its NVR."""
    b = board("t1", {"E6": {"level": 2}})
    s = position(b, units=(unit("A", "t1E6", level=2), unit("U", "t1E8", side="axis", level=-1)),
                 markers=(marker("starshell", "t1E10"),), nvr=1)
    assert illumination(s).lit[s.map.index("t1E8")]
    assert not illumination(s).unit_lit(s.unit("A"))
    v = sees(s, "A", "U")
    assert v.sight == "none"
    text = " ".join(v.reasons)
    assert "blocks LOS" not in text                              # the daytime LOS is clear
    assert "t1E8 is 2 hexes away, beyond A's NVR of 1, and not illuminated" not in text
    assert "U's location there is not illuminated" in text
    assert "U is underground: starshells and IR do not light underground locations (E1.923)" \
        in text
    # an observer in a lit hex, asking about the same underground unit
    lit_viewer = with_markers(s, marker("starshell", "t1E4"))
    assert illumination(lit_viewer).unit_lit(lit_viewer.unit("A"))
    text = " ".join(sees(lit_viewer, "A", "U").reasons)
    assert "no light reaches" not in text and "(E1.923)" in text


def test_one_hex_away_is_singular():
    """Reason texts: "1 hex away", not "1 hexes away".  NVR 0: an adjacent unlit enemy is beyond
    NVR; an adjacent vehicle that entered its hex is beyond 1.5 x NVR = 0 (E1.1, E1.14)."""
    b = board("t1")
    s = position(b, units=(unit("A", "t1E1"), unit("E", "t1E2", side="axis")), nvr=0)
    text = " ".join(sees(s, "A", "E").reasons)
    assert "t1E2 is 1 hex away, beyond A's NVR of 0" in text
    assert "1 hexes" not in text
    moving = changed(s, "E", type="afv", moving="entered")
    text = " ".join(sees(moving, "A", "E").reasons)
    assert "moving but 1 hex away" in text and "1 hexes" not in text


def test_a_blocking_obstacle_names_its_ground_level_and_its_top():
    """A6.2: an obstacle blocks by its top (its ground level plus its height).  Woods on a level 2
    hill in t1E4, between a viewer on level 3 in t1E2 and a target on level 0 in t1E5: the reason
    says the hex's ground level (2) and the woods' top (3), not "level 2 ... as high as level 3"."""
    b = board("t1", {"E2": {"level": 3}, "E4": {"terrain": "woods", "level": 2},
                     "E3": {"level": 2}})
    s = position(b, units=(unit("A", "t1E2"), unit("E", "t1E5", side="axis")),
                 markers=(marker("starshell", "t1E6"),))
    text = " ".join(sees(s, "A", "E").reasons)
    assert "t1E4 (woods, ground level 2, woods top level 3) blocks LOS" in text
    assert "(woods, level 2)" not in text
