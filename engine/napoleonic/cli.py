"""``python -m engine fire POSITION --target HEX [--firers ID,...] [--dice T,U] --json``
(SPEC.md, "Command line, added"; RULES.md section 8)."""
from __future__ import annotations

from ..errors import ScenarioError
from .attack import assess, check_dice, record
from .fire import KINDS
from .position import load_position, save_position
from .results import applied_words, result_words, unmarked


def cmd_fire(args) -> dict:
    pos = load_position(args.position)
    firers = None
    if args.firers is not None:
        firers = [f.strip() for f in args.firers.split(",") if f.strip()]
        if not firers:
            raise ScenarioError("name at least one unit, e.g. F1,F2", file=args.position, place="--firers")
    dice = check_dice(args.dice) if args.dice is not None else None
    if args.record and (dice is None or not args.output):
        raise ScenarioError("--record writes the position after a rolled attack: give --dice T,U "
                            "and -o OUT.json", file=args.position, place="--record")
    try:
        out = assess(pos, args.target, firers, dice, args.kind)
    except ScenarioError as e:
        place = {"target": "--target", "dice": "--dice"}.get(e.place or "", e.place)
        if place and place.startswith("firers["):
            place = "--firers"
        raise ScenarioError(e.problem, file=e.file or args.position, place=place) from None
    data = out.to_json()
    if out.result is not None:
        data["result_words"] = result_words(out.result)
    if args.record:
        if not out.allowed:
            raise ScenarioError("this attack may not be made, so it is not recorded: "
                                + "; ".join(out.reasons), file=args.position, place="--record")
        after, applied = record(pos, out)
        save_position(after, args.output)
        data["applied"] = applied
        data["applied_words"] = applied_words(applied) + unmarked(pos, out.defender, out.result)
        data["written"] = args.output
    return data


def add_commands(add) -> None:
    sp = add("fire", cmd_fire, "Napoleonic fire combat: the attack of some units on one hex")
    sp.add_argument("position", metavar="POSITION")
    sp.add_argument("--target", required=True, metavar="HEX")
    sp.add_argument("--firers", metavar="ID,...", help="default: every unit that may fire at it")
    sp.add_argument("--dice", metavar="T,U", help="two dice read as tens and units, e.g. 4,3")
    sp.add_argument("--kind", choices=KINDS, default="intentional",
                    help="roundshot (18.9) and scatter (18.15): artillery's inadvertent hits, "
                    "which may hit an attacked hex again")
    sp.add_argument("--record", action="store_true",
                    help="write the position after the attack (with --dice and -o)")
    sp.add_argument("-o", "--output", metavar="OUT.json", help="where --record writes")
