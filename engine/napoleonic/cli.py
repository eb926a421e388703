"""``python -m engine fire POSITION --target HEX [--firers ID,...] [--dice T,U] --json``
(SPEC.md, "Command line, added"; RULES.md section 8)."""
from __future__ import annotations

from ..errors import ScenarioError
from .attack import assess, check_dice
from .fire import KINDS
from .position import load_position


def cmd_fire(args) -> dict:
    pos = load_position(args.position)
    firers = None
    if args.firers is not None:
        firers = [f.strip() for f in args.firers.split(",") if f.strip()]
        if not firers:
            raise ScenarioError("name at least one unit, e.g. F1,F2", file=args.position, place="--firers")
    dice = check_dice(args.dice) if args.dice is not None else None
    try:
        out = assess(pos, args.target, firers, dice, args.kind)
    except ScenarioError as e:
        place = {"target": "--target", "dice": "--dice"}.get(e.place or "", e.place)
        if place and place.startswith("firers["):
            place = "--firers"
        raise ScenarioError(e.problem, file=e.file or args.position, place=place) from None
    return out.to_json()


def add_commands(add) -> None:
    sp = add("fire", cmd_fire, "Napoleonic fire combat: the attack of some units on one hex")
    sp.add_argument("position", metavar="POSITION")
    sp.add_argument("--target", required=True, metavar="HEX")
    sp.add_argument("--firers", metavar="ID,...", help="default: every unit that may fire at it")
    sp.add_argument("--dice", metavar="T,U", help="two dice read as tens and units, e.g. 4,3")
    sp.add_argument("--kind", choices=KINDS, default="intentional",
                    help="roundshot (18.9) and scatter (18.15) may hit an attacked hex again")
