"""Agreement with VASL's own LOS under scenario rules (SSRs): every board x rule set of a run of
the VASL oracle kit's ``run_ext.sh``, compared pair by pair with Starshell under the same rules.

    python tools/vasl_ssr_table.py BOARD_DIR WORK_DIR BOARD... [--set RULES ...]
                                   [--up UP_DIR] [--limit N] [--json FILE]

BOARD_DIR holds the board archives the kit ran (``bdNN``: real VASL 6 archives), WORK_DIR is the
kit's work folder (``out/BOARD_plain_vasl_los.json.gz``, ``out/BOARD_ssr_TAG_vasl_los.json.gz``,
``out/BOARD_skipped.txt``; ``work/BOARD_TAG_blocked_at.json.gz`` and ``work/BOARD_TAG_grid.bin.gz``,
TAG the set's rules joined by ``+``).  Each ``--set`` is one rule set, its VASL rule names
separated by spaces (``none``: the board as printed; default: ``none`` and the seven rules of
``DEFAULT_SETS``).  Starshell's board is the archive imported as the program imports it with the
set's rules applied as Starshell applies them (``vasl_compare.with_ssr``, rules.md 11.2).

A set the kit skipped because none of its rules changes VASL's map of that board (``changes
nothing`` in ``BOARD_skipped.txt``) is compared with the plain board's answers: VASL's answers
are then those.  A set VASL refuses (``VASL turns LOS off``) is listed without pairs.

``--up UP_DIR``: upper building levels too, from ``UP_DIR/TAG/BOARD_vasl_los_up.json.gz`` (the
kit's ``OracleUp`` with ``--ssr`` and ``write_up.py``; ``plain`` for no rules) and VASL's
blocking points in ``WORK_DIR/work/BOARD_TAG_up_blocked_at.json.gz``.

Printed: a Markdown table (board, rules, pairs, agreement, pairs that differ, the two largest
causes, seconds to apply the rules and to compare; "changed by the rules": the pairs whose VASL
verdict, blocked or clear, differs from the plain board's, and how many of them Starshell
answers as VASL; "same hindrances": of the pairs both see clear, those with VASL's hindrance
count, and how many Starshell counts more (+) or fewer (-)), then the ground pairs as a matrix (a row per
board, a column per set: agreement % and pairs that differ; ``=`` when the rules leave VASL's map
unchanged); ``--json FILE`` writes one JSON line per board x set with every cause and its
examples (``--limit`` per cause).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
if str(TOOLS.parent) not in sys.path:
    sys.path.insert(0, str(TOOLS.parent))

from engine.los import los_table  # noqa: E402
from tools import vasl_compare as vc  # noqa: E402

# rules.md 11.2: VASL's rule names (its SharedBoardMetadata.xml LOSSSRules) for the common
# seasonal and level SSRs: orchards out of season, no grain, brush to open ground, light woods,
# woods to brush, level 1 hills at level 0, no stairwells
ALL = 10 ** 9                   # examples kept while measuring: every differing pair
DEFAULT_SETS = ("none", "OrchardOutOfSeason", "NoGrain", "BrushToOpenGround", "LightWoods",
                "WoodsToBrush", "Level1ToLevel0", "NoStairwells")


@dataclass(frozen=True)
class Cell:
    """Where one board x rule set's files are, and what the kit did with the set."""
    board: str
    rules: tuple[str, ...]
    answers: Path | None        # None: VASL refused the rules (LOS off)
    prefix: Path | None         # the kit's work/ prefix of those answers
    map_unchanged: bool         # no rule of the set changes VASL's map: the plain answers
    refused: str = ""

    @property
    def tag(self) -> str:
        return "+".join(self.rules) if self.rules else "plain"


def find_cell(work: Path, board: str, rules: tuple[str, ...]) -> Cell:
    """The kit's files for ``board`` under ``rules`` (see the module doc)."""
    tag = "+".join(rules)
    name = f"ssr_{tag}" if rules else "plain"
    answers = work / "out" / f"{board}_{name}_vasl_los.json.gz"
    if answers.exists():
        return Cell(board, rules, answers, work / "work" / f"{board}_{name}", False)
    skipped = work / "out" / f"{board}_skipped.txt"
    text = skipped.read_text(encoding="utf-8") if skipped.exists() else ""
    for line in text.splitlines():
        if line.startswith(" ".join(rules) + ":") and rules:
            if "changes nothing" in line:
                return Cell(board, rules, work / "out" / f"{board}_plain_vasl_los.json.gz",
                            work / "work" / f"{board}_plain", True)
            return Cell(board, rules, None, None, False, line.split(":", 1)[1].strip())
    raise FileNotFoundError(f"{answers}: no answer file, and {skipped} does not list "
                            f"{' '.join(rules) or 'the plain board'}")


