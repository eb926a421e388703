"""A fire attack's result applied to the units of the target hex (rules.md 10; SPEC.md turn three,
``fire ... --record``).  The seed sends losses to its rule 17.0, which it does not give: the
result is what the chart pack's result string says, ``"2"`` two increments lost, ``/M`` a morale
check, ``/L`` a leader casualty, ``/D`` disorder.

Our readings, where the seed leaves it open:
- the owner spreads the increments lost over the units of the defender's side in the hex (not
  its leaders); by default they are taken from the unit deployed in the hex (the defender)
  first, then from the other units of its side in the hex, in the order listed, never below 0;
- ``/M`` marks every unit of the defender's side in the hex that has increments;
- ``/L`` marks the leaders of the defender's side in the hex (none there: no casualty);
- ``/D`` puts the defender in disorder.
"""
from __future__ import annotations

from dataclasses import replace

from ..errors import ScenarioError
from .position import FirePosition, FireUnit

FLAG_WORDS = {"M": "a morale check", "L": "a leader casualty", "D": "disorder"}
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def parse_result(text: str) -> tuple[int, tuple[str, ...]]:
    """``"1/M"`` -> (1, ("M",)); ``""`` -> (0, ()); a result string the pack wrote."""
    head, *flags = text.split("/") if text else ("",)
    head = head.strip()
    if head and not head.isdigit():
        raise ScenarioError(f"a result starts with the increments lost, not {text!r}",
                            place="results")
    return (int(head) if head else 0), tuple(f.strip().upper() for f in flags if f.strip())


def result_words(text: str) -> str:
    """The result in words: ``"1/M"`` -> "one increment lost and a morale check"."""
    lost, flags = parse_result(text)
    parts = []
    if lost:
        n = NUMBER_WORDS[lost] if lost < len(NUMBER_WORDS) else str(lost)
        parts.append(f"{n} increment{'s' if lost != 1 else ''} lost")
    parts += [FLAG_WORDS.get(f, f"{f} (as the charts say)") for f in flags]
    if not parts:
        return "no effect"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def loss_takers(position: FirePosition, defender: str) -> list[str]:
    """The units that may take the losses of an attack on ``defender``'s hex, the defender
    first: its side's units in the hex with increments, not leaders (rules.md 10)."""
    top = position.unit(defender)
    side = [u for u in position.units_in(top.hex) if u.side == top.side and u.arm != "leader"]
    return [u.id for u in [top] + [u for u in side if u.id != top.id] if u.increments > 0]


def default_spread(position: FirePosition, defender: str, lost: int) -> dict[str, int]:
    """The losses from the top unit down (the default): ``{id: increments}``."""
    out = {}
    for uid in loss_takers(position, defender):
        take = min(lost, position.unit(uid).increments)
        if take:
            out[uid] = take
            lost -= take
    return out


def _check_spread(position: FirePosition, defender: str, lost: int, spread: dict) -> None:
    takers = loss_takers(position, defender)
    hex_id = position.unit(defender).hex
    for uid, n in spread.items():
        if uid not in takers:
            raise ScenarioError(f"{uid} cannot take the losses of {hex_id}: only "
                                f"{', '.join(takers) or 'no unit'} may", place="losses")
        has = position.unit(uid).increments
        if not isinstance(n, int) or not 0 <= n <= has:
            raise ScenarioError(f"{uid} has {has} increments: it loses 0 to {has}, not {n!r}",
                                place="losses")
    due = min(lost, sum(position.unit(u).increments for u in takers))
    named = sum(spread.values())
    if named != due:
        raise ScenarioError(f"{due} increment{'s are' if due != 1 else ' is'} lost, {named} "
                            f"{'are' if named != 1 else 'is'} named: the losses must add up",
                            place="losses")


def apply_result(position: FirePosition, defender: str, result: str,
                 spread: dict[str, int] | None = None) -> tuple[FirePosition, list]:
    """The position with ``result`` applied to the hex of unit ``defender``, and what changed:
    ``[{"unit": ID, "increments": [before, after], "morale_check": true, ...}]``.  ``spread``:
    the owner's choice of who loses how many increments (``{id: n}``, adding up to the loss);
    None: from the top unit down."""
    top = position.unit(defender)
    lost, flags = parse_result(result)
    side = [u for u in position.units_in(top.hex) if u.side == top.side]
    if spread is None:
        spread = default_spread(position, defender, lost)
    else:
        _check_spread(position, defender, lost, spread)
    changed: dict[str, FireUnit] = {}
    notes: dict[str, dict] = {}
    for uid, take in spread.items():
        u = position.unit(uid)
        if take:
            changed[u.id] = replace(u, increments=u.increments - take)
            notes.setdefault(u.id, {})["increments"] = [u.increments, u.increments - take]
    for flag in flags:
        if flag == "M":
            hit = [u for u in side if u.arm != "leader" and changed.get(u.id, u).increments]
            key = "morale_check"
        elif flag == "L":
            hit = [u for u in side if u.arm == "leader"]
            key = "casualty"
        elif flag == "D":
            hit, key = [top], "disorder"
        else:
            continue
        for u in hit:
            now = changed.get(u.id, u)
            if key == "disorder":
                now = replace(now, formation="disorder")
            else:
                now = replace(now, extra={**now.extra, key: True})
            changed[u.id] = now
            notes.setdefault(u.id, {})[key] = True
    units = tuple(changed.get(u.id, u) for u in position.units)
    applied = [{"unit": uid, **note} for uid, note in notes.items()]
    return replace(position, units=units), applied


def unmarked(position: FirePosition, defender: str, result: str) -> list[str]:
    """What a result's flags could not mark, in words (a leader casualty with no leader there)."""
    top = position.unit(defender)
    side = [u for u in position.units_in(top.hex) if u.side == top.side]
    _, flags = parse_result(result)
    out = []
    if "L" in flags and not any(u.arm == "leader" for u in side):
        out.append(f"no leader in {top.hex}: the leader casualty falls on no one")
    return out


def applied_words(applied: list) -> list[str]:
    """One sentence per unit changed."""
    out = []
    for a in applied:
        bits = []
        if "increments" in a:
            before, after = a["increments"]
            bits.append(f"loses {before - after} increment{'s' if before - after != 1 else ''} "
                        f"({before} -> {after})")
        if a.get("morale_check"):
            bits.append("must check morale")
        if a.get("casualty"):
            bits.append("is a casualty")
        if a.get("disorder"):
            bits.append("is disordered")
        out.append(f"{a['unit']} " + " and ".join(bits))
    return out
