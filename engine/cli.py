"""``python -m engine ...``: thin subcommands over the engine's API (SPEC.md, "Command line").

Every subcommand takes ``--json`` and then prints one JSON document.  Bad input: exit status 2
and one line on stderr starting with ``error:`` that names the file and the place.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path

import numpy as np

from .errors import ScenarioError
from .hexes import HexIdError, hex_range, parse_hex_id
from .los import MAX_PIXEL_CLASSES, PixelClassesPastBound, building


class CliError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own errors: same shape as ours
        raise CliError(f"{self.prog}: {message}")


def _scenario(path: str):
    from .night.files import load_scenario
    return load_scenario(path)


def _place(err: Exception, file: str, place: str) -> ScenarioError:
    return ScenarioError(str(err), file=file, place=place)


def _unit(s, file: str, option: str, unit_id: str):
    try:
        return s.unit(unit_id)
    except ScenarioError as e:
        raise _place(e.problem, file, option) from None


def _hex(s, file: str | None, option: str, hex_id: str) -> int:
    try:
        return s.map.index(hex_id)
    except HexIdError as e:
        raise _place(e, file or "", option) from None


def cmd_range(args) -> dict:
    if args.scenario:
        s = _scenario(args.scenario)
        i = _hex(s, args.scenario, "HEX 1", args.hex1)
        j = _hex(s, args.scenario, "HEX 2", args.hex2)
        return {"range": int(s.map.distance(i, j))}
    try:
        h1 = parse_hex_id(args.hex1)
    except HexIdError as e:
        raise ScenarioError(str(e), place="HEX 1") from None
    try:
        h2 = parse_hex_id(args.hex2)
    except HexIdError as e:
        raise ScenarioError(str(e), place="HEX 2") from None
    if h1.board != h2.board:
        raise ScenarioError(f"{args.hex1} and {args.hex2} are on different boards: give --scenario "
                            "to say how the boards are placed")
    return {"range": hex_range((h1.col, h1.row), (h2.col, h2.row))}


def cmd_check(args) -> dict:
    from .boards import board_from_json
    from .hexes import board_hexes
    from .jsonio import read_json
    from .night.files import scenario_from_json
    path = Path(args.file)
    data = read_json(path)
    if isinstance(data, dict) and data.get("format") == "starshell-board":
        b = board_from_json(data, file=str(path))
        return {"ok": True, "board": b.id, "hexes": len(board_hexes(b.size))}
    s = scenario_from_json(data, file=str(path), folder=str(path.resolve().parent))
    return {"ok": True, "hexes": s.map.size, "units": len(s.units), "markers": len(s.markers)}


def cmd_visibility(args) -> dict:
    from . import api
    s = _scenario(args.scenario)
    viewer = _unit(s, args.scenario, "--from", args.viewer)
    if args.to:
        _unit(s, args.scenario, "--to", args.to)
        return api.night.unit_verdict(s, viewer.id, args.to).as_json()
    field = api.night.visibility_from(s, viewer.id)
    hexes = {}
    lit = field.light.lit
    for i, name in enumerate(s.map.names):
        hexes[name] = {"sight": field.sight_at(i).value, "reasons": field.reasons_at(i)}
        if lit[i]:
            hexes[name]["lit"] = True       # E1.101: lit, seen as if within NVR at any range
    return {"viewer": viewer.id, "nvr": field.nvr, "hexes": hexes}


def cmd_illumination(args) -> dict:
    from .night.light import illumination
    s = _scenario(args.scenario)
    ill = illumination(s)
    return {"illuminated": ill.lit_names(), "blind": ill.blind_names()}


def cmd_reveal(args) -> dict:
    from .night.unit_verdicts import reveal
    s = _scenario(args.scenario)
    unit = _unit(s, args.scenario, "--unit", args.unit)
    target = None
    if args.target:
        target = s.map.names[_hex(s, args.scenario, "--target", args.target)]
    return reveal(s, unit.id, target).as_json()


def _dice(text: str, file: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        d, r = (int(x) for x in parts)
    except ValueError:
        raise ScenarioError(f"dice must be two numbers 1..6 written D,R (direction, distance), "
                            f"not {text!r}", file=file, place="--dice") from None
    for v in (d, r):
        if not 1 <= v <= 6:
            raise ScenarioError(f"a die shows 1..6, not {v}", file=file, place="--dice")
    return d, r


def cmd_drift(args) -> dict:
    from .night import drift
    s = _scenario(args.scenario)
    at = _hex(s, args.scenario, "--at", args.at)
    if args.method not in drift.METHODS:
        raise ScenarioError(f"unknown method {args.method!r} (one of {', '.join(drift.METHODS)})",
                            file=args.scenario, place="--method")
    if args.dice and args.lit:
        raise ScenarioError("give either --dice or --lit, not both", file=args.scenario,
                            place="--lit")
    if args.dice:
        d, r = _dice(args.dice, args.scenario)
        end = drift.drift_end(s.map, at, args.method, d, r)
        return {"end": None if end is None else s.map.names[end]}
    if args.lit:
        p = drift.lit_probability_after(s, at, args.method)     # with the lights already there
        return {"lit_probability": {s.map.names[i]: float(p[i]) for i in np.flatnonzero(p > 0)}}
    return {"distribution": drift.distribution(s.map, at, args.method)}


def cmd_starshell(args) -> dict:
    from . import api
    s = _scenario(args.scenario)
    unit = _unit(s, args.scenario, "--unit", args.unit)
    return api.night.starshell_options(s, unit.id).as_json()


def cmd_import_vasl(args) -> dict:
    """Convert a VASL board archive to a board file; nothing is written on error."""
    from .boards import save_board
    from .hexes import board_hexes
    from .importers.vasl import import_board
    out = Path(args.output)
    if out.suffix != ".json":
        raise ScenarioError("the board file name must end in .json (scenarios name board files "
                            "by a path ending in .json)", file=args.output, place="-o")
    source = Path(args.boardfile)
    if os.path.exists(out) and os.path.exists(source) and out.resolve() == source.resolve():
        raise ScenarioError("would overwrite the VASL board file itself", file=args.output,
                            place="-o")
    board, report = import_board(args.boardfile, args.id,
                                 metadata=args.metadata)
    save_board(board, out)
    return {"ok": True, "board": board.id, "hexes": len(board_hexes(board.size)), "report": report,
            "file": str(out)}


def _print_text(cmd: str, out: dict) -> None:
    if cmd == "import-vasl":
        print(f"imported board {out['board']} ({out['hexes']} hexes) into {out['file']}")
        if out["report"]:
            print("not imported or approximated:")
            for line in out["report"]:
                print(f"  - {line}")
        return
    if cmd == "visibility" and "hexes" in out:
        print(f"{out['viewer']} (NVR {out['nvr']}):")
        for name, v in out["hexes"].items():
            if v["sight"] != "none":
                print(f"  {name}: {v['sight']}")
        return
    for k, v in out.items():
        if isinstance(v, list) and v and isinstance(v[0], str) and k == "reasons":
            print(f"{k}:")
            for line in v:
                print(f"  - {line}")
        elif isinstance(v, (list, dict)):
            print(f"{k}: {json.dumps(v)}")
        else:
            print(f"{k}: {v}")


# The other rooms' subcommands: each module has ``add_commands(add)``, ``add`` being the helper
# below (name, function, help) that returns the subparser to take its arguments.
ROOMS: tuple[str, ...] = ("engine.tabletop.cli", "engine.napoleonic.cli", "engine.importers.cli",
                          "engine.night.planner_cli")


def _no_limit(sp) -> None:
    sp.add_argument("--no-limit", action="store_true",
                    help=f"build a drawn map's LOS table past {MAX_PIXEL_CLASSES:,} pixel "
                         "classes (minutes, gigabytes)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m engine", description=(
        "Starshell's engine: ASL night visibility (the night room), Napoleonic fire and "
        "DBA 3.0 tabletop rules, and VASL imports"))
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

    def add(name, func, help_):
        sp = sub.add_parser(name, help=help_)
        sp.add_argument("--json", action="store_true", help="print one JSON document")
        sp.set_defaults(func=func)
        return sp

    sp = add("range", cmd_range, "range between two hexes")
    sp.add_argument("hex1", metavar="HEX")
    sp.add_argument("hex2", metavar="HEX")
    sp.add_argument("--scenario")
    sp = add("check", cmd_check, "validate a scenario or board file")
    sp.add_argument("file", metavar="FILE")
    sp = add("visibility", cmd_visibility, "a unit's night field, or its verdict on another unit")
    sp.add_argument("scenario", metavar="SCENARIO")
    _no_limit(sp)
    sp.add_argument("--from", dest="viewer", required=True, metavar="UNIT")
    sp.add_argument("--to", metavar="UNIT")
    sp = add("illumination", cmd_illumination, "lit hexes and blaze/flame blind hexes")
    sp.description = ("illuminated: the lit ground locations (E1.9). blind: the hexes inside a "
                      "blaze/flame circle that no light reaches; a hex in a fire's shadow that "
                      "another light reaches is lit, not blind.")
    sp.add_argument("scenario", metavar="SCENARIO")
    _no_limit(sp)
    sp = add("reveal", cmd_reveal, "would a unit lose concealment if it fired now")
    sp.add_argument("scenario", metavar="SCENARIO")
    _no_limit(sp)
    sp.add_argument("--unit", required=True, metavar="UNIT")
    sp.add_argument("--target", metavar="HEX")
    sp = add("drift", cmd_drift, "where a starshell/IR placed at a hex may drift")
    sp.description = ("--dice: the end hex for those dice; alone: the exact distribution of end "
                      "hexes; --lit: the exact probability that each hex is illuminated once "
                      "the flare has landed, counting the lights already on the map.")
    sp.add_argument("scenario", metavar="SCENARIO")
    _no_limit(sp)
    sp.add_argument("--at", required=True, metavar="HEX")
    sp.add_argument("--method", required=True, metavar="M", help="1, 2, 3, ir-los or ir-6")
    sp.add_argument("--dice", metavar="D,R", help="direction dr, distance dr")
    sp.add_argument("--lit", action="store_true",
                    help="probability that each hex ends up lit once the flare has landed, "
                         "counting the lights already on the map (a hex lit now: 1)")
    sp = add("starshell", cmd_starshell, "may a unit fire a starshell/IR now, and where")
    sp.add_argument("scenario", metavar="SCENARIO")
    _no_limit(sp)
    sp.add_argument("--unit", required=True, metavar="UNIT")
    sp = add("import-vasl", cmd_import_vasl, "convert a VASL board file (bd02...) to a board file")
    sp.add_argument("boardfile", metavar="BOARDFILE")
    sp.add_argument("-o", "--output", required=True, metavar="BOARD.json")
    sp.add_argument("--id", metavar="ID", help="board id (default: from the file name, bd02 -> 2)")
    sp.add_argument("--metadata", metavar="XML", help="a VASL 5 board's BoardMetadata.xml (its "
                    "building types and hasHills), when the archive holds none")
    for room in ROOMS:
        importlib.import_module(room).add_commands(add)
    return p


def _past_bound(args, error: PixelClassesPastBound) -> ScenarioError:
    """The refusal of a map past the pixel classes' bound, naming the command's file."""
    file = next((getattr(args, key) for key in ("scenario", "position", "file")
                 if getattr(args, key, None)), None)
    how = ("run it anyway with --no-limit (minutes, gigabytes), or use the app, which builds "
           "it a step at a time with Cancel" if hasattr(args, "no_limit")
           else "use the app, which builds it a step at a time with Cancel")
    return ScenarioError(f"{error}: {how}", file=file)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = build_parser().parse_args(argv)
        # a drawn map's pixel classes bounded (docs/formats.md, Loading) unless --no-limit
        with building(max_classes=None if getattr(args, "no_limit", False)
                      else MAX_PIXEL_CLASSES):
            out = args.func(args)
    except SystemExit as e:           # --help
        return int(e.code or 0)
    except (CliError, ScenarioError, HexIdError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except PixelClassesPastBound as e:
        print(f"error: {_past_bound(args, e)}", file=sys.stderr)
        return 2
    except OSError as e:              # a file the engine did not expect to fail: name it
        where = e.filename if e.filename is not None else "a file"
        print(f"error: {where}: {e.strerror or e}", file=sys.stderr)
        return 2
    except MemoryError:
        print("error: out of memory (a file too large for its limits?)", file=sys.stderr)
        return 2
    except Exception as e:            # never a traceback
        print(f"error: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    try:
        if args.json:
            json.dump(out, sys.stdout, indent=None if args.cmd == "visibility" else 2)
            sys.stdout.write("\n")
        elif getattr(args, "text", None) is not None:     # a subcommand's own plain text
            print(args.text(out))
        else:
            _print_text(args.cmd, out)
        sys.stdout.flush()
    except BrokenPipeError:           # e.g. piped into `head`
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
    return 0