def _optional(path: Path, reader):
    return reader(path) if path.exists() else None


def measure(board_dir: Path, work: Path, cell: Cell, up_dir: Path | None = None,
            limit: int = 3) -> dict:
    """One board x rule set: Starshell under the rules against VASL's answers (a dict)."""
    row = {"board": cell.board, "rules": list(cell.rules), "map_unchanged": cell.map_unchanged}
    if cell.answers is None:
        return row | {"vasl_refused": cell.refused}
    t0 = time.perf_counter()
    plain = vc.read_board(board_dir / cell.board)
    t1 = time.perf_counter()
    board, outcome = vc.with_ssr(plain, list(cell.rules))
    t2 = time.perf_counter()
    up_tag = "plain" if cell.map_unchanged or not cell.rules else cell.tag
    up_file = up_dir / up_tag / f"{cell.board}_vasl_los_up.json.gz" if up_dir else None
    up = _optional(up_file, vc.read_json_gz) if up_file else None
    up_prefix = work / "work" / f"{cell.board}_{'ssr_' + up_tag if up_tag != 'plain' else 'plain'}"
    answers = vc.read_json_gz(cell.answers)
    report = vc.compare(board, answers, up,
                        _optional(Path(f"{cell.prefix}_blocked_at.json.gz"), vc.read_json_gz),
                        _optional(Path(f"{cell.prefix}_grid.bin.gz"), vc.read_grid), (), ALL,
                        False,
                        _optional(Path(f"{up_prefix}_up_blocked_at.json.gz"), vc.read_json_gz)
                        if up is not None else None)
    t3 = time.perf_counter()
    ground = report["ground"]
    row |= {"ssr": outcome.as_dict(), "pairs": ground["pairs"], "agree": ground["agree"],
            "percent": ground["percent"], "differ": ground["pairs"] - ground["agree"],
            "vasl_blocked": ground["vasl_blocked"], "starshell_blocked": ground["starshell_blocked"],
            "vasl_errors": ground["vasl_errors"], "causes": _trim(ground["causes"], limit),
            "seconds": {"import": round(t1 - t0, 2), "rules": round(t2 - t1, 3),
                        "compare": round(t3 - t2, 2)}}
    row["hindrances"] = hindrances(board, answers)
    if cell.rules and not cell.map_unchanged:
        row["rule_changed"] = rule_changed(work, cell.board, answers, ground["causes"])
    if "upper" in report:
        row["upper"] = report["upper"]
        for part in ("upper_to_ground", "ground_to_upper"):
            if part in row["upper"]:
                row["upper"][part]["causes"] = _trim(row["upper"][part]["causes"], limit)
    return row


def hindrances(board, answers: dict) -> dict:
    """On the pairs both VASL and Starshell see clear: how many have the same hindrance count
    (A6.1; VASL's ``LOSResult.getHindrance``), and how many Starshell counts more or fewer."""
    game_map = vc.build_map(board)
    table, name = los_table(game_map), vc.Namer(game_map)
    both = more = fewer = 0
    for src, row in answers["pairs"].items():
        line = table.from_location(name(src), 0)
        for tgt, (blocked, _, vasl) in row.items():
            t = name(tgt)
            if not blocked and line.clear[t]:
                both += 1
                more += int(line.hindrances[t]) > vasl
                fewer += int(line.hindrances[t]) < vasl
    return {"pairs": both, "same": both - more - fewer, "starshell_more": more,
            "starshell_fewer": fewer}


def _trim(causes: list, limit: int) -> list:
    return [c | {"examples": c["examples"][:limit]} for c in causes]


