"""The planner's gain (rules.md 11.7), against the plain count on generated positions.

For every legal placement and each of the 36 drift outcomes, the plain way: the flare put
where the dice send it, the lights worked out again, and every friendly Good Order unit's
``unit_verdict`` on every enemy unit the shot newly lit (seen: "nvr", within NVR or lit), on
every enemy it saw before (lost), and each friend newly lit (blinded, E1.101).  The planner's
first choice must be one the plain count of newly lit and seen enemies ranks first."""
import random
from fractions import Fraction

import pytest
from support import board, example, position, unit

from engine.hexes import COLUMN_NAMES, board_hexes
from engine.night.drift import drift_end
from engine.night.light import illumination
from engine.night.planner import advise
from engine.night.scenario import Marker
from engine.night.unit_verdicts import unit_verdict

ALL = [f"{COLUMN_NAMES[c]}{r}" for c, r in board_hexes()]
TERRAIN = [{"terrain": "woods"}, {"terrain": "grain"}, {"level": 1}, {"terrain": "brush"},
           {"terrain": "building", "building": "b"}, {"level": 2}, {"terrain": "orchard"}]


def near(rng: random.Random, centre: tuple[int, int], spread: int) -> str:
    c = min(max(centre[0] + rng.randint(-spread, spread), 0), len(COLUMN_NAMES) - 1)
    r = min(max(centre[1] + rng.randint(-spread, spread), 1), 10)
    name = f"{COLUMN_NAMES[c]}{r}"
    return name if name in ALL else near(rng, centre, spread)


def generated(seed: int):
    """A night position nobody tuned: terrain, 2-4 units a side around one spot, perhaps a
    starshell burning, NVR 1-4; the allied leader fires (starshells used before, PFPh)."""
    rng = random.Random(seed)
    centre = (rng.randint(4, 28), rng.randint(2, 9))
    hexes = {near(rng, centre, 7): rng.choice(TERRAIN) for _ in range(rng.randint(5, 40))}
    units = [unit("A0", "t1" + near(rng, centre, 3), "allied", "leader")]
    for k in range(1, rng.randint(2, 4)):
        units.append(unit(f"A{k}", "t1" + near(rng, centre, 5), "allied",
                          rng.choice(["squad", "squad", "half_squad"]),
                          broken=rng.random() < 0.2))
    for k in range(rng.randint(2, 4)):
        units.append(unit(f"E{k}", "t1" + near(rng, centre, 6), "axis",
                          rng.choice(["squad", "leader", "half_squad"]),
                          broken=rng.random() < 0.2, bypass=rng.random() < 0.1))
    markers = []
    if rng.random() < 0.4:
        markers.append(Marker("starshell", "t1" + near(rng, centre, 6)))
    if rng.random() < 0.3:
        markers.append(Marker("gunflash", "t1" + near(rng, centre, 6), side="axis"))
    return position(board("t1", hexes), units=units, markers=markers, nvr=rng.randint(1, 4),
                    starshells_used="earlier", attacker="allied", phase="PFPh")


def sees(s, viewer, target) -> bool:
    return unit_verdict(s, viewer, target).sight == "nvr"


def plain(s, option, cache) -> dict:
    """Sums over the 36 outcomes, the plain way (each end's position kept in ``cache``)."""
    m = s.map
    kind = "ir" if option.method.startswith("ir") else "starshell"
    friends = [u for u in s.units if u.side == "allied"]
    enemies = [u for u in s.units if u.side == "axis"]
    watchers = [f for f in friends if not f.broken]
    before = illumination(s)
    saw = {(f.id, e.id) for f in watchers for e in enemies if sees(s, f.id, e.id)}
    out = {"seen": 0, "any": 0, "blinded": 0, "lost": 0,
           "stop": dict.fromkeys((f.id for f in friends), 0)}
    for d in range(1, 7):
        for r in range(1, 7):
            end = drift_end(m, m.index(option.at), option.method, d, r)
            if end not in cache:
                cache[end] = per_end(s, kind, end, friends, enemies, watchers, before, saw)
            seen, blinded, lost, stop = cache[end]
            out["seen"] += seen
            out["any"] += seen > 0
            out["blinded"] += blinded
            out["lost"] += lost
            for f, n in stop.items():
                out["stop"][f] += n
    return out


