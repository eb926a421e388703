"""Compare Starshell's daytime LOS on a board with VASL's own answers (the VASL LOS oracle kit).

    python tools/vasl_compare.py BOARD ANSWERS [--up UP_ANSWERS] [--blocked-at FILE]
                                 [--up-blocked-at FILE] [--grid FILE]
                                 [--join PATH@COL,ROW[,r] ...] [--id ID] [--metadata XML]
                                 [--ssr NAME ...] [--counters FILE] [--json] [--limit N]

BOARD is a VASL board archive of either kind (``bd02``: LOSData, or a VASL 5 picture with its
colours) or a Starshell board file (``.json``); it is imported with the engine's own importer
(``engine.api.vasl.import_board``) exactly as the program imports it.  ``--join`` adds more
boards on the slots given (slot column, slot row; BOARD is on 0,0; ``,r``: the board turned
180 degrees, as VASL's reversed board) for an answer file of joined boards.  ``--ssr``
applies VASL's terrain SSRs (rule names, in order) to every board first, as Starshell
applies them (``engine.ssr``, rules.md 11.2), to compare with the kit's answers under the
same rules; the report names the rules applied, without LOS effect and not
applied.  ``--counters`` puts the kit's counters file on the map as a Starshell position
(``vasl_counters``: smoke, vehicles, wrecks, FFE, rules.md 11.4) for answers the kit made with
the same file (only its viewers are sources); the hindrance counts of lines clear on both
sides are compared too.

ANSWERS is a ground-level answer file of the kit (``BOARD_vasl_los.json.gz``: ``{"reasons",
"pairs": {"SRC": {"TGT": [blocked, reason index, hindrance]}}, "vasl_errors"?}``; hex keys are
VASL's names, ``A1``, or with the board id, ``2A1``, for joined boards).  ``--up`` adds the
kit's upper-level file (``BOARD_vasl_los_up.json.gz``: ``pairs`` from ``HEX@LEVEL`` to ground
centres and ``reverse`` from ground centres to it).  ``--blocked-at`` (default: the kit's
``BOARD_vasl_blocked_at.json.gz`` beside ANSWERS, when there) gives VASL's blocking point of
each line, ``--grid`` (the kit's ``PREFIX_grid.bin.gz``) VASL's terrain at that point; without
it the terrain is the imported board's raster at that pixel (what Starshell reads there).

Starshell's verdicts come from the engine's batch API: one ``LosTable.from_location`` row per
viewer (all targets at once), the reverse lines of upper levels one ``LosTable.lines`` call per
ground viewer, and the prepared ground table (``engine.los.ground``, the field the program
reads) compared with the direct rows on every pair.

Printed: agreement (percent and counts) per part (ground pairs, field vs direct, upper to
ground, ground to upper) and the disagreements grouped by cause: the rule and terrain that
blocks on the side that blocks (Starshell's kind of block and the hex or hexside terrain;
VASL's reason and the terrain at its blocking point), both verdicts and hindrance counts in the
examples (``--limit`` per cause).  ``--json`` prints the same as one JSON document.
"""
from __future__ import annotations

import argparse
import gzip
import json
import struct
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import api  # noqa: E402
from engine.api import HEXSIDE_BY_CODE, TERRAINS, HexIdError, load_board  # noqa: E402
from engine.boards import board_raster  # noqa: E402
from engine.los import HINDRANCES, los_table  # noqa: E402
from engine.los.ground import ground_row  # noqa: E402
from engine.los.ground import prepare as prepare_ground  # noqa: E402
from engine.maps import Map, Placement  # noqa: E402
from engine.night.counter_terrain import los_map  # noqa: E402
from engine.raster_file import terrain_table  # noqa: E402
from engine.ssr.apply import board_with_rules  # noqa: E402
from tools.vasl_counters import add_counters, counters_position, read_counters  # noqa: E402

