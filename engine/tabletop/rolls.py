"""The rolls of a shooting (RULES.md section 9; seed ``004_*``, DBA 3.0 shooting): their order
when one element shoots another (``resolution``: mutual, defensive, then-shots), and everything a
player asks about one shooter (``shoot``: range, targets, priority, support, resolution).

The verdicts it puts together are ``shooting.Shooting``'s; rule tags as there.
"""
from __future__ import annotations

from ..errors import ScenarioError
from .shooting import PRIORITY, REAR, Shooting
from .table import Element, Table


def _turn_side(shooting: Shooting, shooter: Element, turn: str | None) -> str:
    return turn or shooting.table.turn or shooter.side


def resolution(shooting: Shooting, shooter: Element, target: Element, turn: str | None = None) -> dict:
    """The order of the rolls when ``shooter`` shoots ``target`` (seed ex. 2-4): one roll applied
    to both at once when the target shoots back (mutual); otherwise the target only rolls to
    defend, and an enemy archer the shooter cannot answer gets a defensive roll from it: after
    the shooter's own shot in its side's turn, before it (its result applied first) in the
    enemy's turn."""
    side = _turn_side(shooting, shooter, turn)
    sup, _ = shooting.supporters(shooter, target.id)
    minus = f"; {target.id} has -{len(sup)} to its combat factor ({', '.join(sup)} supporting)" \
        if sup else ""
    mutual = shooter.id in shooting.must_shoot(target)
    others = [e for e in shooting.shot_at_by(shooter) if e != target.id]
    steps = []
    if side != shooter.side:
        for e in others:
            steps.append({"roll": "defensive", "by": shooter.id, "at": e, "text": (
                f"{e} shoots {shooter.id} first ({side}'s turn): {shooter.id} only rolls to defend, and "
                f"the result applies before {shooter.id}'s own shot: destroyed, or recoiled out of "
                f"range, {shooter.id} loses its shot; winning does not harm {e} (seed ex. 2)")})
    if mutual:
        steps.append({"roll": "mutual", "by": shooter.id, "at": target.id, "text": (
            f"{shooter.id} and {target.id} shoot each other: one roll, the result applied to both at "
            f"once{minus} (seed ex. 3)")})
    else:
        steps.append({"roll": "shot", "by": shooter.id, "at": target.id, "text": (
            f"{shooter.id} shoots {target.id}{minus}; {target.id} "
            + (f"cannot answer {shooter.id} and " if shooting.shooting_range(target)[0] is not None else "")
            + f"only rolls to defend: winning does not harm {shooter.id} (seed ex. 2, 4)")})
        for u in shooting.must_shoot(target):
            note = (f"; {u} supported {shooter.id}'s shot and only rolls to defend (seed ex. 4)"
                    if u in sup else "")
            steps.append({"roll": "shot", "by": target.id, "at": u, "then": True, "text": (
                f"then {target.id}, if not destroyed or recoiled out of its range, shoots {u}"
                f"{note}")})
    if side == shooter.side:
        for e in others:
            steps.append({"roll": "defensive", "by": shooter.id, "at": e, "text": (
                f"then {shooter.id} rolls to defend against {e}, which it cannot answer: two rolls, "
                f"but one shot; winning does not harm {e} (seed ex. 2)")})
    return {"mutual": mutual, "supporters": sup, "target_modifier": -len(sup), "turn": side,
            "steps": steps}


def shoot(table: Table, shooter_id: str, turn: str | None = None) -> dict:
    """Everything a player asks about one shooter (SPEC.md, ``shoot``)."""
    sh = Shooting(table)
    try:
        s = sh.element(shooter_id)
    except ScenarioError as e:
        raise ScenarioError(e.problem, file=table.file, place="--shooter") from None
    if turn is not None and turn not in table.sides():
        raise ScenarioError(f"no side {turn!r} on the table (sides: {', '.join(table.sides())})",
                            file=table.file, place="--turn")
    front = sh.front_rank(s)
    rng, rng_reason = sh.shooting_range(front or s)
    targets = sh.targets(s)
    must = sh.must_shoot(s)
    reasons = [rng_reason]
    if front is not None:
        reasons.append(f"{s.id} is a rear-rank archer behind {front.id}: it shoots the same target "
                       f"at the same range ({REAR})")
    if len(must) == 1:
        reasons.append(f"{s.id} must shoot {must[0]}: the legal target nearest the bisector of "
                       f"its front ({PRIORITY})")
    elif must:
        reasons.append(f"{' and '.join(must)} are equally near the bisector of {s.id}'s front: "
                       f"the player chooses ({PRIORITY})")
    elif rng is not None:
        reasons.append(f"{s.id} has no legal target")
    supporters, not_supporting = {}, {}
    for tid, v in targets.items():
        if v.legal:
            supporters[tid], not_supporting[tid] = sh.supporters(s, tid)
    return {
        "shooter": s.id, "side": s.side, "range": rng,
        "targets": {tid: v.as_json() for tid, v in targets.items()},
        "must_shoot": must,
        "rear_rank_of": front.id if front is not None else None,
        "supporters": supporters,
        "not_supporting": not_supporting,
        "shot_at_by": sh.shot_at_by(s),
        "resolution": {tid: resolution(sh, s, sh.els[tid], turn) for tid in must},
        "reasons": reasons,
    }
