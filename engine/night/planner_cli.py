"""``python -m engine advise | threat | route``: the night planner's commands (SPEC.md,
"Turn-three extensions"; rules.md 10).  Thin: the answers are ``planner``'s,
``planner_threat``'s and ``planner_route``'s; without ``--json`` each prints sentences a player
reads, citing the rules.
"""
from __future__ import annotations

from pathlib import Path

from ..errors import ScenarioError
from ..hexes import HexIdError
from ..jsonio import read_json
from .files import load_scenario
from .planner import LIT_ENEMIES, TARGET, advise
from .planner_costs import ASL
from .planner_route import route
from .planner_threat import check_side, threat

SHOWN = 10          # options and hexes listed in the plain-text answers
# The command line's bound (docs/rules.md, the planner): units whose sight is worked out times
# the map's hexes.  Each such unit's verdict on every hex is a LOS row: on a map whose LOS table
# is not built (the command line never builds it), about 20 microseconds a unit-hex here, so
# the bound keeps a question under half a minute; past it the command refuses, unless
# --no-limit.  The app asks the same questions a step at a time, with Cancel.
MAX_WORK = 1_000_000


def _unit(s, file: str, unit_id: str):
    try:
        return s.unit(unit_id)
    except ScenarioError as e:
        raise ScenarioError(e.problem, file=file, place="--unit") from None


def _hex(s, file: str, option: str, hex_id: str) -> str:
    try:
        return s.map.canonical(hex_id)
    except HexIdError as e:
        raise ScenarioError(str(e), file=file, place=option) from None


def _side(s, file: str, side: str) -> str:
    try:
        check_side(s, side)
    except ScenarioError as e:
        raise e.at(file=file, place="--side") from None
    return side


def check_size(scenario, file: str, side: str | None, what: str, no_limit: bool) -> None:
    """Refuse a question past ``MAX_WORK`` (unit-hexes) unless ``no_limit``."""
    s = scenario
    units = [u for u in s.units if (side is None or u.side == side) and u.good_order]
    work = len(units) * s.map.size
    if work > MAX_WORK and not no_limit:
        raise ScenarioError(
            f"{what} would work out the sight of {len(units)} units over {s.map.size} hexes "
            f"({work:,} unit-hexes), past the command line's bound of {MAX_WORK:,} (docs/rules.md, "
            "the planner): ask for one unit, or run it anyway with --no-limit (it may take "
            "minutes), or use the app, which works it out a step at a time with Cancel",
            file=file)


def cmd_advise(args) -> dict:
    s = load_scenario(args.position)
    if args.unit is None and args.side is None:
        raise ScenarioError("give --unit ID or --side S", file=args.position, place="--unit")
    unit = _unit(s, args.position, args.unit).id if args.unit is not None else None
    side = _side(s, args.position, args.side) if args.side is not None else None
    if unit is not None and side is not None and s.unit(unit).side != side:
        raise ScenarioError(f"{unit} is of side {s.unit(unit).side!r}, not {side!r}",
                            file=args.position, place="--side")
    own = side if side is not None else s.unit(unit).side
    check_size(s, args.position, own, "advise", args.no_limit)
    objective = args.objective
    if objective.startswith(TARGET):
        objective = TARGET + _hex(s, args.position, "--objective", objective[len(TARGET):])
    elif objective != LIT_ENEMIES:
        raise ScenarioError(f"unknown objective {objective!r}: {LIT_ENEMIES} or target:HEX",
                            file=args.position, place="--objective")
    return advise(s, unit, side, objective).as_json()


def cmd_threat(args) -> dict:
    s = load_scenario(args.position)
    side = _side(s, args.position, args.side)
    check_size(s, args.position, _other(s, side), "threat", args.no_limit)
    return threat(s, side).as_json()


def _other(s, side: str) -> str | None:
    """The other side (the viewers of a threat), None when several."""
    others = [x for x in s.sides if x != side]
    return others[0] if len(others) == 1 else None


def read_costs(path: str) -> dict:
    """A cost table file: ``{"terrain": cost, ...}`` (a number above 0, or null: impassable)."""
    data = read_json(Path(path))
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        raise ScenarioError("a cost table is a JSON object {\"terrain\": cost, ...}", file=path)
    return data


def cmd_route(args) -> dict:
    s = load_scenario(args.position)
    unit = _unit(s, args.position, args.unit)
    to = _hex(s, args.position, "--to", args.to)
    check_size(s, args.position, _other(s, unit.side), "route", args.no_limit)
    costs = None
    if args.costs is not None and args.costs != ASL:
        costs = read_costs(args.costs)
        try:
            return route(s, unit.id, to, costs).as_json()
        except ScenarioError as e:
            raise ScenarioError(e.problem, file=args.costs, place=e.place) from None
    return route(s, unit.id, to).as_json()


# ------------------------------------------------------------------------ plain text

def _chance(fraction: str) -> str:
    """An exact chance in words: "certain", "none", else the fraction ("5/12")."""
    return {"1": "certain", "0": "none"}.get(fraction, fraction)


