"""The attack the player puts together (rules.md 8), asked of the engine: the firers the player
toggled in or out, the attack they make, every candidate marked as drawn; no object the engine
returned is changed."""
from __future__ import annotations

from engine.api import napoleonic as nap

TARGET = "n1J5"


def sample():
    return nap.load_position(nap.bundled_positions_dir() / "sample.json")


def test_the_engine_s_choice_is_the_attack_of_the_firers_it_counts():
    pos = sample()
    candidates = nap.assess(pos, TARGET)
    chosen = nap.choose_attack(pos, TARGET, {})
    firers = nap.chosen_firers(candidates, {})
    assert firers and chosen.attack.allowed
    expected = nap.assess(pos, TARGET, firers, (4, 3))
    rolled = nap.choose_attack(pos, TARGET, {}, (4, 3))
    assert rolled.attack.to_json() == expected.to_json()
    assert [f.id for f in chosen.shown.firers] == [f.id for f in candidates.firers]
    assert {f.id for f in chosen.shown.firers if f.counted} == {f.id for f in chosen.attack.counted()}


def test_a_firer_toggled_out_leaves_the_attack_and_is_drawn_left_out():
    pos = sample()
    firers = nap.chosen_firers(nap.assess(pos, TARGET), {})
    out = firers[0]
    chosen = nap.choose_attack(pos, TARGET, {out: False})
    assert out not in [f.id for f in chosen.attack.counted()]
    assert not next(f for f in chosen.shown.firers if f.id == out).counted
    assert chosen.attack.fire < nap.choose_attack(pos, TARGET, {}).attack.fire


def test_no_firer_chosen_is_refused_saying_so_and_changes_nothing_it_was_given():
    pos = sample()
    before = nap.assess(pos, TARGET).to_json()
    everyone_out = {f.id: False for f in nap.assess(pos, TARGET).firers}
    chosen = nap.choose_attack(pos, TARGET, everyone_out)
    assert not chosen.attack.allowed and chosen.attack.fire == 0
    assert chosen.attack.reasons == ["no firer chosen: click a unit outlined in grey to add it"]
    assert chosen.attack.column is None and chosen.attack.outcomes == {}
    assert not any(f.counted for f in chosen.shown.firers)
    assert nap.assess(pos, TARGET).to_json() == before
