"""``python -m engine import-vsav GAME.vsav -o POSITION.json [--boards DIR] [--blank-missing]
[--sides A,B]``
(SPEC.md "Command line, added")."""
from __future__ import annotations

from collections import Counter

from .sides import parse_sides
from .vsav import import_vsav


def cmd_import_vsav(args) -> dict:
    sides = parse_sides(args.sides) if args.sides else None
    out = import_vsav(args.game, args.output, args.boards, args.blank_missing, sides)
    if args.json:
        return out
    why = Counter(s["why"].split(" at (")[0] for s in out["skipped"])
    text = {"file": out["file"], "boards": ", ".join(out["boards"]), "units": out["units"],
            "markers": out["markers"],
            "nvr": f"{out['nvr']} ({'from the save' if out['nvr_from'] == 'save' else 'default'})",
            "skipped": f"{len(out['skipped'])} piece(s)" + "".join(
                f"\n  - {n} x {w}" for w, n in why.most_common())}
    if out["board_files"]:
        text["board files written"] = ", ".join(out["board_files"])
    for k, note in enumerate(out["notes"]):
        text[f"note {k + 1}"] = note
    return text


def add_commands(add) -> None:
    sp = add("import-vsav", cmd_import_vsav,
             "a position from a VASL saved game (.vsav): its boards, units and markers")
    sp.add_argument("game", metavar="GAME.vsav")
    sp.add_argument("-o", "--output", required=True, metavar="POSITION.json")
    sp.add_argument("--boards", metavar="DIR",
                    help="folder of VASL board archives (bd02...) or board files (bd02.json)")
    sp.add_argument("--blank-missing", action="store_true",
                    help="put a blank open board (no terrain) in place of each board found "
                         "neither in DIR nor among the bundled ones, with a warning")
    sp.add_argument("--sides", metavar="A,B",
                    help="the nationalities of each side: VASL's codes joined by '+', the two "
                         "sides by a comma (ge+fi,ru); default: each on its usual side")