def per_end(s, kind, end, friends, enemies, watchers, before, saw):
    after = s if end is None else s.replace(markers=s.markers + (Marker(kind, s.map.names[end]),))
    light = illumination(after)
    seen = sum(1 for e in enemies if light.unit_lit(e) and not before.unit_lit(e)
               and any(sees(after, f.id, e.id) for f in watchers))
    blinded = [f for f in friends if light.unit_lit(f) and not before.unit_lit(f)]
    now = {e.id for e in enemies if any((f.id, e.id) in saw for f in watchers)}
    lost = sum(1 for e in now if not any(sees(after, f.id, e) for f in watchers))
    stop = {f.id: sum(1 for e in enemies if (f.id, e.id) in saw and not sees(after, f.id, e.id))
            for f in blinded}
    return seen, len(blinded), lost, stop


@pytest.mark.parametrize("seed", range(14))
def test_first_choice_is_the_plain_counts_first(seed):
    s = generated(seed)
    advice = advise(s, "A0")
    assert advice.options
    cache: dict = {}
    counts = [plain(s, o, cache) for o in advice.options]
    for o, c in zip(advice.options, counts):
        where = (o.method, o.at)
        assert o.expected_enemies_seen == Fraction(c["seen"], 36), where
        assert o.any_enemy_seen == Fraction(c["any"], 36), where
        assert o.expected_friends_blinded == Fraction(c["blinded"], 36), where
        assert o.expected_sight_lost == Fraction(c["lost"], 36), where
        assert dict(zip(o.friendly_ids, o.stop_each)) == c["stop"], where
    best = max(c["seen"] for c in counts)
    assert counts[0]["seen"] == best
    assert advice.advice == ("fire" if best else "hold")
    # among the placements that see the most, the first loses no more sight than any other
    assert counts[0]["lost"] == min(c["lost"] for c in counts if c["seen"] == best)


def test_the_positions_are_not_all_alike():
    """The generated positions reach every case the count has (so the test above tests): shots
    that blind friends, that cost the side sight, that light several enemies seen at once,
    and first choices that the count of enemy units lit alone would not make."""
    answers = [advise(generated(seed), "A0") for seed in range(14)]
    options = [o for a in answers for o in a.options]
    assert any(o.blinded_count for o in options) and any(o.lost_count for o in options)
    assert any(o.seen_count and o.seen_count != o.any_seen_count for o in options)
    most_lit = [max(a.options, key=lambda o: sum(o.enemy_counts)) for a in answers]
    assert any(o.seen_count < a.best.seen_count for o, a in zip(most_lit, answers))


def test_an_enemy_lit_already_or_hidden_from_every_friend_gains_nothing():
    """E1.9: W-10's squad in 2BB5 is lit already: every placement lights it "certainly", and
    none gains: Don't fire.  Woods between every friend and the only enemy: lighting it gains
    nothing either (nobody then sees it), though the count of enemies lit says 1."""
    w10 = advise(example("W-10"), "L1")
    assert w10.advice == "hold" and w10.sentence == "Don't fire: no placement helps."
    assert all(o.any_enemy_lit == 1 and o.gain == 0 and o.any_enemy_seen == 0
               for o in w10.options)
    woods = {f"{c}{r}": {"terrain": "woods"} for c in "GH" for r in range(1, 11)}
    s = position(board("t1", woods), units=[unit("A0", "t1C5", "allied", "leader"),
                                            unit("E0", "t1K5", "axis")],
                 nvr=2, starshells_used="earlier", attacker="allied", phase="PFPh")
    hidden = advise(s, "A0")
    assert any(sum(o.enemy_counts) for o in hidden.options)
    assert hidden.advice == "hold" and all(o.seen_count == 0 for o in hidden.options)
    seen = advise(s.replace(units=s.units + (unit("A1", "t1L5", "allied"),)), "A0")
    assert seen.advice == "fire" and seen.best.enemy_lit["E0"] > 0


def test_method_2_aims_at_an_enemy_gunflash_never_a_fire_marker_of_ones_own():
    """E1.8, E1.922: a First Fire marker as VASL saves it carries no side; on the placer's own
    half-squad it is no aim for method 2; on an enemy unit's hex it is."""
    def methods(markers, units=()):
        s = position(board("t1"), units=[unit("A0", "t1C5", "allied", "leader"),
                                         unit("A1", "t1F5", "allied", "half_squad"),
                                         unit("E0", "t1Y5", "axis"), *units],
                     markers=markers, nvr=1, starshells_used="earlier", attacker="allied",
                     phase="PFPh")
        return {o.method for o in advise(s, "A0").options}
    assert methods([Marker("first_fire", "t1F5")]) == {"1", "3"}
    assert methods([Marker("first_fire", "t1F5", side="allied")]) == {"1", "3"}
    assert "2" in methods([Marker("first_fire", "t1G6")], [unit("E1", "t1G6", "axis")])
    assert "2" in methods([Marker("gunflash", "t1H5", side="axis")])