def advise_text(out: dict) -> str:
    who = out["unit"] or f"side {out['side']}"
    lines = [f"Best starshells for {who} ({out['objective']}):"]
    if not out["options"]:
        lines.append("  no legal placement now:")
        lines.extend(f"  - {r}" for r in out["reasons"])
        return "\n".join(lines)
    lines.append(f"  {out['says']}")
    for k, o in enumerate(out["options"][:SHOWN], 1):
        target = f", {o['target']} lit {_chance(o['target_lit'])}" if "target" in o else ""
        rule = "E1.931" if o["method"].startswith("ir") else "E1.921"
        lines.append(f"  {k}. method {o['method']} in {o['at']} by {o['by']}: {o['says']}")
        lines.append(f"     gain {o['gain']:.2f}: enemy units newly lit and then seen by a "
                     f"Good Order unit of yours (rules.md 11.7); chance of at least one: "
                     f"{_chance(o['any_enemy_seen'])}{target}; usage dr passes {o['usage']} "
                     f"({rule})")
        if o["enemy_lit"] and o["expected_enemy_gain"] == 0 and o["expected_enemy_lit"]:
            lines.append("     the enemy units it lights are lit already: no gain (E1.9)")
        lit = [f"{u} {p}" for u, p in o["friends_blinded"].items()]
        if lit:
            lines.append(f"     friendly units newly lit, and so blinded (E1.101): {', '.join(lit)}"
                         + (f"; enemy units the side stops seeing: {o['expected_sight_lost']}"
                            if o["expected_sight_lost"] != "0" else ""))
        if o["attempt_hex"]:
            lines.append(f"     uses {o['attempt_hex']}'s one starshell attempt this phase "
                         "(E1.92)")
    if len(out["options"]) > SHOWN:
        lines.append(f"  ... and {len(out['options']) - SHOWN} more (--json lists them all)")
    lines.append("Chances are over the 36 drift outcomes once the usage dr has passed "
                 "(E1.922, E1.932).")
    return "\n".join(lines)


def threat_text(out: dict) -> str:
    hexes = out["hexes"]
    seen = sorted((h for h, v in hexes.items() if v["nvr"]), key=lambda h: -hexes[h]["nvr"])
    lines = [f"What the enemy sees of a unit of side {out['side']} ({len(out['viewers'])} Good "
             f"Order enemy unit(s)): {len(seen)} of {len(hexes)} hexes are seen within NVR or "
             "lit (E1.1, E1.101)."]
    for h in seen[:SHOWN]:
        v = hexes[h]
        lines.append(f"  {h}: {v['nvr']} within NVR or lit, {v['gunflash']} by Gunflash only "
                     f"(E1.81), {v['moving_vehicle']} for a moving vehicle (E1.14)")
    dark = sum(1 for v in hexes.values() if not v["nvr"] and not v["gunflash"])
    lines.append(f"{dark} hexes are dark to every enemy.")
    return "\n".join(lines)


def route_text(out: dict) -> str:
    if not out["path"]:
        return "\n".join(out["reasons"])
    lines = [f"{out['unit']}: {' -> '.join(out['path'])} ({out['hexes']} hex(es), "
             f"{out['cost']:g} MF)"]
    lines.extend(out["reasons"])
    for h, who in out["seen_how"].items():
        lines.append(f"  {h} is seen by " + "; ".join(f"{u}, {why}" for u, why in who.items()))
    return "\n".join(lines)


def add_commands(add) -> None:
    sp = add("advise", cmd_advise, "the best starshell/IR placements now, ranked")
    sp.add_argument("position", metavar="POSITION")
    sp.add_argument("--unit", metavar="ID")
    sp.add_argument("--side", metavar="S", help="every qualified unit of the side")
    sp.add_argument("--objective", default=LIT_ENEMIES, metavar="O",
                    help=f"{LIT_ENEMIES} (default) or target:HEX")
    sp.add_argument("--no-limit", action="store_true",
                    help=f"answer past the bound of {MAX_WORK:,} unit-hexes (and a drawn "
                         "map's bound of pixel classes)")
    sp.set_defaults(text=advise_text)
    sp = add("threat", cmd_threat, "per hex, how many enemy units would see a unit of a side")
    sp.add_argument("position", metavar="POSITION")
    sp.add_argument("--side", required=True, metavar="S")
    sp.add_argument("--no-limit", action="store_true",
                    help=f"answer past the bound of {MAX_WORK:,} unit-hexes (and a drawn "
                         "map's bound of pixel classes)")
    sp.set_defaults(text=threat_text)
    sp = add("route", cmd_route, "a unit's way to a hex, unseen where it can be")
    sp.add_argument("position", metavar="POSITION")
    sp.add_argument("--unit", required=True, metavar="ID")
    sp.add_argument("--to", required=True, metavar="HEX")
    sp.add_argument("--costs", metavar="FILE", default=ASL,
                    help=f"{ASL} (default: ASL's Infantry MF, terrain, roads, hillsides and "
                         "hexsides) or a JSON file {terrain: MF} that replaces it")
    sp.add_argument("--no-limit", action="store_true",
                    help=f"answer past the bound of {MAX_WORK:,} unit-hexes (and a drawn "
                         "map's bound of pixel classes)")
    sp.set_defaults(text=route_text)
