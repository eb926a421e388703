"""Starshells and IR: who may try the first one (E1.91, E(C)1.91).

Rulings of an independent rules audit (the seeds, /work/shared/seeds/000_*, 001_*): each test
is one ruling, its docstring the ruling and the source it rests on."""
from support import changed, example, marker, sees

from engine.night.starshells import starshell_options


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
    ir = starshell_options(s, "A1").as_json()["ir"]
    assert ir["may_fire"] and ir["usage_dr_max"] == 4
    assert "(d) the enemy fired an FFE on 2FF9 (E(C)1.91)" in ir["reasons"]
    assert ir["methods"]["ir-6"]
    observer = changed(s, "A1", type="observer", ir=False)
    ir = starshell_options(observer, "A1").as_json()["ir"]
    assert ir["may_fire"] and ir["usage_dr_max"] is None        # OBA IR: no usage dr (E1.931)
    assert any(r.startswith("(d) the enemy fired an FFE") for r in ir["reasons"])
    # without the FFE (and no other trigger) the first IR is still refused
    no_ffe = s.replace(markers=())
    ir = starshell_options(no_ffe, "A1").as_json()["ir"]
    assert not ir["may_fire"] and "no trigger for the first IR" in ir["reasons"][-1]
    # our own FFE is no trigger: it must be the enemy's
    own = s.replace(markers=(marker("ffe", "2FF9", side="allied"),))
    assert not starshell_options(own, "A1").as_json()["ir"]["may_fire"]
