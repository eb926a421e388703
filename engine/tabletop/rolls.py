"""The rolls of a shooting (rules.md 9; seed ``004_*``, DBA 3.0 shooting): their order
when one element shoots another (``resolution``: mutual, defensive, then-shots), and everything a
player asks about one shooter (``shoot``: range, targets, priority, support, resolution).

The verdicts it puts together are ``shooting.Shooting``'s; rule tags as there.
"""
from __future__ import annotations

from ..errors import ScenarioError
from .shooting import PRIORITY, REAR, Shooting
from .table import Element, Table

ORDER = "shooting example 2"     # the player whose turn it is decides which roll comes first
FIRST = ("shot", "defensive")


def _turn_side(shooting: Shooting, shooter: Element, turn: str | None) -> str:
    return turn or shooting.table.turn or shooter.side


def answered(shooting: Shooting, target: Element,
             choices: dict | None = None) -> tuple[str | None, list[str]]:
    """(whom ``target`` shoots, the ids it may choose among): when two shooters tie for it, its
    player chooses (DBA 3.0 priority); ``choices`` maps an element to the target chosen for it.
    Undecided, the first of them in the table's order stands (our reading: the seed leaves the
    choice to the player; the answer says whom it took)."""
    must = shooting.must_shoot(target)
    if not must:
        return None, must
    pick = (choices or {}).get(target.id)
    if pick is not None and pick not in must:
        raise ScenarioError(f"{target.id} may shoot only {' or '.join(must)}, not {pick!r}",
                            file=shooting.table.file, place="--choose")
    return pick or must[0], must


def resolution(shooting: Shooting, shooter: Element, target: Element, turn: str | None = None,
               choices: dict | None = None, first: str | None = None) -> dict:
    """Long: one text per roll, in the order chosen. The order of the rolls when ``shooter``
    shoots ``target`` (seed ex. 2-4): one roll applied to both at once when the target shoots
    back at it (mutual: only the one it shoots, when two tie for it); otherwise the target only
    rolls to defend, and an enemy archer the shooter cannot answer gets a defensive roll from it.
    Which of these comes first is the choice of the player whose turn it is ("Decide realizar
    primero...", seed ex. 2): ``first`` "shot" (its own shot first: what the seed's player chooses
    in its turn) or "defensive"; by default the phasing side's shot comes first."""
    side = _turn_side(shooting, shooter, turn)
    if first is not None and first not in FIRST:
        raise ScenarioError(f"must be {' or '.join(FIRST)}, not {first!r}",
                            file=shooting.table.file, place="--first")
    default = "shot" if side == shooter.side else "defensive"
    order = first or default
    sup, _ = shooting.supporters(shooter, target.id)
    minus = f"; {target.id} has -{len(sup)} to its combat factor ({', '.join(sup)} supporting)" \
        if sup else ""
    answer, among = answered(shooting, target, choices)
    mutual = answer == shooter.id
    others = [e for e in shooting.shot_at_by(shooter) if e != target.id]
    own, defence = [], []
    for e in others:
        if order == "defensive":
            defence.append({"roll": "defensive", "by": shooter.id, "at": e, "text": (
                f"{e} shoots {shooter.id} first (the {side} player's choice of order, {ORDER}): "
                f"{shooter.id} only rolls to defend, and the result applies before {shooter.id}'s "
                f"own shot: destroyed, or recoiled out of range, {shooter.id} loses its shot; "
                f"winning does not harm {e} (shooting example 2)")})
        else:
            defence.append({"roll": "defensive", "by": shooter.id, "at": e, "text": (
                f"then {shooter.id} rolls to defend against {e}, which it cannot answer: two rolls, "
                f"but one shot; winning does not harm {e} (shooting example 2)")})
    tie = (f" ({target.id} may shoot {' or '.join(among)}: its player chooses {answer}, "
           f"{PRIORITY})") if len(among) > 1 else ""
    if mutual:
        own.append({"roll": "mutual", "by": shooter.id, "at": target.id, "text": (
            f"{shooter.id} and {target.id} shoot each other: one roll, the result applied to both at "
            f"once{minus} (shooting example 3){tie}")})
    else:
        own.append({"roll": "shot", "by": shooter.id, "at": target.id, "text": (
            f"{shooter.id} shoots {target.id}{minus}; {target.id} "
            + (f"shoots {answer}, not {shooter.id}, and " if shooter.id in among else
               f"cannot answer {shooter.id} and " if shooting.shooting_range(target)[0] is not None
               else "")
            + f"only rolls to defend: winning does not harm {shooter.id} (shooting example 2, 4){tie}")})
        if answer is not None:
            note = (f"; {answer} supported {shooter.id}'s shot and only rolls to defend (shooting example 4)"
                    if answer in sup else "")
            own.append({"roll": "shot", "by": target.id, "at": answer, "then": True, "text": (
                f"then {target.id}, if not destroyed or recoiled out of its range, shoots {answer}"
                f"{note}")})
    steps = defence + own if order == "defensive" else own + defence
    return {"mutual": mutual, "supporters": sup, "target_modifier": -len(sup), "turn": side,
            "target_shoots": answer, "target_may_shoot": among,
            "order": {"chosen_by": side, "first": order, "default": default,
                      "choices": list(FIRST) if others else [order]},
            "steps": steps}


def shoot(table: Table, shooter_id: str, turn: str | None = None, choices: dict | None = None,
          first: str | None = None) -> dict:
    """Long: the whole answer, built in one place. Everything a player asks about one shooter
    (SPEC.md, ``shoot``); ``choices`` and ``first`` are the players' choices (``resolution``).
    A rear-rank archer is never the main shooter: it supports the element in front of it
    (seed ex. 5, "Alli donde dispare 3 lo hara 4 dandole apoyo"), so it has no rolls of its own."""
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
        reasons.append(f"{s.id} is a rear-rank archer behind {front.id}: it never shoots on its "
                       f"own; it supports {front.id}'s shot, at the same target and range "
                       f"({REAR}, shooting example 5)")
    if front is not None and must:
        reasons.append(f"where {front.id} shoots ({' or '.join(must)}), {s.id} supports it: -1 to "
                       f"the target's combat factor; the rolls are {front.id}'s ({REAR})")
    elif len(must) == 1:
        reasons.append(f"{s.id} must shoot {must[0]}: the legal target nearest the bisector of "
                       f"its front ({PRIORITY})")
    elif must:
        reasons.append(f"{' and '.join(must)} are equally near the bisector of {s.id}'s front: "
                       f"the player chooses ({PRIORITY})")
    elif rng is not None:
        reasons.append(f"{s.id} has no legal target")
    supporters, not_supporting = {}, {}
    for tid, v in targets.items():
        if v.legal and front is None:
            supporters[tid], not_supporting[tid] = sh.supporters(s, tid)
    return {
        "shooter": s.id, "side": s.side, "range": rng,
        "targets": {tid: v.as_json() for tid, v in targets.items()},
        "must_shoot": must,
        "rear_rank_of": front.id if front is not None else None,
        "supporters": supporters,
        "not_supporting": not_supporting,
        "shot_at_by": sh.shot_at_by(s),
        "main": front is None, "supports": front.id if front is not None else None,
        "resolution": {} if front is not None else {
            tid: resolution(sh, s, sh.els[tid], turn, choices, first) for tid in must},
        "reasons": reasons,
    }
