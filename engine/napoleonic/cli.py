"""``python -m engine fire POSITION --target HEX [--firers ID,...] [--dice T,U] --json``
(SPEC.md, "Command line, added"; rules.md 8)."""
from __future__ import annotations

from ..errors import ScenarioError
from .attack import assess, check_dice, record
from .fire import KINDS
from .position import SEGMENTS, load_position, save_position
from .results import applied_words, result_words, unmarked
from .segments import new_turn, next_segment, with_segment


def cmd_fire(args) -> dict:
    pos = load_position(args.position)
    firers = None
    if args.firers is not None:
        firers = [f.strip() for f in args.firers.split(",") if f.strip()]
        if not firers:
            raise ScenarioError("name at least one unit, e.g. F1,F2", file=args.position, place="--firers")
    dice = check_dice(args.dice) if args.dice is not None else None
    if args.output and not args.record:
        raise ScenarioError("-o names where --record writes the position after the attack: add "
                            "--record (and --dice T,U)", file=args.position, place="-o")
    if args.record and (dice is None or not args.output):
        raise ScenarioError("--record writes the position after a rolled attack: give --dice T,U "
                            "and -o OUT.json", file=args.position, place="--record")
    spread = _losses(args.losses, args.position) if args.losses is not None else None
    if spread is not None and not args.record:
        raise ScenarioError("--losses spreads the losses of a recorded attack: add --record",
                            file=args.position, place="--losses")
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
        try:
            after, applied = record(pos, out, spread)
        except ScenarioError as e:
            raise ScenarioError(e.problem, file=args.position, place="--losses") from None
        save_position(after, args.output)
        data["applied"] = applied
        data["applied_words"] = applied_words(applied) + unmarked(pos, out.defender, out.result)
        data["written"] = args.output
    return data


def _losses(text: str, file: str) -> dict[str, int]:
    """``B1:1,B2:1``: who loses how many increments (the owner's choice, rules.md 10)."""
    out = {}
    for part in text.split(","):
        uid, _, n = part.strip().partition(":")
        if not uid or not n.strip().isdigit() or uid in out:
            raise ScenarioError(f"losses are ID:N,... each unit once, e.g. B1:1,B2:1; not {text!r}",
                                file=file, place="--losses")
        out[uid.strip()] = int(n)
    return out


def fire_text(data: dict) -> str:
    """The attack in plain words: each firer counted or left out and why, the odds, the chance
    of every result over the 36 rolls, the roll and what it did (rules.md 8)."""
    lines = [f"{data['kind'].capitalize()} fire at {data['target']}: "
             + ("allowed" if data["allowed"] else "refused")]
    lines += [f"  - {r}" for r in data["reasons"]]
    lines.append("Firers:")
    for f in data["firers"]:
        why = f.get('why_not') or '; '.join(f['reasons'])
        said = (f"{f['value_exact']} ({f['how']})" if f["counted"]
                else f"would fire {f['value_exact']} ({f['how']}), not counted" if not why
                else f"left out: {why}")
        lines.append(f"  {f['id']} in {f['hex']}: {said}")
    if any(f["counted"] for f in data["firers"]):
        lines.append(f"Fire {data['fire_exact']} against defence {data['defence']} "
                     f"({data['defence_how']})")
    else:               # a refused attack is not made: no fire counted
        lines.append(f"Fire: nothing counted (the attack is refused); defence {data['defence']} "
                     f"({data['defence_how']})")
    if data["column"] is not None:
        drms = "".join(f"; {d['drm']:+d} {d['why']}" for d in data["drms"])
        lines.append(f"Odds {data['ratio']}: the {data['column']} column, DRM {data['drm']:+d}{drms}")
        lines.append("Results over the 36 rolls: " + ", ".join(
            f"{result_words(r)} {p}" for r, p in data["outcomes_exact"].items()))
    if data.get("result") is not None:
        lines.append(f"Roll {data['roll']}, modified {data['modified']}: "
                     f"{data['result'] or '-'} ({data['result_words']})")
    lines += [f"  {w}" for w in data.get("applied_words", [])]
    if data.get("written"):
        lines.append(f"The position after the attack: {data['written']}")
    return "\n".join(lines)


def cmd_segment(args) -> dict:
    """``fire-segment POSITION --to SEGMENT|next|new-turn -o OUT.json``: the position in another
    segment, each segment's record kept (rules.md 8), written to OUT."""
    pos = load_position(args.position)
    if args.to == "next":
        after = next_segment(pos)
    elif args.to == "new-turn":
        after = new_turn(pos)
    elif args.to in SEGMENTS:
        after = with_segment(pos, args.to)
    else:
        raise ScenarioError(f"must be a segment ({', '.join(SEGMENTS)}), next or new-turn, not "
                            f"{args.to!r}", file=args.position, place="--to")
    save_position(after, args.output)
    return {"segment": after.segment, "attacked": list(after.attacked),
            "fired": dict(after.fired_now), "written": args.output}


def segment_text(data: dict) -> str:
    fired = ", ".join(f"{u} (at {h})" for u, h in data["fired"].items()) or "nobody yet"
    return (f"The {data['segment']} segment: fired {fired}; hexes attacked "
            f"{', '.join(data['attacked']) or 'none'}\nWritten: {data['written']}")


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
    sp.add_argument("--losses", metavar="ID:N,...",
                    help="with --record: who loses the increments (default: the top unit first)")
    sp.add_argument("-o", "--output", metavar="OUT.json", help="where --record writes")
    sp.set_defaults(text=fire_text)
    sp = add("fire-segment", cmd_segment, "Napoleonic fire: go on to another segment of the turn")
    sp.add_argument("position", metavar="POSITION")
    sp.add_argument("--to", required=True, metavar="SEGMENT",
                    help="fire, opportunity, assault; next (after the last, a new turn); new-turn")
    sp.add_argument("-o", "--output", required=True, metavar="OUT.json")
    sp.set_defaults(text=segment_text)
