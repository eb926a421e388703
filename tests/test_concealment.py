"""Concealment lost or kept by a firer at night (E(C)1.8, E1.101).

Rulings of an independent rules audit (the seeds, /work/shared/seeds/000_*, 001_*): each test
is one ruling, its docstring the ruling and the source it rests on."""
from support import board, changed, example, marker, position, sees, unit

from engine.night.light import illumination
from engine.night.unit_verdicts import reveal


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