# Starshell's kinds of block (engine.los: CLEAR, HILL, HIGHER, EQUAL, BLIND, HINDRANCES, HALF,
# WALL, DEPRESSION), with the rule each names
KIND_WORDS = {1: "ground higher than both ends (A6.2)", 2: "obstacle higher than both ends (A6.2)",
              3: "no height advantage (A6.2)", 4: "blind hex (A6.4)",
              5: "six hindrances (A6.1)", 6: "half-level terrain at both ends' level (B24.1)",
              7: "wall/hedge at both ends' level (B9.2)", 8: "depression (A6.3)",
              9: "still in the viewer's building (A6.8 Example 2)"}
_TERRAIN_NAME = {t.code: t.name for t in TERRAINS.values()}
STARSHELL_BLOCKS, VASL_BLOCKS = "Starshell blocks, VASL clear", "VASL blocks, Starshell clear"


# ------------------------------------------------------------------------------- inputs
def read_board(path: str | Path, board_id: str | None = None, metadata: str | None = None):
    """A Starshell board (``.json``) or a VASL board archive of either kind, imported
    (``metadata``: a BoardMetadata.xml for a VASL 5 archive, as ``import-vasl --metadata``)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return load_board(path)
    board, _notes = api.vasl.import_board(path, board_id, metadata=metadata)
    return board


def with_ssr(board, names):
    """The board with VASL's terrain SSRs ``names`` applied as Starshell applies them (rules.md
    11.2), and what became of each name."""
    res = board_with_rules(board, names)
    return res.board, res.outcome


def read_json_gz(path: str | Path):
    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def read_grid(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """The kit's ``PREFIX_grid.bin.gz``: big-endian int W, H, W*H short terrain codes x-major,
    W*H byte elevations.  Returned as (terrain, level) arrays indexed [x, y]."""
    raw = gzip.decompress(Path(path).read_bytes())
    width, height = struct.unpack(">ii", raw[:8])
    n = width * height
    terrain = np.frombuffer(raw, ">i2", n, 8).reshape(width, height)
    level = np.frombuffer(raw, np.int8, n, 8 + 2 * n).reshape(width, height)
    return terrain, level


def build_map(board, joined=()) -> Map:
    """The board on slot (0, 0), and joined boards ``(board, (col, row))`` beside it
    (``(board, (col, row), True)``: turned 180 degrees, as VASL's reversed board)."""
    return Map([Placement(board, (0, 0))] + [Placement(*j) for j in joined])


class Namer:
    """VASL hex keys to map indices: ``A1`` (one board) or ``2A1`` (joined boards)."""

    def __init__(self, game_map: Map):
        self.map = game_map
        self.first = game_map.placements[0].board.id
        self._seen: dict[str, int] = {}

    def __call__(self, key: str) -> int:
        hit = self._seen.get(key)
        if hit is None:
            try:
                hit = self.map.index(key)
            except HexIdError:
                hit = self.map.index(self.first + key)
            self._seen[key] = hit
        return hit


# ---------------------------------------------------------------------- Starshell's answers
class Rows:
    """Starshell's direct answers from a set of (viewer, level) locations to every hex, kept
    as arrays [location, target] (one ``from_location`` row each: the batch API)."""

    def __init__(self, table, locations: list[tuple[int, int]]):
        self.index = {loc: k for k, loc in enumerate(locations)}
        rows = [table.from_location(v, level) for v, level in locations]
        n = table.map.size
        empty = np.zeros((0, n), np.int64)
        self.clear = np.array([r.clear for r in rows]) if rows else empty.astype(bool)
        self.kind = np.array([r.kind for r in rows]) if rows else empty
        self.h1 = np.array([r.block_h1 for r in rows]) if rows else empty
        self.hind = np.array([r.hindrances for r in rows]) if rows else empty
        self.side = (np.array([r.block_side if r.block_side is not None else np.zeros(n, int)
                               for r in rows]) if rows else empty)


def reverse_lines(table, viewers: np.ndarray, targets: np.ndarray, levels: np.ndarray):
    """Lines from the ground location of each viewer to upper locations (target hex, level
    above its ground): one ``LosTable.lines`` call per viewer.  Arrays [viewer, location]; a
    location in the viewer's own hex is left clear (the kit leaves those lines out)."""
    ground = table.ground[:-1]
    shape = (len(viewers), len(targets))
    clear, kind = np.ones(shape, bool), np.zeros(shape, np.int64)
    h1, hind, side = np.full(shape, -1, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    for k, v in enumerate(viewers.tolist()):
        keep = np.flatnonzero(targets != v)
        if not len(keep):
            continue
        r = table.lines(v, int(ground[v]), targets[keep], ground[targets[keep]] + levels[keep])
        clear[k, keep], kind[k, keep], h1[k, keep], hind[k, keep] = r.clear, r.kind, r.block_h1, r.hindrances
        if r.block_side is not None:
            side[k, keep] = r.block_side
    return clear, kind, h1, hind, side


# ------------------------------------------------------------------------------- causes
class Blocks:
    """Words for what blocks a line, on either side."""

    def __init__(self, game_map: Map, reasons: list[str], blocked_at: dict | None,
                 grid: tuple[np.ndarray, np.ndarray] | None, raster):
        self.map, self.reasons, self.blocked_at = game_map, reasons, blocked_at or {}
        self.grid, self.raster = grid, raster
        self.names = {t.code: t.name for t in terrain_table().values()}
        self.misread = self._misread_pixels()

    def _misread_pixels(self) -> np.ndarray | None:
        """Per map hex, how many of its pixels Starshell's raster reads otherwise than VASL's
        grid (``--grid``, one board only): [hex, 0] in level, [hex, 1] in terrain only."""
        if self.grid is None or self.raster is None or len(self.map.placements) != 1:
            return None
        t, lev = self.grid
        ours_t, ours_l = self.raster.terrain, self.raster.level
        if ours_t.shape != t.T.shape:
            return None
        level_bad = ours_l != lev.T
        bad = level_bad | (ours_t != t.T)
        table = los_table(self.map)
        frame = getattr(table, "frame", None)
        if frame is None:
            return None
        hexi = frame.cls_hex[frame.pix_cls].reshape(frame.height, frame.width)[
            :t.shape[1], :t.shape[0]]
        n = self.map.size
        on = hexi >= 0
        return np.stack([np.bincount(hexi[level_bad & on], minlength=n),
                         np.bincount(hexi[bad & ~level_bad & on], minlength=n)], axis=1)

    def starshell(self, kind: int, h1: int, side: int, hind: int) -> tuple[str, str]:
        """(cause, where) of a Starshell block."""
        words = KIND_WORDS.get(int(kind), f"kind {int(kind)}")
        if int(kind) == 5:
            return words, f"{int(hind)} hindrances"
        where = self.map.names[h1] if h1 >= 0 else "off the map"
        if side:
            return f"{words}: {HEXSIDE_BY_CODE[int(side)].name} hexside", where
        if int(kind) == 1:
            return words + self._misread_words(h1), where
        terrain = _TERRAIN_NAME.get(int(self.map.terrain[h1]), "?") if h1 >= 0 else "none"
        return f"{words}: {terrain} hex{self._misread_words(h1)}", where

    def _misread_words(self, h1: int) -> str:
        if self.misread is None or h1 < 0 or not self.misread[h1, 0]:
            return ""
        return " [its pixels' levels read otherwise than VASL's]"

    def misread_words(self, h1: int) -> str:
        """`` (N level, M terrain pixels read otherwise)`` for a hex, or nothing."""
        if self.misread is None or h1 < 0 or not self.misread[h1].any():
            return ""
        lv, tr = (int(v) for v in self.misread[h1])
        return f" ({lv} level, {tr} more terrain pixels read otherwise than VASL's)"

    def vasl(self, src: str, tgt: str, reason: int, hind: int) -> tuple[str, str]:
        """(cause, where) of a VASL block: its reason and the terrain at its blocking point."""
        words = self.reasons[reason] if 0 <= reason < len(self.reasons) else f"reason {reason}"
        at = self.blocked_at.get(src, {}).get(tgt)
        if "(B.10)" in words:
            return words, f"VASL {hind} hindrances"
        if not at:
            return words, "?"
        x, y, hex_name = int(at[0]), int(at[1]), at[2]
        terrain = self._terrain_at(x, y)
        return (f"{words}: {terrain}" if terrain else words), f"{hex_name} ({x},{y})"

    def _ours(self, x: int, y: int) -> tuple[int, int] | None:
        """(terrain code, level) of the imported board's raster at a pixel."""
        if self.raster is None:
            return None
        t = self.raster.terrain
        if not (0 <= y < t.shape[0] and 0 <= x < t.shape[1]):
            return None
        return int(t[y, x]), int(self.raster.level[y, x])

    def _terrain_at(self, x: int, y: int) -> str | None:
        """VASL's terrain at its blocking point (from ``--grid``), and what Starshell's raster
        reads there when that differs (a decoding difference, not a rule's); without the grid,
        Starshell's reading only."""
        ours = self._ours(x, y)
        if self.grid is None:
            return None if ours is None else self._name(ours[0]) + " (Starshell's pixel)"
        t, lev = self.grid
        if not (0 <= x < t.shape[0] and 0 <= y < t.shape[1]):
            return None
        theirs = (int(t[x, y]), int(lev[x, y]))
        text = self._name(theirs[0])
        if ours is not None and ours != theirs:
            text += (f" level {theirs[1]} [Starshell's pixel: {self._name(ours[0])}"
                     f" level {ours[1]}]")
        return text

    def _name(self, code: int) -> str:
        return self.names.get(code, str(code))


def _tally(part: dict, limit: int) -> dict:
    """Group a part's disagreements by (direction, cause), most frequent first."""
    groups: dict = defaultdict(list)
    for d in part.pop("_diffs"):
        groups[(d["direction"], d["cause"])].append(d)
    causes = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    part["causes"] = [{"direction": k[0], "cause": k[1], "count": len(v),
                       "examples": [{x: e[x] for x in ("src", "tgt", "starshell", "vasl")}
                                    for e in v[:limit]]} for k, v in causes]
    part["percent"] = round(100.0 * part["agree"] / part["pairs"], 3) if part["pairs"] else 100.0
    return part


def _judge(lines: list, s_clear, s_kind, s_h1, s_hind, s_side, words: Blocks) -> dict:
    """One part: ``lines`` are (src key, tgt key, VASL answer, viewer key for VASL's
    blocked-at file); the Starshell arrays are aligned with them."""
    vb = np.array([a[0] for _, _, a, _ in lines], bool)
    sb = ~np.asarray(s_clear, bool)
    part = {"pairs": len(lines), "agree": int(np.sum(vb == sb)),
            "vasl_blocked": int(vb.sum()), "starshell_blocked": int(sb.sum()), "_diffs": []}
    for k in np.flatnonzero(vb != sb).tolist():
        src, tgt, ans, vkey = lines[k]
        s_cause, s_where = words.starshell(s_kind[k], int(s_h1[k]), int(s_side[k]), s_hind[k])
        v_cause, v_where = words.vasl(vkey[0], vkey[1], int(ans[1]), int(ans[2]))
        if sb[k]:
            s_where += words.misread_words(int(s_h1[k]))
        s_text = (f"blocked: {s_cause} at {s_where}" if sb[k]
                  else f"clear ({int(s_hind[k])} hindrances)")
        v_text = f"blocked: {v_cause} at {v_where}" if vb[k] else f"clear ({int(ans[2])} hindrances)"
        part["_diffs"].append({"src": src, "tgt": tgt, "starshell": s_text, "vasl": v_text,
                               "direction": STARSHELL_BLOCKS if sb[k] else VASL_BLOCKS,
                               "cause": s_cause if sb[k] else v_cause})
    return part


# ------------------------------------------------------------------------------- parts
def ground_part(game_map: Map, table, answers: dict, words: Blocks, field: bool = True,
                counters: list | None = None):
    """Every ordered ground pair of the answer file: (part, field-vs-direct part or None).
    ``counters``: the kit's counters file read (``vasl_counters``), added to every line and
    the hindrance counts of lines both clear compared too (rules.md 11.4)."""
    name = Namer(game_map)
    lines, src_i, tgt_i = [], [], []
    for src, row in answers["pairs"].items():
        for tgt, ans in row.items():
            lines.append((src, tgt, ans, (src, tgt)))
            src_i.append(name(src))
            tgt_i.append(name(tgt))
    src_i, tgt_i = np.array(src_i, np.int64), np.array(tgt_i, np.int64)
    viewers = sorted(set(src_i.tolist()))
    position = None if counters is None else counters_position(game_map, name, counters)
    if position is not None:        # B24, rules.md 11.4: rubble laid on the map LOS is judged on
        table = los_table(los_map(position))
    rows = Rows(table, [(v, 0) for v in viewers])
    r = np.array([rows.index[(v, 0)] for v in src_i.tolist()], np.int64)
    if position is not None:
        day_clear = rows.clear
        rows.clear, rows.hind = add_counters(table, position, viewers, rows.clear, rows.hind)
        rows.kind = np.where(day_clear & ~rows.clear, HINDRANCES, rows.kind)    # A6.1
    part = _judge(lines, rows.clear[r, tgt_i], rows.kind[r, tgt_i], rows.h1[r, tgt_i],
                  rows.hind[r, tgt_i], rows.side[r, tgt_i], words)
    part["vasl_errors"] = len(answers.get("vasl_errors", []))
    if counters is not None:
        part["hindrances"] = _hindrance_part(lines, rows.clear[r, tgt_i], rows.hind[r, tgt_i])
    if not field or counters is not None:
        return part, None
    prepare_ground(game_map)
    field_clear = np.array([ground_row(game_map, v)[0] for v in viewers])
    fc, dc = field_clear[r, tgt_i], rows.clear[r, tgt_i]
    odd = np.flatnonzero(fc != dc)
    same = {"pairs": len(lines), "agree": int(len(lines) - len(odd)),
            "differ": [{"src": lines[k][0], "tgt": lines[k][1],
                        "field": "clear" if fc[k] else "blocked",
                        "direct": "clear" if dc[k] else "blocked",
                        "vasl": "blocked" if lines[k][2][0] else "clear"} for k in odd.tolist()]}
    return part, same


def _hindrance_part(lines: list, s_clear, s_hind) -> dict:
    """Lines clear on both sides: how many give the same hindrance count (A6.1)."""
    both = [k for k, (_, _, ans, _) in enumerate(lines) if not ans[0] and s_clear[k]]
    differ = [{"src": lines[k][0], "tgt": lines[k][1], "vasl": int(lines[k][2][2]),
               "starshell": int(s_hind[k])} for k in both if int(lines[k][2][2]) != int(s_hind[k])]
    return {"pairs": len(both), "agree": len(both) - len(differ), "examples": differ[:10]}


def _locations(game_map: Map, up: dict) -> tuple[list, dict]:
    """The upper locations of the kit's file as (key, hex index, level), and the keys of those
    Starshell's board has no such level for (``upper_levels`` below it)."""
    name = Namer(game_map)
    locs, missing = [], {}
    for key in sorted(up.get("locations", {}) or set(up["pairs"]) | {
            k for row in up.get("reverse", {}).values() for k in row}):
        hex_key, level = key.rsplit("@", 1)
        i, level = name(hex_key), int(level)
        locs.append((key, i, level))
        if level > int(game_map.upper_levels[i]):
            missing[key] = int(game_map.upper_levels[i])
    return locs, missing


def upper_parts(game_map: Map, table, up: dict, words: dict) -> dict:
    """Upper building levels to ground centres (``pairs``) and back (``reverse``); ``words``
    holds a ``Blocks`` for each of the two."""
    name = Namer(game_map)
    locs, missing = _locations(game_map, up)
    at = {key: (i, level) for key, i, level in locs}
    rows = Rows(table, [(i, level) for _, i, level in locs])
    lines, r, t = [], [], []
    for key, row in up.get("pairs", {}).items():
        for tgt, ans in row.items():
            lines.append((key, tgt, ans, (key, tgt)))
            r.append(rows.index[at[key]])
            t.append(name(tgt))
    r, t = np.array(r, np.int64), np.array(t, np.int64)
    out = {"locations": len(locs), "locations_starshell_lacks": missing}
    if lines:
        out["upper_to_ground"] = _judge(lines, rows.clear[r, t], rows.kind[r, t], rows.h1[r, t],
                                        rows.hind[r, t], rows.side[r, t], words["pairs"])
    back = [(src, key, ans) for src, row in up.get("reverse", {}).items() for key, ans in row.items()]
    if back:
        viewers = np.array(sorted({name(s) for s, _, _ in back}), np.int64)
        targets = np.array([i for _, i, _ in locs], np.int64)
        levels = np.array([lv for _, _, lv in locs], np.int64)
        arrays = reverse_lines(table, viewers, targets, levels)
        vi = {v: k for k, v in enumerate(viewers.tolist())}
        li = {key: k for k, (key, _, _) in enumerate(locs)}
        a = np.array([vi[name(s)] for s, _, _ in back], np.int64)
        b = np.array([li[key] for _, key, _ in back], np.int64)
        out["ground_to_upper"] = _judge([(s, k, ans, (s, k)) for s, k, ans in back],
                                        *(x[a, b] for x in arrays), words["reverse"])
    return out


# ------------------------------------------------------------------------------- the whole
def compare(board, answers: dict, up: dict | None = None, blocked_at: dict | None = None,
            grid=None, joined=(), limit: int = 5, field: bool = True,
            up_blocked_at: dict | None = None, counters: list | None = None) -> dict:
    """Starshell's answers on ``board`` (and ``joined`` boards) against the kit's answer files
    (already read): the report as a dict (see the module doc).  ``up_blocked_at``: the kit's
    ``PREFIX_up_blocked_at.json.gz`` (``{"pairs": ..., "reverse": ...}``)."""
    game_map = build_map(board, joined)
    table = los_table(game_map)
    raster = board_raster(board) if not joined else None
    words = Blocks(game_map, answers.get("reasons", []), blocked_at, grid, raster)
    ground, same = ground_part(game_map, table, answers, words, field, counters)
    report = {"board": answers.get("board", board.id), "hexes": game_map.size,
              "los": type(table).__name__, "ground": _tally(ground, limit)}
    if same is not None:
        report["field_vs_direct"] = same
    if up is not None:
        at = up_blocked_at or {}
        up_words = {key: Blocks(game_map, up.get("reasons", []), at.get(key), grid, raster)
                    for key in ("pairs", "reverse")}
        parts = upper_parts(game_map, table, up, up_words)
        for key in ("upper_to_ground", "ground_to_upper"):
            if key in parts:
                parts[key] = _tally(parts[key], limit)
        report["upper"] = parts
    return report


def _print_part(title: str, part: dict, out) -> None:
    print(f"{title}: {part['percent']:.3f} % agree ({part['agree']:,} of {part['pairs']:,}; "
          f"VASL blocks {part['vasl_blocked']:,}, Starshell blocks {part['starshell_blocked']:,})",
          file=out)
    for c in part["causes"]:
        print(f"  {c['count']:6d}  {c['direction']}: {c['cause']}", file=out)
        for e in c["examples"]:
            print(f"          {e['src']} -> {e['tgt']}: Starshell {e['starshell']}; "
                  f"VASL {e['vasl']}", file=out)


def print_report(report: dict, out=None) -> None:
    out = out or sys.stdout
    print(f"board {report['board']}: {report['hexes']} hexes, LOS by {report['los']}", file=out)
    if report.get("ssr"):
        print("SSRs " + "; ".join(f"{k.replace('_', ' ')}: {', '.join(v)}"
                                  for k, v in report["ssr"].items() if v), file=out)
    _print_part("ground pairs", report["ground"], out)
    hind = report["ground"].get("hindrances")
    if hind is not None:
        print(f"hindrance counts of lines clear on both sides: {hind['agree']:,} of "
              f"{hind['pairs']:,} agree", file=out)
        for d in hind["examples"][:10]:
            print(f"          {d['src']} -> {d['tgt']}: Starshell {d['starshell']}, VASL "
                  f"{d['vasl']}", file=out)
    if report["ground"].get("vasl_errors"):
        print(f"  ({report['ground']['vasl_errors']} pairs left out: VASL threw)", file=out)
    same = report.get("field_vs_direct")
    if same is not None:
        print(f"prepared field vs direct rows: {same['agree']:,} of {same['pairs']:,} agree",
              file=out)
        for d in same["differ"][:20]:
            print(f"          {d['src']} -> {d['tgt']}: field {d['field']}, direct {d['direct']}, "
                  f"VASL {d['vasl']}", file=out)
    up = report.get("upper")
    if up is not None:
        lacks = up["locations_starshell_lacks"]
        print(f"upper locations: {up['locations']} (Starshell lacks {len(lacks)}"
              + (": " + ", ".join(f"{k} (has {v})" for k, v in list(lacks.items())[:12])
                 if lacks else "") + ")", file=out)
        for key, title in (("upper_to_ground", "upper -> ground"),
                           ("ground_to_upper", "ground -> upper")):
            if key in up:
                _print_part(title, up[key], out)


def _slot(spec: str):
    path, _, at = spec.rpartition("@")
    parts = at.split(",")
    if not path or len(parts) not in (2, 3) or parts[2:] not in ([], ["r"]):
        raise argparse.ArgumentTypeError(f"{spec!r}: give PATH@COL,ROW or PATH@COL,ROW,r")
    return path, (int(parts[0]), int(parts[1])), parts[2:] == ["r"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("board", help="VASL board archive (either kind) or Starshell board .json")
    p.add_argument("answers", help="the kit's ground answer file (BOARD_vasl_los.json.gz)")
    p.add_argument("--up", help="the kit's upper-level answer file (BOARD_vasl_los_up.json.gz)")
    p.add_argument("--blocked-at", help="VASL's blocking points (default: beside ANSWERS)")
    p.add_argument("--up-blocked-at", help="the kit's PREFIX_up_blocked_at.json.gz")
    p.add_argument("--grid", help="the kit's PREFIX_grid.bin.gz: VASL's terrain per pixel")
    p.add_argument("--join", action="append", type=_slot, default=[],
                   metavar="PATH@COL,ROW[,r]",
                   help="another board on that slot (BOARD: 0,0); ',r': turned 180 degrees")
    p.add_argument("--id", help="board id (default: from the file name)")
    p.add_argument("--metadata", help="BoardMetadata.xml for a VASL 5 BOARD (building types, "
                   "hasHills), as VASL's own image pipeline reads it")
    p.add_argument("--limit", type=int, default=3, help="examples per cause")
    p.add_argument("--no-field", action="store_true", help="skip the prepared-field check")
    p.add_argument("--ssr", nargs="+", default=[], metavar="NAME",
                   help="VASL terrain SSRs applied to every board first, in order (rules.md 11.2)")
    p.add_argument("--counters", help="the kit's counters file (HEX kind NAME [extra]): "
                   "smoke, vehicles, wrecks, FFE on the map (rules.md 11.4)")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    a = p.parse_args(argv)
    board, outcome = with_ssr(read_board(a.board, a.id, a.metadata), a.ssr)
    joined = [(with_ssr(read_board(path), a.ssr)[0], at, turned) for path, at, turned in a.join]
    answers = read_json_gz(a.answers)
    blocked_at = a.blocked_at
    if blocked_at is None:
        guess = Path(a.answers).with_name(Path(a.answers).name.replace("_los.", "_blocked_at."))
        blocked_at = guess if guess.name != Path(a.answers).name and guess.exists() else None
    report = compare(board, answers,
                     read_json_gz(a.up) if a.up else None,
                     read_json_gz(blocked_at) if blocked_at else None,
                     read_grid(a.grid) if a.grid else None,
                     joined, a.limit, not a.no_field,
                     read_json_gz(a.up_blocked_at) if a.up_blocked_at else None,
                     read_counters(a.counters) if a.counters else None)
    if a.ssr:
        report["ssr"] = outcome.as_dict()
    if a.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
