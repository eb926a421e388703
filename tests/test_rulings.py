"""Rulings of an independent rules audit: each test is one ruling, its docstring the ruling and
the source it rests on (the seeds, /work/shared/seeds/000_*, 001_*)."""
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from support import ROOT, board, changed, example, marker, position, sees, unit, with_markers

from engine.boards import save_board
from engine.night import drift
from engine.night.files import scenario_to_json
from engine.night.light import illumination
from engine.night.starshells import starshell_document as starshell_options
from engine.night.unit_verdicts import reveal


def cli(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "engine", *map(str, args), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def cli_help(command: str) -> str:
    out = subprocess.run([sys.executable, "-m", "engine", command, "--help"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return " ".join(out.stdout.split())


def saved(s, tmp_path, custom_board=None):
    """Write the position (and its custom board, if any) for the command line."""
    doc = scenario_to_json(s, tmp_path)
    if custom_board is not None:
        save_board(custom_board, tmp_path / "board.json")
        doc["map"][0]["board"] = "board.json"
    path = tmp_path / "position.json"
    path.write_text(json.dumps(doc))
    return path


# ------------------------------------------------------------------------ E1.91, E(C)1.91

def test_first_IR_may_be_tried_after_an_enemy_FFE():
    """E1.91, E(C)1.91: an IR mortar (or an observer for one) may try the first IR of the game
    under (d), an enemy FFE.  The seed: "Cada bando puede intentar emplazar la primera bengala/IR
    siempre que la unidad intentandolo reuna cualquiera de los cuatro criterios mencionados"
    (each side may try the first starshell/IR when the unit meets any of the four criteria).

    W-08's position: the axis observer in 2CC6 called an FFE on 2FF9; the allied squad in 2Z9,
    with no LOS to the observer nor the FFE, is made an IR mortar, and another allied unit an
    observer."""
    s = changed(example("W-08"), "A1", type="mortar", ir=True)
    assert sees(s, "A1", "O1").sight == "none"
    ir = starshell_options(s, "A1")["ir"]
    assert ir["may_fire"] and ir["usage_dr_max"] == 4
    assert "(d) the enemy fired an FFE on 2FF9 (E(C)1.91)" in ir["reasons"]
    assert ir["methods"]["ir-6"]
    observer = changed(s, "A1", type="observer", ir=False)
    ir = starshell_options(observer, "A1")["ir"]
    assert ir["may_fire"] and ir["usage_dr_max"] is None        # OBA IR: no usage dr (E1.931)
    assert any(r.startswith("(d) the enemy fired an FFE") for r in ir["reasons"])
    # without the FFE (and no other trigger) the first IR is still refused
    no_ffe = s.replace(markers=())
    ir = starshell_options(no_ffe, "A1")["ir"]
    assert not ir["may_fire"] and "no trigger for the first IR" in ir["reasons"][-1]
    # our own FFE is no trigger: it must be the enemy's
    own = s.replace(markers=(marker("ffe", "2FF9", side="allied"),))
    assert not starshell_options(own, "A1")["ir"]["may_fire"]


# ------------------------------------------------------------------------ E(C)1.8, E1.101

def _lit_firer_behind_woods():
    """A concealed axis squad in t1E5 under a starshell; allied Good Order squad in t1E8, its LOS
    blocked by woods in t1E6 and t1E7; a broken allied squad in t1F5 next to it... which is lit
    too, so it would see it, but it is broken."""
    b = board("t1", {"E6": {"terrain": "woods"}, "E7": {"terrain": "woods"}})
    return position(b, units=(unit("C", "t1E5", side="axis", concealed=True),
                              unit("G", "t1E8"), unit("B", "t1F5", broken=True)),
                    markers=(marker("starshell", "t1E5"),))


def test_lit_concealed_firer_no_enemy_LOS_keeps_concealment_because_no_LOS():
    """E(C)1.8, E1.101: a lit, concealed firer that no Good Order enemy can see keeps its
    concealment (no enemy has LOS).  The reason must not say "beyond the NVR of every Good Order
    enemy unit": a lit location is within every NVR (E1.101).  It says no Good Order enemy unit
    has LOS to it."""
    s = _lit_firer_behind_woods()
    assert illumination(s).unit_lit(s.unit("C"))
    assert sees(s, "G", "C").sight == "none"                    # the woods block it
    assert sees(s, "B", "C").sight == "nvr"                     # broken: does not count
    r = reveal(s, "C")
    assert not r.loses_concealment
    text = " ".join(r.reasons)
    assert "no Good Order enemy unit has LOS to it" in text
    assert "beyond the NVR" not in text
    assert "within every NVR (E1.101)" in text
    # the same firer in LOS of the Good Order squad loses it (W-15)
    assert reveal(changed(s, "G", hex="t1D5"), "C").loses_concealment


def test_dark_firer_at_lit_hex_loses_concealment_to_a_dark_enemy_within_NVR():
    """E(C)1.8, E1.101 (W-17): the seed's "una unidad dispararando desde una localizacion no
    iluminada a una localizacion iluminada no perderia su ocultamiento ... incluso si se
    encuentra a una distancia igual o menor que el NVR" is about the lit target, which sees only
    lit locations.  Another Good Order enemy in the dark within NVR sees the firer as usual, and
    "Una unidad enemiga que dispara dentro del NVR de una unidad propia en Buen orden pierde
    ocultamiento normalmente": the firer loses its concealment, and the reason says why the lit
    target does not save it.

    W-17: 2Y4 lit (starshell in 2Y1), concealed D in the dark 2Y5 fires at L in 2Y4; an allied
    squad K in the dark 2Y7, 2 hexes from 2Y5."""
    s = example("W-17")
    alone = reveal(s, "D", "2Y4")
    assert not alone.loses_concealment                          # only L, lit, could see it
    dark = s.with_unit(unit("K", "2Y7"))
    assert not illumination(dark).unit_lit(dark.unit("K"))
    assert sees(dark, "K", "D").sight == "nvr"
    r = reveal(dark, "D", "2Y4")
    assert r.loses_concealment
    text = " ".join(r.reasons)
    assert "within the NVR of Good Order enemy K" in text
    assert "K in the dark sees D within NVR, so it loses concealment normally" in text
    # K broken: only the lit target is left, and D keeps its concealment again
    assert not reveal(changed(dark, "K", broken=True), "D", "2Y4").loses_concealment


# ------------------------------------------------------------------------ illumination's blind

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


# ------------------------------------------------------------------------ drift --lit

def test_drift_lit_counts_the_lights_already_on_the_map(tmp_path):
    """E1.923, SPEC.md `drift --lit`: "the probability that each hex ends up illuminated" counts
    every light after the flare lands.  A hex already lit is lit for sure (1), not by the new
    flare's own share (1/6 below).

    W-10: a starshell in 2BB3 lights 2Z1.  A flare placed in 2V3 by method 1 drifts 1 hex: it
    lights 2Z1 (4 hexes from 2V3) only when it drifts towards it, 1 in 6 outcomes, but 2Z1 is
    lit anyway: 1.  2R1, 4 hexes on the other side and unlit now, keeps the flare's 1/6."""
    s = example("W-10")
    m = s.map
    at = m.index("2V3")
    own = drift.lit_probability_exact(m, at, "1")
    after = drift.lit_probability_after_exact(s, at, "1")
    z1, r1 = m.index("2Z1"), m.index("2R1")
    assert illumination(s).lit[z1] and not illumination(s).lit[r1]
    assert own[z1] == Fraction(1, 6)
    assert after[z1] == 1
    assert after[r1] == own[r1] == Fraction(1, 6)
    assert all(after[i] == 1 for i in map(int, illumination(s).lit.nonzero()[0]))
    fast = drift.lit_probability_after(s, at, "1")
    assert all(fast[i] == pytest.approx(float(p)) for i, p in after.items())
    assert (fast > 0).sum() == len(after)
    doc = cli("drift", saved(s, tmp_path), "--at", "2V3", "--method", "1", "--lit")
    assert doc["lit_probability"] == {m.names[i]: pytest.approx(float(p))
                                      for i, p in after.items()}
    assert doc["lit_probability"]["2Z1"] == 1.0
    assert "counting the lights already on the map" in cli_help("drift")


# ------------------------------------------------------------------------ reason texts

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