def rule_changed(work: Path, board: str, answers: dict, causes: list) -> dict:
    """The pairs whose VASL verdict (blocked or clear) the rules change from the plain board's,
    and how many of them Starshell answers as VASL (``causes``: every differing pair)."""
    plain = vc.read_json_gz(work / "out" / f"{board}_plain_vasl_los.json.gz")["pairs"]
    changed = {(s, t) for s, row in answers["pairs"].items() for t, a in row.items()
               if t in plain.get(s, {}) and bool(plain[s][t][0]) != bool(a[0])}
    wrong = sum(1 for c in causes for e in c["examples"] if (e["src"], e["tgt"]) in changed)
    return {"pairs": len(changed), "agree": len(changed) - wrong}


def _causes(causes: list, n: int = 2) -> str:
    return "; ".join(f"{c['count']} {c['direction'].split(',')[0].lower()}: {c['cause']}"
                     for c in causes[:n]) or "-"


def table(rows: list[dict]) -> str:
    """The Markdown table of measured rows."""
    out = ["| board | rules | pairs | agree | differ | changed by the rules: agree | "
           "same hindrances | main causes | rules s / compare s |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        rules = " ".join(r["rules"]) or "none"
        if "vasl_refused" in r:
            out.append(f"| {r['board']} | {rules} | - | - | - | - | - | VASL: {r['vasl_refused']} "
                       "| - |")
            continue
        mark = " (map unchanged)" if r["map_unchanged"] else ""
        s, ch, h = r["seconds"], r.get("rule_changed"), r["hindrances"]
        changed = f"{ch['agree']:,} of {ch['pairs']:,}" if ch else "-"
        same = f"{h['same']:,} of {h['pairs']:,} (+{h['starshell_more']} -{h['starshell_fewer']})"
        out.append(f"| {r['board']} | {rules}{mark} | {r['pairs']:,} | {r['percent']:.3f} % | "
                   f"{r['differ']} | {changed} | {same} | {_causes(r['causes'])} | "
                   f"{s['rules']:.3f} / {s['compare']:.1f} |")
        for key, title in (("upper_to_ground", "upper -> ground"), ("ground_to_upper", "ground -> upper")):
            part = r.get("upper", {}).get(key)
            if part:
                out.append(f"| {r['board']} | {rules}: {title} | {part['pairs']:,} | "
                           f"{part['percent']:.3f} % | {part['pairs'] - part['agree']} | - | - | "
                           f"{_causes(part['causes'])} | |")
    return "\n".join(out)


def matrix(rows: list[dict]) -> str:
    """The ground pairs as a Markdown matrix: a row per board, a column per rule set, each cell
    the agreement and the pairs that differ (``=``: VASL's map unchanged by the rules)."""
    sets = list(dict.fromkeys(" ".join(r["rules"]) or "none" for r in rows))
    boards = list(dict.fromkeys(r["board"] for r in rows))
    cell = {(r["board"], " ".join(r["rules"]) or "none"): r for r in rows}
    out = ["| board | " + " | ".join(sets) + " |", "| --- |" + " --- |" * len(sets)]
    for b in boards:
        cells = []
        for s in sets:
            r = cell.get((b, s))
            if r is None or "vasl_refused" in r:
                cells.append("-" if r is None else "LOS off")
            else:
                cells.append(f"{r['percent']:.3f} ({r['differ']}){' =' if r['map_unchanged'] else ''}")
        out.append(f"| {b} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("board_dir", type=Path, help="folder of the board archives the kit ran")
    p.add_argument("work", type=Path, help="the kit's work folder (out/, work/)")
    p.add_argument("boards", nargs="+", help="board names (bd02 ...)")
    p.add_argument("--set", action="append", dest="sets", metavar="RULES",
                   help="one rule set, VASL rule names separated by spaces ('none': no rules)")
    p.add_argument("--up", type=Path, help="folder of upper-level answers, one sub-folder a set")
    p.add_argument("--limit", type=int, default=3, help="examples per cause (--json)")
    p.add_argument("--json", type=Path, help="write one JSON line per board x set here")
    a = p.parse_args(argv)
    sets = [tuple(s.split()) if s.strip() != "none" else () for s in (a.sets or DEFAULT_SETS)]
    rows = []
    for board in a.boards:
        for rules in sets:
            rows.append(measure(a.board_dir, a.work, find_cell(a.work, board, rules), a.up, a.limit))
            if a.json:
                with a.json.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(rows[-1]) + "\n")
    print(table(rows))
    print()
    print(matrix(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
