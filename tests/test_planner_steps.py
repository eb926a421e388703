"""The planner's long questions a step at a time (advise_steps, threat_steps, route_steps): the
app's job runner drives them and may stop between two steps (Cancel); the engine starts no
thread.  Driven to the end each gives the plain function's answer."""
import random

from support import board, position, unit

from engine.hexes import COLUMN_NAMES, board_hexes
from engine.night.planner import advise, advise_steps
from engine.night.planner_route import route, route_steps
from engine.night.planner_steps import STEP_UNITS
from engine.night.planner_threat import threat, threat_steps

ALL = [f"t1{COLUMN_NAMES[c]}{r}" for c, r in board_hexes()]


def crowded(seed=3, per_side=STEP_UNITS + 20):
    rng = random.Random(seed)
    units = [unit(f"A{k}", rng.choice(ALL), "allied", rng.choice(["squad", "leader"]))
             for k in range(per_side)]
    units += [unit(f"E{k}", rng.choice(ALL), "axis") for k in range(per_side)]
    woods = {h[2:]: {"terrain": "woods"} for h in rng.sample(ALL, 40)}
    return position(board("t1", woods), units=units, starshells_used="earlier",
                    attacker="allied", phase="PFPh")


def run(steps):
    """Every progress the steps report, and their answer."""
    said = []
    while True:
        try:
            said.append(next(steps))
        except StopIteration as done:
            return said, done.value


def shares(said):
    return [s[1] if isinstance(s, tuple) else s for s in said]


def test_each_question_reports_several_steps_in_order_and_answers_as_in_one_go():
    s = crowded()
    for steps, plain in [(advise_steps(s, None, "allied"), advise(s, None, "allied")),
                         (threat_steps(s, "allied"), threat(s, "allied")),
                         (route_steps(s, "A0", ALL[-1]), route(s, "A0", ALL[-1]))]:
        said, answer = run(steps)
        got = shares(said)
        assert len(said) >= 3 and got == sorted(got) and 0 <= got[0] and got[-1] <= 1
        assert all(isinstance(t, str) and t for t, _ in said)
        assert answer.as_json() == plain.as_json()


def test_a_question_stopped_between_two_steps_leaves_the_next_one_whole():
    """Cancel: the runner closes the generator after a step; asked again, the answer is whole."""
    s = crowded()
    steps = threat_steps(s, "allied")
    next(steps), next(steps)
    steps.close()
    assert threat(s, "allied").as_json() == run(threat_steps(s, "allied"))[1].as_json()
