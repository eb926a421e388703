"""``python -m engine shoot TABLE --shooter ID [--turn SIDE] --json`` (SPEC.md "Command line,
added")."""
from __future__ import annotations

from ..errors import ScenarioError
from .rolls import shoot
from .table import load_table


def cmd_shoot(args) -> dict:
    table = load_table(args.table)
    choices = {}
    for item in args.choose or []:
        who, sep, what = item.partition("=")
        if not sep or not who or not what:
            raise ScenarioError(f"must be ELEMENT=TARGET, not {item!r}", file=table.file,
                                place="--choose")
        choices[who] = what
    return shoot(table, args.shooter, args.turn, choices, args.first)


def shoot_text(out: dict) -> str:
    """The shot in plain words: the reasons, each target legal or not and why, who supports,
    and the rolls in their order (DBA 3.0 shooting, rules.md 9)."""
    lines = [f"{out['shooter']} ({out['side']}):"] + [f"  - {r}" for r in out["reasons"]]
    if out["must_shoot"]:
        tie = " (a tie: the player chooses)" if len(out["must_shoot"]) > 1 else ""
        lines.append(f"Must shoot: {', '.join(out['must_shoot'])}{tie}")
    lines.append("Targets:")
    for tid, t in out["targets"].items():
        lines.append(f"  {tid}: {'legal' if t['legal'] else 'not legal'}")
        lines += [f"    - {r}" for r in t["reasons"]]
    for tid, who in out["supporters"].items():
        if who:
            lines.append(f"Supporting the shot at {tid} (-1 to its combat factor): {', '.join(who)}")
    for tid, res in out["resolution"].items():
        lines.append(f"The rolls against {tid} (order chosen by {res['order']['chosen_by']}):")
        lines += [f"  {k}. {step['text']}" for k, step in enumerate(res["steps"], 1)]
    return "\n".join(lines)


def add_commands(add) -> None:
    sp = add("shoot", cmd_shoot, "tabletop (DBA 3.0): whom an element may and must shoot")
    sp.add_argument("table", metavar="TABLE")
    sp.add_argument("--shooter", required=True, metavar="ID")
    sp.add_argument("--turn", metavar="SIDE", help="whose turn it is (default: the table's "
                    "\"turn\", else the shooter's side)")
    sp.add_argument("--choose", action="append", metavar="ELEMENT=TARGET",
                    help="whom an element shoots when two targets tie for it (repeatable)")
    sp.add_argument("--first", choices=("shot", "defensive"),
                    help="which roll the player whose turn it is resolves first: the shooter's own "
                         "shot, or its defensive roll against an archer it cannot answer")
    sp.set_defaults(text=shoot_text)
